"""Classify code that runs later, and keep what it finds only when that blocks.

Code a command stores for later (a git hook, a git config command, an npm script, a Makefile
recipe) is classified where it is written; everyday text (``make lint``) must not add its own
warnings to the write's, so its findings are dropped unless one of them blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._result import Verdict

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["keep_if_blocking"]


def keep_if_blocking(run: Run, classify: Callable[..., object], *args: Any,
                     rules: frozenset[str] | None = None,
                     skip: frozenset[str] = frozenset(), **kwargs: Any) -> bool:
    """Run ``classify(*args, **kwargs)`` (which adds findings to ``run``); keep what it added
    only when a finding blocks (one of ``rules``, when given, and none of ``skip``). True
    when kept."""
    findings, commands = len(run.findings), len(run.commands)
    classify(*args, **kwargs)
    added = run.findings[findings:]
    if any(f.severity is Verdict.BLOCK and (rules is None or f.rule_id in rules)
           and f.rule_id not in skip for f in added):
        return True
    for f in added:
        run.seen.discard((f.rule_id, f.span.start, f.span.end))
    del run.findings[findings:]
    del run.commands[commands:]
    return False
