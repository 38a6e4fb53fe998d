"""Database clients' option and startup files: commands they run before any query.

* ``mysql``/``mariadb --pager=CMD`` pipes every result through ``sh -c CMD``; an option file
  (``--defaults-file=F``, ``--defaults-extra-file=F``, or ``~/.my.cnf`` and
  ``$MYSQL_HOME/my.cnf`` written in the command) sets ``pager=CMD`` the same way, and
  ``execute=`` runs client commands (``system CMD``) in the ``[client]``, ``[mysql]`` and
  ``[mariadb]`` groups; ``!include F`` reads more of them.
* ``psql`` runs its startup files (``$PGSYSCONFDIR/psqlrc``, then ``$PSQLRC``, else
  ``~/.psqlrc``) at every start, unless ``-X``/``--no-psqlrc`` or ``-c`` is given: a file
  written in the command is read like a ``-f`` script (``\\!`` lines run shell commands).
  ``sqlite3`` reads ``~/.sqliterc`` (unless ``-init F``) the same way.
* Writing ``\\!``, ``\\o |CMD``, backquoted commands (psql) or ``.shell``/``.system`` (sqlite3)
  into a user's ``~/.psqlrc`` or ``~/.sqliterc`` makes every later client start run them:
  persistence, like a shell startup file (``shell.persistence``, block), and so is fetched
  data written there. Settings such as ``\\set`` or ``\\timing`` pass.

Files written with fetched data and read by the client are download runs (``script_file``);
the text of files written with static text is classified. Bounded: at most
:data:`_MAX_LINES` lines a file and :data:`_MAX_DEPTH` levels of ``!include``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import file_taint
from ._loadfiles import script_file, shell_escape
from ._named import file_span
from ._paths import norm_path
from ._resolve import Invocation
from ._sqlclients import _sql_lines as sql_lines
from ._sqlclients import charge_include
from ._words import DYN, Field, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["client_rc_written", "client_startup"]

_MAX_LINES = 256
_MAX_DEPTH = 3
_MYSQL_FILES = frozenset({"--defaults-file", "--defaults-extra-file"})
_MYSQL_HOME_FILES = ("~/.my.cnf", "/etc/my.cnf", "/etc/mysql/my.cnf")
# Option-file groups the mysql/mariadb client reads (with or without --defaults-group-suffix).
_MYSQL_GROUPS = ("client", "mysql", "mariadb")
# Groups of the server and of the other client programs ([mysqld], [mysqldump]...).
_OTHER_GROUPS = ("mysqld", "mariadbd", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck",
                 "mysqlshow", "mysqlbinlog", "mysqlslap", "mysql_", "mysql.", "mariadb-dump",
                 "mariadb-admin", "mariadb-import", "mariadb-check", "mariadb-binlog")
_PSQL_NO_RC = frozenset({"-X", "--no-psqlrc", "-c", "--command"})
_RC_NAMES = (".psqlrc", ".sqliterc")


def client_startup(run: Run, inv: Invocation) -> None:
    """What a database client (a name in ``_sqlclients.SQL_CLIENTS``) runs before its
    queries: mysql's pager and option files, psql's and sqlite3's startup files."""
    if inv.name == "psql":
        psql_startup(run, inv)
    elif inv.name == "sqlite3":
        sqlite_startup(run, inv)
    else:
        mysql_options(run, inv)


def mysql_options(run: Run, inv: Invocation) -> None:
    """``--pager=CMD`` and the option files a mysql/mariadb client reads."""
    files: list[Field] = []
    defaults = True
    for index, f in enumerate(inv.args[:64]):
        t = f.text
        key, eq, value = t.partition("=")
        if key == "--pager" and eq and value.strip():
            shell_escape(run, inv, value, Field(value, f.span, f.taint))
        elif key in _MYSQL_FILES:
            given = Field(value, f.span, f.taint) if eq else (
                inv.args[index + 1] if index + 1 < len(inv.args) else None)
            if given is not None:
                files.append(given)
            defaults = defaults and key != "--defaults-file"
        elif t == "--no-defaults":
            defaults = False
    if defaults and (run.file_text or run.files):
        home = _env_path(run, "MYSQL_HOME")  # MYSQL_HOME=/tmp mysql reads /tmp/my.cnf
        paths = (*_MYSQL_HOME_FILES, home.rstrip("/") + "/my.cnf") if home else \
            _MYSQL_HOME_FILES
        files.extend(Field(p, inv.word.span) for p in paths
                     if norm_path(p, run.cwd) in run.file_text or file_taint(
                         run.files, norm_path(p, run.cwd)))
    for f in files[:8]:
        text = script_file(run, inv, f, None, exact=True)
        if text is not None:
            _option_file(run, inv, text, 0)


def _option_file(run: Run, inv: Invocation, text: Field, depth: int) -> None:
    """``pager=CMD`` / ``execute=...`` in the client's groups; ``!include FILE``."""
    group = ""
    for line in text.text.splitlines()[:_MAX_LINES]:
        s = line.strip()
        if not s or s[0] in "#;":
            continue
        if s.startswith("["):
            group = s[1:].partition("]")[0].strip().lower()
            continue
        if s.startswith("!include ") and depth < _MAX_DEPTH:
            included = script_file(run, inv, Field(s[9:].strip(), text.span, text.taint),
                                   None, exact=True)
            if included is not None and charge_include(run, included, text.span):
                _option_file(run, inv, included, depth + 1)
            continue
        if not group.startswith(_MYSQL_GROUPS) or group.startswith(_OTHER_GROUPS):
            continue
        key, eq, value = s.partition("=")
        key = key.strip().lower().replace("_", "-")
        key = key[6:] if key.startswith("loose-") else key
        value = _unquote(value.strip())
        if not eq or not value:
            continue
        if key == "pager":
            shell_escape(run, inv, value, text)
        elif key in ("execute", "e"):
            sql_lines(run, inv, Field(value, text.span, text.taint), "mysql", 1)


def _unquote(value: str) -> str:
    if len(value) > 1 and value[0] in "'\"" and value.endswith(value[0]):
        return value[1:-1]
    return value


def psql_startup(run: Run, inv: Invocation) -> None:
    """The startup file psql runs first (``$PSQLRC`` or ``~/.psqlrc``), when the command
    wrote it or named a fetched file."""
    if any(f.text in _PSQL_NO_RC or f.text.startswith("--command=") or (
            f.text[:1] == "-" and f.text[1:2] != "-" and "X" in f.text) for f in inv.args):
        return
    files: list[Field] = []
    conf = _env_path(run, "PGSYSCONFDIR")  # the system-wide psqlrc, read first
    if conf:
        files.append(Field(conf.rstrip("/") + "/psqlrc", inv.word.span))
    rc = _env_path(run, "PSQLRC")
    if rc:
        files.append(Field(rc, inv.word.span))
    elif run.file_text or run.files:
        files.append(Field("~/.psqlrc", inv.word.span))
    for f in files:
        text = script_file(run, inv, f, None, exact=True)
        if text is not None:
            sql_lines(run, inv, text, "psql", 1)


def _env_path(run: Run, name: str) -> str | None:
    """The static value of the environment variable ``name`` (a path), if set."""
    var = run.env.get(name)
    if var is None or len(var.alts) != 1 or DYN in var.alts[0] or not var.alts[0]:
        return None
    return var.alts[0]


def sqlite_startup(run: Run, inv: Invocation) -> None:
    """``~/.sqliterc`` written in the command, run by sqlite3 (unless ``-init FILE``)."""
    if not run.file_text or any(f.text.lstrip("-") == "init" for f in inv.args):
        return
    text = script_file(run, inv, Field("~/.sqliterc", inv.word.span), None, exact=True)
    if text is not None:
        sql_lines(run, inv, text, "sqlite3", 1)


def client_rc_written(run: Run) -> None:
    """After the walk: a user's ``~/.psqlrc`` or ``~/.sqliterc`` written with commands that
    run programs, or with fetched data (see the module doc)."""
    for path, taint in list(run.files.items())[:64]:
        if _rc_file(path):
            src = first_source(taint)
            if src is not None:
                run.add("shell.persistence", file_span(run, path), f"writes fetched data into "
                        f"{path}, which the database client runs at every start",
                        f"{src.describe()} was written to {path}")
    for path, text in list(run.file_text.items())[:64]:
        if not _rc_file(path):
            continue
        sqlite = path.endswith(".sqliterc")
        escape = next((line.strip() for line in text.splitlines()[:_MAX_LINES]
                       if _runs_program(line.strip(), sqlite)), None)
        if escape is None:
            continue
        span = file_span(run, path)
        run.add("shell.persistence", span, f"writes {escape.replace(DYN, '?')[:80]!r} into "
                f"{path}, which the database client runs at every start", None)
        name = "sqlite3" if sqlite else "psql"
        sql_lines(run, Invocation(name, Field(path, span)), Field(text, span), name, 1)


def _rc_file(path: str) -> bool:
    """A user's psql or sqlite3 startup file (``~/.psqlrc``, ``~/.psqlrc-16``)."""
    folder, _, name = path.rpartition("/")
    if not name.startswith(_RC_NAMES) or not (
            name in _RC_NAMES or name.startswith(".psqlrc-")):
        return False
    return folder == "~" or folder == "/root" or (
        folder.startswith(("/home/", "/Users/")) and folder.count("/") == 2)


def _runs_program(line: str, sqlite: bool) -> bool:
    """A client command that runs a program (or loads native code)."""
    if sqlite:
        head = line.partition(" ")[0]
        return head in (".shell", ".system", ".load") or (
            head in (".read", ".output", ".once", ".import") and "|" in line)
    low = line.lower()
    if " program " in low and "copy" in low:
        return True  # COPY ... PROGRAM 'CMD' (server) / \\copy ... program 'CMD' (client)
    if not line.startswith("\\"):
        return False
    head = line.partition(" ")[0]
    return head.startswith("\\!") or "`" in line or (
        head in ("\\o", "\\out", "\\g", "\\gx", "\\w", "\\write") and "|" in line)
