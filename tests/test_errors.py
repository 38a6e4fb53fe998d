"""Exceptions: one root, builtin bases for every subclass, and located policy messages."""

from __future__ import annotations

import pytest

from deerguard.errors import (
    AuthorizationError,
    CanonicalizationError,
    ConfigError,
    DeerguardError,
    MissingExtraError,
    PolicyError,
)


@pytest.mark.parametrize(
    ("cls", "builtin"),
    [
        (PolicyError, ValueError),
        (ConfigError, ValueError),
        (CanonicalizationError, ValueError),
        (AuthorizationError, PermissionError),
        (MissingExtraError, ImportError),
    ],
)
def test_every_error_has_the_root_and_a_builtin_base(cls: type, builtin: type) -> None:
    assert issubclass(cls, DeerguardError)
    assert issubclass(cls, builtin)


def test_policy_error_names_file_line_key_and_fix() -> None:
    err = PolicyError(
        "expected a list of strings, got int",
        file="policy.toml",
        line=7,
        key="commands.deny",
        hint='write deny = ["rm"]',
    )
    assert str(err) == (
        'policy.toml:7: commands.deny: expected a list of strings, got int '
        '(fix: write deny = ["rm"])'
    )
    assert (err.file, err.line, err.key) == ("policy.toml", 7, "commands.deny")


def test_policy_error_without_location_still_reads_clearly() -> None:
    assert str(PolicyError("bad")) == "<policy>: bad"


def test_missing_extra_names_the_pip_line() -> None:
    err = MissingExtraError("openai-agents", "agents")
    assert "pip install 'deerguard[openai-agents]'" in str(err)
    assert err.name == "agents"
