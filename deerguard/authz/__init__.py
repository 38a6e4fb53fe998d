"""deerguard.authz: Casbin RBAC for models, sandboxes, tools, MCP servers and skills.

A principal built only from server-owned context, policies as Casbin rows (from a deer-flow
style roles file or native ``model.conf``/``policy.csv``), deny by default, deny wins, and a
compiled, thread-safe decision path that answers exactly as ``casbin.Enforcer`` does.

>>> from deerguard.authz import Authorizer, Principal
>>> authz = Authorizer.from_mapping({"roles": {"user": {"tools": {"allow": ["web_*"]}}}})
>>> authz.authorize(Principal(roles=("user",)), "tool", "web_search", "call").allow
True
"""

from __future__ import annotations

from ._authorizer import Authorizer
from ._glob import glob_match
from ._models import ModelChoice, resolve_model
from ._principal import TRUSTED_CONTEXT_KEYS, Principal, principal_from_context
from ._types import (
    DEFAULT_DENY,
    RESOURCE_ACTIONS,
    ROLES_FILE_SECTIONS,
    AuthzDecision,
    AuthzReason,
    PolicyRow,
    PolicySet,
    RoleLink,
)

__all__ = [
    "DEFAULT_DENY",
    "RESOURCE_ACTIONS",
    "ROLES_FILE_SECTIONS",
    "TRUSTED_CONTEXT_KEYS",
    "Authorizer",
    "AuthzDecision",
    "AuthzReason",
    "ModelChoice",
    "PolicyRow",
    "PolicySet",
    "Principal",
    "RoleLink",
    "glob_match",
    "principal_from_context",
    "resolve_model",
]
