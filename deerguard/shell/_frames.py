"""Frames of nested code: how a span in nested code maps out to the code around it."""

from __future__ import annotations

__all__ = ["Frame"]


class Frame:
    """Nested code's place in the code around it: its spans map out by ``offset`` (the
    code is a verbatim part of it), by ``index`` (one origin per character: a rewritten
    variant) or, when neither, onto ``clamp`` (the span of the word that holds the code)."""

    __slots__ = ("offset", "clamp", "index")

    def __init__(self, offset: int | None, clamp: tuple[int, int],
                 index: list[int] | None = None) -> None:
        self.offset = offset
        self.clamp = clamp
        self.index = index

    def outer(self, span: tuple[int, int]) -> tuple[int, int]:
        """``span`` in this frame's code, as a span of the code around it."""
        idx = self.index
        if idx is not None:
            s = idx[min(max(span[0], 0), len(idx) - 1)] if idx else 0
            e = idx[min(max(span[1] - 1, 0), len(idx) - 1)] + 1 if idx else 0
            return (s, max(s, e))
        if self.offset is not None:
            return (span[0] + self.offset, span[1] + self.offset)
        return self.clamp
