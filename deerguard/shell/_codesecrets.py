"""A project's secret file read in interpreter code and handed to a network call.

``requests.post(u, data=open('.env').read())``, ``fetch(u, {method: 'POST', body:
require('fs').readFileSync('.env', 'utf8')})``, ``Net::HTTP.post(uri, File.read('.env'))``:
the read of a secret file (a string literal that :func:`._secrets.secret_file` names, as an
argument of a file-reading call, seen through ``path.join``/``Path``) reaching the arguments
of a sending call (``_langapi._SENDERS``), directly or through a variable bound to it (``d =
open('.env').read()``, ``with open('.env') as f``, and one more assignment), is
exfiltration, like ``curl -d @.env``. A variable used in an auth header (``headers=
{'Authorization': tok}``) is how a client authenticates and is not counted. Writes to files
(``f.write``) are not sends; reading ``.env.example``, or a read printed locally, passes.

Gated on a network module name and a secret file name appearing in the text; every scan is
bounded (occurrence counts, windows).
"""

from __future__ import annotations

import re

from ._code import literals
from ._langapi import _NET_GATE, _SENDERS, _statement_var
from ._langpaths import name_before
from ._secrets import secret_file
from ._words import Field

__all__ = ["secret_file_sent"]

# Distinctive pieces of the secret file names (a text holding none reads no such file).
_NAME_GATE = (".env", ".netrc", ".pgpass", "history", "id_rsa", "id_ed25519", "id_ecdsa",
              "id_dsa", "credentials", ".lesshst", ".viminfo")
# Calls (last name) that read the file named by their first argument.
_READERS = frozenset({"open", "readFileSync", "readFile", "read_text", "read_bytes", "read",
                      "file_get_contents", "fopen", "readTextFile", "readTextFileSync",
                      "readFileStr", "file", "binread", "readlines", "ReadAllText",
                      "ReadAllBytes", "readAllBytes", "readString", "createReadStream",
                      "readAll", "slurp", "foreach", "IO.read"})
# Calls that only spell a path: the call around them (or a .read_text() after) reads it.
_PATHS = frozenset({"join", "Path", "PurePath", "resolve", "abspath", "expanduser", "realpath",
                    "normpath", "of", "get", "new", "URL", "fspath"})
_PATH_READS = (".read_text(", ".read_bytes(", ".open(", ".text(", ".arrayBuffer(",
               ".readlines(")
_AUTH_MARKS = ("header", "authorization", "auth=", "auth:", "auth'", 'auth"', "bearer")
_DATA_MARKS = ("data", "body", "json", "files", "content", "params", "payload")
_LOCAL_SENDS = frozenset({"write", "end"})  # f.write(..), not a network send by itself
_NET_RECEIVERS = ("sock", "req", "conn", "client", "ws", "http", "stream")
_MAX = 20000
_SEND_RE = re.compile(r"(?<![\w$])(?:" + "|".join(sorted(_SENDERS)) + r")[ \t]{0,8}\(")


def _enclosing(code: str, pos: int) -> int:
    """The unmatched ``(`` before ``pos`` within 200 characters, or -1."""
    depth = 0
    j = pos - 1
    floor = max(0, pos - 200)
    while j >= floor:
        ch = code[j]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                return j
            depth -= 1
        j -= 1
    return -1


def _close(code: str, at: int, limit: int = 2000) -> int:
    """The position of the bracket closing the one at ``at`` (bounded)."""
    depth = 0
    j = at
    end = min(len(code), at + limit)
    while j < end:
        ch = code[j]
        depth += 1 if ch in "([{" else -1 if ch in ")]}" else 0
        if depth == 0:
            return j
        j += 1
    return j


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1].rsplit("->", 1)[-1].rsplit("::", 1)[-1]


def _read_call(code: str, start: int) -> int:
    """The ``(`` of the file-reading call a literal at ``start`` names the file of, or -1."""
    paren = _enclosing(code, start)
    for _ in range(3):
        if paren < 0:
            return -1
        name, _at = name_before(code, paren)
        short = _short(name)
        if short in _READERS or name in _READERS:
            return paren
        if short not in _PATHS:
            return -1
        end = _close(code, paren, 400)
        if code.startswith(_PATH_READS, end + 1):
            return paren  # Path('.env').read_text()
        paren = _enclosing(code, paren)
    return -1


def _bound(code: str, pos: int, paren: int) -> set[str]:
    """Names bound to the read at ``pos``: ``d = open(..)``, ``with open(..) as f``."""
    names: set[str] = set()
    var = _statement_var(code, pos)
    if var:
        names.add(var)
    end = _close(code, paren, 400)
    rest = code[end + 1:end + 40].lstrip(" \t")
    if rest.startswith("as "):
        word = rest[3:].lstrip(" \t")
        k = 0
        while k < len(word) and (word[k].isalnum() or word[k] == "_"):
            k += 1
        if k:
            names.add(word[:k])
    return names


def _uses(region: str, var: str) -> bool:
    """``var`` appears in ``region`` as a whole name, outside an auth header."""
    k = region.find(var)
    for _ in range(16):
        if k == -1:
            return False
        before = region[k - 1:k] if k else ""
        after = region[k + len(var):k + len(var) + 1]
        if not (before.isalnum() or before in ("_", "$", ".")) and not (
                after.isalnum() or after in ("_", "'", '"')):
            window = region[max(0, k - 80):k].lower()
            auth = max(window.rfind(m) for m in _AUTH_MARKS)
            data = max(window.rfind(m) for m in _DATA_MARKS)
            if auth == -1 or data > auth:
                return True
        k = region.find(var, k + 1)
    return False


def secret_file_sent(code: str) -> bool:
    """True when a secret file read in ``code`` reaches a network call's arguments."""
    if len(code) > _MAX or not any(g in code for g in _NET_GATE) or not any(
            g in code for g in _NAME_GATE):
        return False
    spots: list[tuple[int, int]] = []  # (literal start, its reading call's paren)
    named = 0
    for start, _end, text in literals(code, "`" in code):
        value = text[1:]
        if not value or len(value) > 200 or not any(g in value for g in _NAME_GATE) or \
                not secret_file([Field(value, (0, 0))]):
            continue
        named += 1
        if named > 32 or len(spots) >= 8:
            break
        paren = _read_call(code, start)
        if paren >= 0:
            spots.append((start, paren))
    if not spots:
        return False
    names: set[str] = set()
    for pos, paren in spots:
        names |= _bound(code, pos, paren)
    for var in sorted(names):  # one more assignment: data = f.read()
        k = code.find(var)
        for _ in range(8):
            if k == -1:
                break
            again = _statement_var(code, k)
            if again and again != var:
                names.add(again)
            k = code.find(var, k + 1)
    names = {n for n in names if len(n) < 64}
    readers = {paren for _pos, paren in spots}
    sends = 0
    for m in _SEND_RE.finditer(code):  # only the calls named like senders: no bound on (
        at = m.end() - 1
        if sends >= 48:
            break
        name, _ = name_before(code, at)
        short = _short(name)
        if short in _SENDERS and at not in readers and (
                short not in _LOCAL_SENDS or any(r in name.lower() for r in _NET_RECEIVERS)):
            sends += 1
            end = _close(code, at)
            if any(at < pos < end for pos, _paren in spots):
                return True
            region = code[at:end]
            if any(_uses(region, var) for var in sorted(names)):
                return True
    return False
