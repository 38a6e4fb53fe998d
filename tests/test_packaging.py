"""Packaging: the README's commands are true, and the wheel ships the default policies."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "venv", "build", "dist", "__pycache__", "*.egg-info", ".mypy_cache",
    ".ruff_cache", ".pytest_cache", ".hypothesis", ".fuzz-corpus",
)


def quickstart(name: str) -> str:
    match = re.search(rf"<!-- quickstart:{name} -->\s*```sh\n(.*?)\n```", README, re.S)
    assert match, f"README has no quickstart:{name} block"
    return match.group(1)


def test_readme_quickstart_has_exactly_two_setup_commands() -> None:
    blocks = re.findall(r"<!-- quickstart:(\w+) -->", README)
    assert blocks == ["main", "test"]
    for name in blocks:
        assert "\n" not in quickstart(name), "each quickstart step is one command line"


def test_ci_runs_exactly_the_readme_test_command() -> None:
    proc = subprocess.run(
        ["awk", r"/<!-- quickstart:test -->/{f=1;next} f&&/^```/{if(started)exit;started=1;next}"
         r" f&&started{print}", "README.md"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    assert proc.stdout.strip() == quickstart("test")
    assert "awk '/<!-- quickstart:test -->/" in (ROOT / ".ci" / "run").read_text()


@pytest.mark.slow
def test_wheel_contains_policies_and_typing_marker(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
    )
    (wheel,) = tmp_path.glob("deerguard-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {
        f"deerguard/policies/{p.relative_to(ROOT / 'policies').as_posix()}"
        for p in (ROOT / "policies").rglob("*")
        if p.is_file()
    }
    assert shipped, "policies/ has files"
    assert shipped <= names
    assert "deerguard/py.typed" in names


@pytest.mark.slow
def test_readme_main_command_works_verbatim_on_a_fresh_copy(tmp_path: Path) -> None:
    """Run the README's first command in a copy of the tree; the venv it makes is fresh."""
    copy = tmp_path / "deerguard"
    shutil.copytree(ROOT, copy, ignore=IGNORE)
    proc = subprocess.run(
        ["bash", "-c", quickstart("main")], cwd=copy, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert "block" in proc.stdout
    # The installed package (not the source tree) ships and reads the default policies.
    python = copy / ".venv" / "bin" / "python"
    probe = (
        "import deerguard, deerguard._resources as r\n"
        "from deerguard.shell import default_policy\n"
        "print(deerguard.__file__)\n"
        "print(r.policy_path('shell/default.toml'))\n"
        "print(len(default_policy().commands.deny))\n"
        "print(deerguard.neutralize('<system-reminder>', profile='deerflow').changed)\n"
    )
    out = subprocess.run(
        [str(python), "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout.split()
    assert "site-packages" in out[0], "the installed package, not the source tree, is imported"
    assert "site-packages" in out[1], "the policy is read from inside the installed package"
    assert int(out[2]) > 0, "the shipped default shell policy loads with its deny list"
    assert out[3] == "True", "the shipped deerflow tag profile loads and works"
