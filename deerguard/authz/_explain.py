"""Explanations for people: the decision plus every row that matches the request."""

from __future__ import annotations

from ._compiled import role_closure
from ._glob import glob_match
from ._principal import Principal
from ._types import AuthzDecision, PolicySet

__all__ = ["explain_text"]


def explain_text(
    policy: PolicySet, principal: Principal, decision: AuthzDecision, *, custom_model: bool = False
) -> str:
    """Return a multi-line account of ``decision`` for ``principal`` under ``policy``.

    Lists the principal's effective roles (with inheritance), the deciding rule and where it
    is written, and every allow/deny row that matches the request. Linear in the rows.
    """
    closure = role_closure(
        principal.roles, ((link.member, link.parent) for link in policy.links)
    )
    effective = sorted(set().union(*closure.values())) if closure else []
    tenant = principal.tenant or ""
    lines = [
        f"request: {decision.permission} {decision.name!r}",
        f"principal: roles={', '.join(principal.roles)} tenant={tenant or '-'}",
        f"effective roles (with inherits): {', '.join(effective)}",
        f"decision: {'ALLOW' if decision.allow else 'DENY'} (source={decision.source})",
        f"rule: {decision.rule}" + (f"  [{decision.origin}]" if decision.origin else ""),
    ]
    lines.extend(f"reason: {r.code}: {r.message}" for r in decision.reasons)
    matching = [
        row
        for row in policy.rows
        if row.sub in effective
        and (row.dom == "*" or (tenant and row.dom == tenant))
        and row.typ == decision.resource_type
        and row.act in ("*", decision.action)
        and isinstance(decision.name, str)
        and glob_match(decision.name, row.obj)
    ]
    if custom_model:
        lines.append(
            "note: a custom Casbin model decided; rows below are matched with the shipped "
            "model's rules (role, tenant, type, nameMatch, action) and may differ from it"
        )
    if matching:
        lines.append("matching rows (any deny wins over every allow):")
        lines.extend(f"  {row}" + (f"  [{row.origin}]" if row.origin else "") for row in matching)
    else:
        lines.append("matching rows: none (deny by default)")
    return "\n".join(lines)
