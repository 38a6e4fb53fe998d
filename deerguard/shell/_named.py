"""Where a file written by the command is named in its text, for findings made after the walk."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["file_span"]


def file_span(run: Run, path: str) -> tuple[int, int]:
    """Where the file's name appears in the command (else the whole command)."""
    name = path.rpartition("/")[2]
    k = run.source.find(name) if name else -1
    return (k, k + len(name)) if k >= 0 else (0, len(run.source))
