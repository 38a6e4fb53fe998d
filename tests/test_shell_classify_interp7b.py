"""Strings built in interpreter code, round 2: comments read the way each language's lexer
skips them (a quote in ``# don't`` opens no string), Python f-strings and JavaScript
template literals whose fields are names bound to constants, and Python 3.12 f-strings
whose fields reuse the enclosing quote.

Severity: a folded command is classified like the same command written out (``rm -rf /``
blocks as ``shell.recursive-delete``); a command built from a name the code rebinds to
something not constant stays ``shell.dynamic-code`` (warn: a human should look, since
ordinary scripts build commands at run time too)."""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify
from deerguard.shell._comments import blank_comments


def _verdict(command: str) -> Verdict:
    return classify(command).verdict


# -- class 3: comments hiding code from the literal reader -------------------------------

@pytest.mark.parametrize("command", [
    "perl -e $'# don\\'t\\nsystem(q(rm -rf /))'",
    "perl -e $'print 1;# it\\'s fine\\nsystem(\"rm -rf /\")'",
    "perl -e $'=pod\\nwon\\'t run\\n=cut\\nsystem(\"rm -rf ~\")'",
    "perl -e $'my @a = (1); print $#a; # a\\'s length\\nsystem(\"rm -rf /\")'",
    "ruby -e $'# don\\'t\\nsystem(\"rm -rf /\")'",
    "ruby -e $'x = 1 # \"quoted\\nsystem(\"rm -rf ~\")'",
    "ruby -e $'=begin\\nit\\'s docs\\n=end\\nexec(\"rm -rf /\")'",
    "php -r $'# don\\'t\\nsystem(\"rm -rf /\");'",
    "php -r $'// it\\'s\\nshell_exec(\"rm -rf ~\");'",
    "php -r $'/* don\\'t */ passthru(\"rm -rf /\");'",
    "node -e $'// don\\'t\\nrequire(\"child_process\").execSync(\"rm -rf ~\")'",
    "node -e $'/* it\\'s */ require(\"child_process\").execSync(\"rm -rf /\")'",
    "python3 -c $'x = 1#don\\'t\\nimport os; os.system(\"rm -rf /\")'",
])
def test_a_quote_in_a_comment_hides_no_code(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.findings
    assert "shell.recursive-delete" in result.rule_ids


@pytest.mark.parametrize("command", [
    "perl -e $'# don\\'t\\nprint \"hello\\\\n\"'",
    "perl -e 'my @a = (1, 2); print $#a, \"\\n\"'",
    "perl -pe 's#/usr/local#/opt#g' file.txt",
    "perl -ne 'print if m#^http://#' urls.txt",
    "ruby -e $'# it\\'s a comment\\nputs \"a#{1 + 1}b\"'",
    "php -r $'#[Attr] // it\\'s\\necho \"http://example.com\";'",
    "node -e $'// don\\'t\\nconsole.log(\"http://localhost:3000\")'",
    "node -e $'const r = /\\\\/\\\\//; // it\\'s a regex\\nconsole.log(r.test(\"a//b\"))'",
    "python3 -c $'x = 1#don\\'t\\nprint(x)'",
])
def test_comments_and_their_neighbours_stay_quiet(command: str) -> None:
    assert _verdict(command) is Verdict.PASS, classify(command).findings


@pytest.mark.parametrize(("language", "code", "blanked"), [
    ("perl", "print $#a; # it's\nx", "print $#a;       \nx"),
    ("perl", "s#a'#b#; # it's\nx", "s#a'#b#;       \nx"),
    ("perl", "$x =~ /#'/; x", None),  # a regex literal holds no comment
    ("perl", "print q#it's#; # don't\n", "print q#it's#;        \n"),
    ("ruby", "puts \"#{x}'\" # don't\nx", "puts \"#{x}'\"        \nx"),
    ("php", "$u = 'http://x'; /* it's */ x", "$u = 'http://x';            x"),
    ("node", "const t = `a ${'//'} b`; // it's\nx", "const t = `a ${'//'} b`;        \nx"),
    ("node", "a = b / c; // it's\nx", "a = b / c;        \nx"),
    ("python", "x = f\"{d[\"#\"]}'\" # it's\nx", "x = f\"{d[\"#\"]}'\"       \nx"),
    ("python", "x = '''a # it's'''\n", None),
    ("perl", "# no quote here\nx", None),  # nothing changes what the readers see
])
def test_blank_comments_reads_each_language(language: str, code: str,
                                            blanked: str | None) -> None:
    out = blank_comments(code, language)
    assert out == (code if blanked is None else blanked)
    assert len(out) == len(code)
