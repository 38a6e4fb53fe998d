"""Look-alike readings of requested names and tenants: never allow more than the imitated name."""

from __future__ import annotations

from typing import Any

from ._glob import lookalike_names
from ._principal import Principal
from ._types import AuthzDecision, AuthzReason

__all__ = ["lookalike_denial"]


def lookalike_denial(
    snapshot: Any, principal: Principal, resource_type: str, name: str, action: str
) -> AuthzDecision | None:
    """A deny when the name or tenant only disguises one a deny rule covers, else None.

    ``"bash "``/``"Bash"``/``"b\u0430sh"`` read as ``bash``, and a tenant ``"Beta"`` reads
    as ``beta``: a deny rule for the reading applies (never allow more than the
    imitated name). Plain lowercase ASCII names and tenants cost one check, nothing more.
    """
    tenant = principal.tenant or ""
    names = (name, *lookalike_names(name))
    tenants = (tenant, *lookalike_names(tenant)) if tenant else (tenant,)
    if len(names) == 1 and len(tenants) == 1:
        return None
    for t in tenants:
        for reading in names:
            if t == tenant and reading == name:
                continue
            seen = snapshot.decide(principal.roles, t, resource_type, reading, action)
            if seen.row is not None and seen.allow is not True:
                shown = reading if t == tenant else f"{reading!r} in tenant {t!r}"
                return AuthzDecision._make(
                    False,
                    resource_type,
                    name,
                    action,
                    (
                        AuthzReason(
                            "denied-look-alike",
                            f"{name!r} reads as {shown!r}, which {seen.rule} denies",
                        ),
                    ),
                    seen.rule,
                    "policy",
                    seen.row.origin,
                )
    return None
