"""A shell policy's checked content, as the classifier reads it; no pydantic here.

Policy files are checked here (file, line, key and fix in every error) into a plain mapping;
:mod:`._policy` builds the public pydantic :class:`~deerguard.shell.ShellPolicy` from the same
mapping. The classifier only needs :class:`PolicyData`, so classifying under the shipped
default never imports pydantic: a process that runs ``deerguard classify`` once (an agent's
hook) starts about 75 ms sooner.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._policyfile import Document, parse_document
from .._resources import read_policy_text
from .._result import Verdict
from ._rules import RULES

__all__ = ["PolicyData", "default_data", "severity_table", "validate"]


@dataclass(frozen=True, slots=True)
class PolicyData:
    """What the classifier reads of a policy (see :class:`~deerguard.shell.ShellPolicy`)."""

    deny: tuple[str, ...] = ()
    warn: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()
    protected: tuple[str, ...] = ()
    command_name: str = "warn"
    max_length: int = 10_000
    rules: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_checked(cls, data: Mapping[str, Any]) -> PolicyData:
        """Build from the mapping :func:`validate` returns (absent keys keep defaults)."""
        commands = data.get("commands", {})
        return cls(
            deny=commands.get("deny", ()),
            warn=commands.get("warn", ()),
            allow=commands.get("allow", ()),
            protected=data.get("paths", {}).get("protected", ()),
            command_name=data.get("dynamic", {}).get("command_name", "warn"),
            max_length=data.get("limits", {}).get("max_length", 10_000),
            rules=data.get("rules", ()),
        )


def severity_table(command_name: str, rules: tuple[tuple[str, str], ...]
                   ) -> dict[str, Verdict | None]:
    """Each rule's verdict under a policy (None when it is off)."""
    table: dict[str, Verdict | None] = {rid: rule.severity for rid, rule in RULES.items()}
    table["shell.dynamic-command"] = Verdict(command_name)
    for rule_id, value in rules:
        table[rule_id] = None if value == "off" else Verdict(value)
    return table


@functools.lru_cache(maxsize=1)
def default_checked() -> Mapping[str, Any]:
    """The shipped default policy (``policies/shell/default.toml``), checked, cached."""
    text = read_policy_text("shell/default.toml")
    return validate(parse_document(text, file="shell/default.toml", fmt="toml"))


@functools.lru_cache(maxsize=1)
def default_data() -> PolicyData:
    """The shipped default policy as the classifier reads it, cached."""
    return PolicyData.from_checked(default_checked())


# --- checking a policy file -------------------------------------------------------------

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


def validate(doc: Document) -> dict[str, Any]:
    """Check a parsed policy file; raise :class:`~deerguard.errors.PolicyError` (file, line,
    key, fix) on the first unknown table or key, wrong type or value out of range."""
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
