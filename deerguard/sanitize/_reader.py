"""The name reader of the tag scanner: a profile prepared for reading, and the readers.

:class:`Reader` reads what follows a bracket: spaces and invisibles, bracket, slash and JSON
escape equivalents, and tag names word by word in the tolerant skeleton reading (case,
separators, NFKC, look-alike letters, comment gaps inside a name, namespace prefixes), with
the cut points where a stricter reader could see the name end. It also finds the closing
bracket of a forged tag. The rules that decide what is a forgery and plan its rewrite live
in ``_scan`` (split from there so each module stays readable). Every reader does bounded
work or reads a run once: linear time.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ._chars import (
    GT_CHARS,
    LT_CHARS,
    SLASH_CHARS,
    STROKE,
    char_skeleton,
    is_ignorable,
    skeleton,
    stroke_variants,
)
from ._escapes import json_escape_at, markup_gap_end
from ._markers import marker_pattern
from ._profile import TagProfile

__all__ = ["Compiled", "Reader", "compile_profile"]

_MAX_ATTRS = 4096  # characters between a forged name and its closing bracket
_MAX_GAPS = 4  # comments/CDATA/processing instructions read inside one name word

_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
_ASCII_NEXT = re.compile(r"[ \t\r\n]+([A-Za-z0-9]+)(?=[ \t\r\n>/=\"'])")
_JSON_SLASH = re.compile(r"\\+/")  # JSON's escaped slash; \u002f, \u{2f}... via json_escape_at


@lru_cache(maxsize=4096)
def _leaves_mark(ch: str) -> bool:
    """Whether ``ch`` folds (NFKC, case folding) to letters followed by a combining mark."""
    return any(unicodedata.combining(c) for c in unicodedata.normalize("NFKC", ch).casefold())


@lru_cache(maxsize=256)
def _is_slash(ch: str) -> bool:
    return ch in SLASH_CHARS or unicodedata.normalize("NFKC", ch) == "/"


@dataclass(frozen=True, slots=True)
class Compiled:
    """A profile prepared for scanning: skeleton sets and the marker pattern."""

    names: frozenset[str]
    partial: frozenset[str]  # proper prefixes of names: worth reading another word
    prefixes: tuple[str, ...]
    template: frozenset[str]
    any_template: bool
    double_angle: frozenset[str]
    bracket: frozenset[str]
    emoji: frozenset[str]
    marker: Any
    marker_skeletons: tuple[str, ...]
    plain: dict[str, str]  # a stroke spelling -> the name as written (shown in findings)
    longest: int
    max_words: int


def _spellings(names: frozenset[str] | tuple[str, ...]) -> frozenset[str]:
    """The skeletons of ``names``, each also with its i/l/1 letters read as strokes."""
    return frozenset(v for n in names for v in stroke_variants(skeleton(n)))


def _plain_spellings(profile: TagProfile) -> dict[str, str]:
    """Each stroke spelling of a profile name (or its start) -> the name as written.

    Only spellings of one name are listed, so a name read this way is in every set (names,
    prefixes, starts, tokens) that its stroke spelling is in.
    """
    names = (*profile.tags, *profile.tag_prefixes, *profile.template_tokens)
    out: dict[str, set[str]] = {}
    for name in (*names, *profile.double_angle_tokens, *profile.bracket_tokens):
        plain = skeleton(name)
        for i in range(1, len(plain) + 1):
            for variant in stroke_variants(plain[:i]):
                out.setdefault(variant, set()).add(plain[:i])
    return {variant: next(iter(p)) for variant, p in out.items() if len(p) == 1}


@lru_cache(maxsize=64)
def compile_profile(profile: TagProfile) -> Compiled:
    """Prepare ``profile`` for scanning (cached per profile value)."""
    names = _spellings(profile.tags)
    prefixes = _spellings(profile.tag_prefixes)
    partial = frozenset(n[:i] for n in names | prefixes for i in range(1, len(n)))
    markers = tuple(sorted({skeleton(m) for m in profile.markers} - {""}))
    return Compiled(
        names=names,
        partial=partial,
        prefixes=tuple(sorted(prefixes)),
        template=_spellings(profile.template_tokens),
        any_template=profile.any_template_token,
        double_angle=_spellings(profile.double_angle_tokens),
        bracket=_spellings(profile.bracket_tokens),
        emoji=frozenset(profile.emoji_tag_sequences),
        marker=marker_pattern(markers),
        marker_skeletons=markers,
        plain=_plain_spellings(profile),
        longest=max([len(n) for n in names | prefixes] + [1]),
        max_words=max([len(n) for n in names | prefixes] + [1]) + 1,
    )


class Reader:
    """Reads names and brackets in ``text`` for one compiled profile (the scanner's base)."""

    __slots__ = ("text", "n", "c", "marks")

    def __init__(self, text: str, compiled: Compiled) -> None:
        self.text = text
        self.n = len(text)
        self.c = compiled
        # first letters of boundary markers, rewritten to `&#x45;`: a name ends there, as it
        # does when the rewritten text is read again (idempotence: <think-END USER INPUT)
        self.marks: set[int] = set()

    # -- small readers: each returns the index after what it read, or -1 ---------------
    def lt_at(self, k: int) -> int:
        if k >= self.n:
            return -1
        ch = self.text[k]
        if ch in LT_CHARS:
            return k + 1
        if ch == "\\":
            return self._json_bracket(k, LT_CHARS)
        return -1

    def gt_at(self, k: int) -> int:
        if k >= self.n:
            return -1
        ch = self.text[k]
        if ch in GT_CHARS:
            return k + 1
        if ch == "\\":
            return self._json_bracket(k, GT_CHARS)
        return -1

    def _json_bracket(self, k: int, chars: frozenset[str]) -> int:
        end, char = json_escape_at(self.text, k)
        return end if char is not None and char in chars else -1

    def slash_at(self, k: int) -> int:
        if k >= self.n:
            return -1
        ch = self.text[k]
        if ch in SLASH_CHARS:
            return k + 1
        if ch == "\\":
            m = _JSON_SLASH.match(self.text, k)
            if m is not None:
                return m.end()
            # any escape of a slash or a look-alike: \u002f, \x2f, \u{2f}, \U0000002f, \u2215
            end, char = json_escape_at(self.text, k)
            return end if char is not None and _is_slash(char) else -1
        return -1

    def skip_space(self, k: int) -> int:
        # Unbounded on purpose: a run is skipped once per nearby bracket, and every run
        # ends at the next bracket, so the total stays linear.
        text, n = self.text, self.n
        while k < n:
            ch = text[k]
            if ch.isspace() or is_ignorable(ch) or char_skeleton(ch) == " ":
                k += 1
            else:
                break
        return k

    def read_word(self, k: int) -> tuple[int, str, list[int], list[tuple[int, int]]]:
        """Read one name word at ``k``.

        Returns (end, skeleton, skeleton lengths at each colon, cuts): ``cuts`` are
        (position, skeleton length) before each non-ASCII character, where a stricter reader
        could see the name end, so names are also tried there (``<thinkµ>``).
        """
        text, n = self.text, self.n
        out: list[str] = []
        size = 0
        colons: list[int] = []
        cuts: list[tuple[int, int]] = []
        gaps = 0
        marks = self.marks
        begin = k
        while k < n:
            if size and k in marks:
                break
            m = _ASCII_WORD.match(text, k)
            if m is not None:
                word = m.group().lower()
                out.append(word)
                size += len(word)
                k = m.end()
                if k < n and text[k] >= "\x80" and size > 1 and self._mark_follows(k):
                    # a mark composes with the last letter (e + U+0301 -> é under NFKC): a
                    # stricter reader sees a non-ASCII letter there, so the name may end before it
                    cuts.append((k - 1, size - 1))
                continue
            ch = text[k]
            sk = char_skeleton(ch)
            if sk is None and ch == "<" and (size or k > begin) and gaps < _MAX_GAPS:
                # <sys<!-- -->tem-reminder>: one name; also after separators that begin a
                # word (<command\x00-<?x?>name>: the control ends a word, - vanishes)
                gap = markup_gap_end(text, k)
                if gap != -1:
                    # the name may also end before the gap (a reader that keeps the comment)
                    # or right after it (a rewrite there, such as a marker's first letter)
                    cuts.append((k, size))
                    cuts.append((gap, size))
                    gaps += 1
                    k = gap
                    continue
            if sk is None or sk == " ":
                break
            if size and ch >= "\x80":
                cuts.append((k, size))
            if unicodedata.normalize("NFKC", ch) == ":":
                colons.append(size)
            out.append(sk)
            size += len(sk)
            k += 1
            if sk and _leaves_mark(ch):
                # İ folds to i + U+0307: a stricter reader sees the name end after the i
                cuts.append((k, size))
        return k, "".join(out), colons, cuts

    def _mark_follows(self, k: int) -> bool:
        """Whether a combining mark follows at ``k``, past up to 32 invisible characters."""
        text, stop = self.text, min(self.n, k + 33)
        while k < stop and is_ignorable(text[k]):
            k += 1
        return k < stop and unicodedata.combining(text[k]) != 0

    def read_words(self, k: int, limit: int) -> list[tuple[int, str, tuple[int, ...], bool]]:
        """Read up to ``limit`` space-separated words.

        Returns candidates (end, joined skeleton, colon offsets, at a word end), in order:
        each cut inside a word, then the word's end. A namespace prefix may end at any
        colon (``<a:b:think>``, ``<x:y::think>``), so every colon offset is kept.
        """
        found: list[tuple[int, str, tuple[int, ...], bool]] = []
        joined = ""
        colons: tuple[int, ...] = ()
        words = 0
        while words < limit:
            start = self.skip_space(k) if words else k
            if words and (start == k or start in self.marks):
                break
            end, word, word_colons, cuts = self.read_word(start)
            if not word:
                if end > start:  # only separators (`m : emory`): part of the gap
                    k = end
                    continue
                break
            for position, size in cuts:
                inner = tuple(len(joined) + c for c in word_colons if c <= size)
                found.append((position, self._plain(joined + word[:size]), colons + inner, False))
            if word_colons:
                colons = colons + tuple(len(joined) + c for c in word_colons)
            joined += word
            found.append((end, self._plain(joined), colons, True))
            words += 1
            k = end
        return found

    def _plain(self, read: str) -> str:
        """``read`` with its strokes as the letters of the profile name it spells, if any."""
        return read if STROKE not in read else self.c.plain.get(read, read)

    # -- names and tag ends ---------------------------------------------------------
    def locals_of(self, full: str, colons: tuple[int, ...]) -> list[str]:
        """``full`` and each name left after a namespace prefix ending at a colon."""
        limit = self.c.longest
        return [full, *(full[c:] for c in colons if 0 < c and len(full) - c <= limit)]

    def matches(self, full: str, colons: tuple[int, ...]) -> bool:
        c = self.c
        if full in c.names or full.startswith(c.prefixes):
            return True
        for at in colons:
            if at and any(full.startswith(p, at) for p in c.prefixes):
                return True
        return any(local in c.names for local in self.locals_of(full, colons)[1:])

    def tag_end(self, k: int) -> int:
        """Index after the closing bracket of a tag whose attributes start at ``k``, or -1."""
        text = self.text
        stop = min(self.n, k + _MAX_ATTRS)
        quote = ""
        while k < stop:
            ch = text[k]
            if ch == "\\":
                # a backslash run is read once (linear): it may end in an escaped bracket
                end, char = json_escape_at(text, k)
                if char is not None and char in LT_CHARS:
                    return -1
                if char is not None and char in GT_CHARS and not quote:
                    return end
                k = end
                continue
            if quote:
                if ch == quote:
                    quote = ""
                elif self.lt_at(k) != -1:
                    return -1
                k += 1
                continue
            if ch in "\"'":
                quote = ch
                k += 1
                continue
            end = self.gt_at(k)
            if end != -1:
                return end
            if self.lt_at(k) != -1:
                return -1
            k += 1
        return -1

    def _plain_ascii_tag(self, name: str, end: int) -> bool:
        """Fast path for HTML: True when a plain ASCII tag name cannot be a forgery.

        Follows whitespace-separated plain ASCII words while the name so far is a proper
        prefix of a profile name; anything unusual goes to the full reader instead.
        """
        c, text, n = self.c, self.text, self.n
        while True:
            if name in c.names or name.startswith(c.prefixes):
                return False
            if name not in c.partial:
                return True
            if end < n and text[end] in ">/":
                return True
            m = _ASCII_NEXT.match(text, end)
            if m is None:
                return False
            name += m.group(1).lower()
            end = m.end()
