"""Database clients' scripts: the shell escapes of sqlite3, psql and mysql.

* ``sqlite3 DB SQL...`` / ``-init FILE`` / stdin: dot-commands ``.shell``/``.system CMD``,
  ``.read FILE`` (``.read '|CMD'`` runs CMD), ``.output|.once '|CMD'``, ``.import '|CMD' T``
  and ``.load LIB`` (native code); ``-safe`` turns all of them off.
* ``psql -f FILE`` / stdin: ``\\! CMD``, ``\\i FILE``, ``\\o |CMD``, ``\\g |CMD``,
  ``\\copy ... program 'CMD'`` and ``COPY ... PROGRAM 'CMD'``.
* ``mysql``/``mariadb`` < FILE: ``system CMD``/``\\! CMD``, ``source FILE``/``\\. FILE``,
  ``pager CMD``/``\\P CMD``.

Known text is classified (shell escapes as shell code); a script written with fetched data,
or fetched data on stdin, is run code and blocks like ``| sh``. Decompressed backups piped
into a client (``zcat dump.sql.gz | psql``) stay quiet: restoring a local dump is everyday
work. ``.load LIB`` and ``load_extension()`` run a library's native code: a fetched library
blocks, any other warns. Lines are read in one pass, bounded in count; included files are
followed to a fixed depth.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._loadfiles import (
    option_values,
    script_file,
    script_lines,
    shell_escape,
    stdin_script,
    tainted_code,
)
from ._words import Field, first_source

if TYPE_CHECKING:
    from ._flow import Flow
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["SQL_CLIENTS", "sql_client"]

SQL_CLIENTS = frozenset({"sqlite3", "psql", "mysql", "mariadb"})
_MAX_DEPTH = 4


def sql_client(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """The scripts ``inv`` (a name in SQL_CLIENTS) runs from operands, options or stdin."""
    if inv.name == "sqlite3":
        _sqlite(run, inv, stdin)
    elif inv.name == "psql":
        _psql(run, inv, stdin)
    else:
        _mysql(run, inv, stdin)


def _native(run: Run, inv: Invocation, lib: str, where: Field) -> None:
    """``.load LIB`` / ``load_extension('LIB')``: LIB's native code runs in the client."""
    lib = lib.strip().strip("'\"")
    if not lib:
        return
    text = script_file(run, inv, Field(lib, where.span, where.taint), None, exact=True)
    if text is None:
        run.add("shell.dynamic-code", where.span, f"{inv.name} loads the native extension "
                f"{lib} (its code runs in the client)", None)


def _sqlite(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args
    operands: list[Field] = []
    inits: list[Field] = []
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        opt = "-" + t.lstrip("-") if t.startswith("-") else ""
        if opt == "-safe":
            return  # .shell, .system, .load, .read |cmd are refused
        if opt == "-init" and i + 1 < len(args):
            inits.append(args[i + 1])
        if opt in ("-pagecache", "-lookaside"):
            i += 3
        elif opt in _SQLITE_VALUE:
            i += 2
        elif opt == "-A" or opt.startswith("-A"):
            return  # archive mode: its operands are file names
        else:
            if not opt:
                operands.append(f)
            i += 1
    for f in inits:
        text = script_file(run, inv, f, stdin, exact=True)
        if text is not None:
            _sql_lines(run, inv, text, "sqlite3", 1)
    if len(operands) > 1:
        for f in operands[1:]:
            _sql_lines(run, inv, f, "sqlite3", 0)
        return
    text = stdin_script(run, inv, stdin, sql=True)
    if text is not None:
        _sql_lines(run, inv, text, "sqlite3", 1)


_SQLITE_VALUE = frozenset({"-cmd", "-init", "-separator", "-newline", "-nullvalue", "-vfs",
                           "-maxsize", "-mmap", "-heap", "-escape", "-limit"})


def _psql(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args
    given = False
    for f in option_values(args, frozenset({"-f", "--file"})):
        given = True
        text = script_file(run, inv, f, stdin, exact=True)
        if text is not None:
            _sql_lines(run, inv, text, "psql", 1)
    for f in option_values(args, frozenset({"-c", "--command"})):
        given = True
        _sql_lines(run, inv, f, "psql", 0)
    if not given:
        text = stdin_script(run, inv, stdin, sql=True)
        if text is not None:
            _sql_lines(run, inv, text, "psql", 1)


def _mysql(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args
    given = option_values(args, frozenset({"-e", "--execute"}))
    for f in given:
        _sql_lines(run, inv, f, "mysql", 0)
    if not given:
        text = stdin_script(run, inv, stdin, sql=True)
        if text is not None:
            _sql_lines(run, inv, text, "mysql", 1)


def _sql_lines(run: Run, inv: Invocation, field: Field, dialect: str, depth: int) -> None:
    """Client commands of ``dialect`` in a script: shell escapes, pipes, included files."""
    if depth == 0:
        tainted_code(run, inv, field)  # sqlite3 db "$(curl u)", psql -c "$x"
    lines = script_lines(field) if dialect != "mysql" else \
        [p for line in script_lines(field) for p in line.split(";")]
    for line in lines:
        cmd = line.strip()
        low = cmd.lower()
        if depth == 0 and dialect != "sqlite3" and low.startswith(("\\!", "system ")):
            continue  # psql -c '\! CMD', mysql -e 'system CMD': _embedded runs these
        if dialect == "sqlite3":
            _sqlite_line(run, inv, cmd, field, depth)
        elif dialect == "psql":
            _psql_line(run, inv, cmd, field, depth)
        else:
            _mysql_line(run, inv, cmd, field, depth)
        if "load_extension(" in low:
            k = low.index("load_extension(") + len("load_extension(")
            _native(run, inv, cmd[k:].split(")", 1)[0].split(",", 1)[0], field)
        if " program " in low and ("copy " in low or "\\copy" in low):
            # COPY t FROM PROGRAM 'cmd' (server side) / \copy ... program 'cmd' (client)
            quoted = cmd[low.index(" program ") + 9:].strip()
            if quoted[:1] in ("'", '"'):
                shell_escape(run, inv, quoted[1:].split(quoted[0], 1)[0], field)


def _include(run: Run, inv: Invocation, name: str, field: Field, dialect: str,
             depth: int) -> None:
    name = name.strip().strip("'\"")
    if name and depth < _MAX_DEPTH:
        text = script_file(run, inv, Field(name, field.span, field.taint), None, exact=True)
        if text is not None and charge_include(run, text, field.span):
            _sql_lines(run, inv, text, dialect, depth + 1)


def charge_include(run: Run, text: Field, span: tuple[int, int]) -> bool:
    """Charge an included file's text to the work budget (a file that includes itself on
    every line would otherwise be read a number of times exponential in the depth)."""
    run.budget -= len(text.text) + 32
    if run.budget >= 0:
        return True
    run.add("shell.nesting-too-deep", span, "more included scripts than the classifier "
            "follows", None)
    return False


def _first_arg(text: str) -> str:
    """The first argument of a dot-command (quoted with spaces, or up to a space)."""
    text = text.strip()
    if text[:1] in ("'", '"'):
        end = text.find(text[0], 1)
        return text if end < 0 else text[:end + 1]
    return text.split(None, 1)[0] if text else ""


def _pipe_target(arg: str) -> str | None:
    arg = arg.strip()
    if arg[:1] in ("'", '"') and arg.endswith(arg[0]) and len(arg) > 1:
        arg = arg[1:-1]
    return arg[1:] if arg.startswith("|") else None


def _sqlite_line(run: Run, inv: Invocation, cmd: str, field: Field, depth: int) -> None:
    if not cmd.startswith("."):
        return
    head, _, rest = cmd.partition(" ")
    if head in (".shell", ".system"):
        shell_escape(run, inv, rest, field)
    elif head in (".read", ".output", ".once", ".import", ".log"):
        target = rest.strip()
        while target.startswith("-"):  # .once -x, .output --bom, .import --csv FILE T
            target = target.split(None, 1)[1] if len(target.split(None, 1)) > 1 else ""
        # '|CMD' quoted, or |CMD ARGS unquoted (sqlite joins the remaining arguments).
        piped = target[1:] if target.startswith("|") and head != ".import" else \
            _pipe_target(_first_arg(target))
        if piped is not None and head == ".read":
            _read_output(run, inv, piped, field)
        elif piped is not None:
            shell_escape(run, inv, piped, field)
        elif head == ".read":
            _include(run, inv, _first_arg(rest), field, "sqlite3", depth)
    elif head == ".load":
        _native(run, inv, _first_arg(rest), field)


def _read_output(run: Run, inv: Invocation, cmd: str, field: Field) -> None:
    """``.read '|CMD'``: CMD runs and its output is read as more commands."""
    out = run.run_code(Field(cmd.strip(), field.span, field.taint),
                       f"{inv.name} shell escape", inv.word.span, None, positional=[])
    src = first_source(out.taint) if out is not None else None
    if src is not None:
        run.add("shell.tainted-exec", field.span, f"{inv.name} runs the output of a command "
                "as its script", f"{src.describe()} reaches {run._desc(inv.name, inv.word.span)}")


def _psql_line(run: Run, inv: Invocation, cmd: str, field: Field, depth: int) -> None:
    if not cmd.startswith("\\"):
        return
    head, _, rest = cmd.partition(" ")
    if "`" in rest:  # \set x `CMD`: backquoted text in a meta-command runs in a shell
        for piece in rest.split("`")[1:-1:2]:
            shell_escape(run, inv, piece, field)
    if head == "\\!":
        shell_escape(run, inv, rest, field)
    elif head.startswith("\\!"):
        shell_escape(run, inv, cmd[2:], field)
    elif head in ("\\i", "\\include", "\\ir", "\\include_relative"):
        _include(run, inv, rest, field, "psql", depth)
    elif head in ("\\o", "\\out", "\\g", "\\gx", "\\w", "\\write"):
        piped = _pipe_target(rest)
        if piped is not None:
            shell_escape(run, inv, piped, field)


def _mysql_line(run: Run, inv: Invocation, cmd: str, field: Field, depth: int) -> None:
    head, _, rest = cmd.partition(" ")
    low = head.lower()
    if low in ("system", "\\!"):
        shell_escape(run, inv, rest, field)
    elif head.startswith("\\!"):
        shell_escape(run, inv, cmd[2:], field)
    elif low == "pager" or head == "\\P":
        shell_escape(run, inv, rest, field)  # output is piped through the pager command
    elif low in ("source", "\\."):
        _include(run, inv, rest, field, "mysql", depth)

