"""Trap bodies run later: ``trap CODE SIG`` runs CODE when SIG arrives or the shell exits.

The walk classifies CODE where ``trap`` is written, with the state of that moment. But the
body runs later, with the state of then: ``trap 'eval "$x"' EXIT; x=$(curl u)`` evaluates
fetched text, ``trap '. ./hook.sh' EXIT; curl u -o hook.sh`` sources a fetched file, and
``trap 'rm -rf *' EXIT; cd /`` deletes everything under ``/``. So the bodies set by the
top-level script are classified once more after the walk, with its final variables, files
and working directory. A trap set inside nested shell code (``bash -c 'trap ... EXIT;
...'``) or a subshell (``( trap ... EXIT; ... )``) fires when that code ends, so it is
classified again there, with that code's variables and in its own coordinates. Code that
the same shell runs (``eval``, an alias) is no shell of its own: the traps it sets belong to
the shell around it and fire when that one ends (``eval "trap '. ./x' EXIT"; curl u -o x``).
A finding both readings share is reported once (the run keeps one finding per rule and
span); only what the later state adds is new.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._values import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["check_traps", "note_trap", "rehome_traps"]

_MAX_TRAPS = 16


def note_trap(run: Run, code: Field, span: tuple[int, int]) -> None:
    """Remember a trap body, with the nesting of the code that sets it."""
    if not run.raw_mode and len(run.traps) < _MAX_TRAPS and code.text:
        run.traps.append((code, span, len(run.frames)))


def check_traps(run: Run, depth: int, since: int = 0) -> None:
    """The code at nesting ``depth`` ends (a subshell: the traps noted ``since`` an index):
    classify the trap bodies it set again, with the state it leaves (each once: a body
    that sets a trap notes it one level deeper)."""
    mine = [trap for trap in run.traps[since:] if trap[2] == depth]
    if not mine:
        return
    run.traps = run.traps[:since] + [trap for trap in run.traps[since:] if trap[2] != depth]
    for code, span, _ in mine:
        run.run_code(code, "trap", span, None, positional=[])


def rehome_traps(run: Run, depth: int) -> None:
    """Code at nesting ``depth`` that the same shell runs (``eval``, an alias) ends: the
    traps it set move to the code around it, their spans mapped out of the ending frame."""
    frame = run.frames[-1]
    moved: list[tuple[Field, tuple[int, int], int]] = []
    for code, span, level in run.traps:
        if level == depth:
            code = Field(code.text, frame.outer(code.span), code.taint)
            span, level = frame.outer(span), depth - 1
        moved.append((code, span, level))
    run.traps = moved
