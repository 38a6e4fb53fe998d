"""The shell policy: what to deny, warn about, allow and protect, as a frozen value.

A policy file is TOML with exactly these keys (every one optional)::

    [commands]
    deny = ["rm"]            # programs that always block, however they are spelled
    warn = ["docker"]        # programs that warn
    allow = []               # non-empty: allowlist mode, any other program blocks
    [paths]
    protected = ["/srv/prod/*"]   # globs; naming one in an argument or redirection blocks
    [dynamic]
    command_name = "warn"    # or "block": a program name that cannot be resolved statically
    [limits]
    max_length = 10000       # longer input is decided by rule shell.too-long
    [rules]
    "shell.privilege" = "off"     # per-rule severity: "block", "warn" or "off"

A user file *extends* the shipped default (``policies/shell/default.toml``): lists are added
to the default's lists, scalars and rule severities replace the default's.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .._policyfile import Document, load_document, parse_document
from .._result import Verdict
from ._policydata import PolicyData, default_checked, severity_table, validate

__all__ = ["ShellPolicy", "default_policy", "load_policy", "parse_policy", "policy_data"]

Severity = Literal["block", "warn", "off"]

_FROZEN = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class CommandsPolicy(BaseModel):
    """``[commands]``: program names (or globs such as ``mkfs.*``) to deny, warn or allow."""

    model_config = _FROZEN
    deny: tuple[str, ...] = ()
    warn: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()


class PathsPolicy(BaseModel):
    """``[paths]``: globs of protected paths (``~`` is the home directory)."""

    model_config = _FROZEN
    protected: tuple[str, ...] = ()


class DynamicPolicy(BaseModel):
    """``[dynamic]``: the verdict for a program name that cannot be resolved statically."""

    model_config = _FROZEN
    command_name: Literal["warn", "block"] = "warn"


class LimitsPolicy(BaseModel):
    """``[limits]``: ``max_length`` in characters; longer input triggers ``shell.too-long``."""

    model_config = _FROZEN
    max_length: int = 10_000


class ShellPolicy(BaseModel):
    """A complete shell policy (frozen). Build one with :func:`load_policy` or
    :func:`parse_policy`; :func:`default_policy` is the shipped default.

    ``rules`` maps a rule id to ``"block"``, ``"warn"`` or ``"off"`` (pairs, sorted).
    """

    # Defaults are factories: an instance built at class definition would build pydantic's
    # validators at import time (and pydantic then scans installed packages for plugins).
    model_config = _FROZEN
    commands: CommandsPolicy = Field(default_factory=CommandsPolicy)
    paths: PathsPolicy = Field(default_factory=PathsPolicy)
    dynamic: DynamicPolicy = Field(default_factory=DynamicPolicy)
    limits: LimitsPolicy = Field(default_factory=LimitsPolicy)
    rules: tuple[tuple[str, Severity], ...] = ()

    def severity(self, rule_id: str) -> Verdict | None:
        """Return the verdict ``rule_id`` implies under this policy (None when it is off)."""
        return _severity_table(self).get(rule_id, Verdict.BLOCK)

    def extended(self, other: ShellPolicy) -> ShellPolicy:
        """Return this policy extended by ``other``: lists added, scalars and rules replaced."""
        rules = dict(self.rules)
        rules.update(other.rules)
        return ShellPolicy(
            commands=CommandsPolicy(
                deny=_union(self.commands.deny, other.commands.deny),
                warn=_union(self.commands.warn, other.commands.warn),
                allow=_union(self.commands.allow, other.commands.allow),
            ),
            paths=PathsPolicy(protected=_union(self.paths.protected, other.paths.protected)),
            dynamic=other.dynamic if "dynamic" in other.model_fields_set else self.dynamic,
            limits=other.limits if "limits" in other.model_fields_set else self.limits,
            rules=tuple(sorted(rules.items())),
        )


def _union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*a, *b)))


@functools.lru_cache(maxsize=64)
def _severity_table(policy: ShellPolicy) -> dict[str, Verdict | None]:
    return severity_table(policy.dynamic.command_name, policy.rules)


# --- loading ----------------------------------------------------------------------------

def _from_document(doc: Document) -> ShellPolicy:
    return ShellPolicy.model_validate(validate(doc))


@functools.lru_cache(maxsize=1)
def default_policy() -> ShellPolicy:
    """Return the shipped default shell policy (``policies/shell/default.toml``), cached.

    >>> default_policy().limits.max_length
    10000
    """
    return ShellPolicy.model_validate(default_checked())


@functools.lru_cache(maxsize=64)
def policy_data(policy: ShellPolicy) -> PolicyData:
    """What the classifier reads of ``policy`` (see :mod:`._policydata`)."""
    return PolicyData(
        deny=policy.commands.deny,
        warn=policy.commands.warn,
        allow=policy.commands.allow,
        protected=policy.paths.protected,
        command_name=policy.dynamic.command_name,
        max_length=policy.limits.max_length,
        rules=policy.rules,
    )


def parse_policy(text: str, /, *, file: str = "<policy>", extend_default: bool = True
                 ) -> ShellPolicy:
    """Parse policy TOML ``text`` into a :class:`ShellPolicy` extending the shipped default.

    Raises :class:`~deerguard.errors.PolicyError` naming ``file``, the line and the key for
    a syntax error, an unknown table or key, a wrong type or a value out of range.

    >>> parse_policy('[commands]\\ndeny = ["rm"]').commands.deny[-1]
    'rm'
    """
    policy = _from_document(parse_document(text, file=file, fmt="toml"))
    return default_policy().extended(policy) if extend_default else policy


def load_policy(path: str | Path, /, *, extend_default: bool = True) -> ShellPolicy:
    """Read the TOML shell policy at ``path``, extending the shipped default.

    Raises :class:`~deerguard.errors.PolicyError` (file, line, key, fix) when the file is
    unreadable or any key, type or value is wrong; never returns a half-valid policy.

    >>> load_policy("my-shell.toml")  # doctest: +SKIP
    """
    policy = _from_document(load_document(path, fmt="toml"))
    return default_policy().extended(policy) if extend_default else policy
