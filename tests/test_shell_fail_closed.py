"""Fail closed: a parser or classifier failure blocks, and no policy can turn that off."""

from __future__ import annotations

import pytest

from deerguard import PolicyError, Verdict, classify
from deerguard.shell import _classify as classify_module
from deerguard.shell import parse_policy
from deerguard.shell.ast import ParseIssue, Script


def test_internal_parser_error_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_parse(source: str, /) -> Script:
        issue = ParseIssue(0, "internal parser error (KeyError); input not parsed", internal=True)
        return Script((0, len(source)), (), (), (issue,))

    monkeypatch.setattr(classify_module, "parse", broken_parse)
    result = classify("ls -la")
    assert result.verdict is Verdict.BLOCK
    assert "internal-error" in {f.rule_id for f in result.findings}


def test_internal_classifier_error_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(source: str, /) -> Script:
        raise RuntimeError("bug")

    monkeypatch.setattr(classify_module, "parse", explode)
    result = classify("ls -la")
    assert result.verdict is Verdict.BLOCK
    assert [f.rule_id for f in result.findings] == ["internal-error"]


@pytest.mark.parametrize("severity", ["warn", "off"])
def test_policy_cannot_lower_internal_error(severity: str) -> None:
    with pytest.raises(PolicyError, match="internal-error") as info:
        parse_policy(f'[rules]\n"internal-error" = "{severity}"\n', file="p.toml")
    assert info.value.line == 2


@pytest.mark.parametrize("command", [
    "chmod ²755 x", "chmod 7²55 x", "umask ²2", "xargs --max-args=²² rm -f",
    "chmod ٧٧٧ x", "printf '%²d' 1", "sed 's/a/\\²/' f", "kill -²² 1",
])
def test_unicode_digits_in_number_positions_are_a_decision_not_an_internal_error(
        command: str) -> None:
    """str.isdigit() accepts superscripts ("²") that int() rejects; the readers test
    str.isdecimal() so such text never raises (it became an internal-error block)."""
    result = classify(command)
    assert "internal-error" not in result.rule_ids
