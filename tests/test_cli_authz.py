"""CLI transcripts for ``deerguard authz``: exit 0 allow, 2 deny, 64 usage, 65 bad policy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from deerguard.cli import EXIT_BLOCK, EXIT_DATAERR, EXIT_PASS, EXIT_USAGE, main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "policies" / "authz" / "roles.example.yaml")
CORPUS = ROOT / "corpora" / "authz"


def test_check_allows_with_exit_0_and_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["authz", "check", "--policy", EXAMPLE, "--role", "user",
                   "tool", "web_search", "call"])
    data = json.loads(capsys.readouterr().out)
    assert status == EXIT_PASS
    assert data["allow"] is True and data["permission"] == "tool:call"
    assert data["origin"].startswith(EXAMPLE)


def test_check_denies_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["authz", "check", "--policy", EXAMPLE, "--role", "user",
                   "tool", "update_agent", "call"])
    data = json.loads(capsys.readouterr().out)
    assert status == EXIT_BLOCK
    assert data["allow"] is False and data["source"] == "policy"


def test_tenant_option_scopes_tenant_rows(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["authz", "check", "--policy", EXAMPLE, "--role", "user"]
    assert main([*base, "mcp_server", "acme_crm", "connect"]) == EXIT_BLOCK
    assert main([*base, "--tenant", "acme", "mcp_server", "acme_crm", "connect"]) == EXIT_PASS


def test_explain_prints_matching_rules(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["authz", "explain", "--policy", EXAMPLE, "--role", "user",
                   "model", "gpt-4o-realtime-preview", "use"])
    out = capsys.readouterr().out
    assert status == EXIT_BLOCK
    assert "DENY" in out and "gpt-4o-realtime*" in out and "gpt-4o*" in out


def test_lint_accepts_good_files_and_reports_bad_ones_with_65(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["authz", "lint", EXAMPLE]) == EXIT_PASS
    assert "ok" in capsys.readouterr().out
    bad = str(CORPUS / "invalid_null_allow_roles.yaml")
    assert main(["authz", "lint", bad]) == EXIT_DATAERR
    err = capsys.readouterr().err
    assert "invalid_null_allow_roles.yaml:4" in err and "roles.user.tools.allow" in err
    assert main(["authz", "lint", str(CORPUS / "casbin_basic_policy.csv")]) == EXIT_PASS


def test_native_casbin_policy_with_custom_model(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["authz", "check", "--policy", str(CORPUS / "casbin_nodomain_policy.csv"),
            "--model", str(CORPUS / "casbin_nodomain_model.conf"), "--role", "admin"]
    assert main([*argv, "tool", "web_search", "call"]) == EXIT_PASS
    assert main([*argv, "tool", "web_admin", "call"]) == EXIT_BLOCK


@pytest.mark.parametrize(
    "argv",
    [
        ["authz", "check", "--policy", EXAMPLE, "--role", "nobody", "tool", "x", "call"],
        ["authz", "check", "--policy", EXAMPLE, "--role", "user", "tool", "x", "execute"],
        ["authz", "check", "--policy", EXAMPLE, "--role", "user", "database", "x", "call"],
        ["authz", "check", "--policy", EXAMPLE, "tool", "x", "call"],
        ["authz", "check", "--policy", EXAMPLE, "--model", EXAMPLE, "--role", "user",
         "tool", "x", "call"],
        ["authz"],
    ],
)
def test_usage_mistakes_exit_64(argv: list[str]) -> None:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse errors exit through _Parser.error
        status = int(exc.code or 0)
    assert status == EXIT_USAGE


def test_missing_policy_file_exits_65(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.yaml")
    assert main(["authz", "check", "--policy", missing, "--role", "user",
                 "tool", "x", "call"]) == EXIT_DATAERR


@pytest.mark.slow
def test_console_script_round_trip() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "deerguard", "authz", "check", "--policy", EXAMPLE,
         "--role", "guest", "sandbox", "docker", "execute"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == EXIT_BLOCK
    assert json.loads(proc.stdout)["rule"] == "default-deny"
