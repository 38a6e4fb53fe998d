"""Roles files (YAML or TOML, deer-flow's shape) validated strictly and compiled to Casbin rows.

Shape::

    default_role: user                  # optional; must be a defined role
    roles:
      guest:
        tools: {allow: [web_search]}
      user:
        inherits: [guest]
        models: {allow: ["gpt-4o*"], deny: [gpt-4o-realtime]}
        tools: {allow: "*", deny: [update_agent]}
    tenants:                            # optional: extra rows that apply in one tenant only
      acme:
        roles:
          user:
            mcp_servers: {allow: [acme_crm]}

Sections are ``models``, ``tools``, ``sandbox``, ``mcp_servers``, ``skills``; each has
``allow`` (``"*"``, a list of names/``*`` globs, or ``true``/``false``) and ``deny`` (a list).
A section grants every action of its resource type (``tools`` -> ``tool:call`` and
``tool:list``). Deliberate differences from deer-flow: a role without a section for a
resource type is denied that type (deer-flow leaves it unrestricted), and a section without
``allow`` allows nothing (deer-flow allows everything).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .._policyfile import Document, KeyLines, parse_document
from ..errors import PolicyError
from ._casbinfile import read_text
from ._glob import pattern_problem
from ._types import RESOURCE_ACTIONS, ROLES_FILE_SECTIONS, PolicyRow, PolicySet, RoleLink

__all__ = [
    "MAX_INHERITANCE_DEPTH",
    "MAX_NESTING",
    "compile_document",
    "load_roles_file",
    "roles_from_mapping",
    "roles_from_text",
]

#: Casbin's default role manager follows at most 10 links; deeper chains would make Casbin
#: (the source of truth) and the compiled path disagree, so they are refused.
MAX_INHERITANCE_DEPTH = 10

_SINGULAR_ALIASES = {
    "model": "models",
    "tool": "tools",
    "mcp_server": "mcp_servers",
    "mcp": "mcp_servers",
    "skill": "skills",
    "sandboxes": "sandbox",
}


def _check_names(value: Any, *, what: str) -> tuple[str, ...]:
    if value is None:
        raise ValueError(f"{what} must not be null; omit the key or write []")
    if isinstance(value, str):
        raise ValueError(f"{what} must be a list of names, got the string {value!r}")
    if not isinstance(value, list | tuple):
        raise ValueError(f"{what} must be a list of names, got {type(value).__name__}")
    for item in value:
        problem = pattern_problem(item)
        if problem is not None:
            raise ValueError(f"{what}: {problem}")
    return tuple(value)


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    allow: Literal["*"] | tuple[str, ...] = ()
    deny: tuple[str, ...] = ()

    @field_validator("allow", mode="before")
    @classmethod
    def _allow(cls, value: Any) -> Any:
        if value is True:
            return "*"
        if value is False:
            return ()
        if isinstance(value, str):
            if value == "*":
                return "*"
            raise ValueError(
                f"allow must be '*' or a list of names, got the string {value!r}"
            )
        return _check_names(value, what="allow")

    @field_validator("deny", mode="before")
    @classmethod
    def _deny(cls, value: Any) -> Any:
        return _check_names(value, what="deny")


class _Sections(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    models: _Section | None = None
    sandbox: _Section | None = None
    tools: _Section | None = None
    mcp_servers: _Section | None = None
    skills: _Section | None = None


class _Role(_Sections):
    inherits: tuple[str, ...] = ()

    @field_validator("inherits", mode="before")
    @classmethod
    def _inherits(cls, value: Any) -> Any:
        return _check_names(value, what="inherits")


class _Tenant(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    roles: dict[str, _Sections]


class _RolesFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    version: Literal[1] = 1
    default_role: str | None = None
    roles: dict[str, _Role]
    tenants: dict[str, _Tenant] = Field(default_factory=dict)


def _hint_for(error: Mapping[str, Any]) -> str | None:
    kind = error.get("type", "")
    loc = error.get("loc", ())
    last = str(loc[-1]) if loc else ""
    if kind == "extra_forbidden":
        if last in _SINGULAR_ALIASES:
            return f"write {_SINGULAR_ALIASES[last]!r} (roles files use plural section names)"
        if len(loc) == 1:
            return "top-level keys are version, default_role, roles, tenants"
        if len(loc) >= 3 and loc[-3] == "roles" or len(loc) == 2:
            return "role keys are inherits, models, tools, sandbox, mcp_servers, skills"
        return "section keys are allow and deny"
    if last == "allow":
        return 'write allow: "*" or allow: ["name", "prefix_*"]'
    if last in ("deny", "inherits"):
        return f'write {last}: ["name", ...] or remove the key'
    if kind == "missing":
        return f"add the {last!r} key"
    return None


def _translate(exc: ValidationError, doc: Document) -> PolicyError:
    error = exc.errors(include_url=False)[0]
    loc = tuple(str(part) for part in error["loc"])
    key = ".".join(loc)
    kind = error["type"]
    message = str(error["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    if kind == "extra_forbidden":
        message = f"unknown key {loc[-1]!r}"
    elif kind == "missing":
        message = f"missing required key {loc[-1]!r}"
    elif kind in ("model_type", "dict_type", "model_attributes_type"):
        message = f"expected a mapping, got {type(error.get('input')).__name__}"
    return doc.error(key, message, _hint_for(error))


def _check_role_name(doc: Document, key: str, name: str, *, what: str) -> None:
    problem = pattern_problem(name)
    if problem is None and "*" in name:
        problem = f"{what} {name!r} contains '*'; role and tenant names are literal"
    if problem is not None:
        raise doc.error(key, problem, f"rename the {what}")


def _check_inheritance(doc: Document, parsed: _RolesFile) -> None:
    for role, spec in parsed.roles.items():
        for index, parent in enumerate(spec.inherits):
            if parent not in parsed.roles:
                raise doc.error(
                    f"roles.{role}.inherits.{index}",
                    f"role {role!r} inherits unknown role {parent!r}",
                    f"define roles.{parent} or remove it from inherits",
                )
    # Depth-first search for cycles and over-deep chains, reporting the first offender.
    depth: dict[str, int] = {}

    def visit(role: str, path: tuple[str, ...]) -> int:
        if role in path:
            cycle = " -> ".join((*path[path.index(role) :], role))
            raise doc.error(
                f"roles.{path[-1]}.inherits",
                f"inheritance cycle {cycle}",
                "remove one of the inherits entries in the cycle",
            )
        if role in depth:
            return depth[role]
        levels = 0
        for parent in parsed.roles[role].inherits:
            levels = max(levels, 1 + visit(parent, (*path, role)))
        if levels > MAX_INHERITANCE_DEPTH:
            raise doc.error(
                f"roles.{role}.inherits",
                f"role {role!r} inherits through {levels} levels; at most "
                f"{MAX_INHERITANCE_DEPTH} are allowed",
                "flatten the role hierarchy",
            )
        depth[role] = levels
        return levels

    for role in parsed.roles:
        visit(role, ())


def _section_rows(
    doc: Document, role: str, dom: str, sections: _Sections, prefix: str
) -> list[PolicyRow]:
    rows: list[PolicyRow] = []
    for section_name, typ in ROLES_FILE_SECTIONS.items():
        section: _Section | None = getattr(sections, section_name)
        if section is None:
            continue
        base = f"{prefix}.{section_name}"
        allow = [("*", f"{base}.allow")] if section.allow == "*" else [
            (name, f"{base}.allow.{index}") for index, name in enumerate(section.allow)
        ]
        deny = [(name, f"{base}.deny.{index}") for index, name in enumerate(section.deny)]
        for effect, entries in (("deny", deny), ("allow", allow)):
            for name, key in entries:
                line = doc.keys.line_of(key)
                origin = f"{doc.file}:{line} {key}" if line is not None else f"{doc.file} {key}"
                for action in RESOURCE_ACTIONS[typ]:
                    rows.append(
                        PolicyRow(role, dom, typ, name, action, effect, origin)  # type: ignore[arg-type]
                    )
    return rows


def compile_document(doc: Document) -> PolicySet:
    """Validate a parsed roles document and compile it to Casbin ``p``/``g`` rows.

    Raises :class:`PolicyError` naming file, line and key for unknown keys, wrong types,
    null lists, names that cannot mean what they say, unknown or cyclic ``inherits``, an
    undefined ``default_role`` and tenant sections for undefined roles. Deterministic.
    """
    try:
        parsed = _RolesFile.model_validate(doc.data)
    except ValidationError as exc:
        raise _translate(exc, doc) from None
    for role in parsed.roles:
        _check_role_name(doc, f"roles.{role}", role, what="role")
    _check_inheritance(doc, parsed)
    if parsed.default_role is not None and parsed.default_role not in parsed.roles:
        raise doc.error(
            "default_role",
            f"default_role {parsed.default_role!r} is not a defined role",
            f"define roles.{parsed.default_role} or change default_role",
        )
    rows: list[PolicyRow] = []
    links: list[RoleLink] = []
    for role, spec in parsed.roles.items():
        rows.extend(_section_rows(doc, role, "*", spec, f"roles.{role}"))
        for index, parent in enumerate(spec.inherits):
            key = f"roles.{role}.inherits.{index}"
            line = doc.keys.line_of(key)
            links.append(RoleLink(role, parent, f"{doc.file}:{line} {key}"))
    for tenant, tenant_spec in parsed.tenants.items():
        _check_role_name(doc, f"tenants.{tenant}", tenant, what="tenant")
        for role, sections in tenant_spec.roles.items():
            if role not in parsed.roles:
                raise doc.error(
                    f"tenants.{tenant}.roles.{role}",
                    f"tenant {tenant!r} configures unknown role {role!r}",
                    f"define roles.{role} at the top level first",
                )
            rows.extend(
                _section_rows(doc, role, tenant, sections, f"tenants.{tenant}.roles.{role}")
            )
    return PolicySet(
        rows=tuple(rows),
        links=tuple(links),
        roles=frozenset(parsed.roles),
        default_role=parsed.default_role,
        file=doc.file,
    )


#: Roles files nest about five levels deep. PyYAML's scanner is quadratic in flow nesting
#: depth and both parsers recurse per level, so deeper bracket nesting is refused up front.
MAX_NESTING = 64


_BRACKETS = re.compile(r"[\[\]{}]")


def _nesting_depth(text: str) -> int:
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return 0  # cannot nest deeper than the number of openers (the common case)
    depth = deepest = 0
    for found in _BRACKETS.finditer(text):
        if found.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(depth - 1, 0)
    return deepest


def _parse(text: str, file: str, fmt: str | None) -> Document:
    if _nesting_depth(text) > MAX_NESTING:
        raise PolicyError(
            f"brackets nest more than {MAX_NESTING} levels deep",
            file=file,
            hint="a roles file needs only a few levels; flatten the document",
        )
    try:
        return parse_document(text, file=file, fmt=fmt)
    except RecursionError:  # deep block-style nesting: still a bad file, not a crash
        raise PolicyError(
            "the document is nested too deeply", file=file, hint="flatten the document"
        ) from None


def load_roles_file(path: str | Path, /) -> PolicySet:
    """Read, validate and compile the roles file at ``path`` (YAML or TOML by suffix).

    Any problem raises :class:`PolicyError` naming file, line and key; never anything else.
    Parsing is bounded: bracket nesting deeper than :data:`MAX_NESTING` is refused before
    the YAML/TOML parser runs.
    """
    name = str(path)
    return compile_document(_parse(read_text(path), name, None))


def roles_from_text(text: str, /, *, file: str, fmt: str | None = None) -> PolicySet:
    """Validate and compile roles-file ``text`` (``fmt`` "yaml"/"toml", or by ``file`` suffix)."""
    return compile_document(_parse(text, file, fmt))


def roles_from_mapping(data: Mapping[str, Any], /, *, name: str = "<mapping>") -> PolicySet:
    """Validate and compile roles given as a mapping (same shape as a roles file)."""
    if not isinstance(data, Mapping):
        raise PolicyError(
            f"roles data must be a mapping, got {type(data).__name__}",
            file=name,
            hint="pass {'roles': {...}}",
        )
    return compile_document(Document(data=dict(data), file=name, keys=KeyLines({})))
