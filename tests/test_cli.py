"""The CLI's shared contract: help documents exit codes, usage errors exit 64, every verb loads."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from deerguard import Verdict, __version__
from deerguard.cli import (
    _VERB_MODULES,
    _VERBS,
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


@pytest.mark.parametrize("verb", sorted(_VERBS))
def test_each_verb_is_registered_by_the_module_the_verb_table_names(verb: str) -> None:
    # main() imports only the named module for a run, so the table must match the modules.
    parser = build_parser(verb)
    actions = [a for a in parser._actions if a.dest == "verb"]
    assert verb in (actions[0].choices or {})


def test_every_registered_verb_is_in_the_verb_table() -> None:
    parser = build_parser()
    actions = [a for a in parser._actions if a.dest == "verb"]
    assert set(actions[0].choices or {}) == set(_VERBS)  # type: ignore[arg-type]


_LOADED = r"""
import sys
from deerguard.cli import main
status = main(sys.argv[1:])
guards = sorted(m for m in ("deerguard.shell", "deerguard.sanitize", "deerguard.authz",
                            "deerguard.provenance", "casbin") if m in sys.modules)
print("LOADED", ",".join(guards), status, file=sys.stderr)
"""


@pytest.mark.parametrize(
    ("argv", "loaded"),
    [
        (["classify", "ls -la"], "deerguard.shell"),
        (["hash", "-"], "deerguard.provenance"),
    ],
)
def test_a_run_imports_only_its_own_guard(argv: list[str], loaded: str) -> None:
    # A hook that starts one `deerguard classify` process per agent command must not pay
    # for Casbin, the sanitizer tables or provenance code.
    proc = subprocess.run(
        [sys.executable, "-c", _LOADED, *argv], input="{}", capture_output=True, text=True
    )
    line = [x for x in proc.stderr.splitlines() if x.startswith("LOADED")][-1]
    assert line.split()[1] == loaded
    assert line.split()[2] == "0"


def test_an_unknown_verb_still_lists_every_verb(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["no-such-verb"])
    err = capsys.readouterr().err
    for verb in _VERBS:
        assert verb in err
