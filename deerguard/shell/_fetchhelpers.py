"""Python HTTP fetches through client objects and user-defined helpers (for :mod:`._fetchrun`).

:mod:`._fetchrun` knows a fetch by its callee (``urlopen(u)``, ``requests.get(u)``). Code
also fetches through:

* a *client object*: ``s = requests.Session()``, ``c = httpx.Client()``, ``with
  httpx.AsyncClient() as c``, ``pool = urllib3.PoolManager()``, ``async with
  aiohttp.ClientSession() as s``, ``opener = urllib.request.build_opener()``,
  ``c = http.client.HTTPSConnection(host)`` (``c.getresponse()``), or the
  constructor chained (``requests.Session().get(u)``): its ``get``/``post``/``request``/
  ``open``... calls fetch. A constructor counts when its module is an HTTP client's
  (``requests.Session``, an ``import requests as rq`` alias, or an unqualified name with
  ``from requests import ...`` in the code): a database ``Session()`` does not fetch;
* a module alias (``import requests as rq``, then ``rq.get(u)``);
* a *helper*: a ``def`` (or ``NAME = lambda``) whose ``return`` is fetched data
  (``def get(u): return urlopen(u).read().decode()``, or a name bound to it): each call
  ``get(..)`` is a fetch too, one level of helpers calling helpers included. A helper
  that returns ``json.loads(..)`` of the data, or a status code, returns no fetched text
  and is not one.

Decisions: data flow by names, as in :mod:`._fetchrun`. Methods of classes are not read
(``self.get(u)``). Every scan is bounded; the client scan is gated on the constructor
names' substrings, the helper scan on fetched data reaching a ``return``.
"""

from __future__ import annotations

import re

from ._fetchflow import MAX, WINDOW, near_bind, word_before
from ._gate import word_gate
from ._receiver import open_paren

__all__ = ["CLIENT_METHODS", "chained_client", "client_receivers", "helper_calls",
           "returning_helpers"]

_MODULES = frozenset({"requests", "httpx", "urllib3", "aiohttp", "request", "niquests",
                      "client"})
_IMPORTS = ("from requests", "from httpx", "from urllib3", "from aiohttp", "from urllib.request",
            "from urllib import request", "from niquests", "from http.client",
            "from http import client")
_CTORS = re.compile(r"(Session|session|Client|AsyncClient|PoolManager|ProxyManager|"
                    r"ClientSession|build_opener|HTTPSConnection|HTTPConnection)[ \t]*\(")
_GATE = ("Session", "session", "Client", "PoolManager", "ProxyManager", "build_opener",
         "Connection", " as ")
_GATE_RE = word_gate(_GATE)
_ALIAS = re.compile(r"import[ \t]+(requests|httpx|urllib3|aiohttp|niquests)[ \t]+as[ \t]+"
                    r"([A-Za-z_]\w*)")
_AS = re.compile(r"[ \t]as[ \t]+([A-Za-z_]\w*)")
_FROM = re.compile(r"from[ \t]+(?:requests|httpx|niquests)[ \t]+import[ \t]+"
                   r"(?:\(([\w ,\t\n]{1,300})\)|([\w ,\t]{1,200}))")
_FUNCS = frozenset({"get", "post", "put", "patch", "request", "stream"})
CLIENT_METHODS = frozenset({"get", "post", "put", "patch", "request", "stream", "open",
                            "urlopen", "send", "getresponse"})
_DEF = re.compile(r"[ \t]*(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)[ \t]*\(")
_LAMBDA = re.compile(r"[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*lambda\b")


def client_receivers(text: str) -> frozenset[str]:
    """Names that hold an HTTP client object or module in ``text`` (Python), and the
    client functions imported by name (``from requests import get as g``: ``g``)."""
    if _GATE_RE.search(text) is None and "from " not in text:
        return frozenset()
    aliases = {m.group(2) for m in _ALIAS.finditer(text, 0, len(text))}
    names: set[str] = set(aliases)
    for count, m in enumerate(_FROM.finditer(text)):
        if count >= 8:
            break
        for item in (m.group(1) or m.group(2) or "").split(",")[:16]:
            words = item.split()
            if words and words[0] in _FUNCS:
                names.add(words[-1] if len(words) == 3 and words[1] == "as" else words[0])
    count = 0
    for m in _CTORS.finditer(text):
        count += 1
        if count > MAX:
            break
        start = m.start()
        if start and (text[start - 1].isalnum() or text[start - 1] == "_"):
            continue
        if not _qualified(text, start, aliases):
            continue
        chain = _chain_start(text, start)
        bound = near_bind(text, chain, max(0, chain - 120))
        if bound is not None:
            names.add(bound)
            continue
        line_start = text.rfind("\n", max(0, chain - 200), chain) + 1
        head = text[line_start:chain].lstrip(" \t")
        if head.startswith(("with ", "async with ")) or head.endswith(", "):
            line_end = text.find("\n", m.end())
            alias = _AS.search(text, m.end(), line_end if line_end >= 0 else len(text))
            if alias is not None:
                names.add(alias.group(1))
    return frozenset(names)


def _qualified(text: str, start: int, aliases: set[str]) -> bool:
    """The constructor at ``start`` belongs to an HTTP client module."""
    if text[start - 1:start] == ".":
        return word_before(text, start - 1)[0] in _MODULES or \
            word_before(text, start - 1)[0] in aliases
    return any(i in text for i in _IMPORTS)


def _chain_start(text: str, pos: int) -> int:
    j = pos
    floor = max(0, pos - 120)
    while j > floor and (text[j - 1].isalnum() or text[j - 1] in "_."):
        j -= 1
    return j


def chained_client(text: str, dot: int, aliases: frozenset[str]) -> bool:
    """``requests.Session().get(``: the call closed just before the ``.`` at ``dot``
    constructs an HTTP client."""
    j = open_paren(text, dot - 1, 199)  # the "(" of the ")" before the dot
    if j < 0:
        return False
    name, start = word_before(text, j)
    return bool(name) and _CTORS.match(text, start) is not None and \
        _qualified(text, start, set(aliases))


def returning_helpers(text: str, positions: list[int]) -> set[str]:
    """Names of the functions whose ``return`` is the fetched data at one of
    ``positions`` (the start of a fetch's callee chain or of a bound name)."""
    names: set[str] = set()
    for pos in positions[:MAX * 2]:
        line_start = text.rfind("\n", max(0, pos - 200), pos) + 1
        head = text[line_start:pos]
        statement = head.rpartition(";")[2]
        body = statement.rstrip(" \t(")
        if body.endswith(" await"):
            body = body[:-6].rstrip(" \t(")
        if not body.endswith("return") or body[-7:-6] not in ("", " ", "\t", ":"):
            lam = _LAMBDA.match(statement)  # get = lambda u: urlopen(u).read()
            if lam is not None and statement.rstrip(" \t(").endswith(":"):
                names.add(lam.group(1))
            continue
        defined = _DEF.match(head)  # def get(u): return urlopen(u).read()
        name = defined.group(1) if defined is not None else _enclosing_def(text, line_start)
        if name is not None:
            names.add(name)
        if len(names) >= 8:
            break
    return names


def _enclosing_def(text: str, line_start: int) -> str | None:
    """The ``def`` whose body holds the line at ``line_start``: the nearest less indented
    ``def`` line above it, through the blocks between (``with``, ``if``, ``for``)."""
    indent = len(text[line_start:line_start + 80]) - len(
        text[line_start:line_start + 80].lstrip(" \t"))
    end = line_start - 1
    floor = max(0, line_start - WINDOW)
    for _ in range(64):
        if end <= floor or indent == 0:
            return None
        start = text.rfind("\n", floor, end) + 1
        line = text[start:end]
        stripped = line.lstrip(" \t")
        depth = len(line) - len(stripped)
        if stripped and depth < indent:
            m = _DEF.match(line)
            if m is not None:
                return m.group(1)
            indent = depth  # a block inside the function: look further up
        end = start - 1
    return None


def helper_calls(text: str, names: set[str]) -> list[int]:
    """Where each call of a helper in ``names`` opens its ``(`` (not its ``def``)."""
    if not names:
        return []
    pattern = re.compile("(?:" + "|".join(re.escape(n) for n in sorted(names)) + r")[ \t]*\(")
    out: list[int] = []
    for m in pattern.finditer(text):
        at = m.start()
        if at and (text[at - 1].isalnum() or text[at - 1] in "_."):
            continue
        if word_before(text, at)[0] == "def":
            continue
        out.append(m.end() - 1)
        if len(out) >= MAX:
            break
    return out
