"""The citations fuzz harness: replay its seeds and crashers, and a short atheris smoke run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _fuzz_support import run_smoke

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))

import _harness  # noqa: E402
import fuzz_citations  # noqa: E402


def test_replays_every_seed_and_crasher_without_failure() -> None:
    inputs = [*fuzz_citations.seeds(), *_harness.crashers("citations")]
    assert len(inputs) > 40
    assert _harness.replay(fuzz_citations.test_one_input, inputs) == len(inputs)


def test_harness_checks_invariants_on_hostile_bytes() -> None:
    for data in [b"", b"\xff\xfe[r1]", b"[r1: \xed\xa0\x80]", b"[" * 1000 + b"r1]", b"null", b"{}"]:
        fuzz_citations.test_one_input(data)


@pytest.mark.slow
def test_atheris_smoke_run_finds_nothing() -> None:
    proc = run_smoke("fuzz_citations.py")
    assert proc.returncode == 0, proc.stderr[-3000:]
