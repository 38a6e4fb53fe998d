"""Adapters are opt-in: the package imports no framework; a missing extra names its pip line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FRAMEWORKS = {"langchain", "langchain_core", "langgraph", "agents", "mcp", "mcp_types", "openai"}

PROBE = r"""
import json, sys
import deerguard, deerguard.adapters, deerguard.adapters.hooks, deerguard.adapters.deerflow
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""

# Make the framework unimportable, then import its adapter.
MISSING = r"""
import sys
sys.modules[{blocked!r}] = None
try:
    import deerguard.adapters.{module}
except ImportError as exc:
    print(type(exc).__name__, "|", exc)
"""


def test_importing_deerguard_and_adapters_imports_no_framework() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(json.loads(out.strip().splitlines()[-1]))
    assert loaded & FRAMEWORKS == set()


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("langchain", "langchain", "langchain"),
        ("openai_agents", "agents", "openai-agents"),
        ("mcp", "mcp", "mcp"),
    ],
)
def test_missing_extra_raises_import_error_naming_the_pip_line(
    module: str, blocked: str, extra: str
) -> None:
    code = MISSING.format(blocked=blocked, module=module)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("MissingExtraError |")
    assert f"pip install 'deerguard[{extra}]'" in out
