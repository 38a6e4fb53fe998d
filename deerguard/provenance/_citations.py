"""Citations of ledger receipts in model text: ``[r12]`` and ``[r12: quoted evidence]``.

Grammar (everything else is prose, never an error)::

    citation := "[" "r" DIGITS ( "]" | ":" ANCHOR "]" )
    DIGITS   := 1 to 6 ASCII digits 0-9     (7+ digits: malformed, ignored, never truncated)
    ANCHOR   := up to the first "]"; no "[" inside; at most 300 characters once surrounding
                whitespace is stripped; an empty anchor means no anchor

* Only ASCII digits count: Arabic-Indic, fullwidth and other Unicode digits are not ids, and a
  Unicode digit right after ASCII digits makes the whole token malformed (``[r1٢]`` is no
  citation, not ``r1``).
* The id is kept exactly as written (``r012`` stays ``r012``; the ledger only knows canonical
  ids, so it will be reported unknown). The ``r`` is lowercase only.
* Nested brackets: a ``[`` inside an anchor makes the outer token malformed and scanning
  resumes at that ``[``, so ``[r1: see [r2] here]`` yields ``r2`` only.
* An anchor longer than 300 characters (or with no ``]`` within 400 characters) makes the
  token malformed; it is ignored, not truncated.

The scanner is a hand-written single pass (``str.find`` plus bounded look-ahead); every
character is examined a constant number of times, so it is linear on any input.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .._result import Finding, Span, Verdict, worst
from ..errors import ConfigError
from ._ledger import Ledger, parse_id

__all__ = ["MAX_ANCHOR", "Citation", "CitationReport", "parse_citations", "verify_citations"]

MAX_ANCHOR = 300
_MAX_DIGITS = 6
# Raw look-ahead for the closing bracket: the anchor plus generous surrounding whitespace.
_MAX_SPAN = 400


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation: display ``id`` as written (``"r12"``) and its ``anchor`` (or None).

    Equality and hashing use ``(id, anchor)`` only; ``span`` is where the first occurrence
    was found in the text (``[start, end)`` of the bracketed token).
    """

    id: str
    anchor: str | None = None
    span: Span | None = field(default=None, compare=False)

    @property
    def number(self) -> int:
        """The id's number (``r012`` -> 12)."""
        return int(self.id[1:])

    def to_dict(self) -> dict[str, Any]:
        """Return the citation as JSON data."""
        data: dict[str, Any] = {"id": self.id, "anchor": self.anchor}
        if self.span is not None:
            data["span"] = self.span.to_list()
        return data


def parse_citations(text: object, /) -> list[Citation]:
    """Return the citations in ``text`` in order of first appearance, deduplicated.

    Exact ``(id, anchor)`` repeats are dropped; the same id with distinct anchors is kept once
    per anchor. Never raises (a non-string gives ``[]``); linear time; ids are always ``r``
    plus 1-6 ASCII digits. See the module docstring for the grammar.

    >>> [(c.id, c.anchor) for c in parse_citations("X [r12] and [r12: the X] [r1234567]")]
    [('r12', None), ('r12', 'the X')]
    """
    if not isinstance(text, str):
        return []
    text = str.__str__(text)
    found: list[Citation] = []
    seen: set[tuple[str, str | None]] = set()
    n = len(text)
    i = 0
    while True:
        start = text.find("[r", i)
        if start < 0:
            break
        k = start + 2
        while k < n and "0" <= text[k] <= "9":
            k += 1
        digits = k - start - 2
        if digits == 0 or k >= n:
            i = start + 1
            continue
        if digits > _MAX_DIGITS:
            i = k  # the whole digit run is malformed: skip it, never truncate it
            continue
        ident = text[start + 1 : k]
        mark = text[k]
        anchor: str | None
        if mark == "]":
            anchor, end = None, k + 1
        elif mark == ":":
            limit = min(n, k + 1 + _MAX_SPAN)
            # Look for "[" first and "]" only before it: each look-ahead stops at the next
            # bracket, so text is rescanned at most a constant number of times.
            opener = text.find("[", k + 1, limit)
            close = text.find("]", k + 1, opener if opener >= 0 else limit)
            if close < 0:
                # A nested "[" (the inner token may be a citation) or no "]" in the window
                # (no "[" either, so no citation can start inside it).
                i = opener if opener >= 0 else limit
                continue
            anchor = text[k + 1 : close].strip() or None
            end = close + 1
            if anchor is not None and len(anchor) > MAX_ANCHOR:
                i = end
                continue
        else:
            i = k
            continue
        i = end
        key = (ident, anchor)
        if key not in seen:
            seen.add(key)
            found.append(Citation(ident, anchor, Span(start, end)))
    return found


_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019", "\u00ab": "\u00bb", "`": "`"}


def _normalize(text: str) -> str:
    return " ".join(text.split())


def _anchor_needle(anchor: str) -> str:
    needle = _normalize(anchor)
    # Models often quote their evidence: [r3: "exact words"]. One pair of quotes is dropped.
    if len(needle) >= 2 and _QUOTES.get(needle[0]) == needle[-1]:
        needle = _normalize(needle[1:-1])
    return needle


@dataclass(frozen=True, slots=True)
class CitationReport:
    """The outcome of checking a text's citations against a ledger.

    ``verified``: citations of ids retained in the ledger whose anchor, when checked, was found.
    ``unknown_ids``: cited ids the ledger never issued (fabricated, malformed like ``r012``, or
    beyond ``r{total}``). ``omitted_ids``: real ids not shown in the rendered ledger.
    ``anchors_not_found``: citations whose anchor is absent from the tool output supplied for
    that id (checked only when ``outputs`` has it). ``verdict``: block for unknown ids or
    missing anchors, warn for omitted ids only, pass otherwise.
    """

    citations: tuple[Citation, ...]
    verified: tuple[Citation, ...]
    unknown_ids: tuple[str, ...]
    omitted_ids: tuple[str, ...]
    anchors_not_found: tuple[Citation, ...]
    findings: tuple[Finding, ...]

    @property
    def verdict(self) -> Verdict:
        """The combined verdict of the findings."""
        return worst(finding.severity for finding in self.findings)

    @property
    def ok(self) -> bool:
        """True when no citation is fabricated and no checked anchor is missing."""
        return not self.unknown_ids and not self.anchors_not_found

    def to_dict(self) -> dict[str, Any]:
        """Return the report as JSON data."""
        return {
            "verdict": str(self.verdict),
            "citations": [c.to_dict() for c in self.citations],
            "verified": [c.to_dict() for c in self.verified],
            "unknown_ids": list(self.unknown_ids),
            "omitted_ids": list(self.omitted_ids),
            "anchors_not_found": [c.to_dict() for c in self.anchors_not_found],
            "findings": [f.to_dict() for f in self.findings],
        }


def _outputs(outputs: Mapping[Any, Any] | None) -> dict[str, str]:
    if outputs is None:
        return {}
    if not isinstance(outputs, Mapping):
        raise ConfigError(f"outputs must map ids to output text, got {type(outputs).__name__}")
    table: dict[str, str] = {}
    for key, value in outputs.items():
        ident = f"r{key}" if type(key) is int else key
        if parse_id(ident) is None:
            raise ConfigError(f"outputs key {key!r} is not a display id like 'r12' or 12")
        if not isinstance(value, str):
            raise ConfigError(f"outputs[{key!r}] must be the tool output text (str)")
        table[ident] = _normalize(value)
    return table


def verify_citations(
    text: object,
    ledger: Ledger,
    /,
    *,
    outputs: Mapping[Any, str] | None = None,
) -> CitationReport:
    """Check every citation in ``text`` against ``ledger`` (and tool ``outputs`` if given).

    ``outputs`` maps display ids (``"r12"`` or ``12``) to the tool output text; an anchor is
    found when its whitespace-normalized text (one pair of surrounding quotes dropped) occurs
    in the whitespace-normalized output. Anchors are checked for any id the ledger issued
    (retained or omitted) whose output is supplied. Never raises on ``text``; raises
    ConfigError for a ledger that is not a Ledger or malformed ``outputs``.

    >>> from deerguard.provenance import make_receipt, render_ledger
    >>> ledger = render_ledger([make_receipt("cat", "success", {}, "x = 1", timestamp=0)])
    >>> verify_citations("x is 1 [r1: x = 1] [r9]", ledger, outputs={"r1": "x = 1"}).unknown_ids
    ('r9',)
    """
    if not isinstance(ledger, Ledger):
        raise ConfigError(f"ledger must be a Ledger (render_ledger), got {type(ledger).__name__}")
    table = _outputs(outputs)
    citations = parse_citations(text)
    verified: list[Citation] = []
    unknown: dict[str, None] = {}
    omitted: dict[str, None] = {}
    missing: list[Citation] = []
    findings: list[Finding] = []
    for citation in citations:
        span = citation.span or Span(0, 0)
        status = ledger.status(citation.id)
        if status == "unknown":
            if citation.id not in unknown:
                unknown[citation.id] = None
                findings.append(
                    Finding(
                        "provenance.unknown-citation",
                        Verdict.BLOCK,
                        f"[{citation.id}] cites a tool call the ledger never issued",
                        span,
                    )
                )
            continue
        if status == "omitted" and citation.id not in omitted:
            omitted[citation.id] = None
            findings.append(
                Finding(
                    "provenance.omitted-citation",
                    Verdict.WARN,
                    f"[{citation.id}] cites a real tool call not shown in the ledger",
                    span,
                )
            )
        output = table.get(citation.id)
        if citation.anchor is not None and output is not None:
            if _anchor_needle(citation.anchor) not in output:
                missing.append(citation)
                findings.append(
                    Finding(
                        "provenance.anchor-not-found",
                        Verdict.BLOCK,
                        f"the quoted evidence of [{citation.id}] is not in that tool's output",
                        span,
                        detail=citation.anchor,
                    )
                )
                continue
        if status == "retained":
            verified.append(citation)
    return CitationReport(
        citations=tuple(citations),
        verified=tuple(verified),
        unknown_ids=tuple(unknown),
        omitted_ids=tuple(omitted),
        anchors_not_found=tuple(missing),
        findings=tuple(findings),
    )
