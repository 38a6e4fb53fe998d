"""The classifier's variable environment: subshell scopes undo exactly their own writes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deerguard import Verdict
from deerguard.shell import classify
from deerguard.shell._env import Env
from deerguard.shell._words import Var

_OPS = st.lists(st.tuples(st.sampled_from(["set", "del", "pop", "open", "close", "keep"]),
                          st.sampled_from(["a", "b", "c"]), st.integers(0, 3)), max_size=40)


@given(_OPS)
def test_rollback_restores_the_state_at_each_checkpoint_like_a_copy_would(ops: list) -> None:
    env = Env()
    marks: list[tuple[int, dict[str, Var]]] = []  # (mark, copy taken at the checkpoint)
    for op, key, n in ops:
        if op == "set":
            env[key] = Var(alts=(str(n),))
        elif op == "del" and key in env:
            del env[key]
        elif op == "pop":
            env.pop(key, None)
        elif op == "open":
            marks.append((env.checkpoint(), dict(env)))
        elif op == "close" and marks:
            mark, copy = marks.pop()
            env.rollback(mark)
            assert dict(env) == copy
        elif op == "keep" and marks:
            mark, copy = marks.pop()
            assert env.release(mark) is (dict(env) == copy)
    while marks:
        mark, copy = marks.pop()
        env.rollback(mark)
        assert dict(env) == copy


def test_writes_outside_any_scope_are_not_journaled() -> None:
    env = Env()
    for i in range(100):
        env[f"v{i}"] = Var(alts=("x",))
    assert env._log == []


@pytest.mark.parametrize(("command", "verdict"), [
    # Subshells of every kind keep their assignments to themselves...
    ("x=ls; (x=rm); $x -rf /", Verdict.PASS),
    ("x=ls; echo $(x=rm); $x -rf /", Verdict.PASS),
    ("x=ls; x=rm | true; $x -rf /", Verdict.PASS),
    ("x=ls; x=rm & $x -rf /", Verdict.PASS),
    ("x=ls; bash -c 'x=rm'; $x -rf /", Verdict.PASS),
    # ... while the script's own assignments and a function's globals persist.
    ("x=ls; x=rm; $x -rf /", Verdict.BLOCK),
    ("f() { x=rm; }; f; $x -rf /", Verdict.BLOCK),
    ("f() { local x=ls; }; x=rm; f; $x -rf /", Verdict.BLOCK),
])
def test_subshell_assignments_do_not_leak_and_script_assignments_do(command: str,
                                                                    verdict: Verdict) -> None:
    assert classify(command).verdict is verdict
