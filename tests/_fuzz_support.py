"""Shared runner for the atheris smoke runs of every fuzz harness (used by tests/test_*_fuzz.py)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FUZZ = ROOT / "fuzz"

# Deterministic smoke run: a fixed seed and run count, so a red CI means a real finding
# (a time-bounded random run made CI flaky). The time cap only bounds very slow machines.
# The per-input timeout catches hangs and runaway (quadratic) inputs, not slowness: an
# instrumented input on a loaded 2-core machine can take several seconds (speed lives in
# benchmarks/), so 5 s made the run fail on load alone.
SMOKE_FLAGS = ("-seed=1", "-runs=20000", "-max_total_time=60", "-timeout=20")


def run_smoke(harness: str) -> subprocess.CompletedProcess[str]:
    """Run ``fuzz/<harness>`` under atheris with :data:`SMOKE_FLAGS`; skip without atheris.

    The corpus and any crash file go to a fresh temporary folder: a local run then takes
    the same path as CI's clean clone (a corpus accumulated by earlier runs steers the
    fuzzer elsewhere, so a local pass could hide CI's failure), and no crash file lands in
    the repository.
    """
    if importlib.util.find_spec("atheris") is None:
        pytest.skip("atheris is not installed")
    with tempfile.TemporaryDirectory(prefix="deerguard-smoke-") as scratch:
        return subprocess.run(
            [sys.executable, str(FUZZ / harness), *SMOKE_FLAGS,
             f"-artifact_prefix={scratch}/"],
            cwd=ROOT,
            env={**os.environ, "DEERGUARD_FUZZ_CORPUS": scratch},
            capture_output=True,
            text=True,
            check=False,
            timeout=600,  # instrumenting every loaded module takes minutes on a busy machine
        )
