"""Perl and Ruby code inside strings: a string evaluated as code keeps its own quote-like
literals (``eval "system(q(rm -rf /))"``), and code interpolated into a string
(Ruby ``"#{...}"``, Perl ``"@{[ ... ]}"``/``"${\\ ...}"``) is code that runs."""

from __future__ import annotations

import pytest
from _shell_verdicts import assert_verdict

from deerguard import Verdict


@pytest.mark.parametrize("command", [
    "perl -e 'eval \"system(q(rm -rf /))\"'",
    "perl -e 'eval(\"system(qq{rm -rf ~})\")'",
    "perl -e 'my $c = \"system(q(rm -rf /))\"; eval $c'",
    "perl -e 'eval \"unlink glob q(~/*)\"'",
    "ruby -e 'eval(\"system(%q(rm -rf /))\")'",
    "ruby -e 'eval \"exec(%Q[rm -rf ~])\"'",
    "ruby -e 'puts \"#{%x(rm -rf /)}\"'",
    "ruby -e 'puts \"#{`rm -rf ~`}\"'",
    "ruby -e 'puts `echo #{`rm -rf ~`}`'",
    "perl -e 'print \"@{[ qx(rm -rf /) ]}\"'",
    "perl -e 'print \"${\\ qx(rm -rf ~)}\"'",
    "perl -e 'print \"qx() in text\"; eval \"system(q(rm -rf /))\"'",
])
def test_code_inside_perl_and_ruby_strings_is_classified(command: str) -> None:
    assert_verdict(command, Verdict.BLOCK, "shell.recursive-delete")


@pytest.mark.parametrize("command", [
    "perl -e 'eval \"print q(hi)\"'",
    "perl -e 'print \"q(not code) and qx(neither)\\n\"'",
    "perl -e 'print \"@{[ 1+2 ]}\\n\"'",
    "ruby -e 'puts \"Hello #{ENV[\"USER\"]}, #{1 + 2}\"'",
    "ruby -e 'puts \"%x(rm -rf /) is only text here\"'",
    "ruby -e 'eval(\"puts %q(hi)\")'",
])
def test_strings_that_only_hold_text_pass(command: str) -> None:
    assert_verdict(command, Verdict.PASS)
