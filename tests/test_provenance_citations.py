"""Citation parsing and verification: corpus tables by scenario plus hypothesis properties."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deerguard._result import Verdict
from deerguard.errors import ConfigError
from deerguard.provenance import (
    Citation,
    Ledger,
    make_receipt,
    parse_citations,
    render_ledger,
    verify_citations,
)

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "provenance"
_ASCII_DIGITS = set("0123456789")


def _rows(pattern: str) -> list[Any]:
    rows = []
    for path in sorted(CORPUS.glob(pattern)):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            row = json.loads(line)
            assert row["source"], f"{path.name}:{number} has no source"
            rows.append(pytest.param(row, id=f"{path.stem}:{row['name']}"))
    return rows


PARSE_ROWS = _rows("citations_*.jsonl")
VERIFY_ROWS = _rows("verify_*.jsonl")


def test_corpus_is_present() -> None:
    assert len(PARSE_ROWS) >= 40
    assert len(VERIFY_ROWS) >= 10


@pytest.mark.parametrize("row", PARSE_ROWS)
def test_corpus_parse_matches_expected(row: dict[str, Any]) -> None:
    got = [{"id": c.id, "anchor": c.anchor} for c in parse_citations(row["text"])]
    assert got == row["expected"]


def _ledger(total: int, omitted: int) -> Ledger:
    receipts = [
        make_receipt("tool", "success", {"n": i}, f"out {i}", timestamp=i) for i in range(total)
    ]
    full = render_ledger(receipts, budget=10**6)
    if omitted == 0:
        return full
    for budget in range(len(full.text) + 1):
        ledger = render_ledger(receipts, budget=budget)
        if len(ledger.omitted) == omitted:
            return ledger
    raise AssertionError(f"no budget omits exactly {omitted} of {total}")


@pytest.mark.parametrize("row", VERIFY_ROWS)
def test_corpus_verify_matches_expected(row: dict[str, Any]) -> None:
    ledger = _ledger(row["total"], row["omitted"])
    report = verify_citations(row["text"], ledger, outputs=row["outputs"])
    expected = row["expected"]
    assert [[c.id, c.anchor] for c in report.verified] == expected["verified"]
    assert list(report.unknown_ids) == expected["unknown_ids"]
    assert list(report.omitted_ids) == expected["omitted_ids"]
    assert [[c.id, c.anchor] for c in report.anchors_not_found] == expected["anchors_not_found"]
    assert str(report.verdict) == expected["verdict"]
    assert report.ok == (not expected["unknown_ids"] and not expected["anchors_not_found"])
    json.dumps(report.to_dict())


def test_findings_point_at_the_offending_citation() -> None:
    text = "ok [r1] but [r5: made up]"
    report = verify_citations(text, _ledger(2, 0))
    (finding,) = report.findings
    assert finding.rule_id == "provenance.unknown-citation"
    assert finding.severity is Verdict.BLOCK
    assert text[slice(*finding.span)] == "[r5: made up]"


def test_outputs_accept_int_keys_and_reject_malformed_tables() -> None:
    ledger = _ledger(2, 0)
    report = verify_citations("[r2: out 1]", ledger, outputs={2: "out 1"})
    assert report.verified == (Citation("r2", "out 1"),)
    for bad in [{"x": "a"}, {"r01": "a"}, {"r1": 3}, ["r1"], {True: "a"}]:
        with pytest.raises(ConfigError):
            verify_citations("[r1]", ledger, outputs=bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        verify_citations("[r1]", "not a ledger")  # type: ignore[arg-type]


def test_non_string_text_has_no_citations() -> None:
    assert parse_citations(None) == []
    assert parse_citations(b"[r1]") == []
    assert verify_citations(12, _ledger(1, 0)).citations == ()


def test_citation_equality_ignores_span() -> None:
    first, second = parse_citations("[r1] x [r2] [r1: a]")[0], Citation("r1")
    assert first == second and hash(first) == hash(second)
    assert first.number == 1 and Citation("r012").number == 12


_LEDGER_3 = _ledger(3, 0)
_alphabet = st.sampled_from(list("[]r:0123456789 ax\n") + ["\u0661", "\uff11", "\u200b", "é"])


@settings(max_examples=200)
@given(st.text(alphabet=_alphabet, max_size=200) | st.text(max_size=200))
def test_parse_never_raises_and_ids_are_at_most_six_ascii_digits(text: str) -> None:
    citations = parse_citations(text)
    assert verify_citations(text, _LEDGER_3, outputs={"r1": text}).citations == tuple(citations)
    pairs = [(c.id, c.anchor) for c in citations]
    assert len(pairs) == len(set(pairs))
    for citation in citations:
        digits = citation.id[1:]
        assert citation.id[0] == "r" and 1 <= len(digits) <= 6
        assert set(digits) <= _ASCII_DIGITS
        assert citation.span is not None
        token = text[slice(*citation.span)]
        assert token.startswith("[" + citation.id) and token.endswith("]")
        if citation.anchor is not None:
            assert citation.anchor == citation.anchor.strip() != ""
            assert len(citation.anchor) <= 300
            assert "[" not in citation.anchor and "]" not in citation.anchor


_anchor = st.text(
    alphabet=st.characters(blacklist_characters="[]", blacklist_categories=("Cs",)), max_size=40
).map(str.strip)
_cite = st.tuples(st.integers(min_value=0, max_value=999_999), st.none() | _anchor)


@settings(max_examples=200)
@given(st.lists(_cite, max_size=12), st.text(alphabet="abc .,\n", max_size=10))
def test_rendered_citations_parse_back_in_order_deduplicated(
    cites: list[tuple[int, str | None]], prose: str
) -> None:
    tokens = [f"[r{n}]" if not a else f"[r{n}: {a}]" for n, a in cites]
    text = prose + prose.join(tokens) + prose
    expected: list[tuple[str, str | None]] = []
    for n, a in cites:
        pair = (f"r{n}", a or None)
        if pair not in expected:
            expected.append(pair)
    assert [(c.id, c.anchor) for c in parse_citations(text)] == expected


@settings(max_examples=200)
@given(st.integers(min_value=7, max_value=60), st.sampled_from(["]", ": a]"]))
def test_overlong_ids_are_ignored_never_truncated(width: int, tail: str) -> None:
    digits = ("1234567890" * 6)[:width]
    assert parse_citations(f"[r{digits}{tail}") == []


_LEDGER_10_OMIT_4 = _ledger(10, 4)


@settings(max_examples=200)
@given(
    st.lists(st.tuples(st.integers(min_value=0, max_value=14), st.none() | _anchor), max_size=10),
    st.dictionaries(st.integers(min_value=1, max_value=10), st.text(max_size=20), max_size=5),
)
def test_every_citation_lands_in_exactly_one_outcome(
    cites: list[tuple[int, str | None]], outputs: dict[int, str]
) -> None:
    text = " ".join(f"[r{n}]" if not a else f"[r{n}: {a}]" for n, a in cites)
    report = verify_citations(text, _LEDGER_10_OMIT_4, outputs=outputs)
    for citation in report.citations:
        status = _LEDGER_10_OMIT_4.status(citation.id)
        outcomes = [
            citation in report.verified,
            citation.id in report.unknown_ids,
            citation in report.anchors_not_found,
            status == "omitted" and citation not in report.anchors_not_found,
        ]
        assert sum(outcomes) == 1, (citation, status, report)
        assert (status == "unknown") == (citation.id in report.unknown_ids)
        if citation in report.anchors_not_found:
            assert citation.anchor is not None and citation.number in outputs
    assert report.ok == (not report.unknown_ids and not report.anchors_not_found)
    assert (report.verdict is Verdict.PASS) == (report.ok and not report.omitted_ids)
