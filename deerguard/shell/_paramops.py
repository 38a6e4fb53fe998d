"""Parameter-expansion operators applied to values known statically.

``x=rmfoo; ${x:0:2}`` is ``rm``; ``${x/X/}``, ``${x#pre}``, ``${x%suf}``, ``${x,,}`` likewise.
Only literal patterns are applied; a glob pattern or an unknown part gives :data:`DYN`.
"""

from __future__ import annotations

from ._words import DYN

__all__ = ["transform"]


def transform(value: str, op: str, args: list[str]) -> str:
    """Apply a parameter operator to a known value (``${x:0:2}``, ``${x/a/b}``, ``${x,,}``).

    Only literal patterns are applied; anything else (globs, unknown parts) gives DYN.
    """
    if DYN in value or any(DYN in a for a in args):
        return DYN
    if op == ":":
        try:
            n = len(value)
            start = int(args[0].strip()) if args and args[0].strip() else 0
            start = max(0, n + start) if start < 0 else start
            end = n
            if len(args) > 1:
                length = int(args[1].strip())
                end = n + length if length < 0 else start + length
            return value[start:end] if end >= start else DYN
        except ValueError:
            return DYN
    if op in ("^^", ",,", "^", ","):
        if args and args[0]:
            return DYN
        if op == "^^":
            return value.upper()
        if op == ",,":
            return value.lower()
        return (value[:1].upper() if op == "^" else value[:1].lower()) + value[1:]
    pattern = args[0] if args else ""
    if any(c in pattern for c in "*?[\\"):
        return DYN
    if op in ("/", "//", "/#", "/%"):
        repl = args[1] if len(args) > 1 else ""
        if not pattern:
            return value
        if op == "/":
            return value.replace(pattern, repl, 1)
        if op == "//":
            return value.replace(pattern, repl)
        if op == "/#":
            return repl + value[len(pattern):] if value.startswith(pattern) else value
        return value[:-len(pattern)] + repl if value.endswith(pattern) else value
    if op in ("#", "##"):
        return value[len(pattern):] if value.startswith(pattern) else value
    if op in ("%", "%%"):
        return value[:len(value) - len(pattern)] if pattern and value.endswith(pattern) \
            else value
    return DYN
