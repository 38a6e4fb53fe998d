"""The shell parser fuzz harness: seeds and committed crashers replay clean; atheris smoke run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _fuzz_support import run_smoke

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))

import fuzz_shell_parse as harness  # noqa: E402
from _harness import crashers, replay  # noqa: E402


def test_seeds_include_the_whole_parser_corpus() -> None:
    assert len(list(harness.seeds())) >= 300


def test_harness_replays_all_seeds_and_crashers_without_failure() -> None:
    inputs = [*harness.seeds(), *crashers("shell_parse")]
    assert replay(harness.test_one_input, inputs) == len(inputs)


def test_harness_detects_a_broken_invariant() -> None:
    with pytest.raises(AssertionError):
        harness._check(harness.parse("echo hi"), "echo hi!")


@pytest.mark.slow
def test_atheris_smoke_run_finds_nothing() -> None:
    proc = run_smoke("fuzz_shell_parse.py")
    assert proc.returncode == 0, proc.stderr[-3000:]
