"""Character tables for the tag scanner: bracket look-alikes, separators, ignorables, skeletons.

A *skeleton* is the tolerant reading of a tag name: each character is NFKD-normalized on its
own, case-folded, combining marks are dropped (precomposed ones too), Cyrillic/Greek/
small-capital look-alike letters and the confusables of ``_confusables`` (Cherokee, Lisu,
Coptic, enclosed letters...) are mapped to the Latin letter they imitate, default-ignorable
characters are skipped and separators (``- _ . :``, dash look-alikes, ``▁`` and
whitespace) are removed.
``<Ｓystem_Ｒeminder>``, ``<sys\u200btem-reminder>`` and ``<ѕystem.reminder>`` all read as
``systemreminder``. Everything here is immutable module data or a pure cached function.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from ._confusables import LOOKALIKES, STROKES

__all__ = [
    "CONFUSABLES",
    "GT_CHARS",
    "IGNORABLE_CLASS",
    "IGNORABLE_RANGES",
    "IGNORABLE_SET",
    "LT_CHARS",
    "PIPE_CHARS",
    "SEPARATORS",
    "SLASH_CHARS",
    "STROKE",
    "char_skeleton",
    "fold_name",
    "is_ignorable",
    "is_tag_block",
    "is_variation_selector",
    "letter_equivalents",
    "skeleton",
    "stroke_variants",
]

# `<`-equivalents: ASCII, fullwidth, small form, and the look-alike brackets a model reads as
# an angle bracket (single guillemet, angle brackets of three blocks, modifier arrowheads,
# Canadian syllabics, ornamental brackets), and the doubled forms (double guillemet,
# CJK double angle brackets, mathematical double angles, much-less-than).
LT_CHARS = frozenset(
    "<\uff1c\ufe64\ufe3f\u2039\u2329\u3008\u27e8\u02c2\u1438\u276e\u276c\u29fc\u2770"
    "\u00ab\u300a\u27ea\u226a\ufe3d"
    # second red team: less-than with dot, Z notation and angle-with-dot brackets, normal
    # subgroup and white triangles, Canadian syllabics A, Z notation antirestriction, arrows
    "\u22d6\u2989\u2991\u2993\u22b2\u25c1\u140a\u2a64\u2b9c"
)
GT_CHARS = frozenset(
    ">\uff1e\ufe65\ufe40\u203a\u232a\u3009\u27e9\u02c3\u1433\u276f\u276d\u29fd\u2771"
    "\u00bb\u300b\u27eb\u226b\ufe3e"
    "\u22d7\u298a\u2992\u2994\u22b3\u25b7\u1405\u2a65\u2b9e"
)
# `/`-equivalents (closing tags): ASCII, fullwidth, division and fraction slashes, box drawing.
SLASH_CHARS = frozenset("/\uff0f\u2215\u2044\u2571\u29f8\u1427")
# `|`-equivalents for chat-template tokens (`<|im_start|>`, DeepSeek's `<｜...｜>`).
# Also broken bar (and its fullwidth form), light/medium vertical bars, the CJK stroke
# radical and its Kangxi form, and the vertical line extension.
PIPE_CHARS = frozenset(
    "|\uff5c\uffe8\u2223\u01c0\u2502\U000107b6\u00a6\uffe4\u2758\u2759\u4e28\u2f01\u23d0"
)
# Separators between name parts; whitespace is handled separately (str.isspace after NFKC).
SEPARATORS = frozenset(
    "-_.:\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d\uff3f\uff0e\uff1a"
    "\u2581\u00b7\u2027\u30fb\uff65"
    # characters whose NFKC form is one of the above (subscript minus, ellipsis, presentation
    # forms of dashes, dots and colons), so a stricter NFKC reader never sees more separators
    "\u0387\u2024\u2025\u2026\u207b\u208b\ufe13\ufe19\ufe30\ufe31\ufe32\ufe33\ufe34"
    "\ufe4d\ufe4e\ufe4f\ufe52\ufe55"
)

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties) plus every other format
# character (category Cf), as sorted inclusive ranges.
_IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x0600, 0x0605),  # the remaining format characters (Cf) from here on are invisible too
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
IGNORABLE_RANGES = _IGNORABLE_RANGES
IGNORABLE_CLASS = "".join(
    f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in _IGNORABLE_RANGES
)

# Letters that look like Latin letters after case folding (Cyrillic, Greek, Armenian, Latin
# small capitals and dotless forms). NFKC does not map these, so they are listed here.
CONFUSABLES: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "н": "h",
    "і": "i", "ї": "i", "ӏ": "l", "ј": "j", "к": "k", "м": "m", "п": "n", "о": "o",
    "р": "p", "ԛ": "q", "г": "r", "ѕ": "s", "т": "t", "ц": "u", "ѵ": "v", "ԝ": "w",
    "х": "x", "у": "y", "ү": "y", "з": "3", "ь": "b", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "ϲ": "c", "δ": "d", "ε": "e", "η": "n", "ι": "i", "κ": "k",
    "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ζ": "z",
    "ω": "w", "μ": "u", "ϳ": "j", "ϱ": "p", "ϰ": "k",
    # Armenian
    "օ": "o", "ս": "u", "ց": "g", "հ": "h", "ո": "n", "ա": "w",
    # Latin small capitals and dotless letters
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h",
    "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p",
    "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
    "ı": "i", "ȷ": "j", "ɑ": "a", "ɩ": "i", "ɵ": "o",
    # hooked, turned and other Latin/Coptic letters confusables.txt does not list
    "ʈ": "t", "ĸ": "k", "ⲧ": "t", "ⲕ": "k", "ⲓ": "i", "ⲣ": "p", "ⲥ": "c", "ⲟ": "o",
    "ⲏ": "h", "ⲛ": "n",
}  # fmt: skip
# Vertical strokes (Greek capital iota, palochka, Lisu I, runic isaz...): confusables.txt gives
# one prototype (l) for I, l and 1 look-alikes, so a reader may take a stroke for any of them.
# Their skeleton is this placeholder (never produced otherwise: `|` is punctuation), and each
# profile name is also compiled with its i/l/1 letters as strokes (see ``stroke_variants``).
STROKE = "|"
_STROKE_LETTERS = frozenset("il1")
_MAX_STROKE_LETTERS = 8  # i/l/1 letters of one name varied (2**8 spellings at most)


# The same set as characters: one hash lookup per character on hot paths (a few thousand).
IGNORABLE_SET = frozenset(
    chr(cp) for low, high in _IGNORABLE_RANGES for cp in range(low, high + 1)
)


def is_ignorable(ch: str) -> bool:
    """Return whether ``ch`` is invisible: default-ignorable or a format character (Cf)."""
    return ch in IGNORABLE_SET


def is_tag_block(ch: str) -> bool:
    """Return whether ``ch`` is in the Unicode Tag block U+E0000-U+E007F."""
    return 0xE0000 <= ord(ch) <= 0xE007F


def is_variation_selector(ch: str) -> bool:
    """Return whether ``ch`` is a variation selector (VS1-VS16 or VS17-VS256)."""
    cp = ord(ch)
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


_PUNCT = LT_CHARS | GT_CHARS | SLASH_CHARS | PIPE_CHARS


def _is_control_or_surrogate(ch: str) -> bool:
    cp = ord(ch)
    return cp <= 0x9F and unicodedata.category(ch) == "Cc" or 0xD800 <= cp <= 0xDFFF


@lru_cache(maxsize=8192)
def char_skeleton(ch: str) -> str | None:
    """Return the skeleton of one character: ``""`` if it vanishes, ``None`` if it ends a name.

    Ignorables, combining marks and separators vanish; whitespace ends a word (returned as
    ``" "``); letters and digits become lowercase ASCII where they imitate ASCII, or their
    case-folded form otherwise; anything else (punctuation, brackets, symbols) returns
    ``None``.
    """
    if is_ignorable(ch) or ch in SEPARATORS:
        return ""
    if _is_control_or_surrogate(ch):
        # NUL, ESC, DEL, C1 controls and lone surrogates are invisible; a serializer may drop
        # them (joining the parts around them) or show a gap, so they read as whitespace,
        # which joins name parts and also ends a name: `<sys\x00tem-reminder>` and
        # `<think\x1bX` are both read as tags.
        return " "
    if ch in _PUNCT:
        return None  # bracket look-alikes such as U+1438 are letters, but end a name
    if ch in STROKES:
        return STROKE  # read as i, l or 1
    look = LOOKALIKES.get(ch)
    if look is not None:
        return look  # applied before case folding: capital eta reads h, small eta n
    out: list[str] = []
    # NFKD, not NFKC: a precomposed letter reads as its base letter (the mark is dropped),
    # exactly like the same letter written with a combining mark (<thínk> = <thi\u0301nk>)
    for part in unicodedata.normalize("NFKD", ch):
        if part.isspace():
            return " "
        if unicodedata.category(part) in ("Mn", "Me"):
            continue
        if part in SEPARATORS:
            continue
        for folded in part.casefold():
            folded = CONFUSABLES.get(folded, folded)
            if folded.isalnum():
                out.append(folded)
            elif unicodedata.category(folded) in ("Mn", "Me"):
                continue
            else:
                return None
    return "".join(out)


def skeleton(name: str, /) -> str:
    """Return the skeleton of a whole name (whitespace removed too); ``""`` if none.

    >>> skeleton("System_Reminder")
    'systemreminder'
    """
    out: list[str] = []
    for ch in name:
        sk = char_skeleton(ch)
        if sk is None or sk == " ":
            continue
        if sk == STROKE:
            # in a name written by hand, a stroke is its usual letter (Greek capital iota i,
            # palochka l); profiles are compiled with every stroke spelling anyway
            sk = "i" if CONFUSABLES.get(ch.casefold()) == "i" else "l"
        out.append(sk)
    return "".join(out)


def stroke_variants(name: str, /) -> list[str]:
    """``name`` and its spellings with any of its i/l/1 letters read as a stroke.

    Only the first 8 such letters vary (at most 256 spellings), so a compiled profile stays
    small; the profile names have at most 6.

    >>> stroke_variants("lit")
    ['lit', '|it', 'l|t', '||t']
    """
    places = [k for k, ch in enumerate(name) if ch in _STROKE_LETTERS][:_MAX_STROKE_LETTERS]
    out = []
    for mask in range(1 << len(places)):
        chars = list(name)
        for bit, k in enumerate(places):
            if mask >> bit & 1:
                chars[k] = STROKE
        out.append("".join(chars))
    return out


# Unicode pages holding characters whose skeleton is a single ASCII letter or digit
# (Latin-1 superscripts, accented Cyrillic look-alikes, modifier letters, letterlike
# symbols, enclosed alphanumerics, fullwidth forms, mathematical alphanumerics, squared
# letters, segmented digits); the generated look-alikes are added on top.
_EQUIVALENT_PAGES = (
    0x00, 0x01, 0x02, 0x03, 0x04, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x21, 0x24, 0x2C, 0xA6, 0xA7, 0xFF,
    0x107, 0x1D4, 0x1D5, 0x1D6, 0x1D7, 0x1F1, 0x1FB,
)  # fmt: skip


@lru_cache(maxsize=1)
def letter_equivalents() -> dict[str, str]:
    """Return, per ASCII letter/digit, every character whose skeleton is that letter/digit.

    Built once on first use (a few thousand code points) for the boundary-marker pattern.
    """
    table: dict[str, list[str]] = {}
    candidates = [chr(cp) for page in _EQUIVALENT_PAGES for cp in range(page << 8, (page + 1) << 8)]
    candidates.extend(CONFUSABLES)
    candidates.extend(ch.upper() for ch in CONFUSABLES)
    candidates.extend(LOOKALIKES)
    candidates.extend(STROKES)
    for ch in candidates:
        sk = char_skeleton(ch)
        if sk == STROKE:
            for letter in _STROKE_LETTERS:
                table.setdefault(letter, []).append(ch)
            continue
        if sk is not None and len(sk) == 1 and sk.isascii() and sk.isalnum():
            table.setdefault(sk, []).append(ch)
    return {key: "".join(sorted(set(chars))) for key, chars in table.items()}


def fold_name(name: str, /) -> str:
    """Return the name a person (or a normalizing registry) reads in a tool/resource ``name``.

    Compatibility forms become plain letters (NFKD), whitespace, combining marks and
    invisible characters are dropped, Cyrillic/Greek look-alikes become Latin, and case is
    folded: ``"Ｂａｓｈ "``, ``"b\u0430sh"`` and ``"BASH"`` all fold to ``"bash"``. Used to
    match guarded tool names fail-closed (a disguised name is still guarded). Linear.

    >>> fold_name(" Web_Fetch\u200b")
    'web_fetch'
    """
    kept: list[str] = []
    for ch in unicodedata.normalize("NFKD", name):
        if ch.isspace() or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        folded = ch.casefold()
        kept.append(CONFUSABLES.get(folded, folded) if not ch.isascii() else folded)
    return unicodedata.normalize("NFC", "".join(kept))
