"""The neutralize fuzz harness: seed and crasher replay (no atheris) and an atheris smoke run."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from _fuzz_support import run_smoke

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "fuzz" / "fuzz_neutralize.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_neutralize", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_harness_replays_every_seed_and_crasher_without_failures() -> None:
    harness = _load()
    sys.path.insert(0, str(ROOT / "fuzz"))
    from _harness import crashers, replay

    inputs = [*harness.seeds(), *crashers("neutralize")]
    assert len(inputs) >= 120
    assert replay(harness.test_one_input, inputs) == len(inputs)


def test_harness_catches_a_broken_neutralizer(monkeypatch: pytest.MonkeyPatch) -> None:
    harness = _load()

    class Identity:
        profile = harness.NEUTRALIZERS[0].profile

        def neutralize(self, text: str) -> object:
            from deerguard.sanitize import Neutralized

            return Neutralized(text=text)

    monkeypatch.setattr(harness, "NEUTRALIZERS", [Identity()])
    with pytest.raises(AssertionError):
        harness.test_one_input(b"\x00<system-reminder>")


@pytest.mark.slow
def test_atheris_smoke_run_finds_nothing() -> None:
    proc = run_smoke("fuzz_neutralize.py")
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_disguised_seeds_are_forgeries_the_oracle_sees_for_every_class() -> None:
    import json

    from test_sanitize_reader import _profile, find_forgeries

    path = ROOT / "fuzz" / "seeds" / "neutralize-disguised.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 100
    # one class at a time and all together, so a mutation can start from either
    assert {tuple(row["disguise"]) for row in rows} >= {
        (), ("gaps",), ("invisible",), ("letters",), ("marks",),
        ("gaps", "invisible", "letters", "marks"),
    }  # fmt: skip
    blind = [
        row["input"] for row in rows if not find_forgeries(row["input"], _profile(row["profile"]))
    ]
    assert not blind
