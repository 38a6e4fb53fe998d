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
from _shell_verdicts import assert_verdict

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
    "perl -e $'print 1# q(\\nsystem(\"rm -rf /\");\\n#)'",  # q( in a comment opens no text
    "ruby -e $'puts 1# %q(\\nsystem(\"rm -rf /\")\\n#)'",
])
def test_a_quote_in_a_comment_hides_no_code(command: str) -> None:
    assert_verdict(command, Verdict.BLOCK, "shell.recursive-delete")


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
    assert_verdict(command, Verdict.PASS)


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


# -- classes 1, 2 and 4: f-strings, format calls and template literals over constant names -

_EXEC = 'require("child_process").execSync'


@pytest.mark.parametrize("command", [
    "python3 -c 'import os; c = \"rm -rf /\"; os.system(f\"{c}\")'",
    "python3 -c 'import os; a = \"rm\"; b = \"-rf ~\"; os.system(f\"{a} {b}\")'",
    "python3 -c 'import subprocess; cmd = \"rm -rf /\"; subprocess.run(f\"{cmd}\", shell=True)'",
    "python3 -c 'import os; a, b = \"rm\", \"-rf /\"; os.system(f\"{a} {b}\")'",
    "python3 -c 'import os; a, b = \"rm\", \"/\"; os.system(\"%s -rf %s\" % (a, b))'",
    "python3 -c 'import os; p = \"rm\"; p += \" -rf\"; t = \"~\"; "
    "os.system(\"{} {}\".format(p, t))'",
    "python3 -c 'import os; c = \"rm\"; c += \" -rf /\"; os.system(f\"{c}\")'",
    "python3 -c 'import os; a = \"rm\"; b = f\"{a} -rf /\"; os.system(f\"{b}\")'",
    "python3 -c 'import os; d = \"/\"; os.system(f\"rm -rf {d}\")'",
    "python3 -c 'import os; d: str = \"~\"; os.system(f\"rm -rf {d.strip()}\")'",
    "python3 -c 'import os; x = y = \"rm -rf ~\"; os.system(f\"{x}\")'",
    "python3 -c 'import os; h = os.path.expanduser(\"~\"); os.system(f\"rm -rf {h}\")'",
    "python3 -c $'import os\\nbase = \"rm\"\\nbase += \" -rf\"\\nbase += \" /\"\\n"
    "os.system(f\"{base}\")'",
    # class 2: Python 3.12 fields that reuse the enclosing quote
    "python3 -c 'import os; os.system(f\"{\"rm\"} -rf /\")'",
    "python3 -c 'import os; os.system(f\"{'\"'\"'rm'\"'\"' + \" -rf ~\"}\")'",
    "python3 -c 'import os; os.system(f\"{\"\".join([\"r\", \"m\"])} -rf ~\")'",
    "python3 -c 'import os; os.system(f\"rm -rf {os.path.expanduser(\"~\")}\")'",
    # prefixed and triple-quoted literals read as the plain literal they are
    "python3 -c 'import os; a = \"rm\"; os.system(F\"{a} -rf /\")'",
    "python3 -c 'import os; a = \"rm\"; os.system(rf\"{a} -rf /\")'",
    "python3 -c 'import os; a = \"rm\"; os.system(f\"{a:s} -rf /\")'",
    "python3 -c 'import os; a = \"rm\"; os.system(f\"{a}\" f\" -rf /\")'",
    "python3 -c $'import os\\na = \"rm\"\\nos.system(f\"\"\"{a} -rf /\"\"\")'",
    "python3 -c 'import os; os.system(\"\"\"rm -rf /\"\"\")'",
    "python3 -c 'import os; os.system(r\"rm -rf /\")'",
    "python3 -c 'import os; os.system(b\"rm -rf ~\")'",
    # class 4: JavaScript template literals and String.raw
    f"node -e 'const c = \"rm -rf ~\"; {_EXEC}(`${{c}}`)'",
    f"node -e 'const a = \"rm\", b = \"-rf /\"; {_EXEC}(`${{a}} ${{b}}`)'",
    f"node -e 'let c = \"rm\"; c += \" -rf ~\"; {_EXEC}(`${{c}}`)'",
    f"node -e 'const c = \"rm -rf ~\"; {_EXEC}(String.raw`${{c}}`)'",
    f"node -e '{_EXEC}(String.raw`rm -rf ~`)'",
    f"node -e 'const d = \"/\"; {_EXEC}(`rm -rf ${{d}}`)'",
    f"node -e 'const h = require(\"os\").homedir(); {_EXEC}(`rm -rf ${{h}}`)'",
    "bun -e 'const c = \"rm -rf ~\"; Bun.spawnSync([\"sh\", \"-c\", `${c}`])'",
])
def test_strings_built_from_constant_names_are_classified(command: str) -> None:
    assert_verdict(command, Verdict.BLOCK, "shell.recursive-delete")


@pytest.mark.parametrize("command", [
    # rebound to something not constant: never the stale value
    "python3 -c 'import os,sys; c = \"rm -rf /\"; c = sys.argv[1]; os.system(f\"{c}\")'",
    "python3 -c 'import os; c = \"ls\"; c = input(); os.system(f\"{c}\")'",
    "python3 -c 'import os; c = \"ls\"; c += input(); os.system(f\"{c}\")'",
    "python3 -c $'import os\\nc = \"rm -rf /\"\\nif 1: c = \"ls\"\\nos.system(f\"{c}\")'",
    "python3 -c $'import os\\nc = \"rm -rf /\"\\nif 0:\\n    c += \"tmp/x\"\\nos.system(f\"{c}\")'",
    "python3 -c $'import os\\nc = \"ls\"\\nfor c in [\"rm -rf /\"]: pass\\nos.system(f\"{c}\")'",
    "python3 -c $'import os\\nc = \"ls\"\\nfor i in range(2):\\n    os.system(f\"{c}\")\\n"
    "    c = input()'",
    "python3 -c $'import os\\nc = \"ls\"\\ndef f(c):\\n    os.system(f\"{c}\")\\nf(input())'",
    "python3 -c $'import os\\nc = \"ls\"\\nglobals()[\"c\"] = input()\\nos.system(f\"{c}\")'",
    "python3 -c $'import os\\nc = \"ls\"\\n(c, d) = (input(), 1)\\nos.system(f\"{c}\")'",
    "python3 -c $'import os\\nc = \"ls\"\\nx, *c = input().split()\\nos.system(f\"{c}\")'",
    "python3 -c $'import os\\nc = \"ls\"\\n[c := input()]\\nos.system(f\"{c}\")'",
    "python3 -c $'import os\\nc = \"ls\"\\nwith open(\"x\") as c: pass\\nos.system(f\"{c}\")'",
    "python3 -c $'import os\\nc = d = \"ls\"\\nd = input()\\nos.system(f\"{d}\")'",
    "python3 -c 'import os; os.system(f\"{input()}\")'",
    f"node -e $'let c = \"ls\"\\nif (process.argv[2]) c = process.argv[2]\\n{_EXEC}(`${{c}}`)'",
    f"node -e $'let c = \"rm -rf ~\"\\nif (0) c += \"/tmp/x\"\\n{_EXEC}(`${{c}}`)'",
    f"node -e $'let c = \"ls\"\\nconst g = c => {_EXEC}(`${{c}}`)\\ng(process.argv[2])'",
    f"node -e $'let c = \"ls\"\\n;[c] = process.argv.slice(2)\\n{_EXEC}(`${{c}}`)'",
    f"node -e $'let c = \"ls\"\\nfor (c of process.argv) {{}}\\n{_EXEC}(`${{c}}`)'",
    f"node -e $'let c = \"ls\"\\nc ||= process.argv[2]\\n{_EXEC}(`${{c}}`)'",
    f"node -e $'let c = \"rm\"\\nfor (const x of [1]) {{ c += \" -rf ~\" }}\\n{_EXEC}(`${{c}}`)'",
])
def test_names_rebound_to_unknown_values_stay_dynamic(command: str) -> None:
    assert_verdict(command, Verdict.WARN, "shell.dynamic-code")


@pytest.mark.parametrize("command", [
    "python3 -c 'import os; c = \"ls -la\"; os.system(f\"{c}\")'",
    "python3 -c 'import os; branch = \"main\"; os.system(f\"git checkout {branch}\")'",
    "python3 -c 'import subprocess; v = \"3.11\"; "
    "subprocess.run(f\"python{v} --version\", shell=True)'",
    "python3 -c 'import os; d = \"build\"; os.system(f\"rm -rf {d}\")'",
    "python3 -c 'import os; h = os.environ[\"HOME\"]; os.system(f\"rm -rf {h}/.cache/pip\")'",
    "python3 -c 'x = 1; y = 2; print(f\"{x} + {y} = {x + y}\")'",
    "python3 -c 'd = {\"a\": 1}; print(f\"{d[\"a\"]:>4} {d!r}\")'",
    "python3 -c 'import sys; print(f\"{sys.version_info.major}.{sys.version_info.minor}\")'",
    "python3 -c 'import subprocess; subprocess.run(f\"echo {1 + 1}\", shell=True)'",
    f"node -e 'const dir = \"dist\"; {_EXEC}(`rm -rf ${{dir}}`)'",
    "node -e 'const name = \"x\"; console.log(`hi ${name}`, `${name}-${1 + 1}`)'",
    "node -e 'console.log(String.raw`C:\\path\\to`)'",
    "python3 -c 'import re; print(re.sub(r\"\\d+\", \"N\", \"a1\"), rb\"\\x00\".hex())'",
    "python3 -c $'\"\"\"doc with \"quotes\" and\\nlines\"\"\"\\nprint(1)'",
    "python3 -c 'import os; os.system(r\"echo C:\\path\")'",
])
def test_everyday_templates_stay_quiet(command: str) -> None:
    assert_verdict(command, Verdict.PASS)


# A blank literal joined to a value that does not fold, or a format whose first field is
# unknown, starts a command built at run time (warn), never an empty, harmless one.
@pytest.mark.parametrize("command", [
    "python3 -c 'import os; c = \"rm -rf /\"; c = input(); os.system(\"\" + c)'",
    "python3 -c 'import os; os.system(\" \" + input() + \" -rf /\")'",
    "python3 -c 'import os; os.system(\"%s -rf /\" % input())'",
    "python3 -c 'import os; os.system(\"{} -rf /\".format(input()))'",
    "python3 -c 'import os; os.system(\"{a} -rf {b}\".format(a=input(), b=\"/\"))'",
    "python3 -c 'import os; os.system(\"%(a)s -rf /\" % {\"a\": input()})'",
    "perl -e '$c = <STDIN>; system(\"\" . $c)'",
    f"node -e '{_EXEC}(\"\" + process.argv[1])'",
])
def test_an_unknown_value_behind_a_blank_prefix_stays_dynamic(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.findings
    assert {"shell.dynamic-code", "shell.dynamic-command"} & set(result.rule_ids)


@pytest.mark.parametrize("command", [
    "python3 -c 'import os; c = \"ls\"; os.system(\"\" + c)'",
    "python3 -c 'import os; print(\"\" + os.getcwd())'",
    "python3 -c 'print(\"%s items\" % len([1]), \"{} items\".format(3))'",
    "python3 -c 'print(\"{name} is {n}\".format(name=\"x\", n=1), \"%(a)s\" % {\"a\": 1})'",
])
def test_blank_prefixes_outside_shell_calls_stay_quiet(command: str) -> None:
    assert_verdict(command, Verdict.PASS)


# Ruby "#{..}" and `..#{..}..` over constant names (fields may reuse the enclosing quote);
# a String changed in place (<<, replace, sub!, []=) or rebound is not constant.
@pytest.mark.parametrize("command", [
    "ruby -e 'c = \"rm -rf /\"; system(\"#{c}\")'",
    "ruby -e 'a = \"rm\"; b = \"-rf ~\"; `#{a} #{b}`'",
    "ruby -e 'system(\"#{\"r\" + \"m\"} -rf ~\")'",
    "ruby -e 'c = \"rm\"; c += \" -rf /\"; exec(\"#{c}\")'",
    "ruby -e 'a, b = \"rm\", \"/\"; system(\"#{a} -rf #{b}\")'",
])
def test_ruby_interpolated_constant_names_are_classified(command: str) -> None:
    assert_verdict(command, Verdict.BLOCK, "shell.recursive-delete")


@pytest.mark.parametrize("command", [
    "ruby -e 'c = \"rm\"; c += \" -rf /\" if false; system(\"#{c}\")'",
    "ruby -e 'c = \"ls\"; c << gets; system(\"#{c}\")'",
    "ruby -e 'c = \"ls\"; c.replace(gets); system(\"#{c}\")'",
    "ruby -e 'c = \"ls\"; c.sub!(\"ls\", gets); system(\"#{c}\")'",
    "ruby -e 'c = \"ls\"; c[0..] = gets; system(\"#{c}\")'",
    "ruby -e 'c = \"ls\"; [gets].each { |c| system(\"#{c}\") }'",
    "ruby -e 'c = \"ls\"; c = gets; system(\"#{c}\")'",
])
def test_ruby_names_changed_at_run_time_stay_dynamic(command: str) -> None:
    assert_verdict(command, Verdict.WARN, "shell.dynamic-code")


@pytest.mark.parametrize("command", [
    "ruby -e 'c = \"ls -la\"; system(\"#{c}\")'",
    "ruby -e 'd = \"build\"; system(\"rm -rf #{d}\")'",
    "ruby -e 'name = \"x\"; puts \"hi #{name}\"; puts \"a\\\"b #{name}\"'",
    "ruby -e 'puts `git log -1 --format=#{\"%H\"}`'",
    "ruby -e 'puts \"Hello #{ENV[\"USER\"]}, #{1 + 2}\"'",
])
def test_everyday_ruby_interpolation_stays_quiet(command: str) -> None:
    assert_verdict(command, Verdict.PASS)
