"""Whether a method call that shares a process call's name runs SQL or a regex instead.

``c.execute("select count(*) from t")``, ``db.exec("CREATE TABLE t (x)")``,
``$pdo->exec(..)``, ``cur.executescript(..)``, ``/a(b)/.exec(s)`` share their names with
``child_process.exec``, Lua's ``os.execute`` or Ruby's ``exec``; their strings are SQL or
input text, not shell. :func:`data_receiver` says a call at a given offset is such a method:
its receiver is clearly not a process API. That is a regex literal, a call chain or a
name bound in the same code to a database or regex constructor (``sqlite3.connect(..)``,
``conn.cursor()``, ``SQLite3::Database.new(..)``, ``new PDO(..)``, ``DBI->connect(..)``,
``re.compile(..)``, ``new RegExp(..)``), or, with no binding in the code, one of the usual
database handle names (``db``, ``conn``, ``cur``, ``cursor``, ``session``, ``engine``,
``dbh``, ``pdo``, ``stmt``). A receiver bound to anything else (``require("child_process")``,
an unknown call) is not told apart, so the call stays a process call (strict); so does any
call when the code may put a process call behind the method (``db.exec = cp.execSync``,
``RegExp.prototype.exec = ..``, ``{exec: ..}``, ``def execute(..)``), and a handle name
alone does not count when the code names a process module (``child_process``...). Bounded
scans (a whole-word search over a 4 KiB window for a binding): linear in the code.
"""

from __future__ import annotations

import functools
import re

__all__ = ["DATA_METHODS", "data_call", "data_receiver", "open_paren"]

# Methods of database handles and regexes that share a name with a process call.
DATA_METHODS = frozenset({"execute", "exec", "run", "call", "query", "executemany",
                          "executescript", "do", "prepare"})
_HANDLE_NAMES = frozenset({"db", "conn", "cur", "cursor", "session", "engine", "dbh", "pdo",
                           "stmt"})
# A binding or a call chain holding one of these is a process API: never exempt.
_PROCESS = ("child_process", "subprocess", "open3", "execa", "shelljs", "popen", "spawn",
            "system", "kernel", "ssh", "shell", "client(")
_PROCESS_WORDS = frozenset({"os", "pty", "io", "sh", "zx", "cp", "proc"})
# Receivers that are process modules by name (no binding needs reading).
_PROCESS_NAMES = frozenset({"subprocess", "child_process", "os", "Open3", "open3", "Kernel",
                            "pty", "shelljs", "execa"})
# ... and one holding one of these (and no process marker) is a database or a regex.
_DATA = ("sqlite", "connect(", "cursor(", "create_engine(", "sessionmaker(", "session(",
         "database", "pdo(", "dbi->", "mysql", "pg.", "pg::", "psycopg", "duckdb",
         "re.compile(", "regexp(", "knex(", "sequelize", "prisma", "pool(", "prepare(",
         "get_db(", "get_conn", "get_session(", "transaction(", "sql.newinstance", "jdbc",
         "new db(")
# Words before a name that bind it without ``=``: imports, destructurings, parameters.
_BINDERS = ("import", "require", " as ", "use ", "function", "def ", "lambda", "for ")
# A process module named anywhere in the code: no receiver is exempt by its name alone.
_PROCESS_MODULES = ("child_process", "subprocess", "open3", "execa", "shelljs", "kernel",
                    "ssh2", "paramiko", "fabric", "pty", "io.popen", "process.binding")
# Code that may put a process call behind a method of an object or a class.
_REBINDERS = ("prototype", "setattr", "defineproperty", "object.assign", "define_method",
              "alias_method", "alias ", "instance_variable_set", "__dict__", "__class__",
              "singleton_class", "class_eval", "monkeypatch")
_DEFINERS = ("def ", "function ", "sub ", "fn ")
_BACK = 256  # how far back the receiver scans read
_BIND_BACK = 4096  # how far back a binding of the receiver's name is sought
_IDENT = "_$@"


def _name_start(code: str, end: int) -> int:
    """Start of the identifier ending at ``end`` (bounded)."""
    j = end
    floor = max(0, end - 64)
    while j > floor and (code[j - 1].isalnum() or code[j - 1] in _IDENT):
        j -= 1
    return j


def open_paren(code: str, close: int, back: int = _BACK) -> int:
    """Index of the ``(`` matching the ``)`` at ``close``, at most ``back`` characters
    before it (quotes not read), or -1."""
    depth = 0
    floor = max(0, close - back)
    j = close
    while j >= floor:
        ch = code[j]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                return j
        j -= 1
    return -1


def _regex_literal(code: str, slash: int) -> bool:
    """Whether the ``/`` at ``slash`` closes a JavaScript/Ruby regex literal on its line."""
    floor = max(0, slash - _BACK, code.rfind("\n", 0, slash) + 1)
    j = slash - 1
    while j >= floor:
        if code[j] == "/" and (j == 0 or code[j - 1] != "\\"):
            k = j
            while k > floor and code[k - 1] in " \t":
                k -= 1
            return k == floor or code[k - 1] in "=(,;:!&|?{}[" or \
                code[max(0, k - 6):k] == "return"
        j -= 1
    return False


def _unquoted(text: str) -> str:
    """``text`` with its string literals emptied, but for a module name given to
    ``require``/``import``: ``"rm -rf / #mysql"`` names no database."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch not in "'\"`":
            out.append(ch)
            i += 1
            continue
        j = i + 1
        while j < n and text[j] != ch:
            j += 2 if text[j] == "\\" else 1
        head = text[:i].rstrip(" \t(").lower()
        keep = head.endswith(("require", "from", "import"))
        out.append(text[i:j + 1] if keep else ch + ch)
        i = j + 1
    return "".join(out)


def _classify(text: str) -> bool | None:
    """True: a database or regex expression; False: a process API; None: unknown."""
    low = text.lower()
    if low.startswith(("/", "%r")):
        return True  # a regex literal
    if low[:1] in ("'", '"', "`"):
        return None  # a string: Groovy runs "cmd".execute()
    words = low
    for ch in "().:'\"=,;[]{}<>$-":
        words = words.replace(ch, " ")
    if any(p in low for p in _PROCESS) or _PROCESS_WORDS.intersection(words.split()):
        return False
    code = _unquoted(low)
    if any(d in code for d in _DATA):
        return True
    return None


def _statement(code: str, at: int) -> tuple[int, int]:
    """Bounds of the statement (line or ``;``-separated) holding offset ``at``."""
    floor = max(0, at - 200)
    start = max(code.rfind(";", floor, at), code.rfind("\n", floor, at)) + 1
    ends = [e for e in (code.find(";", at, at + 200), code.find("\n", at, at + 200)) if e >= 0]
    return max(start, floor), min(ends, default=min(len(code), at + 200))


def _binding(code: str, name: str, before: int) -> str | None:
    """The expression last bound to ``name`` before ``before``: ``name = EXPR``
    (``const name =``, ``my $name =``) up to the end of its statement, or the whole
    statement that imports it (``import subprocess as db``, ``const {exec: db} =
    require(..)``); None if the code binds it nowhere."""
    floor = max(0, before - _BIND_BACK)
    hits = [m.start() for m in _word(name).finditer(code, floor, before)]
    for at in reversed(hits):
        j = at + len(name)
        while j < len(code) and j < at + len(name) + 16 and code[j] in " \t":
            j += 1
        if code[j:j + 1] == "=" and code[j + 1:j + 2] not in ("=", "~", ">"):
            start, end = _statement(code, j)
            rhs = code[j + 1:end].strip()
            head = code[start:at]
            return head + rhs if "{" in head or "[" in head else rhs
        if code[j:j + 1] in (".", "(", "[", "-"):
            continue  # db.execute(..), db[..]: a use of the name, not its binding
        start, end = _statement(code, at)
        if any(w in code[start:at] for w in _BINDERS) or code[at - 1:at] == "|" or \
                code[at + len(name):end].lstrip(" \t)").startswith("=>"):
            return code[start:end]  # an import, a destructuring, a parameter
    return None


@functools.lru_cache(maxsize=64)
def _word(name: str) -> re.Pattern[str]:
    """``name`` as a whole word, not a member (``x.name``, ``x->name``)."""
    return re.compile(r"(?<![\w.>])" + re.escape(name) + r"(?!\w)")


def _imported(statement: str) -> bool:
    """Whether a binding statement imports the name (``from app import session``)."""
    return "import" in statement or "require" in statement or "use " in statement


@functools.lru_cache(maxsize=16)
def _rebinds(code: str, method: str) -> bool:
    """Whether ``code`` may put a process call behind ``method`` of some object:
    ``db.exec = cp.execSync``, ``{exec: ..}``, ``RegExp.prototype.exec = ..``,
    ``setattr(..)``, ``define_method``, a ``def exec``/``function exec``."""
    low = code.lower()
    if any(t in low for t in _REBINDERS):
        return True
    for tail in (" =", "=", ":", " :", "'] =", "\"] =", "']=", '"]='):
        at = code.find(method + tail)
        while at != -1:
            after = code[at + len(method) + len(tail):at + len(method) + len(tail) + 1]
            if not (tail.endswith("=") and after in ("=", "~")) and (
                    at == 0 or not (code[at - 1].isalnum() or code[at - 1] == "_")):
                return True
            at = code.find(method + tail, at + 1)
    return _defines(code, method)


def _defines(code: str, method: str) -> bool:
    """Whether ``code`` defines a function or method named ``method``: ``def execute(``,
    ``def db.execute(``, ``function exec(``, a class body's ``exec(s) {``."""
    for word in _DEFINERS:
        at = code.find(word)
        for _ in range(32):
            if at == -1:
                break
            head = code[at + len(word):at + len(word) + 64]
            cut = min((i for i in (head.find("("), head.find("\n"), head.find("{"),
                                   head.find(" ")) if i >= 0), default=len(head))
            if head[:cut].rsplit(".", 1)[-1].rsplit(":", 1)[-1] == method:
                return True
            at = code.find(word, at + len(word))
    at = code.find(method + "(")
    for _ in range(32):
        if at == -1:
            return False
        close = code.find(")", at, at + 96)
        if close != -1 and (at == 0 or code[at - 1] not in ".>:") and \
                code[close + 1:close + 8].lstrip(" \t").startswith("{"):
            return True  # exec(s) { ... }: a method body
        at = code.find(method + "(", at + 1)
    return False


@functools.lru_cache(maxsize=64)
def data_receiver(code: str, name_at: int) -> bool:
    """Whether the method name starting at ``name_at`` is called on a receiver that is
    clearly a database handle, a statement or a regex (not a process API), and no code
    puts a process call behind that method name (:func:`_rebinds`)."""
    end = name_at
    while end < len(code) and end < name_at + 32 and (code[end].isalnum() or code[end] == "_"):
        end += 1
    return _data_member(code, name_at) and not _rebinds(code, code[name_at:end])


def _data_member(code: str, name_at: int) -> bool:
    """:func:`data_receiver` without the rebinding check."""
    j = name_at
    if j > 0 and code[j - 1] == ".":
        j -= 1
    elif j > 1 and code[j - 2:j] == "->":
        j -= 2
    elif j > 1 and code[j - 1] == ":" and (code[j - 2].isalnum() or code[j - 2] == "_"):
        j -= 1  # Lua: db:exec(..)
    else:
        return False  # not a method: system(..), exec(..), a name bound to a run function
    while j > 0 and code[j - 1] in " \t":
        j -= 1
    if j == 0:
        return False
    last = code[j - 1]
    if last == ")":
        opened = open_paren(code, j - 1)
        if opened < 0:
            return False
        start = opened
        while start > max(0, opened - _BACK) and (
                code[start - 1].isalnum() or code[start - 1] in _IDENT + ".:>- \t"):
            start -= 1
        return _classify(code[start:j].strip(" \t-")) is True
    k = j - 1
    while k > max(0, j - 8) and code[k].isalpha():
        k -= 1  # /re/g.exec: the flags
    if code[k] == "/":
        return _regex_literal(code, k)
    start = _name_start(code, j)
    name = code[start:j].lstrip("$@")
    if not name or not (name[0].isalpha() or name[0] == "_") or name in _PROCESS_NAMES:
        return False  # subprocess.run, os.execute: the process modules themselves
    bound = _binding(code, name, start)
    kind = _classify(bound) if bound is not None else None
    if kind is not None or (bound is not None and not _imported(bound)):
        return kind is True
    return name.lower() in _HANDLE_NAMES and not _process_module(code)


@functools.lru_cache(maxsize=16)
def _process_module(code: str) -> bool:
    """Whether ``code`` names a process module anywhere (cached: one scan per code)."""
    return any(m in code for m in _PROCESS_MODULES)


def data_call(code: str, paren: int) -> bool:
    """Whether the call whose name ends before ``paren`` (its ``(``, or the literal of a
    call without parentheses) is a database or regex method (:func:`data_receiver`)."""
    end = paren
    floor = max(0, paren - 16)
    while end > floor and code[end - 1] in " \t":
        end -= 1
    start = _name_start(code, end)
    return code[start:end] in DATA_METHODS and data_receiver(code, start)
