"""The authz policy fuzz harness: seeds and committed crashers replay clean; atheris smoke run."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))

import fuzz_authz_policy as harness  # noqa: E402
from _harness import crashers, replay  # noqa: E402

# Deterministic smoke run: a fixed seed and run count, so a red CI means a real finding.
SMOKE_FLAGS = ("-seed=1", "-runs=20000", "-max_total_time=60", "-timeout=5")


def test_seeds_cover_every_policy_file_of_the_corpus() -> None:
    seeds = list(harness.seeds())
    assert len(seeds) >= 30
    assert {seed[0] for seed in seeds} == {0, 1, 2}  # yaml, toml and csv all seeded


def test_harness_replays_all_seeds_and_crashers_without_failure() -> None:
    inputs = [*harness.seeds(), *crashers("authz_policy")]
    assert replay(harness.test_one_input, inputs) == len(inputs)


@pytest.mark.parametrize(
    "data",
    [
        b"\x00roles: {user: {tools: {allow: [[[[[]]]]]}}}",
        b"\x00roles:\n  1: {}\n",
        b"\x00roles: {user: null}",
        b"\x01[roles.user.tools]\nallow = 1979-05-27\n",
        b"\x02p, a, *, tool, x, call, allow, extra\n",
        b"\x02g, a\n",
        b"\x00" + b"[" * 5000,
        b"\x00roles: {u: {inherits: [u]}}",
        b"\x00\xff\xfe roles",
    ],
)
def test_hostile_policy_documents_load_or_raise_policy_error(data: bytes) -> None:
    harness.test_one_input(data)


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris not installed")
def test_atheris_smoke_run_finds_nothing() -> None:
    proc = subprocess.run(
        [sys.executable, str(FUZZ / "fuzz_authz_policy.py"), *SMOKE_FLAGS],
        capture_output=True, text=True, check=False, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
