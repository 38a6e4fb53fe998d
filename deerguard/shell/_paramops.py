"""Parameter-expansion operators applied to values known statically.

``x=rmfoo; ${x:0:2}`` is ``rm``; ``${x%%x*}``, ``${x/#h?/}``, ``${IFS%??}``, ``${x,,}``,
``${x^^[lo]}``, ``${x@L}``, ``${x@E}`` and ``${x@Q}`` likewise. Patterns are shell globs
(``_glob``); the caller passes them with quoted characters escaped. Anything not modelled
(extended globs, ``${x@A}``, an unknown part) gives :data:`DYN`, never a wrong literal.
"""

from __future__ import annotations

from ._extmatch import ExtPattern, compile_extglob
from ._glob import BUDGET, Pattern, compile_pattern
from ._lexer import decode_ansi_c
from ._values import DYN, to_int

__all__ = ["transform"]

_PATTERN_OPS = frozenset({"#", "##", "%", "%%", "/", "//", "/#", "/%"})
_CASE_OPS = frozenset({"^^", ",,", "^", ",", "~~", "~"})


def transform(value: str, op: str, args: list[str], budget: list[int] | None = None) -> str:
    """Apply a parameter operator to a known value (``${x:0:2}``, ``${x/a*/b}``, ``${x,,}``).

    For ``:`` the arguments are already evaluated offsets (decimal text, or DYN).
    ``budget`` bounds the pattern matching work (shared by the caller across operations);
    past it the value is DYN.
    """
    if budget is None:
        budget = [BUDGET]
    if any(DYN in a for a in args):
        return DYN
    budget[0] -= len(value) // 4 + 1
    if budget[0] < 0:
        return DYN
    if DYN in value:
        # Only a substring inside the known start of the value is known: ${PWD::1} is /.
        known = value[:value.index(DYN)]
        start = to_int(args[0]) if op == ":" and args else None
        length = to_int(args[1]) if start is not None and len(args) > 1 else None
        if start is not None and length is not None and start >= 0 and length >= 0 and \
                start + length <= len(known):
            return known[start:start + length]
        return DYN
    if op == ":":
        return _substring(value, args)
    if op in _CASE_OPS:
        return _case(value, op, args[0] if args else "", budget)
    if op == "@":
        return _transformation(value, args[0] if args else "")
    if op not in _PATTERN_OPS:
        return DYN
    pattern_text = args[0] if args else ""
    if not pattern_text:
        repl = args[1] if len(args) > 1 else ""
        return repl + value if op == "/#" else value + repl if op == "/%" else value
    pattern = compile_pattern(pattern_text) or compile_extglob(pattern_text)
    if pattern is None:
        return DYN
    literal = pattern.literal()
    if literal is not None:
        return _literal(value, op, literal, args[1] if len(args) > 1 else "")
    if op in ("#", "##"):
        ends = pattern.match_ends(value, 0, budget)
        if ends is None:
            return DYN
        if not ends:
            return value
        return value[(ends[0] if op == "#" else ends[-1]):]
    if op in ("%", "%%"):
        ends = pattern.reversed().match_ends(value[::-1], 0, budget)
        if ends is None:
            return DYN
        if not ends:
            return value
        cut = ends[0] if op == "%" else ends[-1]
        return value[:len(value) - cut]
    result = _replace(value, pattern, op, args[1] if len(args) > 1 else "", budget)
    return DYN if result is None else result


def _literal(value: str, op: str, pattern: str, repl: str) -> str:
    """A pattern without wildcards: plain string operations."""
    if op in ("#", "##"):
        return value[len(pattern):] if value.startswith(pattern) else value
    if op in ("%", "%%"):
        return value[:len(value) - len(pattern)] if value.endswith(pattern) else value
    if op == "/":
        return value.replace(pattern, repl, 1)
    if op == "//":
        return value.replace(pattern, repl)
    if op == "/#":
        return repl + value[len(pattern):] if value.startswith(pattern) else value
    return value[:len(value) - len(pattern)] + repl if value.endswith(pattern) else value


def _substring(value: str, args: list[str]) -> str:
    try:
        n = len(value)
        start = int(args[0].strip()) if args and args[0].strip() else 0
        if start < 0 and n + start < 0:
            return ""  # ${x: -10} of a shorter value is empty
        start = n + start if start < 0 else start
        end = n
        if len(args) > 1:
            length = int(args[1].strip()) if args[1].strip() else 0
            end = n + length if length < 0 else start + length
        if start > n:
            return ""
        return value[start:end] if end >= start else DYN
    except ValueError:
        return DYN


def _replace(value: str, pattern: Pattern | ExtPattern, op: str, repl: str, budget: list[int]
             ) -> str | None:
    if op == "/#":
        ends = pattern.match_ends(value, 0, budget)
        if ends is None:
            return None
        return repl + value[ends[-1]:] if ends else value
    if op == "/%":
        ends = pattern.reversed().match_ends(value[::-1], 0, budget)
        if ends is None:
            return None
        return value[:len(value) - ends[-1]] + repl if ends else value
    out: list[str] = []
    i = 0
    n = len(value)
    while i <= n:
        ends = pattern.match_ends(value, i, budget)
        if ends is None:
            return None
        longest = ends[-1] if ends else 0
        if ends and longest > 0:
            out.append(repl)
            i += longest
            if op == "/":
                out.append(value[i:])
                return "".join(out)
            continue
        if i < n:
            out.append(value[i])
        i += 1
    return "".join(out)


def _case(value: str, op: str, pattern_text: str, budget: list[int]) -> str:
    pattern = compile_pattern(pattern_text) if pattern_text else None
    if pattern_text and pattern is None:
        return DYN

    def change(ch: str) -> str:
        if op in ("^^", "^"):
            return ch.upper()
        if op in (",,", ","):
            return ch.lower()
        return ch.lower() if ch.isupper() else ch.upper()

    every = op in ("^^", ",,", "~~")
    table: dict[int, str] = {}
    for ch in set(value) if every else set(value[:1]):  # each distinct character once
        if pattern is not None:
            hit = pattern.full(ch, budget)
            if hit is None:
                return DYN
            if not hit:
                continue
        table[ord(ch)] = change(ch)
    if every:
        return value.translate(table)
    return value[:1].translate(table) + value[1:]


def _transformation(value: str, letter: str) -> str:
    if letter == "U":
        return value.upper()
    if letter == "L":
        return value.lower()
    if letter == "u":
        return value[:1].upper() + value[1:]
    if letter == "E":
        return decode_ansi_c(value)
    if letter == "Q":
        if not value.isprintable():
            return DYN  # bash writes $'...' then: not modelled
        return "'" + value.replace("'", "'\\''") + "'"
    if letter == "P" and not any(c in value for c in "\\$`"):
        return value  # prompt expansion of plain text is the text
    return DYN
