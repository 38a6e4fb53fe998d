"""The classify fuzz harness: seed and crasher replay (no atheris) and an atheris smoke run."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from _fuzz_support import run_smoke

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "fuzz" / "fuzz_classify.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_classify", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_harness_replays_every_seed_and_crasher_without_failures() -> None:
    harness = _load()
    sys.path.insert(0, str(ROOT / "fuzz"))
    from _harness import crashers, replay

    inputs = [*harness.seeds(), *crashers("classify")]
    assert len(inputs) >= 400
    assert replay(harness.test_one_input, inputs) == len(inputs)


def test_harness_catches_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    harness = _load()
    from deerguard.shell import _classify

    def boom(_: str) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(_classify, "parse", boom)
    with pytest.raises(AssertionError):
        harness.test_one_input(b"ls")


@pytest.mark.slow
def test_atheris_smoke_run_finds_nothing() -> None:
    proc = run_smoke("fuzz_classify.py")
    assert proc.returncode == 0, proc.stderr[-3000:]
