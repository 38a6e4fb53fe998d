"""Patterns and character predicates of the neutralizer's scanner (``_scan``).

The trigger pattern that finds where a forgery may start, the runs read in bulk (bracket
floods, tag characters, variation selectors, characters shown as references), and the
one-character tests around boundary markers and brackets. All patterns are linear: one
character class or possessive runs, no nested quantifiers.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ._chars import (
    IGNORABLE_CLASS,
    LT_CHARS,
    PIPE_CHARS,
    SLASH_CHARS,
    char_skeleton,
    is_ignorable,
)
from ._plan import BRACKET_OPEN, BRACKETS, REVEALABLE

__all__ = [
    "ASCII_NAME", "ESCAPE_RUN", "FLOOD", "FLOOD_NEXT", "JSON_FENCE_BEFORE", "ONE_WORD",
    "SHOWN_TAG", "SPACES", "TAG_RUN", "TRIGGER", "UNTAG", "VARIATION_RUN", "VS_BYTE",
    "blank_or_mark", "ends_bracket", "ends_lt",
]

# after an ASCII word: punctuation (not `-_.:`, which join name parts), a `<` that starts
# no comment or processing instruction (`<sys<!-- -->tem>` is one name, and so is
# `<sys<\u200b!-- -->tem>`: invisibles inside the opener are dropped by a reader), or the end
WORD_END = r"(?=[!-,;=>?@\[-^`{-~/]|<(?![" + IGNORABLE_CLASS + r"]*+[!?])|\Z)"
# an ASCII word after `<<`, ended as above: one word, read as `<<SYS>>` only if it is one
ONE_WORD = re.compile(r"/?([A-Za-z0-9]++)" + WORD_END)
TRIGGER = re.compile(
    # An ASCII `<name` is read in the same match, the common case in HTML: group 1 when a
    # space, `>` or `/` ends it, group 2 when punctuation, `<` or the end of the text does
    # (`<a<b`, `<x;`): there the name is one word, a forgery only if it is a profile name.
    r"<(?:/?([A-Za-z][A-Za-z0-9]*+)(?=[\s>/])|/?([A-Za-z0-9]++)" + WORD_END + ")?|"
    "["
    + re.escape("".join(sorted(LT_CHARS)) + BRACKET_OPEN)
    + "\ufe00-\ufe0f\U000e0000-\U000e007f\U000e0100-\U000e01ef]|\\\\[uUxX]"
)
# A run of brackets (`<`, `[` and their look-alikes) with ASCII spaces between: every bracket
# but the last two is followed by another bracket, which no name starts with, so only the
# last two can start a forgery (`<<<<think>`); see ``_Scanner.flood``.
SPACES = " \t\n\r\f\v"
FLOOD = re.compile(
    "(?:[" + re.escape("".join(sorted(LT_CHARS)) + BRACKET_OPEN) + "][" + SPACES + "]*+)++"
)


def char_class(chars: frozenset[str]) -> str:
    """A regex character class body for ``chars``, consecutive code points as ranges."""
    points = sorted(map(ord, chars))
    parts: list[str] = []
    k = 0
    while k < len(points):
        j = k
        while j + 1 < len(points) and points[j + 1] == points[j] + 1:
            j += 1
        low, high = re.escape(chr(points[k])), re.escape(chr(points[j]))
        parts.append(low if j == k else f"{low}-{high}")
        k = j + 1
    return "".join(parts)


# What ``escape_span`` rewrites: runs of characters shown as a reference (brackets, `&`,
# revealable invisibles), or a backslash run (shown only when it ends in an escaped bracket).
ESCAPE_RUN = re.compile(
    "[" + char_class(BRACKETS | REVEALABLE | frozenset("&")) + "]+|\\\\+"
)
FLOOD_NEXT = LT_CHARS | frozenset(BRACKET_OPEN + SPACES)
# Tag characters and variation selectors are all revealable (see ``_Scanner.reveal``).
TAG_RUN = re.compile("[\U000e0000-\U000e007f]+")
VARIATION_RUN = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]+")
# Tag characters as the ASCII they encode (emoji flag sequences), and as shown in a message.
UNTAG = {0xE0000 + i: i for i in range(0x80)}
SHOWN_TAG = {0xE0000 + i: (i if 0x20 <= i < 0x7F else "·") for i in range(0x80)}
# Variation selectors as the byte each encodes (VS1-VS16: 0-15, VS17-VS256: 16-255).
VS_BYTE = {**{0xFE00 + i: i for i in range(16)}, **{0xE0100 + i: i + 16 for i in range(240)}}
# The common HTML case: `<div ...>`, `</p>`: a plain ASCII name ended by space, `>` or `/`.
ASCII_NAME = re.compile(r"/?([A-Za-z][A-Za-z0-9]*)[\s>/]")
# a JSON-escaped bracket or slash ending right before a marker reads as a fence (\u003c)
JSON_FENCE_BEFORE = re.compile(r"\\(?:[uU]00(?:3[cCeE]|2[fF])|[xX](?:3[cCeE]|2[fF]))\Z")


def blank(ch: str) -> bool:
    """Whitespace, an invisible, or a control/lone surrogate (read as a gap) around a marker."""
    return ch.isspace() or is_ignorable(ch) or char_skeleton(ch) == " "


def blank_or_mark(ch: str) -> bool:
    """A gap around a marker, or a combining mark (``END USER INPUT\u0301`` still ends there)."""
    return blank(ch) or unicodedata.category(ch) in ("Mn", "Me")


@lru_cache(maxsize=4096)
def ends_bracket(ch: str) -> bool:
    """Whether ``ch`` right after a `[`, or after the second `<` of `<<`, reads no name.

    ``""`` stands for the end of the text. Punctuation other than a slash or a backslash
    (which may start a JSON escape) starts no word, so nothing after the bracket is read.
    """
    return ch == "" or (char_skeleton(ch) is None and ch not in SLASH_CHARS and ch != "\\")


@lru_cache(maxsize=4096)
def ends_lt(ch: str) -> bool:
    """Whether ``ch`` right after a `<` reads no name, token or second bracket."""
    return ends_bracket(ch) and not (
        ch in LT_CHARS or ch in PIPE_CHARS or unicodedata.normalize("NFKC", ch) in ("!", "?")
    )
