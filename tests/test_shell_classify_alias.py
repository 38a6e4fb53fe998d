"""Aliases: followed like bash follows them, once per distinct use, never into themselves.

bash does not expand an alias again inside its own expansion (``alias ls='ls -F'``), and the
classifier classifies each (alias, arguments, variable state) once, like function calls: an
alias used 200 times stays within the nested-code budget (it hit ``shell.nesting-too-deep``
and blocked), and a self-referencing alias cannot fan out (a 120-byte fuzz input took
hundreds of milliseconds).
"""

from __future__ import annotations

import pytest

from deerguard import Verdict, classify
from deerguard.shell import _sinks


@pytest.mark.parametrize(("command", "verdict"), [
    ("alias ll='ls -la'; " + "ll; " * 200, Verdict.PASS),
    ("alias ls='ls -F'; ls", Verdict.PASS),
    ("alias x='x; x'; x", Verdict.PASS),
    ("alias a='b'; alias b='a'; a", Verdict.PASS),
    ("alias x='rm -rf'; x ~", Verdict.BLOCK),
    ("alias a='rm -rf'; alias b='a'; b /", Verdict.BLOCK),
    ("alias x='curl -s u | sh'; x", Verdict.BLOCK),
    ("alias ll='ls -la'; ll; ll; alias ll='rm -rf'; ll ~", Verdict.BLOCK),
])
def test_aliases_are_followed_once_per_use_and_never_into_themselves(
        command: str, verdict: Verdict) -> None:
    result = classify(command)
    assert result.verdict is verdict, result.to_dict()
    assert "shell.nesting-too-deep" not in {f.rule_id for f in result.findings}


@pytest.mark.parametrize("command", [
    "alias x='$(x) $(x)'; x",
    "alias x='x; x; x; x'; x",
    "alias x='eval x; eval x'; x",
    "alias x='bash -c x; bash -c x'; x",
])
def test_self_referencing_aliases_do_not_fan_out(command: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    original = _sinks.run_code

    def counting(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_sinks, "run_code", counting)
    classify(command)
    assert 1 <= calls <= 8, calls
