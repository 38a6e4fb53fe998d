"""``word_gate``: a compiled substring test must answer exactly like ``any(w in text)``.

Readers of interpreter code gate on word lists (``urlopen``, ``rmtree``...) through
:func:`deerguard.shell._gate.word_gate`; a gate that missed a word would silently skip a
reader, so the property is checked on random words and texts, words that are prefixes of
one another, and regex metacharacters.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deerguard.shell._gate import word_gate
from deerguard.shell._langapi import _NET_GATE, _NET_GATE_RE

_ALPHABET = "ab.|*()[]\\^$?+{}-_ \n"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(_ALPHABET, min_size=1, max_size=5), min_size=1, max_size=8),
       st.text(_ALPHABET, max_size=40))
def test_word_gate_matches_exactly_when_a_word_is_a_substring(words: list[str],
                                                               text: str) -> None:
    assert (word_gate(words).search(text) is not None) == any(w in text for w in words)


@pytest.mark.parametrize("text, expected", [
    ("rm_rf(x)", True), ("rm(", True), ("r m", False), ("", False), ("xrm", True)])
def test_a_word_that_prefixes_another_still_matches_alone(text: str, expected: bool) -> None:
    gate = word_gate(["rm", "rm_", "rm(", "rmtree"])
    assert (gate.search(text) is not None) is expected


def test_the_shipped_network_gate_agrees_with_its_word_list() -> None:
    for word in _NET_GATE:
        assert _NET_GATE_RE.search(f"x = {word}") is not None
    assert _NET_GATE_RE.search("print(1)") is None


def test_empty_word_lists_and_empty_words_are_caller_errors() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        word_gate([])
    with pytest.raises(ValueError, match="non-empty"):
        word_gate(["a", ""])
