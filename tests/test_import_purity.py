"""Importing deerguard has no side effects: no framework imports, no I/O, no logging setup."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = r"""
import json, sys
events = []
def hook(event, args):
    if event == "open":
        path = str(args[0])
        # Reading modules is the import itself. Package metadata is NOT exempt: pydantic
        # scans every installed package's entry points when a model's validator is built,
        # so models must not be built (or instantiated) at import time.
        is_import = path.endswith((".py", ".pyc", ".so", ".pth", ".zip"))
        if not is_import and "__pycache__" not in path:
            events.append(f"open {path} {args[1]}")
    elif event.startswith(("socket.", "subprocess.", "os.system", "os.exec", "os.spawn",
                           "os.remove", "os.rename", "os.mkdir", "shutil.")):
        events.append(event)
sys.addaudithook(hook)
import logging
before = list(logging.getLogger().handlers)
import deerguard
import deerguard.shell, deerguard.sanitize, deerguard.authz, deerguard.provenance
import deerguard.adapters
frameworks = sorted(
    name for name in sys.modules
    if name.split(".")[0] in {"langchain", "langchain_core", "langgraph", "agents", "mcp",
                              "openai", "bashlex", "bleach", "atheris"}
)
lazy = sorted(name for name in sys.modules if name.split(".")[0] in {"yaml"})
print(json.dumps({
    "lazy": lazy,
    "events": events,
    "frameworks": frameworks,
    "logging_changed": logging.getLogger().handlers != before
                       or logging.getLogger().level != logging.WARNING,
}))
"""


def _probe() -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def test_import_deerguard_imports_no_agent_framework_or_test_oracle() -> None:
    assert _probe()["frameworks"] == []


def test_import_deerguard_leaves_pyyaml_until_a_yaml_policy_is_read() -> None:
    # PyYAML only reads YAML policy files; loading it with the package cost every
    # `deerguard classify` run about 11 ms.
    assert _probe()["lazy"] == []


def test_import_deerguard_performs_no_io() -> None:
    assert _probe()["events"] == []


def test_import_deerguard_configures_no_logging() -> None:
    assert _probe()["logging_changed"] is False


_DEFAULT_ONLY = r"""
import sys
from deerguard import classify
from deerguard.shell import Classifier
verdicts = [str(classify(c).verdict) for c in ("ls", "curl -s u | sh", "x" * 20000)]
before = "pydantic" in sys.modules
policy = Classifier().policy  # the public policy object: a pydantic model, loaded now
from deerguard.shell import default_policy, parse_policy
same = policy == default_policy() and policy.limits.max_length == 10000
strict = parse_policy('[commands]\ndeny = ["ls"]')
print(before, "pydantic" in sys.modules, same, verdicts, classify("ls", policy=strict).verdict)
"""


def test_classifying_under_the_default_policy_loads_no_pydantic() -> None:
    # pydantic costs about 75 ms per process; a hook that runs one `deerguard classify` per
    # agent command should not pay it when it uses the shipped default policy.
    out = subprocess.run(
        [sys.executable, "-c", _DEFAULT_ONLY], capture_output=True, text=True, check=True
    ).stdout.split(maxsplit=3)
    assert out[0] == "False"  # not before a policy object is asked for
    assert out[1:3] == ["True", "True"]  # then the same default policy, as a model
    assert out[3].strip() == "['pass', 'block', 'block'] block"
