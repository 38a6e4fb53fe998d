"""Rewrites of code text by spans: the readers that write a constant back into code (folded
strings, interpolated literals, plain call names, spelled home paths) collect
``(start, end, text)`` edits and apply them here in one pass."""

from __future__ import annotations

__all__ = ["apply_edits"]


def apply_edits(code: str, edits: list[tuple[int, int, str]]) -> str:
    """``code`` with the span ``start:end`` of each edit replaced by its text, edits taken
    in order of their start; an edit that overlaps one taken before it is dropped (the
    first, outermost-starting, wins). ``code`` itself when there is no edit."""
    if not edits:
        return code
    out: list[str] = []
    last = 0
    for start, end, text in sorted(edits):
        if start < last:
            continue
        out.append(code[last:start])
        out.append(text)
        last = end
    out.append(code[last:])
    return "".join(out)
