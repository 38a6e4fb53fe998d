"""Extended globs (``shopt -s extglob``) matched against known values, for parameter
operations: ``x=rmXX; ${x%%+(X)}`` is ``rm``.

:func:`compile_extglob` compiles ``?(a|b)``, ``*(...)``, ``+(...)`` and ``@(...)`` groups
(nested, with ``*``, ``?``, ``[...]`` and ``\\`` escapes around them) into an object with the
interface of :class:`._glob.Pattern` (``literal``, ``reversed``, ``match_ends``), so the
operators of ``_paramops`` use it unchanged. ``!(...)`` (a complement) is not modelled: None.

Matching computes, for each (pattern position, value position), the set of positions where
the rest of the pattern can end, memoized: polynomial work (pattern size x value length^2,
no backtracking), charged to the caller's budget; values longer than :data:`_MAX_VALUE`
are not matched (None: the caller's value becomes unknown).
"""

from __future__ import annotations

from ._glob import _bracket, _in_set

__all__ = ["ExtPattern", "compile_extglob"]

_MAX_VALUE = 128
_MAX_PATTERN = 128

# A node: ("c", char), ("?", None), ("*", None), ("[", set data), or (op, alternatives)
# for a group, op one of "?*+@" and each alternative a tuple of nodes.
_Node = tuple[str, object]
_Seq = tuple[_Node, ...]


class _Bad(Exception):
    pass


def _parse(text: str, i: int, stop: str) -> tuple[list[_Seq], int]:
    """Alternatives from ``i`` up to the ``stop`` character (``)`` of a group, or the end)."""
    alts: list[_Seq] = []
    cur: list[_Node] = []
    n = len(text)
    while i < n:
        c = text[i]
        if stop and c == ")":
            alts.append(tuple(cur))
            return alts, i + 1
        if stop and c == "|":
            alts.append(tuple(cur))
            cur = []
            i += 1
            continue
        if c in "?*+@!" and i + 1 < n and text[i + 1] == "(":
            if c == "!":
                raise _Bad
            inner, i = _parse(text, i + 2, ")")
            cur.append((c, tuple(inner)))
            continue
        if c == "\\":
            cur.append(("c", text[i + 1] if i + 1 < n else "\\"))
            i += 2
        elif c in "*?":
            cur.append((c, None))
            i += 1
        elif c == "[":
            parsed = _bracket(text, i)
            if parsed is None:
                raise _Bad
            if parsed[0] is None:
                cur.append(("c", "["))
                i += 1
            else:
                cur.append(("[", parsed[0]))
                i = parsed[1]
        else:
            cur.append(("c", c))
            i += 1
    if stop:
        raise _Bad  # an unclosed group
    alts.append(tuple(cur))
    return alts, i


def _reverse(seq: _Seq) -> _Seq:
    out: list[_Node] = []
    for kind, data in reversed(seq):
        if kind in ("?", "*", "+", "@") and isinstance(data, tuple):
            out.append((kind, tuple(_reverse(a) for a in data)))
        else:
            out.append((kind, data))
    return tuple(out)


class ExtPattern:
    """A compiled extended glob (see the module doc)."""

    __slots__ = ("seq", "reverse")

    def __init__(self, seq: _Seq) -> None:
        self.seq = seq
        self.reverse: ExtPattern | None = None

    def literal(self) -> str | None:
        return None

    def reversed(self) -> ExtPattern:
        if self.reverse is None:
            self.reverse = ExtPattern(_reverse(self.seq))
        return self.reverse

    def match_ends(self, value: str, start: int, budget: list[int]) -> list[int] | None:
        """Lengths ``k`` such that the pattern matches ``value[start:start+k]``, ascending;
        None over budget or for a value too long."""
        if len(value) > _MAX_VALUE:
            return None
        matcher = _Matcher(value, budget)
        try:
            ends = matcher.ends(self.seq, 0, start)
        except (_Bad, RecursionError):
            return None
        return sorted(e - start for e in ends)


class _Matcher:
    __slots__ = ("value", "budget", "memo", "groups")

    def __init__(self, value: str, budget: list[int]) -> None:
        self.value = value
        self.budget = budget
        self.memo: dict[tuple[int, int, int], frozenset[int]] = {}
        self.groups: dict[tuple[int, int], frozenset[int]] = {}

    def _charge(self, work: int = 0) -> None:
        self.budget[0] -= 20 + 2 * work  # an entry, and the positions it merges
        if self.budget[0] < 0:
            raise _Bad

    def ends(self, seq: _Seq, i: int, pos: int) -> frozenset[int]:
        """Positions where ``seq[i:]`` can end when it starts at ``pos``."""
        key = (id(seq), i, pos)
        found = self.memo.get(key)
        if found is not None:
            return found
        self._charge()
        value = self.value
        if i == len(seq):
            result = frozenset({pos})
        else:
            kind, data = seq[i]
            if kind == "*" and data is None:
                result = self._merge([self.ends(seq, i + 1, p)
                                      for p in range(pos, len(value) + 1)])
            elif kind in ("c", "[") or data is None:
                ok = pos < len(value) and (kind == "?" or (kind == "c" and value[pos] == data)
                                           or (kind == "[" and _in_set(data, value[pos])))
                result = self.ends(seq, i + 1, pos + 1) if ok else frozenset()
            else:
                assert isinstance(data, tuple)
                result = self._merge([self.ends(seq, i + 1, e)
                                      for e in self._group(kind, data, pos)])
        self.memo[key] = result
        return result

    def _group(self, op: str, alts: tuple[_Seq, ...], pos: int) -> frozenset[int]:
        key = (id(alts), pos)
        found = self.groups.get(key)
        if found is not None:
            return found
        self._charge()
        if op in ("@", "?"):
            out = set(self._once(alts, pos))
            if op == "?":
                out.add(pos)
        else:  # + and *: one or more (zero or more) repetitions
            out = set()
            todo = list(self._once(alts, pos))
            while todo:
                e = todo.pop()
                if e in out:
                    continue
                out.add(e)
                if e != pos:
                    todo.extend(self._once(alts, e))
            if op == "*":
                out.add(pos)
        result = frozenset(out)
        self.groups[key] = result
        return result

    def _once(self, alts: tuple[_Seq, ...], pos: int) -> frozenset[int]:
        return self._merge([self.ends(a, 0, pos) for a in alts])

    def _merge(self, parts: list[frozenset[int]]) -> frozenset[int]:
        self._charge(sum(len(p) for p in parts))
        return frozenset().union(*parts)


def compile_extglob(text: str) -> ExtPattern | None:
    """An extended glob; None without a group, with ``!(...)``, or when malformed."""
    if "(" not in text or len(text) > _MAX_PATTERN:
        return None
    try:
        alts, _ = _parse(text, 0, "")
    except (_Bad, IndexError):
        return None
    return ExtPattern(alts[0])
