"""Commands that destroy cloud, cluster, container or database resources.

Deleting a Terraform stack, a Kubernetes namespace, a bucket or a database is not a danger to
the machine the agent runs on, but it is what users fear most from an agent holding
credentials. Two tiers (see ``_cloud`` for the cloud and cluster tools' table):

- ``shell.resource-destroy`` (warn): one named resource or table (``DROP TABLE t``,
  ``TRUNCATE t``, ``DELETE FROM t`` without ``WHERE``, ``aws iam delete-role``, ``kubectl
  delete ns pr-1``, ``redis-cli FLUSHDB``): legitimate in maintenance, a human should look.
- ``shell.mass-destroy`` (block, also reported as resource-destroy so a policy turning it
  off or to warn falls back to the warn): a whole database or schema (``DROP DATABASE``,
  ``DROP SCHEMA``, ``DROP OWNED``, ``dropdb``, ``db.dropDatabase()``, ``FLUSHALL``, ``DROP
  KEYSPACE``), and the mass or unattended cloud forms of ``_cloud``. No everyday developer
  command needs these from an agent, and none can be undone.

Routine deletions (one pod, one container, one image, ``helm uninstall``) pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ._cloud import ALL, CLOUD_TOOLS, ONE, cloud_destroy
from ._paths import norm_path
from ._resolve import Invocation
from ._words import Field
from ._written import read_written

if TYPE_CHECKING:
    from ._flow import Flow
    from ._walk import Run

__all__ = ["DESTROYERS", "destroy", "resource_destroy"]

# Clients -> their options whose value is statements to run.
_SQL_CLIENTS = {"psql": ("-c", "--command"), "mysql": ("-e", "--execute"),
                "mariadb": ("-e", "--execute"), "sqlite3": (), "duckdb": ("-c",),
                "cockroach": ("-e", "--execute"), "clickhouse-client": ("-q", "--query"),
                "cqlsh": ("-e", "--execute"), "sqlcmd": ("-Q", "-q"),
                "usql": ("-c", "--command"), "snowsql": ("-q", "--query")}
# Clients whose operands after the database file are statements (sqlite3 app.db 'DROP ...').
_POSITIONAL_SQL = frozenset({"sqlite3", "duckdb"})
DESTROYERS = frozenset({"dropdb", "docker", "podman", "mongosh", "mongo", "redis-cli",
                        *_SQL_CLIENTS, *CLOUD_TOOLS})


def _operands(args: list[Field]) -> list[str]:
    return [f.text for f in args if not f.text.startswith("-")]


def destroy(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """Report what ``inv`` destroys: ``shell.resource-destroy`` (warn), and also
    ``shell.mass-destroy`` (block) when it destroys a whole database or everything of a kind,
    or runs a stack's destroy unattended."""
    def env_true(name: str) -> bool:
        var = run.env.get(name)
        return var is not None and any(a.lower() in ("1", "true", "yes") for a in var.alts)

    found = resource_destroy(inv, stdin.text if stdin is not None else None,
                             (lambda path: read_written(run, path, inv.word.span))
                             if run.file_text else None, run.cwd,
                             source=run.text_stack[-1], env=env_true,
                             answered=stdin is not None and stdin.producer == "yes")
    if found is None:
        return
    tier, what = found
    run.add("shell.resource-destroy", inv.word.span, what, None)
    if tier > ONE:
        run.add("shell.mass-destroy", inv.word.span, what, None)


def resource_destroy(inv: Invocation, stdin_text: str | None = None,
                     read: Callable[[str], str | None] | None = None, cwd: str | None = None,
                     *, source: str = "", env: Callable[[str], bool] | None = None,
                     answered: bool = False) -> tuple[int, str] | None:
    """(tier, what ``inv`` destroys) or None; the tier is ``_cloud``'s ONE, WHOLE or ALL.
    ``stdin_text`` is the statically known text it reads (a heredoc, ``echo SQL |``, a file
    written earlier); ``read`` returns the known text of a path written in the same command
    (or None), for script options (``psql -f drop.sql``); the caller charges what it reads
    to its work budget, since one file may be run many times. ``source`` is the text the
    arguments' spans index (to see a ``$(...)`` target list); ``env(NAME)`` says a variable
    is set to a true value; ``answered`` that stdin comes from ``yes``."""
    if inv.name in CLOUD_TOOLS:
        answer = (stdin_text or "").strip().lower()
        return cloud_destroy(inv.name, inv.args, inv.word.span, inv.from_stdin, source,
                             env or (lambda _name: False),
                             answered or answer in ("y", "yes") or answer.startswith("yes\n"))
    found = _by_arguments(inv)
    if found is None and inv.name in _SCRIPT_READERS:
        scripts = [stdin_text] if stdin_text else []
        if read is not None:
            scripts += [text for path in _script_files(inv, cwd)
                        if (text := read(path)) is not None]
        for text in scripts:
            found = _worst(found, _destroying_script(inv.name, text))
    return found


def _worst(a: tuple[int, str] | None, b: tuple[int, str] | None) -> tuple[int, str] | None:
    if a is None or (b is not None and b[0] > a[0]):
        return b
    return a


# Clients that run statements read from stdin, and their options naming a script file.
_SCRIPT_READERS = {"psql": ("-f", "--file"), "mysql": (), "mariadb": (), "sqlite3": (),
                   "duckdb": (), "cockroach": (), "clickhouse-client": ("--queries-file",),
                   "cqlsh": ("-f", "--file"), "sqlcmd": ("-i",), "usql": ("-f", "--file"),
                   "snowsql": ("-f", "--filename"),
                   "mongosh": ("--file", "-f"), "mongo": (), "redis-cli": ()}


def _script_files(inv: Invocation, cwd: str | None) -> list[str]:
    flags = _SCRIPT_READERS[inv.name]
    texts = [f.text for f in inv.args]
    names: list[str] = []
    for k, t in enumerate(texts):
        if t in flags and k + 1 < len(texts):
            names.append(texts[k + 1])
        elif t.startswith("--") and t.partition("=")[0] in flags:
            names.append(t.partition("=")[2])
        elif inv.name in ("mongosh", "mongo") and t.endswith(".js") and not t.startswith("-"):
            names.append(t)  # mongosh [db] script.js
    return [p for n in names if (p := norm_path(n, cwd)) is not None]


_Found = tuple[int, str] | None

# Phrases that drop or empty something wherever they stand (a DO block, a function body):
# at least the warn, as before statements were read one by one.
_SQL_DROP = ("drop database", "drop schema", "drop table", "truncate table", "drop owned")
# Statements that remove a whole database or everything a role owns: the block tier.
_SQL_WHOLE = frozenset({"database", "schema", "owned", "keyspace"})


def _destroying_script(name: str, text: str) -> _Found:
    if len(text) > 1_000_000:
        text = text[:1_000_000]
    low = text.lower()
    if name in ("mongosh", "mongo"):
        compact = "".join(low.split())
        if "dropdatabase" in compact:
            return ALL, f"{name} drops a whole database"
        if ".drop()" in compact or "deletemany({})" in compact or ".remove({})" in compact:
            return ONE, f"{name} drops or empties a collection"
        return None
    if name == "redis-cli":
        keys = set(low.split())
        if "flushall" in keys:
            return ALL, "redis-cli deletes every key of every database"
        return (ONE, "redis-cli deletes every key of a database") if "flushdb" in keys \
            else None
    found: _Found = None
    for stmt in _statements(low):
        words = stmt.replace("(", " ").split(maxsplit=4)
        if words[:1] == ["drop"] and words[1:2] and words[1] in _SQL_WHOLE:
            return ALL, f"{name} runs SQL that drops a whole database or schema"
        if words[:2] in (["drop", "table"], ["drop", "tables"]) or words[:1] == ["truncate"] or (
                words[:2] == ["delete", "from"] and "where" not in stmt.split()):
            found = ONE, f"{name} runs SQL that drops, truncates or empties a table"
    if found is None and any(d in " ".join(_outside_literals(low).split()) for d in _SQL_DROP):
        found = ONE, f"{name} runs SQL that drops or truncates a database, schema or table"
    return found


# Markers of SQL that runs text as statements (EXECUTE, psql's \gexec, DO blocks, PREPARE)
# or builds statements to be printed and run elsewhere (``'drop table ' || t``, format()),
# and backslashes (MySQL's ``\'`` and Postgres' ``E'\''`` do not close a literal).
_SQL_DYNAMIC = ("exec", "$", "prepare", "||", "concat", "format", "\\")
_DO_BLOCK = re.compile(r"\bdo\b")


def _outside_literals(low: str) -> str:
    """``low`` with its single-quoted string literals blanked, so a phrase that is only data
    (``WHERE action = 'drop table'``) is not read as a statement; unchanged when the SQL
    could run or print a string as a statement (a marker of ``_SQL_DYNAMIC``). Linear: one
    C-level search per quote."""
    if "'" not in low or any(m in low for m in _SQL_DYNAMIC) or _DO_BLOCK.search(low):
        return low
    parts: list[str] = []
    k = 0
    while True:
        start = low.find("'", k)
        if start < 0:
            parts.append(low[k:])
            return "".join(parts)
        parts.append(low[k:start] + " ")
        end = low.find("'", start + 1)  # '' (an escaped quote) closes and reopens: same result
        if end < 0:  # unclosed: read it all as statements
            return low
        k = end + 1


def _statements(low: str) -> list[str]:
    """The statements of SQL text, comments removed (linear: one pass per comment kind)."""
    out: list[str] = []
    k = 0
    parts: list[str] = []
    while k < len(low):
        start = low.find("/*", k)
        if start < 0:
            parts.append(low[k:])
            break
        parts.append(low[k:start] + " ")
        end = low.find("*/", start + 2)
        k = len(low) if end < 0 else end + 2
    text = "".join(parts)
    lines = [line.partition("--")[0] for line in text.split("\n")]
    for stmt in " ".join(lines).split(";"):
        stmt = stmt.strip()
        if stmt:
            out.append(stmt)
    return out


_DROPDB_VALUES = frozenset({"-h", "--host", "-p", "--port", "-U", "--username",
                            "--maintenance-db"})


def _dropdb_target(texts: list[str]) -> bool:
    """dropdb names a database (its options with a value skipped; help and version none)."""
    skip = False
    for t in texts:
        if skip:
            skip = False
        elif t in ("--help", "-?", "--version", "-V"):
            return False
        elif t in _DROPDB_VALUES:
            skip = True
        elif not t.startswith("-") or t == "-":
            return True
    return False


def _by_arguments(inv: Invocation) -> _Found:
    name = inv.name
    texts = [f.text for f in inv.args]
    ops = _operands(inv.args)
    if name == "dropdb":
        if not _dropdb_target(texts):
            return None  # dropdb --help, --version: no database named
        if "-i" in texts or "--interactive" in texts:
            return ONE, "dropdb deletes a database (asking first)"
        return ALL, "dropdb deletes a whole database"
    if name in ("docker", "podman") and (
            (ops[:2] == ["system", "prune"] and any(
                t in ("--all", "--volumes") or (t[:1] == "-" and t[1:2] != "-" and "a" in t)
                for t in texts)) or
            ops[:2] in (["volume", "prune"], ["volume", "rm"])):
        return ONE, f"{name} deletes volumes or every unused image and volume"
    if name in ("mongosh", "mongo"):
        found: _Found = None
        for t in texts:
            found = _worst(found, _destroying_script(name, t))
        return found
    if name == "redis-cli":
        return _destroying_script(name, " ".join(texts))
    if name in _SQL_CLIENTS:
        flags = _SQL_CLIENTS[name]
        found = None
        for k, t in enumerate(texts):
            sql = t
            if t in flags and k + 1 < len(texts):
                sql = texts[k + 1]
            elif t.startswith("--") and t.partition("=")[0] in flags:
                sql = t.partition("=")[2]  # --execute=SQL
            elif len(t) > 2 and t[:2] in flags and t[1] != "-":
                sql = t[2:]  # -e"SQL" (getopt's attached value)
            elif not (name in _POSITIONAL_SQL and k > 0):
                continue
            found = _worst(found, _destroying_script(name, sql))
        return found
    return None
