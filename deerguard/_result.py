"""The result vocabulary shared by every guard: verdicts, spans and findings.

Every guard returns a frozen result object built from these pieces, and every result has a
``to_dict()`` that gives plain JSON data for the CLI and for audit logs.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = ["Finding", "Span", "Verdict", "worst"]


class Verdict(enum.StrEnum):
    """How risky an input is: ``pass`` < ``warn`` < ``block``.

    Verdicts are ordered by risk, so ``max()`` over verdicts is the combined verdict and
    ``Verdict.WARN < Verdict.BLOCK`` holds. ``str(Verdict.BLOCK) == "block"``.
    """

    PASS = "pass"
    WARN = "warn"
    BLOCK = "block"

    @property
    def rank(self) -> int:
        """0 for pass, 1 for warn, 2 for block (the CLI's exit status for judging verbs)."""
        return _RANK[self]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self.rank <= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self.rank >= other.rank


_RANK = {Verdict.PASS: 0, Verdict.WARN: 1, Verdict.BLOCK: 2}


def worst(verdicts: Iterable[Verdict], /) -> Verdict:
    """Return the riskiest verdict of ``verdicts`` (``pass`` for none).

    >>> worst([Verdict.PASS, Verdict.BLOCK, Verdict.WARN])
    <Verdict.BLOCK: 'block'>
    """
    result = Verdict.PASS
    for verdict in verdicts:
        if verdict.rank > result.rank:
            result = verdict
    return result


class Span(NamedTuple):
    """A half-open ``[start, end)`` range of character offsets into the guarded input.

    It is a tuple, so ``Span(0, 4) == (0, 4)`` and ``text[slice(*span)]`` gives its text.
    """

    start: int
    end: int

    def to_list(self) -> list[int]:
        """Return ``[start, end]`` for JSON."""
        return [self.start, self.end]


@dataclass(frozen=True, slots=True)
class Finding:
    """One reason behind a verdict, pointing at the bytes that caused it.

    ``rule_id`` is stable and namespaced (``shell.pipe-to-shell``, ``tags.forged-tag``);
    ``severity`` is the verdict this finding alone implies; ``span`` is a ``(start, end)``
    range in the guarded input; ``detail`` explains the chain that led here, if any.
    """

    rule_id: str
    severity: Verdict
    message: str
    span: Span
    detail: str | None = None

    def __post_init__(self) -> None:
        # Accept a plain tuple for convenience but store a Span, so results compare equal.
        if not isinstance(self.span, Span):
            object.__setattr__(self, "span", Span(*self.span))
        if not isinstance(self.severity, Verdict):
            object.__setattr__(self, "severity", Verdict(self.severity))

    def to_dict(self) -> dict[str, Any]:
        """Return the finding as JSON data (``span`` as ``[start, end]``)."""
        data: dict[str, Any] = {
            "rule_id": self.rule_id,
            "severity": str(self.severity),
            "message": self.message,
            "span": self.span.to_list(),
        }
        if self.detail is not None:
            data["detail"] = self.detail
        return data
