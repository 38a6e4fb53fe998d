"""Boundary markers: the tolerant marker pattern, its cheap prefilter and the fallback.

A boundary marker is a phrase (``END USER INPUT``) in any case, spacing, look-alike
letters or invisible characters, fenced on both sides by a line edge or a fence character
(``-=#*~_+<>[](){}|/\\``, dashes, look-alike brackets). Scanning a long text with the full
pattern is slow, so :func:`marker_chunks` first finds the 64 KB chunks whose compact
skeleton spells a phrase (a superset: it deletes exactly what the pattern allows between
letters), and the pattern runs only from there.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from functools import lru_cache
from typing import Any

import regex

from ._chars import (
    GT_CHARS,
    IGNORABLE_CLASS,
    IGNORABLE_RANGES,
    LT_CHARS,
    PIPE_CHARS,
    SEPARATORS,
    SLASH_CHARS,
    STROKE,
    char_skeleton,
    letter_equivalents,
    stroke_variants,
)
from ._confusables import STROKES
from ._escapes import GAP_OPENER, markup_gap_end, strip_gaps

__all__ = [
    "MARKER_CHUNK",
    "LazyMarkers",
    "fallback_markers",
    "fences_side",
    "is_fence",
    "marker_chunks",
    "marker_pattern",
]

# Combining marks that attach to Latin letters: skipped between the letters of a marker.
_MARK_RANGES = (
    (0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF), (0xFE20, 0xFE2F),
)  # fmt: skip


@lru_cache(maxsize=1)
def _mark_ranges() -> tuple[tuple[int, int], ...]:
    """The Latin mark blocks plus every other combining mark (canonical combining class
    above 0, all below U+20000: Syriac, Hebrew, Indic...), merged into ranges. A model reads
    ``END\u0740 USER INPUT`` as the marker as surely as ``END\u0301 USER INPUT``. Built on the
    first marker search (about 12 ms), not at import."""
    points = sorted({cp for low, high in _MARK_RANGES for cp in range(low, high + 1)} |
                    {cp for cp in range(0x20000) if unicodedata.combining(chr(cp))})
    ranges: list[tuple[int, int]] = []
    for cp in points:
        if ranges and cp == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    return tuple(ranges)


def _marks_class() -> str:
    return "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in _mark_ranges())
# Characters that may fence a boundary marker (`--- END USER INPUT ---`, `=== ... ===`,
# `<<<...>>>`, `[...]`): after NFKC, one of these, or a bracket look-alike.
_FENCE = frozenset("-=#*~_+<>[](){}|/\\\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2500\u2501")


def is_fence(ch: str) -> bool:
    # Slash and bar look-alikes fence too: `<∕END USER INPUT` reads as `</END USER INPUT`.
    if ch in _FENCE or ch in LT_CHARS or ch in GT_CHARS or ch in SLASH_CHARS or \
            ch in PIPE_CHARS:
        return True
    return unicodedata.normalize("NFKC", ch) in _FENCE


def fences_side(ch: str, *, before: bool) -> bool:
    """Whether ``ch`` fences a marker on that side, also by the edge of its NFKC form.

    ``⒯`` is ``(t)`` and ``⑴`` is ``(1)`` under NFKC, so before a marker they end in ``)``
    and after one they start with ``(``: a fence for a normalizing reader.
    """
    if is_fence(ch):
        return True
    norm = unicodedata.normalize("NFKC", ch)
    return len(norm) > 1 and (norm[-1] if before else norm[0]) in _FENCE


class LazyMarkers:
    """The marker pattern of ``skeletons``, compiled on its first search.

    Compiling it takes a few hundred milliseconds (a class of look-alikes per letter, gaps
    between letters); ``marker_chunks`` finds the chunks worth searching first, so text with
    no marker-like phrase never pays for it. Compiling twice from two threads is harmless.
    """

    __slots__ = ("_skeletons", "_pattern")

    def __init__(self, skeletons: tuple[str, ...]) -> None:
        self._skeletons = skeletons
        self._pattern: Any = None

    def search(self, text: str, pos: int, *, timeout: float) -> Any:
        pattern = self._pattern
        if pattern is None:
            pattern = self._pattern = _compile_markers(self._skeletons)
        return pattern.search(text, pos, timeout=timeout)


def marker_pattern(skeletons: tuple[str, ...]) -> LazyMarkers | None:
    """The boundary-marker matcher of a profile (None when it has no markers)."""
    return LazyMarkers(skeletons) if skeletons else None


def _compile_markers(skeletons: tuple[str, ...]) -> Any:
    """One regex for every marker phrase: each letter as its class of look-alikes, with
    separators, invisibles, marks and short markup gaps allowed between letters."""
    table = letter_equivalents()
    seps = "".join(sorted(SEPARATORS))
    # controls and lone surrogates read as gaps too (see char_skeleton)
    # and so do short comments, CDATA sections and processing instructions (`IN<!-- -->PUT`),
    # bounded like ``markup_gap_end`` (each is read in bounded steps: linear time)
    blank = (
        f"[\\s\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff{regex.escape(seps)}"
        f"{IGNORABLE_CLASS}{_marks_class()}]*"
    )
    gap = f"{blank}(?:(?:{_GAP_MARKUP}){blank})*"  # the class first: as fast as before
    alts = []
    for sk in sorted(skeletons, key=len, reverse=True):
        parts = []
        for letter in sk:
            chars = table.get(letter, "") + letter + letter.upper()
            parts.append("[" + regex.escape(chars) + "]")
        alts.append(gap.join(parts))
    return regex.compile("(?:" + "|".join(alts) + ")", regex.V0)


_GAP_MARKUP = (
    r"<(?:!--(?:(?!-->)[\s\S]){0,249}-->|!\[CDATA\[(?:(?!\]\]>)[\s\S]){0,244}\]\]>"
    r"|\?(?:(?!\?>)[\s\S]){0,252}\?>)"
)


@lru_cache(maxsize=1)
def _compact_table() -> dict[int, int | None]:
    """str.translate table giving the skeleton of marker text (a superset filter)."""
    table: dict[int, int | None] = {}
    for letter, chars in letter_equivalents().items():
        for ch in chars:
            table[ord(ch)] = ord(letter)
    for ch in SEPARATORS:
        table[ord(ch)] = None
    for cp in range(0x3001):
        if chr(cp).isspace():
            table[cp] = None
    for low, high in (*IGNORABLE_RANGES, *_mark_ranges(), *_GAP_RANGES):
        for cp in range(low, high + 1):
            table[cp] = None
    for ch in STROKES:  # i, l or 1: the phrases are searched with strokes too
        table[ord(ch)] = ord(_COMPACT_STROKE)
    return table


# control characters and lone surrogates: gaps between marker letters (see marker_pattern)
_GAP_RANGES = ((0x00, 0x1F), (0x7F, 0x9F), (0xD800, 0xDFFF))
_ASCII_COMPACT = {
    **{cp: None for cp in (*range(0x20), 0x7F)},
    **{ord(ch): None for ch in " -_.:"},
}


MARKER_CHUNK = 1 << 16
_COMPACT_STROKE = "\x01"  # a stroke in the compact skeleton (`|` is kept there)


def _compact(chunk: str) -> str:
    if chunk.isascii():
        return chunk.lower().translate(_ASCII_COMPACT)
    return chunk.translate(_compact_table()).lower()


def marker_chunks(text: str, skeletons: tuple[str, ...]) -> list[int]:
    """Starts of the 64 KB chunks where a marker's skeleton begins (a superset filter).

    The compact skeleton deletes exactly what the marker pattern lets sit between letters,
    so a pattern match begins in a returned chunk; the pattern then runs only from there.
    """
    starts = list(range(0, len(text), MARKER_CHUNK))
    chunks = [text[start : start + MARKER_CHUNK] for start in starts]
    found: set[int] = set()
    stripped = [strip_gaps(chunk) for chunk in chunks]
    # Read through short comments (`IN<!-- -->PUT`), and also into them: a marker written
    # inside a comment (`<!-- END USER INPUT -->`) is read by a model all the same.
    variants = [stripped] if all(s is c for s, c in zip(stripped, chunks, strict=True)) \
        else [stripped, chunks]
    for variant in variants:
        offsets: list[int] = []
        parts: list[str] = []
        total = 0
        for chunk in variant:
            part = _compact(chunk)
            offsets.append(total)
            parts.append(part)
            total += len(part)
        compact = "".join(parts)
        phrases = set(skeletons)
        if _COMPACT_STROKE in compact:  # never in ASCII text (controls are deleted there)
            spelled = (v for p in skeletons for v in stroke_variants(p))
            phrases = {v.replace(STROKE, _COMPACT_STROKE) for v in spelled}
        for sk in phrases:
            at = compact.find(sk)
            while at != -1:
                found.add(starts[bisect_right(offsets, at) - 1])
                at = compact.find(sk, at + 1)
    for index, start in enumerate(starts[1:], 1):
        # a gap across a chunk edge is not stripped: both chunks are read with the pattern
        for m in GAP_OPENER.finditer(text, max(0, start - 256), start):
            if markup_gap_end(text, m.start()) > start:
                found.update((starts[index - 1], start))
                break
    return sorted(found)


def fallback_markers(text: str, skeletons: tuple[str, ...]) -> list[tuple[int, int]]:
    """Every place the skeleton of ``text`` spells a marker (no fence check: a superset)."""
    letters: list[str] = []
    where: list[int] = []
    k = -1
    while k + 1 < len(text):
        k += 1
        ch = text[k]
        if ch == "<" and markup_gap_end(text, k) != -1:
            k = markup_gap_end(text, k) - 1  # a comment between letters is skipped
            continue
        sk = char_skeleton(ch)
        if sk is None:
            letters.append("\x00")
            where.append(k)
        elif sk and sk != " ":
            for part in sk:
                letters.append(part)
                where.append(k)
    compact = "".join(letters)
    found: list[tuple[int, int]] = []
    for sk in {v for name in skeletons for v in stroke_variants(name)}:
        at = compact.find(sk)
        while at != -1:
            found.append((where[at], where[at + len(sk) - 1] + 1))
            at = compact.find(sk, at + 1)
    return found
