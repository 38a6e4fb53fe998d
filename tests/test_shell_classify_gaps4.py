"""classify(): classifier gaps (session 4), checked by verdicts, rule ids and programs.

Each test names a class of inputs and checks several spellings of it, in both directions:
xargs options with attached values (``--arg-file=F``, ``-aF``, ``--max-args=N``).
"""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify

# --- xargs: every option spelling finds the same command and the same argument file -------


@pytest.mark.parametrize("command", [
    "xargs -a <(echo ~) rm -rf",
    "xargs --arg-file=<(echo ~) rm -rf",
    "xargs --arg-file <(echo ~) rm -rf",
    "xargs -a<(echo ~) rm -rf",
    "xargs -0a<(echo ~) rm -rf",
    "xargs -ra <(echo /) rm -rf",
    "xargs --max-args=1 --arg-file=<(echo ~) rm -rf",
    "xargs --delimiter=, --arg-file=<(echo ~) rm -rf",
    "xargs --max-procs=4 -r --arg-file=<(echo /) rm -rf",
    "echo ~ > /tmp/l; xargs --arg-file=/tmp/l rm -rf",
    "echo ~ > /tmp/l; xargs -a/tmp/l rm -rf",
    "echo ~ > /tmp/l; xargs -0a /tmp/l rm -rf",
])
def test_xargs_arg_file_in_any_spelling_feeds_its_known_text_to_the_command(
        command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.rule_ids
    assert "shell.recursive-delete" in result.rule_ids
    assert "rm" in result.commands


@pytest.mark.parametrize("command", [
    "echo ~ | xargs --max-args=1 rm -rf",
    "echo ~ | xargs --replace=R rm -rf R",
    "echo ~ | xargs --max-procs=4 rm -rf",
    "echo ~ | xargs --delimiter=\"$d\" rm -rf",
    "echo ~ | xargs -d\"$d\" rm -rf",
    "echo ~ | xargs --process-slot-var=$v rm -rf",
    "echo ~ | xargs --max-lines rm -rf",  # --max-lines[=N]: optional value, only with =
    "echo ~ | xargs --eof rm -rf",  # --eof[=S]: likewise
    "echo ~ | xargs --max-lines=1 rm -rf",
])
def test_xargs_long_options_with_values_leave_the_command_resolved(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.rule_ids
    assert "shell.recursive-delete" in result.rule_ids
    assert "shell.dynamic-command" not in result.rule_ids


@pytest.mark.parametrize("command", [
    "xargs --arg-file=<(echo build) rm -rf",
    "xargs -a <(ls *.tmp) rm -f",
    "xargs --arg-file=files.txt rm -f",
    "xargs -a files.txt -n 10 wc -l",
    "xargs grep -a pattern",  # grep's -a, not xargs'
    "find . -name '*.o' | xargs --max-args=10 rm -f",
    "git ls-files -z | xargs --null --max-args=50 --max-procs=4 prettier --check",
    "xargs --delimiter='\\n' -I{} echo {}",
])
def test_everyday_xargs_option_spellings_pass(command: str) -> None:
    assert classify(command).verdict is Verdict.PASS, classify(command).rule_ids
