"""Data flowing between commands: what reaches a command's stdin, or leaves its stdout."""

from __future__ import annotations

from typing import NamedTuple

from ._words import NO_TAINT, Taint

__all__ = ["EMPTY", "Flow", "union"]


class Flow(NamedTuple):
    """Data flowing into a command's stdin or out of its stdout (immutable; a NamedTuple
    because one is made per command and tuple construction is the cheapest)."""

    taint: Taint = NO_TAINT
    producer: str | None = None
    span: tuple[int, int] = (0, 0)
    text: str | None = None  # statically known content (heredoc, echo 'x')
    via: str = "pipe"  # pipe, heredoc, here-string, file


EMPTY = Flow()


def union(a: Flow, b: Flow) -> Flow:
    if not b.taint and b.producer is None:
        return a
    if not a.taint and a.producer is None:
        return b
    return Flow(a.taint | b.taint, a.producer or b.producer, a.span, None, a.via)


