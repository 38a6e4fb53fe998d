"""The shell parser fuzz harness: seeds and committed crashers replay clean; atheris smoke run."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))

import fuzz_shell_parse as harness  # noqa: E402
from _harness import crashers, replay  # noqa: E402

# Deterministic smoke run: a fixed seed and run count, so a red CI means a real finding.
SMOKE_FLAGS = ("-seed=1", "-runs=20000", "-max_total_time=60", "-timeout=5")


def test_seeds_include_the_whole_parser_corpus() -> None:
    assert len(list(harness.seeds())) >= 300


def test_harness_replays_all_seeds_and_crashers_without_failure() -> None:
    inputs = [*harness.seeds(), *crashers("shell_parse")]
    assert replay(harness.test_one_input, inputs) == len(inputs)


def test_harness_detects_a_broken_invariant() -> None:
    with pytest.raises(AssertionError):
        harness._check(harness.parse("echo hi"), "echo hi!")


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris not installed")
def test_atheris_smoke_run_finds_nothing() -> None:
    proc = subprocess.run(
        [sys.executable, str(FUZZ / "fuzz_shell_parse.py"), *SMOKE_FLAGS],
        capture_output=True, text=True, check=False, timeout=180,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
