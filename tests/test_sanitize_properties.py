"""Hypothesis properties for guarantees 1-5 of neutralize (issue 5)."""

from __future__ import annotations

import html

import pytest
from _sanitize_disguise import build
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sanitize_reader import find_forgeries, has_hidden_payload

from deerguard.sanitize import Neutralizer, neutralize, neutralize_content

PROFILES = {
    name: Neutralizer(profile=name).profile for name in ("default", "deerflow", "aggressive")
}

# Pieces that build forgeries and near-misses: brackets and look-alikes, names and fragments,
# separators, invisibles, JSON escapes, template tokens, markers, hidden payload characters.
PIECES = [
    "<", ">", "/", "</", "/>", "<|", "|>", "<<", ">>", "[", "]", "[/", "\\", "\\/", "\\u003c",
    "\\u003e", "\\\\u003c", "\\x3c", "＜", "＞", "﹤", "﹥", "‹", "›", "〈", "〉", "⟨", "⟩",
    "˂", "˃",
    "ᐸ", "ᐳ", "❮", "❯", "／", "∕", "｜", "|", "'", '"', "=", " ", "\n", "\t", "-", "_", ".", ":",
    "–", "▁", "\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\u202e", "\ufe0f",
    "\ufe00", "\U000e0041", "\U000e0067", "\U000e007f", "🏴", "😀", "é", "\u0301",
    "system", "reminder", "system-reminder", "SYSTEM", "ѕуstem", "tool", "result", "tool_result",
    "think", "thi", "nk", "ns:", "im_start", "im", "_start", "eot_id", "SYS", "INST", "inst",
    "memory", "prompt", "role", "untrusted-content-", "ab12", "div", "span", "a", "b", "x",
    "END", "end", "USER", "user", "INPUT", "input", "BEGIN", "---", "===", "ｔｈｉｎｋ", "!", "?",
    "<<<", "EXTERNAL_", "UNTRUSTED", "CONTENT", "µ", "\u3000", "&", "&reg", "&lt;", "&#x41;",
]  # fmt: skip

texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=3)), max_size=24).map("".join)
profiles = st.sampled_from(sorted(PROFILES))


@settings(max_examples=200)
@given(texts, profiles)
def test_g1_no_forgery_survives_for_the_independent_reader(text: str, name: str) -> None:
    profile = PROFILES[name]
    out = neutralize(text, profile=profile).text
    assert find_forgeries(out, profile) == []
    assert not has_hidden_payload(out, profile.emoji_tag_sequences)


@settings(max_examples=200)
@given(texts, profiles)
def test_g2_every_character_is_kept_verbatim_or_as_a_reference(text: str, name: str) -> None:
    result = neutralize(text, profile=PROFILES[name])
    rebuilt, last = [], 0
    for edit in result.edits:
        assert edit.span.start >= last
        assert html.unescape(edit.replacement) == edit.original == text[slice(*edit.span)]
        rebuilt.append(text[last : edit.span.start] + edit.replacement)
        last = edit.span.end
    rebuilt.append(text[last:])
    assert "".join(rebuilt) == result.text
    assert len(result.findings) >= len(result.edits)
    assert result.changed == (result.text != text)


BENIGN_PIECES = [
    "<div>", "</div>", "<p class='x'>", "<br/>", "<a href=\"/think\">", "List<String>",
    "Dictionary<System.String, int>", "<alice@example.com>", "a < b", "x > y", "<|>",
    "👨\u200d👩\u200d👧", "❤\ufe0f",
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "مرحبا", "\u200f", "שלום", "system reminder", "tool result", "end user input is",
    "[i]", "a[0]", "[user]", "\\n", "\\u0041", " ", "\n", "text", "《书》", "⟨ψ|φ⟩",
]  # fmt: skip


@settings(max_examples=200)
@given(st.lists(st.sampled_from(BENIGN_PIECES), max_size=20).map("".join))
def test_g3_benign_text_comes_back_as_the_same_object(text: str) -> None:
    result = neutralize(text)
    assert result.text is text
    assert result.findings == ()


@settings(max_examples=200)
@given(texts)
def test_g3_no_finding_means_identity(text: str) -> None:
    result = neutralize(text)
    assert (result.text is text) == (not result.findings)


@settings(max_examples=200)
@given(texts, profiles)
def test_g4_neutralize_is_idempotent(text: str, name: str) -> None:
    once = neutralize(text, profile=PROFILES[name]).text
    again = neutralize(once, profile=PROFILES[name])
    assert again.text == once
    assert not again.changed


@settings(max_examples=100)
@given(texts)
def test_g5_failure_escapes_every_bracket_and_still_preserves_content(text: str) -> None:
    from deerguard.sanitize import _neutralize

    def boom(*_args: object) -> None:
        raise RuntimeError("injected failure")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_neutralize, "plan", boom)
        result = neutralize(text)
    profile = PROFILES["default"]
    assert find_forgeries(result.text, profile) == []
    assert not any(ch in result.text for ch in "<>＜＞﹤﹥‹›〈〉⟨⟩˂˃ᐸᐳ❮❯")
    if result.changed:
        assert html.unescape(result.edits[0].replacement) == text


@settings(max_examples=100)
@given(st.lists(texts, min_size=1, max_size=4))
def test_content_blocks_are_neutralized_as_their_concatenation(parts: list[str]) -> None:
    blocks = [{"type": "text", "text": part} for part in parts]
    result = neutralize_content(blocks)
    joined = "".join(b["text"] for b in result.content)
    assert joined == neutralize("".join(parts)).text
    assert len(result.content) == len(blocks)


# -- disguised forgeries: every class of both red-team rounds, spliced into profile names ----
# (look-alike letters from the reader's own Unicode data, combining marks, invisibles,
# comment/CDATA/PI gaps, look-alike brackets/pipes/slashes/square brackets, bracket escapes,
# marker fences, unterminated capital bracket tokens; see _sanitize_disguise.py)


@st.composite
def disguised(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(profiles)
    return name, build(PROFILES[name], lambda seq: draw(st.sampled_from(list(seq))))


@settings(max_examples=300)
@given(disguised())
def test_g1_oracle_sees_every_disguised_forgery_in_raw_text(case: tuple[str, str]) -> None:
    # the oracle's recall: if it were blind to a class, the properties below could not fail
    name, forgery = case
    assert find_forgeries(forgery, PROFILES[name]), forgery


@settings(max_examples=300)
@given(disguised(), texts, texts)
def test_g1_g2_g4_disguised_forgeries_do_not_survive_in_any_context(
    case: tuple[str, str], before: str, after: str
) -> None:
    name, forgery = case
    profile = PROFILES[name]
    assert neutralize(forgery, profile=profile).changed, forgery
    text = before + forgery + after
    result = neutralize(text, profile=profile)
    assert find_forgeries(result.text, profile) == [], (text, result.text)
    assert not has_hidden_payload(result.text, profile.emoji_tag_sequences)
    for edit in result.edits:
        assert html.unescape(edit.replacement) == edit.original == text[slice(*edit.span)]
    assert neutralize(result.text, profile=profile).text == result.text


def _texts_of(content: object) -> list[str]:
    """Every string a model reads from OpenAI Responses items (walked here, independently)."""
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [text for item in content for text in _texts_of(item)]
    if isinstance(content, dict):
        found: list[str] = []
        for key in ("text", "content", "output"):
            if key in content:
                found += _texts_of(content[key])
        return found
    return []


@st.composite
def responses_items(draw: st.DrawFn) -> list[object]:
    """A disguised forgery cut into pieces, carried by OpenAI Responses items."""
    _name, forgery = draw(disguised())
    cuts = sorted(draw(st.lists(st.integers(0, len(forgery)), max_size=2)))
    parts = [forgery[a:b] for a, b in zip([0, *cuts], [*cuts, len(forgery)], strict=True)]
    items: list[object] = []
    for part in parts:
        shape = draw(st.sampled_from(["message", "message-str", "call", "custom", "custom-list"]))
        if shape == "message":
            items.append(
                {"type": "message", "role": "user",
                 "content": [{"type": "input_text", "text": part}]}
            )  # fmt: skip
        elif shape == "message-str":
            items.append({"type": "message", "role": "user", "content": part})
        elif shape == "call":
            items.append({"type": "function_call_output", "call_id": "c", "output": part})
        elif shape == "custom":
            items.append({"type": "custom_tool_call_output", "call_id": "c", "output": part})
        else:
            items.append(
                {"type": "custom_tool_call_output", "call_id": "c",
                 "output": [{"type": "input_text", "text": part}]}
            )  # fmt: skip
    return items


@settings(max_examples=100)
@given(responses_items())
def test_g1_responses_items_carry_no_forgery_even_split_across_items(items: list[object]) -> None:
    profile = PROFILES["default"]
    joined = "".join(_texts_of(items))
    if not find_forgeries(joined, profile):
        return  # only forgeries of the default profile's names are checked here
    result = neutralize_content(items)
    assert find_forgeries("".join(_texts_of(result.content)), profile) == []
    assert len(result.content) == len(items)


# -- neutralizer misses the strengthened oracle found -------------------------------------
# Every miss of the third round (vertical strokes, look-alike letters, braced escaped slashes,
# markers split by comments, unterminated bracket tokens split by a gap holding a letter) is
# fixed; each is now a test in test_sanitize_redteam3.py. New misses go here, xfail strict.
KNOWN_MISSES: list[object] = []


@pytest.mark.parametrize("text", KNOWN_MISSES)
def test_known_misses_are_forgeries_for_the_oracle(text: str) -> None:
    assert find_forgeries(text, PROFILES["default"])


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="neutralizer miss, reported")
@pytest.mark.parametrize("text", KNOWN_MISSES)
def test_known_misses_do_not_survive_neutralize(text: str) -> None:
    out = neutralize(text).text
    assert find_forgeries(out, PROFILES["default"]) == [], out
