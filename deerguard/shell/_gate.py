"""Substring gates: does a text hold any of a set of words?

A reader that only matters when its text names one of a few dozen words (``urlopen``,
``expanduser``, ``rmtree``) tests for them first. ``any(w in text for w in WORDS)`` runs a
Python generator step per word; :func:`word_gate` compiles the words into one regular
expression shaped as a trie (``s(?:ocket|mtplib)|u(?:rl(?:lib|open))``), whose search is a
single C-level scan that skips over characters no word starts with. The answer is the same
(a literal alternation matches where any word occurs); only the cost differs, about half on
the codes of the corpus.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["word_gate"]


def word_gate(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern whose ``search(text)`` is not None exactly when ``text`` contains one of
    ``words`` (non-empty strings) as a substring."""
    unique = sorted(set(words))
    if not unique or "" in unique:
        raise ValueError("word_gate needs non-empty words")
    return re.compile("|".join(_trie(unique)))


def _trie(words: list[str]) -> list[str]:
    """The alternatives matching ``words`` (sorted, distinct) with shared first characters
    factored out. A word that is a prefix of another covers it: for a substring test, the
    shorter one occurs wherever the longer one does."""
    if "" in words:
        return [""]
    groups: dict[str, list[str]] = {}
    for w in words:
        groups.setdefault(w[0], []).append(w[1:])
    alts = []
    for first, rests in groups.items():
        tail = _trie(rests)
        alts.append(re.escape(first) + (f"(?:{'|'.join(tail)})" if len(tail) > 1 else tail[0]))
    return alts
