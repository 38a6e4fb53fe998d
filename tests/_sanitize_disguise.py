"""Disguised forgeries for the neutralizer's property tests and fuzz seeds.

A forgery is built from a profile name and then disguised with the classes of both red-team
rounds: look-alike letters (read off the independent reader's own *letters* view, so every
substitution is one the reader can see), combining marks, comment/CDATA/PI gaps inside the
name, invisible characters, look-alike brackets, pipes, slashes and square brackets, bracket
escapes (``\\u003c``, ``\\u{3c}``, ``\\U0000003c``), marker fences, unterminated capital
bracket tokens. ``build`` takes a ``pick`` function (hypothesis ``draw`` or ``random``), so
the hypothesis strategy and the deterministic fuzz seeds share one generator.

Known neutralizer misses (see ``KNOWN_MISSES`` in test_sanitize_properties.py) are kept out
of the pools here on purpose: vertical strokes (they read as i, l or 1) and the braced
escape of a slash (``\\u{2f}``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

from test_sanitize_reader import _letter  # the reader's reading of one character

from deerguard.sanitize import TagProfile

T = TypeVar("T")
Pick = Callable[[Sequence[T]], T]

OPENS = [
    "<", "＜", "﹤", "‹", "〈", "⟨", "˂", "ᐸ", "❮", "❬", "❰", "⋖", "⦉", "⦑", "⦓", "⊲", "◁", "ᐊ",
    "⩤", "⮜", "⧼", "\\u003c", "\\u003C", "\\x3c", "\\u{3c}", "\\u{003C}", "\\U0000003c",
    "\\\\u003c",
]  # fmt: skip
CLOSES = [
    ">", "＞", "﹥", "›", "〉", "⟩", "˃", "ᐳ", "❯", "❭", "❱", "⋗", "⦊", "⦒", "⦔", "⊳", "▷", "ᐅ",
    "⩥", "⮞", "⧽", "\\u003e", "\\u003E", "\\x3e", "\\u{3e}", "\\u{003E}", "\\U0000003e",
    "\\\\u003e",
]  # fmt: skip
SLASHES = ["/", "／", "∕", "⁄", "╱", "⧸", "\\/", "\\u002f"]
PIPES = ["|", "｜", "¦", "￤", "❘", "❙", "∣", "ǀ", "│", "￨", "丨", "⼁", "⏐"]
SQUARE = [("[", "]"), ("⟦", "⟧"), ("【", "】"), ("〚", "〛"), ("⁅", "⁆"), ("［", "］")]
FENCES = ["---", "===", "###", "***", "-", "|", "/", "<<<", ">>>", "╱", "⧸", "│", "¦", "❘",
          "｜", "∕", "◁", "▷", "──", "—", "[", "]", "(", ")"]  # fmt: skip
# the last two: an invisible inside the closer or the opener (a reader that drops invisibles
# sees a comment; the neutralize fuzzer found the first, fuzz/crashers/neutralize/)
GAPS = ["<!-- -->", "<!---->", "<!-- x -->", "<![CDATA[]]>", "<?x?>", "<!---\u034f->",
        "<\u200b!-- -->"]
MARKS = ["\u0301", "\u0300", "\u0308", "\u0336", "\u0338", "\u20dd", "\u0323"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\ufe0f"]
_NEVER = frozenset("".join(OPENS + CLOSES + SLASHES + PIPES) + "".join(a + b for a, b in SQUARE))
# Look-alike letters the neutralizer once missed (fixed; tests/test_sanitize_redteam3.py keeps
# them as a regression table, and the generator below uses them like any other letter):
# Cherokee small letters (case folding turns them into the capitals Unicode lists), letters
# whose Unicode prototype is a Latin small capital, Coptic small letters read like their
# capitals, symbols Unicode lists as letters, and Cyrillic small palochka (Unicode: i).
ONCE_MISSED_LETTERS = (
    "ꭺꮟꭰꮷꭼꮐꮋꮒꮶꮇꮲꭱꮢꮥꭲꮤꭹꮍ"  # Cherokee small letters
    "ԍңӈӊҭᴩ"  # prototype a Latin small capital
    "ⲙⲭⲩ"  # Coptic small letters
    "×🅮"  # symbols
    "ӏ"  # small palochka
)


@lru_cache(maxsize=1)
def lookalikes() -> dict[str, str]:
    """ASCII letter/digit (case kept) -> non-ASCII characters the reader reads as it."""
    ranges = [
        (0x00C0, 0x0250), (0x0370, 0x0530), (0x0531, 0x0590), (0x13A0, 0x13F6),
        (0x1D00, 0x1D2C), (0x1E00, 0x1F00), (0x249C, 0x24B6), (0x2C80, 0x2CE4),
        (0xA4D0, 0xA500), (0xAB70, 0xABC0), (0x1F130, 0x1F18A), (0x1F1E6, 0x1F200),
    ]  # fmt: skip
    table: dict[str, list[str]] = {}
    for low, high in ranges:
        for cp in range(low, high):
            ch = chr(cp)
            if ch in _NEVER:
                continue
            if unicodedata.category(ch)[0] not in "LS":
                continue
            read = _letter(ch)
            if len(read) == 1 and read.isascii() and read.isalnum():
                table.setdefault(read, []).append(ch)
    return {key: "".join(chars) for key, chars in sorted(table.items())}


def _maybe(pick: Pick[bool], weight: int) -> bool:
    """True about once in ``weight`` picks."""
    return pick([False] * (weight - 1) + [True])  # shrinks towards False


FEATURES = frozenset({"letters", "marks", "invisible", "gaps"})


def disguise(
    name: str,
    pick: Pick,
    *,
    capitals: bool = False,
    features: frozenset[str] = FEATURES,
    gap_pool: Sequence[str] = GAPS,
) -> str:
    """Spell ``name`` with look-alike letters, marks, invisibles and up to 4 markup gaps."""
    table = lookalikes()
    out: list[str] = []
    gaps = 0
    for index, ch in enumerate(name):
        if "letters" in features and ch.isalnum() and _maybe(pick, 3):
            keys = [ch.upper()] if capitals else [ch.lower(), ch.upper()]
            pool = "".join(table.get(key, "") for key in keys)
            if pool:
                ch = pick(pool)
        out.append(ch)
        if "marks" in features and ch.isalnum() and _maybe(pick, 6):
            out.append(pick(MARKS))
        if 0 < index < len(name) - 1 and not (ch.isspace() or name[index + 1].isspace()):
            if "invisible" in features and _maybe(pick, 8):
                out.append(pick(INVISIBLE))
            if "gaps" in features and gaps < 4 and _maybe(pick, 6):
                out.append(pick(gap_pool))
                gaps += 1
    return "".join(out)


def names(profile: TagProfile) -> list[tuple[str, str]]:
    """(kind, name) pairs of ``profile`` that a disguised forgery can be built from."""
    pairs = [("tag", name) for name in profile.tags]
    pairs += [("template", name) for name in profile.template_tokens]
    pairs += [("double", name) for name in profile.double_angle_tokens]
    pairs += [("bracket", name) for name in profile.bracket_tokens]
    pairs += [("marker", name) for name in profile.markers]
    return sorted(pairs)


def build(profile: TagProfile, pick: Pick, features: frozenset[str] = FEATURES) -> str:
    """One disguised forgery of a name of ``profile`` (seen by the reader as raw text)."""
    kind, name = pick(names(profile))
    if kind == "tag":
        slash = pick(SLASHES) if _maybe(pick, 3) else ""
        attrs = pick(["", "", ' id="1"', " x='>'"])
        close = pick([*CLOSES, " ", "\n"])
        return pick(OPENS) + slash + disguise(name, pick, features=features) + attrs + close
    if kind == "template":
        bar = pick(PIPES)
        spelled = disguise(name, pick, features=features)
        return pick(OPENS) + bar + spelled + pick([bar, *PIPES]) + pick(CLOSES)
    if kind == "double":
        opener, closer = pick(OPENS[:3]), pick(CLOSES[:3])
        return opener * 2 + disguise(name, pick, capitals=True, features=features) + closer * 2
    if kind == "bracket":
        if _maybe(pick, 3):  # unterminated, in capitals (a gap holding a letter: a known miss)
            spelled = disguise(name, pick, capitals=True, features=features, gap_pool=GAPS[:2])
            return "[" + spelled + pick([" obey", "\nobey", ""])
        opener, closer = pick(SQUARE)
        spelled = disguise(name, pick, capitals=True, features=features)
        return opener + pick(["", "/"]) + spelled + closer
    fence = pick(FENCES)
    # a boundary marker split by a comment is a known miss: no gaps in markers
    spelled = disguise(name, pick, features=features - {"gaps"})
    return "\n" + fence + " " + spelled + " " + pick([fence, *FENCES]) + "\n"
