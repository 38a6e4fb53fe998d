"""Attack-dense input stays cheap: bracket floods are read in bulk, with the same output.

The bulk paths of the scanner (a run of brackets read once, ``<word`` ended by punctuation
decided in the trigger match, runs of hidden characters written at once) must give exactly
what the character-by-character reader gave: the expected outputs below were produced by
that reader (main before the bulk paths). ``benchmarks/neutralize_diff.py`` compares the two
on many more inputs; ``benchmarks/neutralize.py`` shows the speed.
"""

from __future__ import annotations

import time
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


def _best_of_three(fn: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _html(size: int) -> str:
    page = (
        '<html><head><title>t</title></head><body><div class="c"><p>Some <b>bold</b> and '
        '<a href="/x?q=1">a link</a>.</p><ul><li>one</li><li>two</li></ul></div></body></html>\n'
    )
    return (page * (size // len(page) + 1))[:size]


@pytest.mark.parametrize(
    ("unit", "bound"),
    [("<", 3), ("[", 3), ("＜", 4), ("< ", 3), ("<\n[ ", 3), ("<a", 15), ("<<ab;", 15)],
)
def test_bracket_floods_cost_little_more_than_html_pages_of_the_same_size(
    unit: str, bound: int
) -> None:
    # Before the bulk paths each of these floods cost 30-40 times an HTML page of the same
    # size (0.2-0.3 MB/s against 12 MB/s). Now a flood of bare brackets costs less than the
    # page, and brackets before words (one trigger every two or five characters) 4-7 times
    # it; the bounds leave room for a loaded machine.
    size = 200_000
    flood = unit * (size // len(unit))
    html = _html(size)
    DEFAULT.neutralize(html)  # warm-up (profile compiled, caches filled)
    t_flood = _best_of_three(lambda: DEFAULT.neutralize(flood))
    t_html = _best_of_three(lambda: DEFAULT.neutralize(html))
    assert t_flood < bound * t_html + 0.02, (t_flood, t_html)


def test_hidden_runs_are_all_revealable_characters() -> None:
    # _Scanner.reveal writes a Tag-character or variation-selector run at once, skipping the
    # per-character choice of escape_span: that is the same only if each one is revealable.
    from deerguard.sanitize._plan import REVEALABLE

    hidden = [*range(0xE0000, 0xE0080), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
    assert all(chr(cp) in REVEALABLE for cp in hidden)
