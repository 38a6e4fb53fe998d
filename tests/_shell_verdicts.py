"""Shared assertion for the classifier's table tests: one command, its verdict, a rule."""

from __future__ import annotations

from deerguard import Verdict
from deerguard.shell import classify


def assert_verdict(command: str, verdict: Verdict, rule: str | None = None) -> None:
    """``classify(command)`` gives ``verdict`` and, when ``rule`` is given, names it."""
    result = classify(command)
    assert result.verdict is verdict, (command, result.findings)
    if rule is not None:
        assert rule in result.rule_ids, (command, result.rule_ids)
