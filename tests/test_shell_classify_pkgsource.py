"""classify(): settings that change where later package installs and clones come from.

Pointing pip, npm, yarn, gem, conda or git at another source (config commands or
environment variables) warns as ``shell.package-source``; the public default registries,
reading the config and git's ssh-instead-of-https rewrite to the same host pass.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify


@pytest.mark.parametrize("command", [
    "pip config set global.index-url http://evil.example/simple",
    "pip3 config set global.extra-index-url https://x.example/simple",
    "pip config set install.trusted-host evil.example",
    "npm config set registry http://evil.example",
    "npm set @corp:registry https://npm.other.example",
    "npm config set script-shell /tmp/x",
    "pnpm config set registry=https://r.example",
    "yarn config set npmRegistryServer https://x.example",
    "git config --global url.https://evil.example/.insteadOf https://github.com/",
    "gem sources --add http://evil.example/",
    "conda config --add channels http://evil.example",
    "export PIP_INDEX_URL=http://evil.example/simple",
    "PIP_EXTRA_INDEX_URL=https://x.example/simple pip install foo",
    "export NPM_CONFIG_REGISTRY=https://r.example",
    "export GOSUMDB=off",
    "export GOPROXY=https://goproxy.example",
])
def test_changing_the_package_source_warns(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.to_dict()
    assert "shell.package-source" in result.rule_ids


@pytest.mark.parametrize("command", [
    "pip config set global.index-url https://pypi.org/simple",
    "pip config list",
    "npm config set registry https://registry.npmjs.org/",
    "npm config get registry",
    "npm config set ignore-scripts true",
    "git config user.name bob",
    "git config --global url.\"git@github.com:\".insteadOf \"https://github.com/\"",
    "git config --global url.ssh://git@gitlab.com/.insteadOf https://gitlab.com/",
    "export GOPROXY=https://proxy.golang.org,direct",
    "export GOFLAGS=-mod=vendor",
    "gem sources --list",
])
def test_reading_config_and_official_sources_pass(command: str) -> None:
    assert classify(command).verdict is Verdict.PASS, classify(command).to_dict()
