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
