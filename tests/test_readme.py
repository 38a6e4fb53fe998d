"""The README's guard examples run as written (every assert in them holds)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
GUARDS = README.split("## The guards", 1)[1].split("\n## ", 1)[0]
BLOCKS = re.findall(r"```python\n(.*?)```", GUARDS, re.S)
TOML_BLOCKS = re.findall(r"```toml\n(.*?)```", GUARDS, re.S)


def test_each_guard_has_a_runnable_example() -> None:
    assert len(BLOCKS) == 4


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example-{i}" for i in range(len(BLOCKS))])
def test_readme_guard_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    # Printed lines shown in "# ..." comments right after a print must match what runs.
    for expected in re.findall(r"^# (\S.*)$", code, re.M):
        if "..." not in expected and not expected.startswith(("blocks", "a program")):
            assert expected.strip() in printed, expected


def test_readme_shell_policy_example_loads(tmp_path: Path) -> None:
    from deerguard.shell import load_policy

    (policy_text,) = TOML_BLOCKS
    path = tmp_path / "policy.toml"
    path.write_text(policy_text, encoding="utf-8")
    policy = load_policy(path)
    import deerguard

    for spelling in ("rm -f x", "\\rm x", "/bin/rm x", "x=rm; $x f"):
        assert deerguard.classify(spelling, policy=policy).verdict == "block", spelling
