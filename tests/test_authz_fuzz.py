"""The authz policy fuzz harness: seeds and committed crashers replay clean; atheris smoke run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _fuzz_support import run_smoke

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))

import fuzz_authz_policy as harness  # noqa: E402
from _harness import crashers, replay  # noqa: E402


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
def test_atheris_smoke_run_finds_nothing() -> None:
    proc = run_smoke("fuzz_authz_policy.py")
    assert proc.returncode == 0, proc.stderr[-3000:]
