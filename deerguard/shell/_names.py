"""Names bound to constant strings in Python, JavaScript and Ruby code, read soundly.

``c = "rm -rf /"; os.system(f"{c}")``: the folder (``_strfold``) and the template reader
(``_fstr``) need the value a name holds where it is read. :class:`Scope` answers it from
every binding site of the name in the code (``_bindsites``):

* ``c = <const>`` (also ``a, b = "rm", "-rf ~"``, ``a = b = "x"``, ``c: str = "x"``,
  ``const c = "x"``, ``let a = "x", b = "y"``) binds a constant when the right side folds;
* ``c += <const>`` appends, when it is a plain statement in the block of the one
  ``c = <const>`` (no branch or loop header between them);
* any other binding (``c = input()``, ``for c in``, ``import c``, ``def f(c)``, ``c :=``,
  ``with .. as c``, ``except .. as c``, ``(c) =>``, ``catch (c)``, destructuring) makes the
  name not constant, and so does a namespace written by name (``globals()``, ``setattr``,
  ``exec``, ``eval``, ``globalThis``), or a Ruby String changed in place (``c << x``).

A name has a value only where it is read after every binding of it (a loop or a function
body read earlier could see a later value), and several plain bindings must agree. Every
scan is linear in the tokens; at most 256 binding sites and 8 levels of names defined by
names are read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from ._bindsites import RB_MODIFIERS, Site, Sites
from ._strfuncs import Tok

__all__ = ["Scope", "SCOPED"]

SCOPED = frozenset({"python", "node", "deno", "bun", "ruby"})
_MAX_NAME_SITES = 32
_MAX_DEPTH = 8
_ENDS = frozenset({";", "\n", ")", "}", ",", "]"})

Fold = Callable[[int, "Scope"], "tuple[str | None, int]"]


class Scope(Mapping[str, str]):
    """The constant names of ``toks`` as read at token ``pos`` (set by the reader)."""

    def __init__(self, toks: list[Tok], code: str, language: str, fold: Fold) -> None:
        self.toks = toks
        self.code = code
        self.js = language in ("node", "deno", "bun")
        self.ruby = language == "ruby"
        self.fold = fold
        self.pos = len(toks)
        scan = Sites(toks, code, language)
        self.sites, self.off = scan.sites, scan.off
        self.cache: dict[tuple[int, int], str | None] = {}
        self.final: dict[str, str | None] = {}
        self.depth = 0

    # -- Mapping ---------------------------------------------------------------------
    def __getitem__(self, name: str) -> str:
        value = self.value(name, self.pos)
        if value is None:
            raise KeyError(name)
        return value

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.value(name, self.pos) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(())  # only lookups by name are meaningful

    def __len__(self) -> int:
        return 0

    # -- values ----------------------------------------------------------------------
    def _site_value(self, name: str, site: Site) -> str | None:
        key = (site[1], site[2])
        if key in self.cache:
            return self.cache[key]
        self.cache[key] = None  # a cycle reads as not constant
        saved = self.pos
        self.pos = site[1]
        try:
            if site[0] == "alias":
                value = self.value(self.toks[site[2]][1], site[2] + 1)
            else:
                value, end = self.fold(site[2], self)
                if value is not None and end < len(self.toks) and \
                        self.toks[end][1] not in _ENDS:
                    value = None
        finally:
            self.pos = saved
        self.cache[key] = value
        return value

    def value(self, name: str, pos: int) -> str | None:
        """The constant ``name`` holds when read at token ``pos``, or None."""
        if self.off:
            return None
        sites = self.sites.get(name)
        if not sites or sites[-1][1] >= pos or self.depth >= _MAX_DEPTH:
            return None
        if name in self.final:  # read after every binding: the same value wherever
            return self.final[name]
        if any(s[0] == "other" for s in sites) or sites[0][0] == "aug" or \
                len(sites) > _MAX_NAME_SITES:
            return None
        value = self._value(name, sites)
        if self.depth == 0:
            self.final[name] = value
        return value

    def _value(self, name: str, sites: list[Site]) -> str | None:
        self.depth += 1
        try:
            augs = [s for s in sites if s[0] == "aug"]
            if not augs:
                values = {self._site_value(name, s) for s in sites}
                return values.pop() if len(values) == 1 else None
            if len(sites) != len(augs) + 1 or not all(s[3] for s in sites) or \
                    not all(self._same_block(sites[0][1], s[1]) for s in augs):
                return None
            parts = [self._site_value(name, s) for s in sites]
            if any(p is None for p in parts):
                return None
            joined = "".join(p or "" for p in parts)
            return joined if len(joined) <= 4096 else None
        finally:
            self.depth -= 1

    def _same_block(self, a: int, b: int) -> bool:
        """Whether tokens ``a`` < ``b`` are statements of one block, nothing between them
        leaving it (a brace closed, or a line indented less)."""
        if self.ruby:  # no block opens or closes between them
            return not any(self.toks[j][1] in RB_MODIFIERS for j in range(a, b))
        if self.js:
            depth = 0
            for j in range(a, b):
                t = self.toks[j][1]
                if t == "{":
                    depth += 1
                elif t == "}":
                    depth -= 1
                    if depth < 0:
                        return False
            return depth == 0
        code = self.code

        def indent(k: int) -> int:
            start = code.rfind("\n", 0, self.toks[k][2]) + 1
            head = code[start:self.toks[k][2]]
            return len(head) - len(head.lstrip())

        if indent(a) != indent(b):
            return False
        end = self.toks[b][2]
        line = code.find("\n", self.toks[a][2], end)
        while line != -1:
            nxt = code.find("\n", line + 1, end)
            text = code[line + 1:nxt if nxt != -1 else end]
            body = text.lstrip(" \t")
            if body and not body.startswith("#") and len(text) - len(body) != indent(a):
                return False
            line = nxt
        return True
