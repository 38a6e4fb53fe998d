"""The authorization vocabulary: resource types and actions, policy rows, reasons, decisions.

Everything here is frozen data. ``RESOURCE_ACTIONS`` is the closed set of resource types and
the actions each one has; it is written ``type:action`` (``tool:call``) in reasons and docs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

__all__ = [
    "DEFAULT_DENY",
    "RESOURCE_ACTIONS",
    "ROLES_FILE_SECTIONS",
    "AuthzDecision",
    "AuthzReason",
    "PolicyRow",
    "PolicySet",
    "RoleLink",
]

#: Resource types and their actions. Frozen: a mapping proxy over tuples.
RESOURCE_ACTIONS: MappingProxyType[str, tuple[str, ...]] = MappingProxyType(
    {
        "model": ("use", "list"),
        "sandbox": ("execute",),
        "tool": ("call", "list"),
        "mcp_server": ("connect",),
        "skill": ("use",),
    }
)

#: Roles-file section name (deer-flow's plural keys) -> resource type.
ROLES_FILE_SECTIONS: MappingProxyType[str, str] = MappingProxyType(
    {
        "models": "model",
        "sandbox": "sandbox",
        "tools": "tool",
        "mcp_servers": "mcp_server",
        "skills": "skill",
    }
)

#: The rule id a decision carries when no policy row matched.
DEFAULT_DENY = "default-deny"

Effect = Literal["allow", "deny"]
Source = Literal["policy", "default", "error"]


@dataclass(frozen=True, slots=True)
class PolicyRow:
    """One Casbin ``p`` row: ``p, sub, dom, typ, obj, act, eft``.

    ``dom`` is a tenant name or ``"*"`` (every tenant); ``obj`` is an exact name or a
    ``*`` glob; ``act`` is an action of ``typ`` or ``"*"`` (every action of ``typ``).
    ``origin`` says where the row came from (file, line, key); it is not part of equality.
    """

    sub: str
    dom: str
    typ: str
    obj: str
    act: str
    eft: Effect
    origin: str = field(default="", compare=False)

    def values(self) -> list[str]:
        """Return the row as Casbin's ``[sub, dom, typ, obj, act, eft]``."""
        return [self.sub, self.dom, self.typ, self.obj, self.act, self.eft]

    def __str__(self) -> str:
        return "p, " + ", ".join(self.values())


@dataclass(frozen=True, slots=True)
class RoleLink:
    """One Casbin ``g`` row: ``g, member, parent`` (``member`` inherits ``parent``'s rows)."""

    member: str
    parent: str
    origin: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"g, {self.member}, {self.parent}"


@dataclass(frozen=True, slots=True)
class AuthzReason:
    """Why a decision came out as it did: a stable ``code`` and a message for people."""

    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """Return ``{"code": ..., "message": ...}``."""
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class AuthzDecision:
    """The answer to one authorization request.

    ``allow`` is the verdict. ``rule`` is the matched policy row as text (``"p, user, *,
    tool, web_*, call, allow"``) or ``"default-deny"`` when no row matched. ``source`` is
    ``"policy"`` (a row decided), ``"default"`` (nothing matched: denied) or ``"error"``
    (the engine failed; denied unless fail-open was set explicitly).
    """

    allow: bool
    resource_type: str
    name: str
    action: str
    reasons: tuple[AuthzReason, ...]
    rule: str
    source: Source
    origin: str = ""

    @classmethod
    def _make(
        cls,
        allow: bool,
        resource_type: str,
        name: str,
        action: str,
        reasons: tuple[AuthzReason, ...],
        rule: str,
        source: Source,
        origin: str = "",
    ) -> AuthzDecision:
        # The hot path: one dict update instead of eight frozen __setattr__ calls (no slots
        # for that reason). The instance is as frozen as one built by __init__.
        self = object.__new__(cls)
        self.__dict__.update(
            allow=allow, resource_type=resource_type, name=name, action=action,
            reasons=reasons, rule=rule, source=source, origin=origin,
        )
        return self

    def __bool__(self) -> bool:
        # A decision is not a bool: refuse truthiness so `if authorize(...)` cannot
        # silently treat a deny object as True.
        raise TypeError("use decision.allow, not the decision itself, as a condition")

    @property
    def permission(self) -> str:
        """The request written as ``type:action`` (``"tool:call"``)."""
        return f"{self.resource_type}:{self.action}"

    def to_dict(self) -> dict[str, Any]:
        """Return plain JSON data for the CLI and audit logs."""
        return {
            "allow": self.allow,
            "resource_type": self.resource_type,
            "name": self.name,
            "action": self.action,
            "permission": self.permission,
            "rule": self.rule,
            "origin": self.origin,
            "source": self.source,
            "reasons": [reason.to_dict() for reason in self.reasons],
        }


@dataclass(frozen=True, slots=True)
class PolicySet:
    """Validated policy data in Casbin's terms: ``p`` rows, ``g`` links and the known roles.

    ``roles`` is every role the policy defines (a principal with any other role is a
    configuration mistake). ``file`` names the source for messages.
    """

    rows: tuple[PolicyRow, ...]
    links: tuple[RoleLink, ...]
    roles: frozenset[str]
    default_role: str | None = None
    file: str = "<policy>"
