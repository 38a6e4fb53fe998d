"""Interpreter code, round 9: Perl/PHP scalars bound to a constant inside a block, and the
walker's alternatives kept to a command's own words.

Severity: a folded command is classified like the same command written out (``rm -rf /``
blocks as ``shell.recursive-delete``). A scalar bound inside a block (``if``, a loop body,
a ``sub``/``function`` body) holds its constant only for the strings after the binding in
that block; read after the block, past a function definition, rebound, a loop variable or
a ``static``, it stays unknown (``rm -rf "$x"`` in shell: ``shell.dynamic-delete``, warn, a
human should look). Everyday subs and functions that format strings stay quiet."""

from __future__ import annotations

from typing import Any

import pytest
from _shell_verdicts import assert_verdict

from deerguard import Verdict
from deerguard.shell import classify
from deerguard.shell._flow import Flow
from deerguard.shell._plinterp import interpolate
from deerguard.shell._words import Field

# -- class: Perl/PHP scalars bound once to a constant within a block ------------------------

BLOCK_SCALARS = [
    "perl -e 'if (1) { my $d=\"/\"; system(\"rm -rf $d\") }'",
    "php -r 'function f() { $d=\"/\"; system(\"rm -rf $d\"); } f();'",
    "perl -e 'sub f { my $d = \"/\"; system(\"rm -rf $d\"); } f();'",
    "perl -e 'sub wipe { my $where = \"~\"; system \"rm -rf ${where}\" } wipe'",
    "perl -e 'unless ($ENV{CI}) { my $t = q(rm); my $w = q(/); exec(\"$t -rf $w\") }'",
    "perl -e 'for my $i (1..2) { my $d = \"~\"; `rm -rf $d` }'",
    "perl -e 'while (1) { my $d=\"/\"; system(\"rm -rf $d\"); last }'",
    "perl -e 'my $g = sub { my $d = \"/\"; system(\"rm -rf $d\") }; $g->()'",
    "perl -e 'sub f { my $d = \"/\"; if (-e $0) { system(\"rm -rf $d\") } } f()'",
    "php -r 'if (true) { $d = \"~\"; exec(\"rm -rf {$d}\"); }'",
    "php -r 'foreach ([1] as $i) { $p = \"rm\"; $w = \"/\"; passthru(\"$p -rf $w\"); }'",
    "php -r '$f = function() { $d = \"/\"; shell_exec(\"rm -rf ${d}\"); }; $f();'",
    "php -r 'class A { function run() { $d = \"~\"; echo `rm -rf $d`; } } (new A)->run();'",
]


@pytest.mark.parametrize("command", BLOCK_SCALARS)
def test_scalars_bound_in_a_block_fold_into_its_commands(command: str) -> None:
    assert_verdict(command, Verdict.BLOCK, "shell.recursive-delete")


# The same code with the value out of reach: read after the block, before the binding,
# past a function definition, rebound, a loop variable, a static, or unbalanced braces.
BLOCK_UNKNOWN = [
    "perl -e 'if (1) { my $d = \"/\" } system(\"rm -rf $d\")'",
    "perl -e 'sub f { system(\"rm -rf $d\"); my $d = \"/\"; } f()'",
    "perl -e 'sub f { my $d = \"/\"; $d = <STDIN>; system(\"rm -rf $d\") } f()'",
    "perl -e 'for my $d (\"/\") { system(\"rm -rf $d\") }'",
    "perl -e 'sub f { my $d = \"/\"; sub g { system(\"rm -rf $d\") } } g()'",
    "perl -e 'while (<STDIN>) { system(\"rm -rf $d\"); my $d = \"/\"; }'",
    "perl -e 'sub f { my $d = \"/\"; chomp($d); system(\"rm -rf $d\") } f()'",
    "php -r '$d = \"/\"; function f() { system(\"rm -rf $d\"); } f();'",
    "php -r 'function f() { $d = \"/\"; $d = $argv[1]; system(\"rm -rf $d\"); } f();'",
    "php -r 'function f() { static $d = \"/\"; system(\"rm -rf $d\"); } f();'",
    "php -r 'if ($argc > 1) { $d = \"/\"; } exec(\"rm -rf $d\");'",
    "php -r 'function f() { $d = \"/\"; $g = fn() => system(\"rm -rf $d\"); $g(); } f();'",
]


@pytest.mark.parametrize("command", BLOCK_UNKNOWN)
def test_scalars_out_of_the_bindings_reach_stay_unknown(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, (command, result.findings)
    assert "shell.recursive-delete" not in result.rule_ids


BLOCK_EVERYDAY = [
    "perl -e 'for my $f (@ARGV) { print \"$f\\n\" }' a b",
    "php -r 'function g($x) { return \"ls $x\"; } echo g(\"a\");'",
    "perl -e 'sub f { my $d=\"build\"; system(\"ls $d\") } f()'",
    "php -r 'function f() { $d=\"build\"; system(\"ls $d\"); } f();'",
    "perl -e 'sub greet { my $n = \"world\"; print \"hello $n\\n\" } greet()'",
    "php -r 'function tag() { $t = \"v1.2\"; system(\"git tag $t\"); } tag();'",
    "perl -e 'if (-d \"build\") { my $d = \"build\"; system(\"rm -rf $d\") }'",
    "php -r 'foreach ([\"a\", \"b\"] as $x) { $dir = \"out\"; echo \"$dir/$x\\n\"; }'",
]


@pytest.mark.parametrize("command", BLOCK_EVERYDAY)
def test_everyday_subs_and_functions_pass(command: str) -> None:
    assert_verdict(command, Verdict.PASS)


@pytest.mark.parametrize(("code", "language", "out"), [
    ('sub f { my $c = "x"; print "$c" }', "perl", 'sub f { my $c = "x"; print "x" }'),
    ('{ $c = "x"; } print "$c"', "perl", '{ $c = "x"; } print "$c"'),  # after the block
    ('{ $c = "x"; { print "$c" } }', "perl", '{ $c = "x"; { print "x" } }'),  # nested
    ('{ $c = "x"; print "$c"', "perl", '{ $c = "x"; print "$c"'),  # never closed
    ('{ $c = "x"; print "$c" } }', "perl", '{ $c = "x"; print "$c" } }'),  # unbalanced
    ('$c = "x"; sub f { print "$c" }', "perl", '$c = "x"; sub f { print "$c" }'),
    ('$c = "x"; print "$c"; sub f {}', "perl", '$c = "x"; print "x"; sub f {}'),
    ('function f() { $c = "x"; echo "{$c}"; }', "php", 'function f() { $c = "x"; echo "x"; }'),
    ('$c = "x"; function f() { echo "$c"; }', "php", '$c = "x"; function f() { echo "$c"; }'),
    ('$c = "x"; $f = fn() => "$c";', "php", '$c = "x"; $f = fn() => "$c";'),
])
def test_interpolate_in_blocks(code: str, language: str, out: str) -> None:
    assert interpolate(code, language) == out


# -- class: Perl/Ruby shell calls without parentheses on a value ----------------------------

# system $x runs a command built at run time, like system($x) (warn, shell.dynamic-code); a
# scalar bound to a constant in the same block is also read as that command (it blocks).
BARE_DYNAMIC = [
    "perl -e 'system $ARGV[0]'",
    "perl -e 'exec @ARGV' \"$x\"",  # a static word is bound to @ARGV (interpenv10)
    "perl -e 'if (1) { system $x }'",
    "perl -e 'sub run { system $_[0] } run(\"ls\")'",
    "perl -e 'system join(\" \", @ARGV)'",
    "perl -e 'exec { $sh } \"-sh\"'",
    "ruby -e 'system ARGV[0]'",
    "ruby -e 'Kernel.system cmd'",
    "ruby -e 'Process.spawn *ARGV'",
    "xargs -0 perl -e 'system @ARGV' < list.txt",
]


@pytest.mark.parametrize("command", BARE_DYNAMIC)
def test_bare_calls_on_values_are_dynamic(command: str) -> None:
    assert_verdict(command, Verdict.WARN, "shell.dynamic-code")


@pytest.mark.parametrize("command", [
    "perl -e 'sub f { my $c = \"rm -rf /\"; system $c } f()'",
    "perl -e 'for (1) { my $c = \"rm -rf ~\"; exec $c }'",
    "ruby -e 'if true then c = \"rm -rf /\"; system c end'",
])
def test_bare_calls_on_constants_in_blocks_fold(command: str) -> None:
    assert_verdict(command, Verdict.BLOCK, "shell.recursive-delete")


@pytest.mark.parametrize("command", [
    "perl -e '# run system tests\nprint 1'",
    "perl -e 'system \"ls\"'",
    "ruby -e 'system \"ls\", \"-la\"'",
    "perl -e 'my $system = 1; print $system'",
    "perl -e 'print \"system $0\\n\"'",
    "ruby -e 'x = :system if true; p x'",
    "perl -e 'my %h = (system => 1); print $h{system}'",
])
def test_system_as_a_word_or_a_literal_call_passes(command: str) -> None:
    assert_verdict(command, Verdict.PASS)


# -- speed class: a command's alternatives are its own words' -------------------------------

# Nested code reading an unset variable has two readings of it; the command that runs the
# code has one reading of its own words, so it is classified once, with the same verdict.
# And the other way round: the nested walk no longer resets the count of the outer words'
# readings, so each reading of a word holding code is classified (d=${1:-/} may be "/":
# wrapped in bash -c, eval or sudo bash -c it blocks like the bare rm -rf $d; it warned).
@pytest.mark.parametrize(("command", "verdict"), [
    ("elvish -c 'put [a b] | each {|x| echo $x }'", Verdict.PASS),
    ("nu -c 'ls | each { |f| $f.name }'", Verdict.PASS),
    ("bash -c 'echo ${x:-a}'", Verdict.PASS),
    ("bash -c 'rm -rf ${x:-/}'", Verdict.BLOCK),
    ("d=${1:-/}; rm -rf $d", Verdict.BLOCK),
    ("d=${1:-/}; bash -c \"rm -rf $d\"", Verdict.BLOCK),
    ("d=${1:-/}; eval \"rm -rf $d\"", Verdict.BLOCK),
    ("d=${1:-/}; sudo bash -c \"echo hi; rm -rf $d\"", Verdict.BLOCK),
    ("t=${2:-~}; sh -c \"rm -rf $t/\"", Verdict.BLOCK),
    ("d=${1:-build}; bash -c \"rm -rf $d\"", Verdict.WARN),
    ("d=${1:-build}; bash -c \"ls $d\"", Verdict.PASS),
    ("sh -c 'cd \"${TMPDIR:-/tmp}\" && ls'", Verdict.PASS),
])
def test_nested_alternatives_keep_verdicts(command: str, verdict: Verdict) -> None:
    assert_verdict(command, verdict)


# A substitution later in the word walks its own commands, which counted their own readings
# over the word's: ${1:-/}$(true) lost the "/" reading (warned; rm -rf ${1:-/} blocks).
@pytest.mark.parametrize(("command", "verdict"), [
    ("rm -rf ${1:-/}$(true)", Verdict.BLOCK),
    ("rm -rf ${1:-/}`true`", Verdict.BLOCK),
    ("rm -rf \"${TARGET:-~}$(printf %s)\"", Verdict.BLOCK),
    ("d=${1:-/}$(true); rm -rf $d", Verdict.BLOCK),
    ("rm -rf ${1:-/}<(true)", Verdict.BLOCK),
    ("rm -rf ${1:-build}$(true)", Verdict.WARN),
    ("ls ${1:-.}$(true)", Verdict.PASS),
    ("echo ${x:-a}$(date)", Verdict.PASS),
])
def test_a_substitution_keeps_the_words_readings(command: str, verdict: Verdict) -> None:
    assert_verdict(command, verdict)


def test_nested_code_runs_once_per_own_alternative(monkeypatch: pytest.MonkeyPatch) -> None:
    import deerguard.shell._walk as walk

    calls: list[str] = []
    original = walk.Run.run_code

    def counting(self: walk.Run, code: Field, *args: Any, **kwargs: Any) -> Flow | None:
        calls.append(code.text)
        return original(self, code, *args, **kwargs)

    monkeypatch.setattr(walk.Run, "run_code", counting)
    classify("bash -c 'echo $x'")
    assert len(calls) == 1
    calls.clear()
    classify("d=${1:-a}; bash -c \"echo $d $x\"")  # two readings of its own word
    assert len(calls) == 2
