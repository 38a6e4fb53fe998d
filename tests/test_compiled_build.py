"""The optional mypyc-compiled build (``DEERGUARD_COMPILE=1``, see ``hatch_build.py``) decides
exactly as the pure-Python package.

The test builds the compiled wheel, installs it in a fresh virtual environment, and compares,
for every labelled corpus command, every shell fuzz crasher and every adversarial benchmark
family (1,000 and 10,000 characters), under four policies: the parse tree and the full
``Classification.to_dict()`` (verdict, findings with spans, messages and chains, commands).
mypyc checks types at runtime and compiles integer and attribute semantics natively, so a
difference here is a real bug in one build or the other, never noise.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from _compiled_probe import classifiers, row
from _fuzz_support import SMOKE_FLAGS

import deerguard.shell._walk

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from shell_classify import FAMILIES  # noqa: E402

POLICIES = {
    "default": "",
    "deny-rm": '[commands]\ndeny = ["rm"]\n',
    "allowlist": '[commands]\nallow = ["ls", "git", "cat", "echo", "grep"]\n',
    "strict-dynamic": '[dynamic]\ncommand_name = "block"\n[paths]\nprotected = ["~/work/**"]\n',
}

def _inputs() -> list[str]:
    texts: list[str] = []
    for path in sorted((ROOT / "corpora" / "shell").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                texts.append(json.loads(line)["command"])
    for name in ("classify", "shell_parse"):
        for path in sorted((ROOT / "fuzz" / "crashers" / name).iterdir()):
            texts.append(path.read_bytes().decode("utf-8", "surrogateescape"))
    for make in FAMILIES.values():
        texts.extend((make(1_000), make(10_000)))
    return texts


@pytest.fixture(scope="module")
def compiled_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the compiled wheel (and atheris) installed."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("the compiled build needs a C compiler")
    tmp = tmp_path_factory.mktemp("compiled")
    wheels = tmp / "wheels"
    env = {**os.environ, "DEERGUARD_COMPILE": "1"}
    # Built by a fresh environment's pip, as on a user's machine: the test suite's own
    # environment holds every dependency and could hide one missing from the build's.
    venv.create(tmp / "venv", with_pip=True)
    python = tmp / "venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels),
                    str(ROOT)], check=True, env=env)
    (wheel,) = wheels.glob("deerguard-*.whl")
    assert "-cp3" in wheel.name, f"{wheel.name}: the compiled wheel is platform-specific"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel), "atheris>=2.3"],
                   check=True)
    return python


@pytest.mark.slow
def test_compiled_build_classifies_exactly_as_pure_python(
    compiled_python: Path, tmp_path: Path
) -> None:
    assert deerguard.shell._walk.__file__.endswith(".py"), "this side must be pure Python"
    texts = _inputs()
    (tmp_path / "in.json").write_text(json.dumps([texts, POLICIES]), encoding="utf-8")
    probe = Path(__file__).with_name("_compiled_probe.py")
    subprocess.run([str(compiled_python), str(probe), "in.json", "out.jsonl"], cwd=tmp_path,
                   check=True)
    compiled = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(compiled) == len(texts)

    by_policy = classifiers(POLICIES)
    differences = [
        (text[:200], name)
        for text, line in zip(texts, compiled, strict=True)
        for name, (pure, built) in _pairs(json.loads(row(text, by_policy)), json.loads(line))
        if pure != built
    ]
    assert not differences, f"{len(differences)} differences, first: {differences[:5]}"


@pytest.mark.slow
def test_compiled_build_survives_the_classify_fuzzer(compiled_python: Path, tmp_path: Path
                                                      ) -> None:
    """mypyc checks declared types at run time: input the corpora never reach can still meet
    a value the annotations did not foresee (an internal error, so a false block). The same
    deterministic atheris smoke run as the pure-Python harness, on the compiled modules."""
    probe = "import deerguard.shell._walk as w; assert w.__file__.endswith('.so'), w.__file__"
    subprocess.run([str(compiled_python), "-c", probe], cwd=tmp_path, check=True)
    proc = subprocess.run(
        [str(compiled_python), str(ROOT / "fuzz" / "fuzz_classify.py"), *SMOKE_FLAGS],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]


def _pairs(pure: dict[str, object], built: dict[str, object]
           ) -> list[tuple[str, tuple[object, object]]]:
    assert pure.keys() == built.keys()
    return [(name, (pure[name], built[name])) for name in pure]
