"""Strings built in interpreter code, round 8: Python ``str.format``/``format_map`` with
keyword fields, formats whose fields are not known, and Perl/PHP double-quoted strings
that interpolate scalars bound to constant strings.

Severity: a folded command is classified like the same command written out (``rm -rf /``
blocks as ``shell.recursive-delete``). A format whose fields are not known (``"rm -rf %s"
% x``) is read as the command with an unknown word there, like ``rm -rf "$x"`` in shell
(``shell.dynamic-delete``: warn, a human should look). A Perl/PHP scalar the code rebinds,
changes in place or reaches by another name keeps its value unknown (warn, as before).
Everyday formatting and interpolation stay quiet."""

from __future__ import annotations

import pytest
from _shell_verdicts import assert_verdict

from deerguard import Verdict
from deerguard.shell._plinterp import interpolate
from deerguard.shell._strfold import fold_strings
from deerguard.shell._strperl import unknown_fields

# -- class 1: str.format with keyword constants ------------------------------------------

FORMAT_BLOCKS = [
    "python3 -c 'import os; os.system(\"{a} -rf {b}\".format(a=\"rm\", b=\"/\"))'",
    "python3 -c 'import os; c = \"rm -rf /\"; os.system(\"{x}\".format(x=c))'",
    "python3 -c 'import os; os.system(\"{a} -rf {b}\".format(**{\"a\": \"rm\", \"b\": \"/\"}))'",
    "python3 -c 'import os; os.system(\"{a} -rf {b}\".format_map({\"a\": \"rm\", \"b\": \"~\"}))'",
    "python3 -c 'import os; os.system(\"{0} {flag} {where}\".format(\"rm\", flag=\"-rf\", "
    "where=\"~\"))'",
    "python3 -c $'import os\\nfmt = \"{cmd} -rf {dir}\"\\nos.system(fmt.format(cmd=\"rm\", "
    "dir=\"~\"))'",
    "python3 -c 'import subprocess; subprocess.run(\"{p} -rf {d}\".format(p=\"r\" + \"m\", "
    "d=\"/\"), shell=True)'",
    "python3 -c $'import os\\nos.system(\"{cmd}\".format(\\n    cmd=\"rm -rf /\",\\n))'",
    "python3 -c 'import os; os.popen(\"{t} -rf {h}\".format(t=\"rm\", h=\"$HOME\"))'",
]


@pytest.mark.parametrize("command", FORMAT_BLOCKS)
def test_format_keywords_fold_into_the_command(command: str) -> None:
    assert_verdict(command, Verdict.BLOCK, "shell.recursive-delete")


# A field the call does not give a constant for: the command has an unknown word there.
FORMAT_UNKNOWN = [
    "python3 -c 'import os; os.system(\"rm -rf {b}\".format(b=input()))'",
    "python3 -c 'import os; os.system(\"rm -rf {}\".format(input()))'",
    "python3 -c 'import os, sys; os.system(\"rm -rf %s\" % sys.argv[1])'",
    "python3 -c 'import os; os.system(\"rm -rf %(d)s\" % {\"d\": x})'",
    "ruby -e 'system(\"rm -rf %s\" % ARGV[0])'",
    "python3 -c 'import os; os.system(\"rm -rf {d}\".format_map(vars))'",
]


@pytest.mark.parametrize("command", FORMAT_UNKNOWN)
def test_format_with_unknown_fields_is_a_command_built_at_run_time(command: str) -> None:
    assert_verdict(command, Verdict.WARN, "shell.dynamic-delete")


@pytest.mark.parametrize("command", [
    "python3 -c 'import os; os.system(\"{a} -rf {b}\".format(a=input(), b=\"/\"))'",
    "python3 -c 'import os; os.system(\"{a} -rf {b}\".format_map(d))'",
    "python3 -c 'import os; os.system(\"{a.x} -rf /\".format(a=o))'",
])
def test_format_with_an_unknown_program_warns(command: str) -> None:
    assert_verdict(command, Verdict.WARN)


FORMAT_EVERYDAY = [
    "python3 -c 'print(\"{a}-{b}\".format(a=1, b=2))'",
    "python3 -c 'print(\"{name} is {age}\".format_map({\"name\": \"x\", \"age\": 3}))'",
    "python3 -c 'import os; os.system(\"git log -{n}\".format(n=5))'",
    "python3 -c 'import subprocess; subprocess.run(\"ls {d}\".format(d=\"build\"), shell=True)'",
    "python3 -c 'import os; os.system(\"rm -rf {d}\".format(d=\"build\"))'",
    "python3 -c 'import os, sys; os.system(\"git checkout %s\" % sys.argv[1])'",
    "python3 -c 'import os, sys; os.system(\"ls {}\".format(sys.argv[1]))'",
    "python3 -c 'print(\"Hello %s, 100%%\" % name)'",
    "python3 -c 'import sys; print(\"{{literal}} {0}\".format(sys.argv))'",
    "python3 -c 'print(\"{:>10}|{x:<4}\".format(\"a\", x=\"b\"))'",
]


@pytest.mark.parametrize("command", FORMAT_EVERYDAY)
def test_everyday_formatting_passes(command: str) -> None:
    assert_verdict(command, Verdict.PASS)


@pytest.mark.parametrize(("code", "folded"), [
    ('f("{a} {b}".format(a="rm", b="/"))', 'f("rm /")'),
    ('f("{0}{x}".format("r", x="m"))', 'f("rm")'),
    ('f("{a}".format(**{"a": "x"}))', 'f("x")'),
    ('f("{a}".format_map({"a": "x"}))', 'f("x")'),
    ('f("{{a}} {a}".format(a="x"))', 'f("{a} x")'),
    # Python raises: not folded, the format read as not known
    ('f("{a}".format(a="x", a="y"))', 'f("\ufffc".format(a="x", a="y"))'),
    ('f("{a}".format_map({"a": "x"}, {}))', 'f("\ufffc".format_map({"a": "x"}, {}))'),
    ('f("{a}{0}".format("x", a="y"))', 'f("yx")'),
    ('f("{}{a}".format(b="y"))', 'f("\ufffc{a}".format(b="y"))'),
    ('f("{a}".format(a=input()))', 'f("\ufffc".format(a=input()))'),
])
def test_format_folding(code: str, folded: str) -> None:
    assert fold_strings(code, "python") == folded


@pytest.mark.parametrize(("fmt", "brace", "out"), [
    ("rm -rf %s", False, "rm -rf \ufffc"),
    ("%(a)s -rf %-5d", False, "\ufffc -rf \ufffc"),
    ("100%%", False, None),
    ("rm -rf {x}", True, "rm -rf \ufffc"),
    ("{{x}}", True, None),
    ("{" * 5000, True, None),  # no field closes: linear, nothing unknown
])
def test_unknown_fields(fmt: str, brace: bool, out: str | None) -> None:
    assert unknown_fields(fmt, brace) == out


# -- class 2: Perl and PHP scalars interpolated into strings ------------------------------

INTERP_BLOCKS = [
    "perl -e '$c=\"rm -rf /\"; system(\"$c\")'",
    "php -r '$c=\"rm -rf /\"; system(\"$c\");'",
    "perl -e 'my $d=\"/\"; system(\"rm -rf $d\")'",
    "perl -e 'my $d = \"/\"; system(\"rm -rf ${d}\")'",
    "perl -e 'my $d = \"~\"; system \"rm -rf $d\"'",
    "perl -e 'my $d = q(/); system(qq{rm -rf $d})'",
    "perl -e 'my $d = \"~\"; `rm -rf $d`'",
    "perl -e $'my $t = \\'rm\\';\\nmy $w = \\'/\\';\\nexec(\"$t -rf $w\")'",
    "php -r '$d=\"/\"; system(\"rm -rf {$d}\");'",
    "php -r '$d = \"~\"; shell_exec(\"rm -rf ${d}\");'",
    "php -r '$p = \"rm\"; $w = \"/\"; passthru(\"$p -rf $w\");'",
    "php -r '$d = \"/\"; echo `rm -rf $d`;'",
    "perl -e 'my $d = \"/\"; if (1) { system(\"rm -rf $d\") }'",
    "perl -ne 'my $d = \"~\"; system(\"rm -rf $d\")'",
    "php -r '$d = \"~\"; foreach ([1] as $i) { exec(\"rm -rf $d\"); }'",
]


@pytest.mark.parametrize("command", INTERP_BLOCKS)
def test_interpolated_constant_scalars_fold_into_the_command(command: str) -> None:
    assert_verdict(command, Verdict.BLOCK, "shell.recursive-delete")


# Rebound, changed in place, aliased or read before the binding: the value stays unknown.
INTERP_UNKNOWN = [
    "perl -e 'my $d = \"/\"; $d = <STDIN>; system(\"rm -rf $d\")'",
    "perl -e 'my $d = \"/tmp/x\"; chomp($d); system(\"rm -rf $d\")'",
    "perl -e 'my $d = \"build\"; $d =~ s/build/\\//; system(\"rm -rf $d\")'",
    "perl -e 'my $d = \"build\"; f(\\$d); system(\"rm -rf $d\")'",
    "perl -e 'my $d = \"build\"; eval q{$d = \"/\"}; system(\"rm -rf $d\")'",
    "perl -e 'our $d = \"build\"; ${\"d\"} = \"/\"; system(\"rm -rf $d\")'",
    "perl -e 'my $d = \"build\" . $ARGV[0]; system(\"rm -rf $d\")'",
    "perl -e 'for (1..2) { system(\"rm -rf $d\"); $d = \"build\" }'",
    "php -r '$d = \"build\"; $d = $argv[1]; system(\"rm -rf $d\");'",
    "php -r '$d = \"build\"; extract($_GET); system(\"rm -rf $d\");'",
    "php -r '$d = \"build\"; $n = \"d\"; $$n = \"/\"; system(\"rm -rf $d\");'",
    "perl -e '$d = \"build\"; ${d} = $ARGV[0]; system(\"rm -rf $d\")'",
]


@pytest.mark.parametrize("command", INTERP_UNKNOWN)
def test_scalars_that_may_change_stay_unknown(command: str) -> None:
    assert_verdict(command, Verdict.WARN)


# A binding that may not run, or code that runs before it: "/$d" may be "/" itself, so it
# blocks as a top-level delete not known statically (folded, it would pass as /build).
@pytest.mark.parametrize("command", [
    "perl -e 'if ($ARGV[0]) { $d = \"build\" } system(\"rm -rf /$d\")'",
    "perl -e 'f(); $d = \"build\"; sub f { system(\"rm -rf /$d\") }'",
    "perl -e '$d = \"build\"; do \"cfg.pl\"; system(\"rm -rf /$d\")'",
    "perl -e 'BEGIN { system(\"rm -rf /$d\") } $d = \"build\";'",
    "perl -e 'goto L; $d = \"build\"; L: system(\"rm -rf /$d\")'",
    "php -r 'f(); $d = \"build\"; function f() { system(\"rm -rf /$d\"); }'",
    "php -r '$d = \"build\"; include \"cfg.php\"; system(\"rm -rf /$d\");'",
    "php -r 'if ($argc > 1) { $d = \"build\"; } system(\"rm -rf /$d\");'",
])
def test_bindings_that_may_not_run_first_stay_unknown(command: str) -> None:
    assert_verdict(command, Verdict.BLOCK, "shell.recursive-delete")


def test_a_top_level_binding_read_later_folds() -> None:
    assert_verdict("perl -e '$d = \"build\"; system(\"rm -rf /$d\")'", Verdict.PASS)


INTERP_EVERYDAY = [
    "perl -e 'my $n=\"world\"; print \"hello $n\\n\"'",
    "php -r '$d=\"build\"; system(\"ls $d\");'",
    "perl -e 'my $d = \"build\"; system(\"rm -rf $d\")'",
    "perl -e 'my $f = \"x.txt\"; print \"$f has @lines\\n\"'",
    "perl -e 'my $v = \"1.2\"; system(\"git tag v$v\")'",
    "php -r '$name = \"app\"; echo \"Building {$name}...\\n\";'",
    "perl -le 'my $x = \"a\"; print \"$x: $0\"'",
    "php -r '$u = \"https://example.com\"; echo file_get_contents(\"$u/health\");'",
]


@pytest.mark.parametrize("command", INTERP_EVERYDAY)
def test_everyday_interpolation_passes(command: str) -> None:
    assert_verdict(command, Verdict.PASS)


@pytest.mark.parametrize(("code", "language", "out"), [
    ('$c="rm"; system("$c -rf")', "perl", '$c="rm"; system("rm -rf")'),
    ("my $c = 'a\"b$x'; print \"$c\"", "perl", "my $c = 'a\"b$x'; print \"a\\\"b\\$x\""),
    ('$c="x"; print "@{c}"', "perl", '$c="x"; print "@{c}"'),  # an array: left alone
    ('$c="x"; print "$c[0]"', "perl", '$c="x"; print "$c[0]"'),
    ('print "$c"; $c="x";', "perl", 'print "$c"; $c="x";'),  # read before the binding
    ('$c="x"; print "$c\'s"', "perl", '$c="x"; print "$c\'s"'),  # $c::s
    ('$c = "x"; echo "{$c->m()}";', "php", '$c = "x"; echo "{$c->m()}";'),
    ('$c = "x"; echo "cost $5 $c";', "php", '$c = "x"; echo "cost $5 x";'),
    ('$c = "a"; echo "$c";', "ruby", '$c = "a"; echo "$c";'),
    ('$c = "x', "perl", '$c = "x'),  # not closed
    ('$c = "x"; print "$c', "perl", '$c = "x"; print "$c'),
    ('$c = "x"; print "' + "$c" * 40 + '"', "perl", '$c = "x"; print "' + "$c" * 40 + '"'),
])
def test_interpolate(code: str, language: str, out: str) -> None:
    assert interpolate(code, language) == out


def test_interpolate_is_bounded() -> None:
    code = '$c="x";' + 'print "$c$c$c$c";' * 200
    assert interpolate(code, "perl").count('"xxxx"') == 200
    # Past 256 literals a name's uses are not all read: nothing folds.
    code = '$c="x";' + 'print "$c$c$c$c";' * 3000
    assert interpolate(code, "perl") == code
