"""Principals: who is asking, built only from server-owned context keys.

The caller of an agent (a user's HTTP body, a tool argument, a model's output) must never be
able to choose its own identity. :func:`principal_from_context` therefore reads a fixed set
of *server-owned* keys from the runtime context and nothing else: identity written anywhere
else (``configurable``, ``overrides``, ``role``, nested request bodies) is ignored.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..errors import ConfigError

__all__ = ["TRUSTED_CONTEXT_KEYS", "Principal", "freeze", "principal_from_context", "thaw"]

#: The server-owned runtime-context keys read by :func:`principal_from_context` (deer-flow's
#: names). ``user_role`` is one role; ``user_roles`` a list; ``authz_attributes`` a mapping.
TRUSTED_CONTEXT_KEYS: frozenset[str] = frozenset(
    {
        "user_id",
        "user_role",
        "user_roles",
        "tenant_id",
        "is_internal",
        "channel_user_id",
        "oauth_provider",
        "oauth_id",
        "authz_attributes",
    }
)


def freeze(value: Any) -> Any:
    """Return a deep, immutable copy: mappings -> read-only mappings, lists/sets -> tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    if isinstance(value, set | frozenset):
        return frozenset(freeze(item) for item in value)
    return copy.deepcopy(value)


def thaw(value: Any) -> Any:
    """Return plain JSON-friendly data for a value made by :func:`freeze`."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple | frozenset):
        return [thaw(item) for item in value]
    return value


class Principal(BaseModel):
    """The actor of a request, resolved from trusted context. Frozen.

    ``roles`` is a tuple of role names; ``is_internal`` is True only when given the literal
    ``True`` (``"true"``, ``1`` and friends count as False); ``attributes`` is a deep,
    read-only copy, so later changes to the caller's dict cannot change the principal.

    >>> Principal(user_id="u1", roles=("user",)).roles
    ('user',)
    """

    model_config = ConfigDict(
        frozen=True, extra="forbid", arbitrary_types_allowed=True, defer_build=True
    )

    user_id: str | None = None
    roles: tuple[str, ...] = ()
    tenant: str | None = None
    is_internal: bool = False
    channel_user_id: str | None = None
    oauth_provider: str | None = None
    oauth_id: str | None = None
    attributes: Any = Field(default_factory=lambda: MappingProxyType({}))

    @field_validator("is_internal", mode="before")
    @classmethod
    def _literal_true(cls, value: Any) -> bool:
        return value is True

    @field_validator("roles", mode="before")
    @classmethod
    def _roles(cls, value: Any) -> tuple[str, ...]:
        if isinstance(value, str):
            value = (value,)
        if not isinstance(value, list | tuple):
            raise ValueError(f"roles must be a tuple of strings, got {type(value).__name__}")
        if not all(isinstance(role, str) and role for role in value):
            raise ValueError("every role must be a non-empty string")
        return tuple(dict.fromkeys(value))

    @field_validator("attributes", mode="before")
    @classmethod
    def _attributes(cls, value: Any) -> Any:
        if value is None:
            return MappingProxyType({})
        if not isinstance(value, Mapping):
            raise ValueError(f"attributes must be a mapping, got {type(value).__name__}")
        return freeze(value)

    def to_dict(self) -> dict[str, Any]:
        """Return plain JSON data (attributes thawed to dicts and lists)."""
        return {
            "user_id": self.user_id,
            "roles": list(self.roles),
            "tenant": self.tenant,
            "is_internal": self.is_internal,
            "channel_user_id": self.channel_user_id,
            "oauth_provider": self.oauth_provider,
            "oauth_id": self.oauth_id,
            "attributes": thaw(self.attributes),
        }


def _optional_str(context: Mapping[str, Any], key: str, trusted: frozenset[str]) -> str | None:
    if key not in trusted:
        return None
    value = context.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ConfigError(f"context[{key!r}] must be a string, got {type(value).__name__}")
    return value


def principal_from_context(
    context: Mapping[str, Any],
    /,
    *,
    trusted_keys: frozenset[str] = TRUSTED_CONTEXT_KEYS,
    default_role: str | None = None,
) -> Principal:
    """Build a :class:`Principal` from the server-owned keys of a runtime ``context``.

    Only keys in ``trusted_keys`` (default :data:`TRUSTED_CONTEXT_KEYS`) are read, and only
    at the top level; everything else, including identity a caller tucked into
    ``configurable``/``overrides``/``role``, is ignored. ``is_internal`` counts only the
    literal ``True``. A missing or empty role falls back to ``default_role``; with neither,
    :class:`~deerguard.errors.ConfigError` is raised. Whether each role exists in a policy is
    checked by :meth:`Authorizer.principal_from_context` (eagerly) or by every
    ``Authorizer`` check (``ConfigError`` for a role the policy does not define). Pure.

    >>> principal_from_context({"user_id": "u1", "user_role": "user"}).roles
    ('user',)
    """
    if not isinstance(context, Mapping):
        raise ConfigError(f"context must be a mapping, got {type(context).__name__}")
    trusted = frozenset(trusted_keys)
    roles: list[str] = []
    single = _optional_str(context, "user_role", trusted)
    if single is not None:
        roles.append(single)
    if "user_roles" in trusted and context.get("user_roles") is not None:
        many = context["user_roles"]
        if not isinstance(many, list | tuple) or not all(isinstance(r, str) for r in many):
            raise ConfigError("context['user_roles'] must be a list of strings")
        roles.extend(role for role in many if role)
    if not roles:
        if default_role is None:
            raise ConfigError(
                "the context names no role and no default_role was given; "
                "pass default_role= or put user_role in the server-owned context"
            )
        roles.append(default_role)
    attributes = context.get("authz_attributes") if "authz_attributes" in trusted else None
    if attributes is not None and not isinstance(attributes, Mapping):
        raise ConfigError(
            f"context['authz_attributes'] must be a mapping, got {type(attributes).__name__}"
        )
    return Principal(
        user_id=_optional_str(context, "user_id", trusted),
        roles=tuple(roles),
        tenant=_optional_str(context, "tenant_id", trusted),
        is_internal="is_internal" in trusted and context.get("is_internal") is True,
        channel_user_id=_optional_str(context, "channel_user_id", trusted),
        oauth_provider=_optional_str(context, "oauth_provider", trusted),
        oauth_id=_optional_str(context, "oauth_id", trusted),
        attributes=attributes,
    )
