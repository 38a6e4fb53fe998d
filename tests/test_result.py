"""The shared result vocabulary: verdict order, spans and finding JSON."""

from __future__ import annotations

from deerguard import Finding, Span, Verdict, worst


def test_verdicts_are_ordered_by_risk() -> None:
    assert Verdict.PASS < Verdict.WARN < Verdict.BLOCK
    assert max(Verdict.WARN, Verdict.BLOCK, Verdict.PASS) is Verdict.BLOCK
    assert worst([]) is Verdict.PASS
    assert worst([Verdict.WARN, Verdict.PASS]) is Verdict.WARN


def test_verdict_is_a_plain_string_for_json() -> None:
    assert str(Verdict.BLOCK) == "block"
    assert Verdict("warn") is Verdict.WARN


def test_finding_normalizes_span_and_serializes() -> None:
    finding = Finding("shell.pipe-to-shell", Verdict.BLOCK, "curl output runs", (0, 4))  # type: ignore[arg-type]
    assert finding.span == Span(0, 4) == (0, 4)
    assert finding.to_dict() == {
        "rule_id": "shell.pipe-to-shell",
        "severity": "block",
        "message": "curl output runs",
        "span": [0, 4],
    }
    with_detail = Finding("r", Verdict.WARN, "m", Span(1, 2), detail="why")
    assert with_detail.to_dict()["detail"] == "why"
