"""The rewrite plan of the tag scanner: regions, per-character references, the fail-closed plan.

Every rewrite is per character and reads back with ``html.unescape``: a bracket becomes
``&lt;``/``&gt;`` or ``&#x...;``, an invisible character its visible reference. The
fail-closed plan escapes every bracket equivalent when the scanner fails (split out of
``_scan`` so that module stays readable).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from ._chars import GT_CHARS, IGNORABLE_SET, LT_CHARS, is_tag_block
from ._escapes import json_escape_at
from ._markers import fallback_markers

if TYPE_CHECKING:
    from ._reader import Compiled

__all__ = [
    "BRACKETS",
    "BRACKET_CLOSE",
    "BRACKET_OPEN",
    "RULE_FAIL",
    "RULE_HIDDEN",
    "RULE_MARKER",
    "RULE_TAG",
    "RULE_TOKEN",
    "REVEALABLE",
    "Plan",
    "Region",
    "ncr",
    "plan_fail_closed",
    "revealable",
]

RULE_TAG = "tags.forged-tag"
RULE_TOKEN = "tags.template-token"
RULE_MARKER = "tags.boundary-marker"
RULE_HIDDEN = "tags.hidden-unicode"
RULE_FAIL = "tags.fail-closed"

# square brackets and look-alikes: fullwidth, presentation form, white square, black
# lenticular, white square (CJK), square bracket with quill, and the vertical presentation
# form of the black lenticular (NFKC reads U+FE3B as U+3010: every character whose NFKC
# form is one of these is listed, a test checks it)
BRACKET_OPEN = "[\uff3b\ufe47\u27e6\u3010\u301a\u2045\ufe3b"
BRACKET_CLOSE = "]\uff3d\ufe48\u27e7\u3011\u301b\u2046\ufe3c"
BRACKETS = LT_CHARS | GT_CHARS | frozenset(BRACKET_OPEN + BRACKET_CLOSE)


# Control characters and lone surrogates count as invisible inside a tag name but are left
# as they are: their references do not read back as the same character (HTML maps
# ``&#x80;`` to the euro sign and ``&#xD800;``/``&#x0;`` to U+FFFD).
REVEALABLE = frozenset(
    ch for ch in IGNORABLE_SET if ord(ch) > 0x9F and not 0xD800 <= ord(ch) <= 0xDFFF
)


def revealable(ch: str) -> bool:
    """Return whether an invisible ``ch`` is shown as a character reference when escaped."""
    return ch in REVEALABLE


@lru_cache(maxsize=8192)
def ncr(ch: str) -> str:
    """Return the HTML character reference that shows ``ch`` as visible ASCII text."""
    if ch == "<":
        return "&lt;"
    if ch == ">":
        return "&gt;"
    if ch == "&":
        return "&amp;"
    return f"&#x{ord(ch):X};"


@dataclass(frozen=True, slots=True)
class Region:
    """One forgery or hidden payload: rule id, ``[start, end)`` in the input, message."""

    rule_id: str
    start: int
    end: int
    message: str


@dataclass(slots=True)
class Plan:
    """Per-character replacements (position -> text) and the regions that caused them."""

    subs: dict[int, str] = field(default_factory=dict)
    regions: list[Region] = field(default_factory=list)


def plan_fail_closed(text: str, compiled: Compiled | None = None, /) -> Plan:
    """The fallback plan: escape every bracket equivalent and reveal every hidden character.

    Used when the scanner fails (internal error, regex timeout). Boundary markers are
    escaped wherever their letters appear, without the fence check. Content-preserving.
    Never raises: should this plan fail too, every bracket, ampersand, backslash and tag
    character is escaped by one plain loop.
    """
    try:
        return _fail_closed(text, compiled)
    except Exception:  # noqa: BLE001 - the last resort must hold whatever the input
        subs = {k: ncr(ch) for k, ch in enumerate(text)
                if ch in BRACKETS or ch in "&\\" or is_tag_block(ch)}
        regions = [Region(RULE_FAIL, 0, len(text), "scanner failed; every bracket escaped "
                          "(fail closed)")] if subs else []
        return Plan(subs, regions)


def _fail_closed(text: str, compiled: Compiled | None) -> Plan:
    result = Plan()
    k, n = 0, len(text)
    while k < n:
        ch = text[k]
        if ch == "\\":
            # every backslash of a run that ends in an escape is shown; the run is read once
            end, char = json_escape_at(text, k)
            run = k
            while run < end and text[run] == "\\":
                if char is not None:
                    result.subs[run] = ncr(ch)
                run += 1
            k = run
            continue
        if ch in BRACKETS or ch == "&" or is_tag_block(ch):
            result.subs[k] = ncr(ch)
        k += 1
    if compiled is not None and compiled.marker_skeletons:
        for start, _end in fallback_markers(text, compiled.marker_skeletons):
            result.subs.setdefault(start, ncr(text[start]))
    if result.subs:
        result.regions.append(
            Region(RULE_FAIL, 0, len(text), "scanner failed; every bracket escaped (fail closed)")
        )
    return result
