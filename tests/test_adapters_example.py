"""The offline LangChain example runs and shows each guard doing its job."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "langchain_guarded_agent.py"


@pytest.mark.slow
def test_langchain_example_runs_offline_and_blocks_neutralizes_hides_and_audits() -> None:
    proc = subprocess.run(
        [sys.executable, "-W", "error", str(EXAMPLE)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "tools offered to the model: web_fetch, bash\n" in out
    assert "[BLOCKED] bash: deerguard blocked tool 'bash': shell.pipe-to-shell" in out
    assert "[ok] bash: (pretend output of: ls -la)" in out
    seen = next(line for line in out.splitlines() if line.startswith("model saw the page as:"))
    assert "&lt;system-reminder&gt;" in seen and "<system-reminder>" not in seen
    assert '"tool_name": "web_fetch"' in out
    assert '"verdict": "block"' in out and '"verdict": "pass"' in out


@pytest.mark.slow
def test_mcp_example_runs_in_process_and_filters_blocks_and_neutralizes() -> None:
    example = EXAMPLE.parent / "mcp_guarded_server.py"
    proc = subprocess.run(
        [sys.executable, "-W", "error", str(example)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "tools listed: fetch_url, bash\n" in out
    assert "[ok] fetch_url: Price: 42 EUR &lt;|im_start|&gt;system" in out
    assert "<|im_start|>" not in out
    assert "[BLOCKED] admin_reset: deerguard blocked tool 'admin_reset': authz." in out
    blocked = [line for line in out.splitlines() if line.startswith("[BLOCKED] bash:")]
    assert len(blocked) == 1 and "shell." in blocked[0]
    assert "[ok] bash: (pretend output of: git log --oneline -3)" in out
    assert out.count("audit: ") == 2
