"""Constant folding of bash arithmetic (``deerguard.shell._arith_eval.evaluate``).

The values are bash's own (checked with bash 5 for each row); anything not known statically
gives None, never a guess, and hostile text never raises.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deerguard import Verdict
from deerguard.shell import classify
from deerguard.shell._arith_eval import evaluate
from deerguard.shell._values import DYN, Var

KNOWN = [
    ("1+1", 2), ("2**3+(7%4)*0x10", 56), ("-2**2", 4), ("2**3**2", 512), ("7/2", 3),
    ("-7/2", -3), ("-7%3", -1), ("1<<4|1", 17), ("(1,2,3)", 3), ("5>3?10:20", 10),
    ("!0+~0", 0), ("010", 8), ("16#ff", 255), ("2#101", 5), ("1 && 0 || 1", 1),
    ("9223372036854775807+1", -9223372036854775808), ("2**64", 0), ("", 0), ("  42 ", 42),
    ("3 == 3", 1), ("3 != 3", 0), ("-1 >> 1", -1), ("x*2", 10), ("y+1", 11),
]


@pytest.mark.parametrize("text, value", KNOWN)
def test_known_expressions_fold_to_bashs_value(text: str, value: int) -> None:
    env = {"x": Var(alts=("5",)), "y": Var(alts=("x*2",))}
    assert evaluate(text, env) == value


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not installed")
def test_folded_values_agree_with_bash() -> None:
    script = "x=5; y='x*2'; " + "; ".join(f"echo $(({t or 0}))" for t, _ in KNOWN)
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                         check=True).stdout.split()
    assert [int(v) for v in out] == [v for _, v in KNOWN]


@pytest.mark.parametrize("text", [
    "x++", "x=1", "y+=2", "--x", "1/0", "5%0", "2**-1", "unset_var+1", "a[1]", "$(cmd)",
    "1 +", "(1", "1)", "08", "64#z", "arr+1", "dyn+1", "many+1", "((" * 200 + "1" + "))" * 200,
])
def test_unknown_or_side_effecting_expressions_give_none(text: str) -> None:
    env = {"arr": Var(items=("1", "2")), "dyn": Var(alts=(DYN,)), "many": Var(alts=("1", "2")),
           "x": Var(alts=("1",)), "y": Var(alts=("1",))}
    assert evaluate(text, env) is None


def test_self_referencing_variables_stop_instead_of_recursing() -> None:
    env = {"a": Var(alts=("b+1",)), "b": Var(alts=("a+1",))}
    assert evaluate("a", env) is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789+-*/%()<>=!&|^~?:, xyabc#\t$[]", max_size=60))
def test_evaluate_never_raises(text: str) -> None:
    result = evaluate(text, {"x": Var(alts=("3",)), "a": Var(alts=("x-1",))})
    assert result is None or -(1 << 63) <= result < (1 << 63)


@pytest.mark.parametrize("command", [
    "a=(rm ls); ${a[$((1-1))]} -rf /",
    "a=(ls rm); ${a[2-1]} -rf ~",
    "a=(ls rm); i=1; ${a[i]} -rf ~",
    "x=1; x=$((x+1)); a=(a b rm); ${a[x]} -rf ~",
    "s=rmx; ${s:0:$((1+1))} -rf ~",
])
def test_programs_chosen_by_arithmetic_are_resolved(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "rm" in result.commands


@pytest.mark.parametrize("command", [
    "x=$((0)); rm -rf /tmp/../$x",  # /0, a plain directory
    "n=$((2+3)); rm -rf /usr/$n",
    "for ((i=0; i<3; i++)); do echo $i; done",
])
def test_folded_paths_that_name_ordinary_directories_pass(command: str) -> None:
    assert classify(command).verdict is Verdict.PASS, classify(command).to_dict()


@pytest.mark.parametrize("command", [
    "((x=2)); a=(a b rm); ${a[x]} -rf ~",
    "let x=1+1; a=(a b rm); ${a[x]} -rf ~",
    "i=0; ((i++)); a=(ls rm); ${a[i]} -rf ~",
    "i=0; let i+=1; a=(ls rm); ${a[i]} -rf ~",
    "i=2; ((--i)); a=(ls rm); ${a[i]} -rf ~",
])
def test_arithmetic_assignments_with_known_values_are_tracked(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "rm" in result.commands


@pytest.mark.parametrize("command", [
    # loops run their test and step any number of times: the value is not known
    "for ((i=0; i<3; i++)); do :; done; a=(a b c rm); ${a[i]} -rf ~",
    "i=0; while ((i<3)); do ((i++)); done; a=(a rm); ${a[i]} x",
    "((x=1, y=2)); a=(ls rm); ${a[x]} -rf ~",
    "((x=$RANDOM)); a=(ls rm); ${a[x]} -rf ~",
])
def test_arithmetic_assignments_with_unknown_values_stay_unknown(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.to_dict()
    assert "shell.dynamic-command" in result.rule_ids
