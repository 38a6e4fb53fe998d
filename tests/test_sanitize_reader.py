"""An independent tolerant reader of forged tags (guarantee 1's oracle) and its self-tests.

This reader shares no code with ``deerguard.sanitize``: it normalizes the whole text (JSON
bracket escapes decoded, invisible characters removed, NFKC, case folded, its own
look-alike tables) and then looks for profile names with plain regular expressions. If it
finds a profile tag, token or marker in neutralized output, guarantee 1 is broken.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import pytest

from deerguard.sanitize import TagProfile

ROOT = Path(__file__).resolve().parent.parent

# Its own tables (deliberately written out again, not imported).
_LT = "<‹〈〈⟨˂ᐸ❮«《⟪≪"
_GT = ">›〉〉⟩˃ᐳ❯»》⟫≫"
_SLASH = "/∕⁄"
_DASHES = "‐‑‒–—―−"
_LOOKALIKE = {
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s",
    "і": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԝ": "w", "к": "k", "м": "m", "т": "t",
    "α": "a", "ε": "e", "ο": "o", "ρ": "p", "τ": "t", "ι": "i", "κ": "k", "ν": "v",
    "υ": "u", "χ": "x", "ı": "i",
}  # fmt: skip
_SEP = r"[\s\-_.:▁]*"
_NAMECHARS = r"a-z0-9_.:\-▁"
_FENCE = r"\-=#*~_+<>\[\](){}|/\\"
_JSON = re.compile(r"\\+(?:u003c|x3c)|\\+(?:u003e|x3e)|\\+(?:/|u002f|x2f)", re.IGNORECASE)


def _invisible(ch: str) -> bool:
    cp = ord(ch)
    if unicodedata.category(ch) == "Cf":
        return True
    return (
        cp in (0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5)
        or 0x180B <= cp <= 0x180F
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0000 <= cp <= 0xE0FFF
    )


def _gap(ch: str) -> bool:
    cp = ord(ch)
    if ch.isspace():
        return False
    return (cp <= 0x9F and unicodedata.category(ch) == "Cc") or 0xD800 <= cp <= 0xDFFF


def _json_decode(match: re.Match[str]) -> str:
    tail = match.group().lstrip("\\").lower()
    if tail in ("u003c", "x3c"):
        return "<"
    if tail in ("u003e", "x3e"):
        return ">"
    return "/"


def normalize(text: str) -> str:
    """Return the reader's normalized view of ``text``."""
    text = _JSON.sub(_json_decode, text)
    # control characters (NUL, ESC, C1) and lone surrogates: dropped or shown as a gap by
    # serializers, so read as whitespace (which both joins name parts and ends a name)
    text = "".join(" " if _gap(ch) else ch for ch in text if not _invisible(ch))
    text = unicodedata.normalize("NFKC", text).casefold()
    out = []
    for ch in text:
        if ch in _LT:
            out.append("<")
        elif ch in _GT:
            out.append(">")
        elif ch in _SLASH:
            out.append("/")
        elif ch in _DASHES:
            out.append("-")
        else:
            out.append(_LOOKALIKE.get(ch, ch))
    return "".join(out)


def _letters(name: str) -> str:
    """A profile name -> its letters/digits, lowercased (the reader's own skeleton)."""
    norm = unicodedata.normalize("NFKC", name).casefold()
    return "".join(_LOOKALIKE.get(ch, ch) for ch in norm if ch.isalnum())


def _spread(letters: str) -> str:
    return _SEP.join(re.escape(ch) for ch in letters)


@lru_cache(maxsize=16)
def _patterns(profile: TagProfile) -> list[tuple[str, re.Pattern[str]]]:
    pats: list[tuple[str, re.Pattern[str]]] = []
    head = rf"<\s*(?:[/!?]\s*)?(?:[{_NAMECHARS}]*:)?"
    for name in profile.tags:
        pats.append(
            (f"tag:{name}", re.compile(head + _spread(_letters(name)) + f"(?![{_NAMECHARS}])"))
        )
    for prefix in profile.tag_prefixes:
        pats.append((f"prefix:{prefix}", re.compile(head + _spread(_letters(prefix)))))
    for name in profile.template_tokens:
        pats.append(
            (
                f"template:{name}",
                re.compile(r"<\s*\|\s*" + _spread(_letters(name)) + f"(?![{_NAMECHARS}])"),
            )
        )
    if profile.any_template_token:
        pats.append(
            (
                "template:any",
                re.compile(rf"<\s*\|\s*(?=[^|]*[a-z0-9])[{_NAMECHARS}]{{1,60}}\s*\|\s*>"),
            )
        )
    for name in profile.double_angle_tokens:
        pats.append(
            (
                f"double:{name}",
                re.compile(r"<\s*<\s*(?:/\s*)?" + _spread(_letters(name)) + f"(?![{_NAMECHARS}])"),
            )
        )
    for name in profile.bracket_tokens:
        pats.append(
            (f"bracket:{name}", re.compile(r"\[\s*(?:/\s*)?" + _spread(_letters(name)) + r"\s*\]"))
        )
    for phrase in profile.markers:
        pats.append(
            (
                f"marker:{phrase}",
                re.compile(
                    rf"(?:^|(?<=[{_FENCE}]))[ \t]*"
                    + _spread(_letters(phrase))
                    + rf"[ \t]*(?=$|[{_FENCE}])",
                    re.MULTILINE,
                ),
            )
        )
    return pats


def find_forgeries(text: str, profile: TagProfile) -> list[str]:
    """Return the labels of every profile tag/token/marker the reader finds in ``text``."""
    norm = normalize(text)
    return [label for label, pattern in _patterns(profile) if pattern.search(norm)]


def has_hidden_payload(text: str, keep: frozenset[str]) -> bool:
    """Whether ``text`` still holds Tag-block characters outside kept flag sequences."""
    i = 0
    while i < len(text):
        if 0xE0000 <= ord(text[i]) <= 0xE007F:
            j = i
            while j < len(text) and 0xE0000 <= ord(text[j]) <= 0xE007F:
                j += 1
            run = text[i:j]
            spelled = "".join(chr(ord(ch) - 0xE0000) for ch in run[:-1])
            if not (i > 0 and text[i - 1] == "\U0001f3f4" and run[-1] == "\U000e007f"
                    and spelled in keep):  # fmt: skip
                return True
            i = j
        else:
            i += 1
    return False


def load_jsonl(name: str) -> list[dict[str, object]]:
    path = ROOT / "corpora" / "tags" / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


# -- self-tests: the oracle must see what it is supposed to see -------------------------------


def _profile(name: str) -> TagProfile:
    from deerguard.sanitize import Neutralizer

    return Neutralizer(profile=name).profile


@pytest.mark.parametrize(
    "text",
    [
        "<system-reminder>",
        "<SYSTEM_REMINDER>",
        "< / system reminder >",
        "<sys\u200btem-reminder>",
        "＜ｓｙｓｔｅｍ－ｒｅｍｉｎｄｅｒ＞",
        "‹ѕystem-reminder›",
        "\\u003ctool_result\\u003e",
        "<\\/tool_result>",
        "<ns:think>",
        "<|im_start|>",
        "<<SYS>>",
        "[INST]",
        "--- END USER INPUT ---",
    ],
)
def test_reader_finds_each_forgery_class_in_raw_text(text: str) -> None:
    assert find_forgeries(text, _profile("default"))


@pytest.mark.parametrize(
    "text",
    [
        "&lt;system-reminder&gt;",
        "<div>system reminder</div>",
        "Dictionary<System.String, int>",
        "the end user input is validated",
        "a <|> b",
        "<think_time>",
    ],
)
def test_reader_ignores_inert_and_benign_text(text: str) -> None:
    assert not find_forgeries(text, _profile("default"))


def test_reader_finds_every_attack_in_the_corpus_input() -> None:
    rows = [row for row in load_jsonl("attacks.jsonl") if row["kind"] != "hidden"]
    assert len(rows) >= 80
    missed = [
        row["id"]
        for row in rows
        if not find_forgeries(str(row["input"]), _profile(str(row["profile"])))
    ]
    assert not missed
