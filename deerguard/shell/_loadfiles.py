"""Script files and stdin scripts that debuggers, editors and shells run.

Each tool below reads a command language of its own, from a file named by an option or from
stdin, and some of those commands run shell code:

* ``gdb -x FILE`` / ``-ix FILE`` / ``--command=FILE`` and ``-ex 'source FILE'`` read gdb
  commands (``shell CMD``, ``!CMD``, ``pipe CMD | SHELL``, ``python CODE``); without
  ``-batch`` gdb also reads commands from stdin.
* ``lldb -s FILE`` / ``-S FILE`` / ``-K FILE`` read lldb commands (``platform shell CMD``,
  ``shell CMD``, ``script CODE``, ``command source FILE``); ``-o``/``-O`` give one each;
  without ``-b`` lldb reads stdin.
* ``ed``, ``ex`` and ``vim -e``/``-es`` read editor commands (``!cmd``) on stdin.
* ``vim -S FILE`` / ``-u FILE`` / ``-U FILE`` source Ex commands, ``-s FILE`` types keys
  (``:!cmd``), ``-c 'so FILE'`` sources, ``:luafile``/``:py3file``/``:rubyfile`` and
  ``nvim -l FILE`` run Lua, Python or Ruby files.
* ``bash --rcfile FILE`` / ``--init-file FILE``: FILE runs when the shell is interactive
  (``-i``, or no ``-c`` and no script operand).

Known text is classified (shell escapes as shell code, gdb/lldb ``python``/``script`` as
Python); a file written with fetched data, or fetched data on stdin, is run code: it blocks
like ``| sh`` (the helpers here are shared with ``_sqlclients`` and ``_morelangs``). Lines
are read in one pass, bounded in count; nested ``source`` is followed to a fixed depth.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._scripts import _editor_commands, script_text
from ._sinks import interp_code, script_sink
from ._words import DYN, Field, first_source

if TYPE_CHECKING:
    from ._flow import Flow
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["LOADING_TOOLS", "VIMS", "load_tool", "option_values", "python_code", "rc_files",
           "script_file",
           "script_lines", "shell_escape", "stdin_script", "tainted_code"]

VIMS = frozenset({"vi", "vim", "nvim", "view", "ex", "vim.basic", "vim.tiny", "gvim", "vimdiff",
                  "rvim", "evim"})
LOADING_TOOLS = frozenset({"gdb", "lldb", "ed"}) | VIMS
"""Programs whose script-file options or stdin this module reads (a set lookup gates it)."""

_MAX_LINES = 512
_MAX_DEPTH = 4
# Decompressors: a dump restored from a local backup (zcat x.sql.gz | psql) is everyday.
_DECOMPRESSORS = frozenset({"gunzip", "zcat", "bunzip2", "bzcat", "xz", "unxz", "xzcat",
                            "zstd", "zstdcat", "unzstd", "gzip", "lz4", "lz4cat", "pigz"})
_CODE_KINDS = frozenset({"fetch", "decode", "exec", "file"})


def load_tool(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """The scripts ``inv`` (a name in LOADING_TOOLS) loads through options or stdin."""
    name = inv.name
    if name == "gdb":
        _gdb(run, inv, stdin)
    elif name == "lldb":
        _lldb(run, inv, stdin)
    else:
        # ed, ex and vim -e/-es read editor commands on stdin (!cmd runs a shell): fetched
        # commands are run code (known text: _scripts reads it).
        if stdin is not None and stdin.taint and (name in ("ed", "ex") or any(
                f.text in ("-e", "-E", "-es", "-Es", "-se") for f in inv.args)):
            stdin_script(run, inv, stdin, sql=False)
        if name != "ed":
            _vim(run, inv, stdin)


# --- shared -------------------------------------------------------------------------------

def shell_escape(run: Run, inv: Invocation, text: str, where: Field) -> None:
    text = text.strip()
    if text:
        run.run_code(Field(text, where.span, where.taint), f"{inv.name} shell escape",
                     inv.word.span, None, positional=[])


def python_code(run: Run, inv: Invocation, text: str, where: Field) -> None:
    if text.strip():
        interp_code(run, Field(text, where.span, where.taint), "python", inv)


def script_file(run: Run, inv: Invocation, f: Field, stdin: Flow | None, *, exact: bool = False
          ) -> Field | None:
    """The text of a script file ``f`` names (stdin paths read stdin); a file written with
    fetched data is reported as run. A path not known statically: None."""
    if f.proc:
        script_sink(run, f, inv, None, shell=True)  # <(curl u): tainted, or its known output
        return None
    if not f.static:
        src = first_source(f.taint)
        if src is not None:
            run.add("shell.tainted-exec", f.span, f"{inv.name} runs a script whose path is "
                    "fetched or decoded data", f"{src.describe()} reaches {inv.name}")
        return None
    return script_text(run, inv, f, stdin, exact=exact)


def stdin_script(run: Run, inv: Invocation, stdin: Flow | None, *, sql: bool
                  ) -> Field | None:
    """Commands ``inv`` reads on stdin: fetched or decoded data blocks like ``| sh`` (a
    database client's dump from a decompressor aside); known text is returned."""
    if stdin is None:
        return None
    kinds = frozenset(s for s in stdin.taint if s.kind in _CODE_KINDS and not (
        sql and s.kind == "decode" and s.program in _DECOMPRESSORS))
    src = first_source(kinds)
    if src is not None:
        owner = run._desc(inv.name, inv.word.span)
        what = f"{inv.name} runs the commands it reads (its shell escapes run programs)"
        if stdin.via in ("pipe", "process substitution"):
            run.add("shell.pipe-to-shell", inv.word.span, f"pipes fetched data into {what}",
                    f"{src.describe()} reaches {owner} through a {stdin.via}")
        elif stdin.via == "file":
            run.add("shell.download-exec", inv.word.span, f"{inv.name} runs a file written "
                    "with fetched data", f"{src.describe()} reaches {owner} through a "
                    "redirection")
        else:
            run.add("shell.tainted-exec", stdin.span, f"fetched or decoded data runs as "
                    f"{inv.name} commands", f"{src.describe()} reaches {owner}")
    if stdin.text is None or DYN in stdin.text:
        return None
    return Field(stdin.text, stdin.span, stdin.taint)


def tainted_code(run: Run, inv: Invocation, f: Field) -> None:
    """A command string ``inv`` runs (``-ex``, ``-o``, ``-c``, an SQL operand) holding
    fetched or decoded data: the data runs as code."""
    src = first_source(f.taint)
    if src is not None:
        run.add("shell.tainted-exec", f.span, f"fetched or decoded data runs as {inv.name} "
                "commands", f"{src.describe()} reaches {run._desc(inv.name, inv.word.span)}")


def script_lines(field: Field) -> list[str]:
    return field.text.splitlines()[:_MAX_LINES]


def option_values(args: list[Field], names: frozenset[str], *, stop: str = ""
                   ) -> list[Field]:
    """Values of ``names`` options, as ``-x VALUE`` or ``--x=VALUE``, up to ``stop``."""
    out: list[Field] = []
    for index, f in enumerate(args):
        t = f.text
        if stop and t == stop:
            break
        if t in names and index + 1 < len(args):
            out.append(args[index + 1])
        elif "=" in t and t.split("=", 1)[0] in names:
            out.append(Field(t.split("=", 1)[1], f.span, f.taint))
    return out


# --- gdb ----------------------------------------------------------------------------------

_GDB_FILES = frozenset({"-x", "--x", "-command", "--command", "-ix", "--ix", "-init-command",
                        "--init-command"})
_GDB_CMDS = frozenset({"-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex",
                       "-init-eval-command", "--init-eval-command"})


def _gdb(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args_until("--args")
    for f in option_values(args, _GDB_FILES):
        text = script_file(run, inv, f, stdin)
        if text is not None:
            _gdb_lines(run, inv, text, stdin, 1)
    for f in option_values(args, _GDB_CMDS):
        tainted_code(run, inv, f)
        words = f.text.split(None, 1)
        if len(words) == 2 and words[0] in ("source", "so"):
            _gdb_lines(run, inv, f, stdin, 0)  # (shell/!/python: _embedded and _tools)
    if not any(f.text in ("-batch", "--batch", "-p", "--pid") for f in args):
        text = stdin_script(run, inv, stdin, sql=False)  # gdb reads commands on stdin
        if text is not None:
            _gdb_lines(run, inv, text, None, 1)


class _PyBlocks:
    """The multi-line Python blocks of a debugger script (gdb ``python`` ... ``end``, lldb
    ``script`` ... ``quit()``): each is classified as Python code when it closes (or at the
    script's end)."""

    __slots__ = ("run", "inv", "field", "ends", "lines")

    def __init__(self, run: Run, inv: Invocation, field: Field, ends: tuple[str, ...]) -> None:
        self.run, self.inv, self.field, self.ends = run, inv, field, ends
        self.lines: list[str] | None = None

    def open(self) -> None:
        self.lines = []

    def take(self, line: str, cmd: str) -> bool:
        """Whether ``line`` belongs to an open block (its end line included)."""
        if self.lines is None:
            return False
        if cmd in self.ends:
            self.close()
        else:
            self.lines.append(line)
        return True

    def close(self) -> None:
        if self.lines:
            python_code(self.run, self.inv, "\n".join(self.lines), self.field)
        self.lines = None


def _gdb_lines(run: Run, inv: Invocation, field: Field, stdin: Flow | None, depth: int
               ) -> None:
    blocks = _PyBlocks(run, inv, field, ("end",))
    for line in script_lines(field):
        cmd = line.strip()
        if blocks.take(line, cmd):
            continue
        head, _, rest = cmd.partition(" ")
        if cmd.startswith("!"):
            shell_escape(run, inv, cmd[1:], field)
        elif head in ("shell", "she"):
            shell_escape(run, inv, rest, field)
        elif head in ("pipe", "|") or cmd.startswith("|"):
            body = cmd[1:] if cmd.startswith("|") else rest
            shell_escape(run, inv, body.split("|", 1)[1] if "|" in body else "", field)
        elif head in ("python", "py", "pi", "python-interactive"):
            if rest.strip():
                python_code(run, inv, rest, field)
            else:
                blocks.open()  # python ... end
        elif head in ("source", "so") and rest and depth < _MAX_DEPTH:
            text = script_file(run, inv, Field(rest.split()[-1], field.span, field.taint), stdin)
            if text is not None:
                _gdb_lines(run, inv, text, None, depth + 1)
    blocks.close()


# --- lldb ---------------------------------------------------------------------------------

_LLDB_FILES = frozenset({"-s", "--source", "-S", "--source-before-file", "-K",
                         "--source-on-crash"})
_LLDB_CMDS = frozenset({"-o", "--one-line", "-O", "--one-line-before-file", "-k",
                        "--one-line-on-crash"})


def _lldb(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args_until("--")
    for f in option_values(args, _LLDB_FILES):
        text = script_file(run, inv, f, stdin)
        if text is not None:
            _lldb_lines(run, inv, text, stdin, 1)
    for f in option_values(args, _LLDB_CMDS):
        tainted_code(run, inv, f)
        _lldb_lines(run, inv, f, stdin, 0)
    if not any(f.text in ("-b", "--batch") for f in args):
        text = stdin_script(run, inv, stdin, sql=False)
        if text is not None:
            _lldb_lines(run, inv, text, None, 1)


def _lldb_lines(run: Run, inv: Invocation, field: Field, stdin: Flow | None, depth: int
                ) -> None:
    blocks = _PyBlocks(run, inv, field, ("quit", "quit()", "exit()", "DONE"))
    for line in script_lines(field):
        cmd = line.strip()
        if blocks.take(line, cmd):
            continue
        words = cmd.split()
        if not words:
            continue
        if words[:2] == ["platform", "shell"] or words[0] in ("shell", "_regexp-shell"):
            rest = words[2:] if words[0] == "platform" else words[1:]
            while rest and rest[0].startswith("-") and rest[0] != "--":
                rest = rest[2:] if rest[0] in ("-s", "--shell", "-t", "--timeout") else \
                    rest[1:]  # platform shell -h -t 5 -s /bin/sh -- CMD
            shell_escape(run, inv, " ".join(rest[1:] if rest[:1] == ["--"] else rest), field)
        elif words[0] in ("script", "scr"):
            code = cmd.split(None, 1)[1] if len(words) > 1 else ""
            if code.startswith("-"):
                code = code.split(None, 2)[2] if len(code.split(None, 2)) > 2 else ""
            if code.strip():
                python_code(run, inv, code, field)
            else:
                blocks.open()  # script ... quit()
        elif words[:2] == ["command", "source"] and len(words) > 2 and depth < _MAX_DEPTH:
            text = script_file(run, inv, Field(words[-1], field.span, field.taint), stdin)
            if text is not None:
                _lldb_lines(run, inv, text, None, depth + 1)
        elif words[:3] == ["command", "script", "import"] and len(words) > 3:
            text = script_file(run, inv, Field(words[-1], field.span, field.taint), stdin)
            if text is not None:
                python_code(run, inv, text.text, field)
    blocks.close()


# --- vim ----------------------------------------------------------------------------------

# :so[urce] FILE (any abbreviation from "so") runs Ex commands; :luafile, :py3file, :pyfile
# and :rubyfile run a file of that language.
_VIM_FILE_CMDS = {"so": "vim", "sou": "vim", "sour": "vim", "sourc": "vim", "source": "vim",
                  "luafile": "lua", "luaf": "lua", "pyfile": "python", "pyf": "python",
                  "py3file": "python", "py3f": "python", "pythonfile": "python",
                  "python3file": "python", "pyxfile": "python", "rubyfile": "ruby",
                  "rubyf": "ruby"}


def _vim(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args
    # In Ex mode (ex, vim -e/-es) -s means silent and takes no file.
    files = ("-S", "-u", "-U") if inv.name == "ex" or any(
        f.text in ("-e", "-E", "-es", "-Es", "-se") for f in args) else ("-S", "-u", "-U", "-s")
    sourced: list[tuple[Field, str]] = []
    for index, f in enumerate(args):
        t = f.text
        nxt = args[index + 1] if index + 1 < len(args) else None
        if t in files and nxt is not None and not nxt.text.startswith("-") and \
                nxt.text not in ("NONE", "NORC", "DEFAULTS", "NOPLUGIN"):
            sourced.append((nxt, "vim"))
        elif t == "-l" and inv.name == "nvim" and nxt is not None:
            sourced.append((nxt, "lua"))  # nvim -l SCRIPT ARGS: a Lua script
            break
        elif t in ("-c", "--cmd") and nxt is not None:
            tainted_code(run, inv, nxt)
            sourced.extend(_vim_sourced(nxt))
        elif t.startswith("+") and len(t) > 1:
            sourced.extend(_vim_sourced(Field(t[1:], f.span, f.taint)))
    for f, language in sourced[:16]:
        text = script_file(run, inv, f, stdin)
        if text is not None:
            _vim_file(run, inv, text, language, stdin, 1)


def _vim_sourced(f: Field) -> list[tuple[Field, str]]:
    """Files an Ex command line runs: ``so FILE``, ``:so! FILE``, ``luafile FILE``."""
    out: list[tuple[Field, str]] = []
    for piece in f.text.split("|")[:16]:
        words = piece.strip().lstrip(":").split()
        if len(words) == 2 and words[0].rstrip("!") in _VIM_FILE_CMDS:
            out.append((Field(words[1], f.span, f.taint), _VIM_FILE_CMDS[words[0].rstrip("!")]))
    return out


def _vim_file(run: Run, inv: Invocation, text: Field, language: str, stdin: Flow | None,
              depth: int) -> None:
    if language != "vim":
        interp_code(run, text, language, inv)
        return
    lines = [Field(line, text.span, text.taint) for line in script_lines(text)]
    _editor_commands(run, inv, lines)
    if depth < _MAX_DEPTH:
        for line in lines:
            for f, inner_language in _vim_sourced(line):
                inner = script_file(run, inv, f, stdin)
                if inner is not None:
                    _vim_file(run, inv, inner, inner_language, stdin, depth + 1)


# --- bash --rcfile ------------------------------------------------------------------------

def rc_files(run: Run, inv: Invocation) -> None:
    """``bash --rcfile FILE -i`` / ``--init-file FILE``: an interactive shell runs FILE
    first (with ``-c`` or a script operand and no ``-i`` the shell is not interactive).
    Also ``fish -C CMD`` (``--init-command``) and zsh's startup files under ``$ZDOTDIR``."""
    args = inv.args
    if inv.name == "fish":
        _fish_init(run, inv)
    elif inv.name == "zsh" and (run.files or run.file_text):
        _zdotdir(run, inv)
    rc: Field | None = None
    interactive = False
    operands = False
    i = 0
    while i < len(args) and i < 64:
        f = args[i]
        t = f.text
        if t in ("--rcfile", "--init-file"):
            rc = args[i + 1] if i + 1 < len(args) else None
            i += 2
            continue
        if t in ("-o", "+o", "-O", "+O"):
            i += 2
            continue
        if t == "--":
            operands = i + 1 < len(args)
            break
        if not f.static or not t.startswith(("-", "+")) or len(t) < 2:
            operands = True  # a script operand: not interactive
            break
        if t[0] == "-" and t[1] != "-":
            interactive = interactive or "i" in t
            operands = operands or "c" in t  # -c: a command string, not interactive
        i += 1
    if rc is None or (operands and not interactive):
        return
    script_sink(run, rc, inv, None, shell=True)


def _fish_init(run: Run, inv: Invocation) -> None:
    """``fish -C CMD`` / ``--init-command=CMD``: CMD runs before anything else."""
    args = inv.args
    for index, f in enumerate(args[:64]):
        t = f.text
        code: Field | None = None
        if t in ("-C", "--init-command") and index + 1 < len(args):
            code = args[index + 1]
        elif t.startswith("--init-command="):
            code = Field(t.partition("=")[2], f.span, f.taint)
        elif t.startswith("-C") and len(t) > 2:
            code = Field(t[2:], f.span, f.taint)
        elif not t.startswith("-"):
            break
        if code is not None:
            run.run_code(code, inv.name, inv.word.span, None, positional=[])


def _zdotdir(run: Run, inv: Invocation) -> None:
    """``ZDOTDIR=DIR zsh``: zsh runs DIR/.zshenv (and .zshrc, .zprofile, .zlogin when
    interactive or a login shell), so a startup file fetched into DIR is run."""
    dirs = [v.text for k, v in inv.assigns if k == "ZDOTDIR"]
    var = run.env.get("ZDOTDIR")
    if not dirs and var is not None:
        dirs = [a for a in var.alts if a and DYN not in a]
    for directory in dirs[:4]:
        for name in (".zshenv", ".zshrc", ".zprofile", ".zlogin"):
            script_sink(run, Field(directory.rstrip("/") + "/" + name, inv.word.span), inv,
                        None, shell=True)
