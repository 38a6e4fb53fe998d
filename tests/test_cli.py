"""The CLI's shared contract: help documents exit codes, usage errors exit 64, every verb loads."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from deerguard import Verdict, __version__
from deerguard.cli import (
    _VERB_MODULES,
    EXIT_BLOCK,
    EXIT_DATAERR,
    EXIT_PASS,
    EXIT_USAGE,
    EXIT_WARN,
    build_parser,
    exit_status,
    main,
)


def test_help_documents_every_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for code in ("0 ", "1 ", "2 ", "64", "65"):
        assert f"  {code}" in out


def test_version_flag_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"deerguard {__version__}"


@pytest.mark.parametrize("argv", [["--no-such-flag"], ["no-such-verb"]])
def test_usage_errors_exit_64_never_2_which_means_block(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == EXIT_USAGE


def test_no_verb_prints_help_and_exits_64(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == EXIT_USAGE
    assert "usage: deerguard" in capsys.readouterr().err


def test_exit_codes_follow_the_verdict_contract() -> None:
    assert (EXIT_PASS, EXIT_WARN, EXIT_BLOCK, EXIT_USAGE, EXIT_DATAERR) == (0, 1, 2, 64, 65)
    assert [exit_status(v) for v in Verdict] == [0, 1, 2]


def test_every_listed_verb_module_registers_a_verb() -> None:
    parser = build_parser()
    actions = [a for a in parser._actions if a.dest == "verb"]
    verbs = set(actions[0].choices or {})  # type: ignore[arg-type]
    assert {"classify", "sanitize", "authz", "cite", "hash"} <= verbs
    # Every listed module exists (the parser skips a missing one only during development).
    for name in _VERB_MODULES:
        assert callable(importlib.import_module(name).register)


def test_python_dash_m_runs_the_same_cli() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "deerguard", "--version"], capture_output=True, text=True
    )
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"deerguard {__version__}"
