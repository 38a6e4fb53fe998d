"""Shell glob patterns matched against known values, for parameter operations.

``${x%%x*}``, ``${x/#h?/}``, ``${IFS%??}`` and ``${x^^[lo]}`` match a pattern (``*``, ``?``,
``[...]`` with ranges, negation and ``[:class:]``, ``\\`` escapes) against a value. The
matcher simulates the pattern's states over the value once per start position, so its work is
bounded by ``len(value) * len(pattern)`` per position (no backtracking); callers cap the
total work of a classification with :data:`BUDGET`. Extended globs (``@(...)`` and
friends) are not modelled: a pattern that uses them gives None, which the callers turn into
an unknown value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

__all__ = ["BUDGET", "Pattern", "compile_pattern", "escape"]

BUDGET = 20_000  # states visited per classification (values are at most a few KB)

_STAR, _ONE, _CHAR, _SET = 0, 1, 2, 3

_CLASSES: dict[str, Callable[[str], bool]] = {
    "alpha": str.isalpha, "digit": str.isdigit, "alnum": str.isalnum, "upper": str.isupper,
    "lower": str.islower, "space": str.isspace, "blank": lambda c: c in " \t",
    "punct": lambda c: c.isprintable() and not c.isalnum() and not c.isspace(),
    "xdigit": lambda c: c in "0123456789abcdefABCDEF", "print": str.isprintable,
    "graph": lambda c: c.isprintable() and not c.isspace(),
    "cntrl": lambda c: not c.isprintable(), "word": lambda c: c.isalnum() or c == "_",
}

class _Set(NamedTuple):
    negate: bool
    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]
    classes: tuple[str, ...]


_Token = tuple[int, object]


def escape(text: str) -> str:
    """Quote ``text`` so that it matches only itself (a quoted part of a pattern)."""
    if not any(c in text for c in "*?[]\\"):
        return text
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


class Pattern:
    """A compiled glob: :meth:`match_ends` gives every length of ``value[start:]`` it
    matches as a prefix."""

    __slots__ = ("tokens", "reverse")

    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.reverse: Pattern | None = None

    def literal(self) -> str | None:
        """The text the pattern matches when it has no wildcard, else None."""
        if all(kind == _CHAR for kind, _ in self.tokens):
            return "".join(str(data) for _, data in self.tokens)
        return None

    def reversed(self) -> Pattern:
        """The pattern that matches reversed strings (for suffix operations)."""
        if self.reverse is None:
            self.reverse = Pattern(self.tokens[::-1])
        return self.reverse

    def match_ends(self, value: str, start: int, budget: list[int]) -> list[int] | None:
        """Lengths ``k`` such that the pattern matches ``value[start:start+k]``, ascending;
        None when the budget runs out."""
        tokens = self.tokens
        m = len(tokens)
        budget[0] -= 20  # the call itself
        states = self._closure({0})
        out: list[int] = [0] if m in states else []
        for k in range(start, len(value)):
            if not states:
                break
            budget[0] -= len(states) + 1
            if budget[0] < 0:
                return None
            ch = value[k]
            nxt: set[int] = set()
            for i in states:
                if i >= m:
                    continue
                kind, data = tokens[i]
                if kind == _STAR:
                    nxt.add(i)
                elif kind == _ONE or (kind == _CHAR and data == ch) or (
                        kind == _SET and _in_set(data, ch)):
                    nxt.add(i + 1)
            states = self._closure(nxt)
            if m in states:
                out.append(k - start + 1)
        return out

    def _closure(self, states: set[int]) -> set[int]:
        tokens = self.tokens
        m = len(tokens)
        todo = list(states)
        while todo:
            i = todo.pop()
            if i < m and tokens[i][0] == _STAR and i + 1 not in states:
                states.add(i + 1)
                todo.append(i + 1)
        return states

    def full(self, value: str, budget: list[int]) -> bool | None:
        """Whether the pattern matches all of ``value`` (None: over budget)."""
        ends = self.match_ends(value, 0, budget)
        return None if ends is None else (bool(ends) and ends[-1] == len(value))


def _in_set(data: object, ch: str) -> bool:
    assert isinstance(data, _Set)
    hit = ch in data.chars or any(lo <= ch <= hi for lo, hi in data.ranges) or \
        any(_CLASSES[c](ch) for c in data.classes)
    return hit != data.negate


def compile_pattern(text: str) -> Pattern | None:
    """Compile a glob; None for extended globs and unknown character classes."""
    tokens: list[_Token] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in "?*+@!" and i + 1 < n and text[i + 1] == "(":
            return None  # extglob: not modelled
        if c == "\\":
            tokens.append((_CHAR, text[i + 1] if i + 1 < n else "\\"))
            i += 2
        elif c == "*":
            if not tokens or tokens[-1][0] != _STAR:
                tokens.append((_STAR, None))
            i += 1
        elif c == "?":
            tokens.append((_ONE, None))
            i += 1
        elif c == "[":
            parsed = _bracket(text, i)
            if parsed is None:
                return None
            if parsed[0] is None:
                tokens.append((_CHAR, "["))
                i += 1
            else:
                tokens.append((_SET, parsed[0]))
                i = parsed[1]
        else:
            tokens.append((_CHAR, c))
            i += 1
    return Pattern(tokens)


def _bracket(text: str, i: int) -> tuple[_Set | None, int] | None:
    """Parse ``[...]`` at ``i``: ((negate, chars, ranges, classes), next index); (None, i)
    when there is no closing bracket (a literal ``[``); None for an unknown class."""
    j = i + 1
    n = len(text)
    negate = j < n and text[j] in "!^"
    if negate:
        j += 1
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    classes: list[str] = []
    first = True
    while j < n:
        c = text[j]
        if c == "]" and not first:
            return _Set(negate, frozenset(chars), tuple(ranges), tuple(classes)), j + 1
        first = False
        if c == "[" and text.startswith("[:", j):
            end = text.find(":]", j + 2)
            if end < 0:
                chars.add(c)
                j += 1
                continue
            name = text[j + 2:end]
            if name not in _CLASSES:
                return None
            classes.append(name)
            j = end + 2
            continue
        if c == "\\" and j + 1 < n:
            c = text[j + 1]
            j += 1
        if j + 2 < n and text[j + 1] == "-" and text[j + 2] != "]":
            hi = text[j + 2]
            if hi == "\\" and j + 3 < n:
                hi = text[j + 3]
                j += 1
            ranges.append((c, hi))
            j += 3
            continue
        chars.add(c)
        j += 1
    return None, i
