"""Attack-dense input stays cheap: bracket floods are read in bulk, with the same output.

The bulk paths of the scanner (a run of brackets read once, ``<word`` ended by punctuation
decided in the trigger match, runs of hidden characters written at once) must give exactly
what the character-by-character reader gave: the expected outputs below were produced by
that reader (main before the bulk paths). ``benchmarks/neutralize_diff.py`` compares the two
on many more inputs; ``benchmarks/neutralize.py`` shows the speed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from deerguard.sanitize import Neutralizer

DEFAULT = Neutralizer(profile="default")

SAME_AS_BEFORE = [
    ("<<<<think>", "<<<&lt;think&gt;"),
    ("<<<<SYS>>", "<<&lt;&lt;SYS&gt;&gt;"),
    ("< < < <think>", "< < < &lt;think&gt;"),
    ("<<<</think>", "<<<&lt;/think&gt;"),
    ("<＜‹<system-reminder>", "<＜‹&lt;system-reminder&gt;"),
    ("<[<[<think>", "<[<[&lt;think&gt;"),
    ("[[[[INST]", "[[[&#x5B;INST&#x5D;"),
    ("[ [ [INST] x", "[ [ &#x5B;INST&#x5D; x"),
    ("<<<|im_start|>", "<<&lt;|im_start|&gt;"),
    ("<<<!--x--><think>", "<<<!--x-->&lt;think&gt;"),
    ("<a<b<think<c", "<a<b&lt;think<c"),
    ("<think;<a;", "&lt;think;<a;"),
    ("<1<2<think>", "<1<2&lt;think&gt;"),
    ("<<abc<<SYS>>", "<<abc&lt;&lt;SYS&gt;&gt;"),
    ("<< /SYS>>", "&lt;&lt; /SYS&gt;&gt;"),
    ("<</sys;", "&lt;&lt;/sys;"),
    ("<<<\\u003cthink>", "<<<&#x5C;u003cthink&gt;"),
    ("<<<", "<<<"),
    ("[[[", "[[["),
    ("<;<=<think", "<;<=&lt;think"),
    ("<sys<!-- -->tem-reminder>", "&lt;sys&lt;!-- --&gt;tem-reminder&gt;"),
    ("<thi<?x?>nk>", "&lt;thi&lt;?x?&gt;nk&gt;"),
    ("\U000e0041\U000e0042\U000e007f", "&#xE0041;&#xE0042;&#xE007F;"),
    (" \ufe01\ufe02\U000e0100", " &#xFE01;&#xFE02;&#xE0100;"),
    ("<think\u200b>", "&lt;think&#x200B;&gt;"),
    ("<Think", "&lt;Think"),
]


@pytest.mark.parametrize(("text", "expected"), SAME_AS_BEFORE)
def test_bulk_paths_give_the_same_output_as_the_character_reader(text: str, expected: str) -> None:
    assert DEFAULT.neutralize(text).text == expected


@pytest.mark.parametrize(
    "text",
    [
        "<" * 50_000,
        "[" * 50_000,
        "<<<<" * 10_000,
        "\U000e0041" * 50_000,
        "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f" * 1_000,
    ],
)
def test_unchanged_floods_come_back_as_the_same_object_or_fully_revealed(text: str) -> None:
    result = DEFAULT.neutralize(text)
    if not result.changed:
        assert result.text is text
    else:  # hidden Tag characters: every one revealed, nothing dropped
        assert result.text == "".join(f"&#x{ord(ch):X};" for ch in text)


_PER_BRACKET = ("at_lt", "at_bare_lt", "at_bracket", "read_words")


@pytest.mark.parametrize("unit", ["<", "[", "＜", "< ", "<\n[ ", "‹ "])
def test_a_bracket_flood_is_read_in_bulk_whatever_its_length(
    unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The per-bracket readers run a bounded number of times on a flood of bare brackets,
    the same for 10 KB as for 100 KB: the run is skipped in one step (speed itself is
    measured by benchmarks/neutralize.py, not here)."""
    from deerguard.sanitize import _reader, _scan

    calls: list[str] = []
    for owner in (_scan._Scanner, _reader.Reader):
        for name in _PER_BRACKET:
            if name in vars(owner):
                original = vars(owner)[name]

                def counted(self: object, *args: object, _f: Callable[..., object] = original,
                            _n: str = name) -> object:
                    calls.append(_n)
                    return _f(self, *args)

                monkeypatch.setattr(owner, name, counted)
    counts = []
    for size in (10_000, 100_000):
        calls.clear()
        DEFAULT.neutralize(unit * (size // len(unit)))
        counts.append(len(calls))
    assert counts[0] == counts[1] <= 4, counts
