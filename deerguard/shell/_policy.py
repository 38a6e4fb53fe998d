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

import difflib
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .._policyfile import Document, load_document, parse_document
from .._resources import read_policy_text
from .._result import Verdict
from ._rules import RULES

__all__ = ["ShellPolicy", "default_policy", "load_policy", "parse_policy"]

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
    table: dict[str, Verdict | None] = {rid: rule.severity for rid, rule in RULES.items()}
    table["shell.dynamic-command"] = Verdict(policy.dynamic.command_name)
    for rule_id, value in policy.rules:
        table[rule_id] = None if value == "off" else Verdict(value)
    return table


# --- loading ----------------------------------------------------------------------------

_SCHEMA: dict[str, dict[str, str]] = {
    "commands": {"deny": "names", "warn": "names", "allow": "names"},
    "paths": {"protected": "names"},
    "dynamic": {"command_name": "dynamic"},
    "limits": {"max_length": "length"},
}
_HINTS = {
    "names": 'write a list of strings, e.g. ["rm", "mkfs.*"]',
    "dynamic": 'write "warn" or "block"',
    "length": "write a positive integer such as 10000",
}


def _suggest(word: str, choices: Mapping[str, Any] | list[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    listed = ", ".join(sorted(choices))
    return f"did you mean {close[0]!r}? valid: {listed}" if close else f"valid: {listed}"


def _validate(doc: Document) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for table, value in doc.data.items():
        if table == "rules":
            out["rules"] = _validate_rules(doc, value)
            continue
        if table not in _SCHEMA:
            raise doc.error(table, f"unknown table [{table}]", _suggest(table, [*_SCHEMA, "rules"]))
        if not isinstance(value, dict):
            raise doc.error(table, f"expected a table, got {type(value).__name__}",
                            f"write [{table}] as a table header")
        section: dict[str, Any] = {}
        for key, item in value.items():
            path = f"{table}.{key}"
            kind = _SCHEMA[table].get(key)
            if kind is None:
                raise doc.error(path, f"unknown key {key!r}", _suggest(key, _SCHEMA[table]))
            section[key] = _validate_value(doc, path, kind, item)
        out[table] = section
    return out


def _validate_value(doc: Document, path: str, kind: str, item: Any) -> Any:
    if kind == "names":
        if not isinstance(item, list):
            raise doc.error(path, f"expected a list of strings, got {type(item).__name__}",
                            _HINTS[kind])
        for index, name in enumerate(item):
            if not isinstance(name, str) or not name.strip() or name != name.strip():
                raise doc.error(path, f"entry {index} must be a non-empty string without "
                                f"surrounding spaces, got {name!r}", _HINTS[kind])
        return tuple(item)
    if kind == "dynamic":
        if item not in ("warn", "block"):
            raise doc.error(path, f"expected \"warn\" or \"block\", got {item!r}", _HINTS[kind])
        return item
    if isinstance(item, bool) or not isinstance(item, int) or item < 1:
        raise doc.error(path, f"expected a positive integer, got {item!r}", _HINTS[kind])
    return item


def _validate_rules(doc: Document, value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise doc.error("rules", f"expected a table, got {type(value).__name__}",
                        'write [rules] then "shell.privilege" = "off"')
    pairs: list[tuple[str, str]] = []
    for rule_id, severity in value.items():
        path = f"rules.{rule_id}"
        if isinstance(severity, dict):  # an unquoted dotted key: shell.privilege = ...
            sub = next(iter(severity), "")
            raise doc.error(f"{path}.{sub}", "rule ids contain dots and must be quoted",
                            f'write "{rule_id}.{sub}" = "warn"')
        if rule_id not in RULES:
            raise doc.error(path, f"unknown rule {rule_id!r}", _suggest(rule_id, RULES))
        if severity not in ("block", "warn", "off"):
            raise doc.error(path, f"expected \"block\", \"warn\" or \"off\", got {severity!r}",
                            'write "block", "warn" or "off"')
        if rule_id == "internal-error" and severity != "block":
            # Fail closed is not configurable: a guard that fails must not let input through.
            raise doc.error(path, "internal-error always blocks and cannot be changed",
                            f'remove the "{rule_id}" line')
        pairs.append((rule_id, severity))
    return tuple(sorted(pairs))


def _from_document(doc: Document) -> ShellPolicy:
    data = _validate(doc)
    return ShellPolicy.model_validate(data)


@functools.lru_cache(maxsize=1)
def default_policy() -> ShellPolicy:
    """Return the shipped default shell policy (``policies/shell/default.toml``), cached.

    >>> default_policy().limits.max_length
    10000
    """
    text = read_policy_text("shell/default.toml")
    return _from_document(parse_document(text, file="shell/default.toml", fmt="toml"))


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
