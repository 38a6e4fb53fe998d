"""classify(): the values variables take, as bash computes them, decide what runs.

Constant propagation must model what bash does with an assignment or an expansion (arrays,
attributes, namerefs, parameter operations, read/printf/mapfile), and anything it cannot
evaluate must make the value unknown (``shell.dynamic-command``), never empty and never a
wrong literal that hides the command. Every way of assigning a variable gets the checks of
``NAME=value``. Text that bash evaluates again (array subscripts reached in arithmetic or in a
variable-name slot, ``${x@P}``) is classified as code. Each test checks several spellings of
its class, and the everyday neighbours that must stay quiet.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify, parse_policy

DENY_RM = parse_policy('[commands]\ndeny = ["rm"]\n')


# --- arrays, attributes, namerefs -----------------------------------------------------------

@pytest.mark.parametrize("command", [
    'a=(rm); a+=(-rf /); "${a[@]}"',
    's=rm; s+=(-rf /); "${s[@]}"',
    'declare -a a; a+=(rm -rf /); "${a[@]}"',
    'x=(a rm -rf /); "${x[@]:1}"',
    'x=(a rm -rf / b); "${x[@]:1:3}"',
    'x=(a b rm -rf /); "${x[@]: -3}"',
    'x=(rm -rf /); ${x[*]}',
    'a=([1]=rm [2]=-rf [3]=/); ${a[1]} ${a[2]} ${a[3]}',
    'a=([3]=rm -rf /); "${a[@]}"',
    'a[1]=rm; a[2]=-rf; "${a[@]}" /',
    'a=(ls); a=rm; "${a[@]}" -rf /',
    'declare -A m=([k]=rm); ${m[k]} -rf /',
    'declare -A m; m[k]=rm; ${m[k]} -rf /',
    'typeset -A m=(k rm); ${m[k]} -rf /',
    'x=ls; unset x; $x rm -rf /',
    'a=(); a[${#a[@]}]=rm; a[${#a[@]}]=-rf; "${a[@]}" /',
    'a=(rm -rf /); b="${a[@]}"; $b',
    'a=(rm -rf /); b=${a[*]}; $b',
    'set -- x rm -rf /; shift; "$@"',
    'set -- x y rm -rf /; shift 2; "$@"',
    'f() { shift; "$@"; }; f x rm -rf /',
])
def test_array_forms_give_the_elements_bash_runs(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "rm" in result.commands


@pytest.mark.parametrize("command", [
    "declare -l x=RM; $x f",
    "declare -l x; x=RM; $x f",
    "typeset -u x; x=rm; ${x,,} f",
    "local -l x=RM; $x f",
    "declare -c x=RM; ${x,} f",
    "declare -n r=x; x=rm; $r f",
    "declare -n r=x; r=rm; $x f",
    "declare -n a=b; declare -n b=c; c=rm; $a f",
    "declare -n r=arr; arr=(ls rm); ${r[1]} f",
])
def test_declare_attributes_and_namerefs_shape_later_values(command: str) -> None:
    result = classify(command, policy=DENY_RM)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.denied-command" in result.rule_ids


# --- parameter operations ------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "x=rmxx; ${x%%x*} f",
    "x=xxrm; ${x##*x} f",
    "x=rmab; ${x%a?} f",
    "x=arm; ${x#[a-c]} f",
    "x=rxm; ${x/x/} f",
    "x=r_m_; ${x//_/} f",
    "x=rQQm; ${x/Q*Q/} f",
    "x=zrm; ${x/#?/} f",
    "x=rmz; ${x/%[[:alpha:]]/} f",
    "x=RM; ${x@L} f",
    "x=RM; ${x,,} f",
    "x=rM; ${x,,[A-Z]} f",
    "x=RM; ${x~~} f",
    "x=rm; ${x@E} f",
    "x='r\\x6d'; ${x@E} f",
    "y=x; x=rm; ${!y} f",
    "x=rm; y=x; ${!y} f",
    "arr=(ls rm); y='arr[1]'; ${!y} f",
    "x=xrmx; ${x:1:2} f",
    "x=xxrm; i=2; ${x:i} f",
    "x=xrm; ${x: -2} f",
    "rm${IFS%??}f",
    'declare -A m=([a]=f [b]=rm); "${m[@]}"',
])
def test_parameter_operations_on_known_values_resolve_the_program(command: str) -> None:
    result = classify(command, policy=DENY_RM)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.denied-command" in result.rule_ids


@pytest.mark.parametrize(("command", "program"), [
    ("x=hello; ${x/l*/} f", "he"),
    ("x=hello; ${x^^[lo]} f", "heLLO"),
    ("x=hello; ${x~} f", "Hello"),
    ("x=a.tar.gz; ${x%.*} f", "a.tar"),
    ("x=a.tar.gz; ${x%%.*} f", "a"),
    ("x='a*b'; ${x/\\*/} f", "ab"),
    ('x=abc; "${x/"b*"/}" f', "abc"),
    ("x=rm; ${x@Q} f", "'rm'"),
    ("x=(a b); ${#x[@]} f", "2"),
    ("x=hello; ${#x} f", "5"),
    ("x=hello; ${x: -10} f", "f"),
    ('IFS=,; a=(rm f); "${a[*]}"', "rm,f"),
    ('a=(rm f); "${a[*]}"', "rm f"),
])
def test_parameter_operations_compute_what_bash_computes(command: str, program: str) -> None:
    assert classify(command).commands[:1] == (program,)


@pytest.mark.parametrize("command", [
    "x=ab; ${x@A} f",
    "x=rm; ${x/!(r)/} f",  # !( ) is not modelled (@( ) is: flow6 _extmatch)
    "x=rm; ${x//[[:nosuch:]]/} f",
    "x=rm; ${x:$n} f",
    "declare -A m=([k]=rm); ${m[$k]} f",
    "a=(x y); a[$i]=rm; ${a[0]} f",
    "printf -v x '%(%s)T' -1; $x f",
    "x=rm; ((x=n)); $x f",  # n is not known (((x=1)) makes x the known 1)
    "x=rm; let x++; $x f",
    "rm${PWD:1:1}f",
    'set -- x rm f; shift $n; "$@"',
])
def test_what_cannot_be_evaluated_is_unknown_not_a_literal(command: str) -> None:
    result = classify(command)
    assert result.verdict is not Verdict.PASS, result.to_dict()
    assert "shell.dynamic-command" in result.rule_ids


# --- read, printf -v, mapfile -------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "printf -v x '%c%c' r m; $x f",
    "printf -v x '%.2s' rmxx; $x f",
    "printf -v x '%b' 'r\\x6d'; $x f",
    "printf -v x '%s%%' rm; ${x%\\%} f",
    "printf -vx %s rm; $x f",
    "printf -v x -- '%3s' rm; $x f",
    "read x y <<< 'rm f'; $x $y",
    "read -r x <<< 'rm'; $x f",
    "read -a a <<< 'rm f'; \"${a[@]}\"",
    "read -ra a <<< ' rm  f '; ${a[0]} ${a[1]}",
    "IFS=: read a b <<< 'rm:f'; $a $b",
    "read -d , a <<< 'rm,x'; $a f",
    "mapfile -t a <<< $'rm\\nf'; \"${a[@]}\"",
    "readarray -t a <<< $'x\\nrm'; ${a[1]} f",
])
def test_read_printf_and_mapfile_assign_the_values_bash_assigns(command: str) -> None:
    result = classify(command, policy=DENY_RM)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.denied-command" in result.rule_ids


# --- every assignment form gets the assignment checks -------------------------------------

@pytest.mark.parametrize("command", [
    "LD_PRELOAD=/tmp/x.so ls",
    "export LD_LIBRARY_PATH+=:/tmp",
    "printf -v LD_PRELOAD /tmp/x.so; export LD_PRELOAD",
    "read LD_PRELOAD <<< /tmp/x.so; export LD_PRELOAD",
    "declare -x LD_PRELOAD=/tmp/x.so",
    "typeset -x LD_AUDIT=/tmp/a.so",
    "mapfile LD_PRELOAD <<< /tmp/x.so",
    "declare -n r=LD_PRELOAD; r=/tmp/x.so",
    ": ${LD_PRELOAD:=/tmp/x.so}",
    "for LD_PRELOAD in /tmp/x.so; do ls; done",
])
def test_loader_variables_are_hijacks_however_they_are_assigned(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.loader-hijack" in result.rule_ids


@pytest.mark.parametrize("command", [
    "PATH=/tmp:$PATH",
    "read PATH <<< /tmp",
    "printf -v PATH /tmp",
    "export PATH+=:/tmp",
    "declare -n p=PATH; p=/tmp",
])
def test_path_changes_warn_however_they_are_assigned(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.to_dict()
    assert "shell.path-change" in result.rule_ids


# --- text bash evaluates again: subscripts in arithmetic and names, ${x@P} ---------------

@pytest.mark.parametrize("command", [
    "[[ -v 'a[$(rm -rf ~)]' ]]",
    "[ -v 'a[$(rm -rf ~)]' ]",
    "test -v 'a[`rm -rf ~`]'",
    "x='a[$(rm -rf ~)]'; echo $((x))",
    "x='a[$(rm -rf ~)]'; echo $(( $x + 1 ))",
    "x='a[$(rm -rf ~)]'; ((x))",
    "x='a[$(rm -rf ~)]'; let x",
    "x='a[$(rm -rf ~)]'; [[ $x -eq 1 ]]",
    "x='a[$(rm -rf ~)]'; [[ x -lt 2 ]]",
    "x='a[$(rm -rf ~)]'; echo ${s:x}",
    "x='a[$(rm -rf ~)]'; echo ${y[x]}",
    "x='a[$(rm -rf ~)]'; y=x; echo $((y))",
    "x='a[$(rm -rf ~)]'; for ((i=x; i<1; i++)); do :; done",
    "printf -v 'a[$(rm -rf ~)]' x",
    "read 'a[$(rm -rf ~)]' <<< x",
    "let 'x=a[$(rm -rf ~)]'",
    "declare -i n; n='a[$(rm -rf ~)]'",
    "declare -i n='a[$(rm -rf ~)]'",
    "declare 'a[$(rm -rf ~)]=1'",
    "unset 'a[$(rm -rf ~)]'",
    "y='a[$(rm -rf ~)]'; echo ${!y}",
    "x='$(rm -rf ~)'; echo ${x@P}",
    "x='`rm -rf ~`'; echo \"${x@P}\"",
    "echo ${a[$(rm -rf ~)]}",
    "x='a[$(rm -rf ~)]'; echo $[x]",
    "x='a[$(rm -rf ~)]'; a[x]=1",
    "x='a[$(rm -rf ~)]'; arr=([x]=1)",
    "x='a[$(rm -rf ~)]'; s=abc; echo ${s:0:x}",
    "x='a[$(rm -rf ~)]'; p='${x@P}'; echo ${p@P}",
    "declare -n r='z[$(rm -rf ~)]'; echo $r",
    "g() { local -n q=$1; q=5; }; g 'zz[$(rm -rf ~)]'",
    "sleep 1 & wait -p 'w[$(rm -rf ~)]' -n",
])
def test_subscripts_and_prompt_expansions_are_classified_as_code(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.recursive-delete" in result.rule_ids


@pytest.mark.parametrize("command", [
    "declare -i n=$(curl -s u)",
    "typeset -i n; n=$(curl -s u)",
    "f() { local -i n=$(wget -qO- u); }; f",
    "n=$(curl -s u); echo $((n))",
    "n=$(curl -s u); let m=n+1",
])
def test_fetched_data_in_arithmetic_is_tainted_exec(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.tainted-exec" in result.rule_ids


# --- everyday neighbours -------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    'f=a.tar.gz; echo "${f%.*}" "${f##*.}"',
    'for f in *.txt; do mv "$f" "${f%.txt}.md"; done',
    "ver=1.2.3; echo ${ver//./_} ${ver^^} ${#ver}",
    'name=${1:-world}; echo "Hello ${name^}"',
    'declare -A m=([a]=1 [b]=2); for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done',
    'arr=(a b c); echo "${arr[@]:1}" "${#arr[@]}" "${arr[-1]}"',
    'arr=(); arr+=(x); arr[3]=y; printf "%s\\n" "${arr[@]}"',
    "read -r line < README.md; echo \"$line\"",
    "while IFS=, read -r a b; do echo \"$a\"; done < data.csv",
    'mapfile -t lines < f.txt; printf "%s\\n" "${lines[@]}"',
    "printf -v ts '%(%Y-%m-%d)T' -1; echo \"$ts\"",
    "printf -v pad '%-10s|' name; echo \"$pad\"",
    "i=0; ((i++)); echo $((i * 2))",
    "let n=1+2; echo $n",
    "declare -i n=5; n+=1; echo $n",
    "a=(1 2 3); i=1; echo ${a[i]} ${a[$((i+1))]}",
    "printf -v 'arr[1]' %s x; echo ${arr[1]}",
    "read -r 'a[0]' <<< x",
    "[[ -v HOME ]] && echo set",
    "[[ -v 'a[1]' ]] || echo unset",
    "x='$(rm -rf ~)'; echo $((x))",
    "let 'x=$(rm -rf ~)'",
    "PS1='\\u@\\h:\\w$ '; echo \"${PS1@P}\"",
    "x=$(date); echo ${x@Q}",
    "declare -l lower=ABC; typeset -u upper=abc; echo $lower $upper",
    "declare -n ref=config; config=1; echo $ref",
    "export EDITOR=vim PAGER=less",
    "local -a items=(a b)",
    "unset x y; unset -f myfunc",
    "sleep 1 & wait -p pid -n; echo $pid",
    'while (( $# )); do echo "$1"; shift; done',
    'set -- a; shift 5; echo "$@"',
    'parts=(a b c); joined="${parts[*]}"; echo "$joined"',
    "export 'a[$(rm -rf ~)]=1'",
    "readonly 'a[$(rm -rf ~)]=1'",
])
def test_everyday_variable_use_still_passes(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.to_dict()


@pytest.mark.parametrize("command", [
    "x='rm -rf /'; declare y=$x; $y",
    "x='rm -rf /'; local y=$x; $y",
    "x='rm -rf /'; export y=$x; $y",
])
def test_declaration_arguments_are_assignments_and_are_not_split(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.recursive-delete" in result.rule_ids


@pytest.mark.parametrize("command", [
    "x=rm; readonly x; x=ls; $x f",
    "readonly x=rm; x=ls; $x f",
    "declare -r x=rm; x=ls; unset x; $x f",
    "x=rm; x=ls | true; $x f",
    "x=rm; echo ls | read x; $x f",
    "x=rm; x=ls & $x f",
    "x=ls; f() { local x; $x rm f; }; f",
    "x=rm; f() { local x=ls; }; f; $x f",
    "x=rm; f() { typeset x=ls; }; f; $x f",
])
def test_assignments_that_do_not_reach_the_script_do_not_hide_its_value(command: str) -> None:
    result = classify(command, policy=DENY_RM)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.denied-command" in result.rule_ids


@pytest.mark.parametrize("command", [
    "x=ls; f() { x=rm; }; f; $x f",
    "x=ls; f() { declare -g x=rm; }; f; $x f",
    "x=ls; f() { local y=1; x=rm; }; f; $x f",
])
def test_assignments_in_functions_reach_the_caller_unless_local(command: str) -> None:
    result = classify(command, policy=DENY_RM)
    assert result.verdict is Verdict.BLOCK, result.to_dict()


@pytest.mark.parametrize("command", [
    "unset x; : ${x:=rm}; $x f",
    "x=; : ${x:=rm}; $x f",
    "x=; ${x:-rm} f",
    "unset x; ${x-rm} f",
    "x=; ${x:+ls} rm f",
    "f() { local x; ${x-rm} f; }; f",
    "x=rm bash -c '$x f'",
    "env x=rm bash -c '$x f'",
    "f() { $x f; }; x=rm f",
])
def test_defaults_and_command_environments_give_bash_values(command: str) -> None:
    result = classify(command, policy=DENY_RM)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.denied-command" in result.rule_ids


@pytest.mark.parametrize("command", [
    "x=ls; : ${x:=rm}; $x f",
    "x=; ${x-rm} f",
    "unset x; x=ls; ${x-rm} f",
])
def test_defaults_apply_only_when_bash_applies_them(command: str) -> None:
    assert "rm" not in classify(command).commands


def test_pattern_work_is_bounded_and_unknown_past_the_budget() -> None:
    value = "a" * 4000
    command = f"x={value}; " + "${x//?/b} " * 60 + "; ${x##*a*a*a*b} f"
    result = classify(command)
    assert result.verdict is not Verdict.PASS
