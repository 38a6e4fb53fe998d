"""Model choice: fall back from a denied model to one the principal may both see and use."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import AuthorizationError
from ._types import AuthzDecision

if TYPE_CHECKING:
    from ._authorizer import Authorizer
    from ._principal import Principal

__all__ = ["ModelChoice", "resolve_model", "resolve_model_with"]

_log = logging.getLogger("deerguard.authz")


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """The model to use and why: ``fell_back`` when it is not the requested one,
    ``forced`` when fail-open kept a requested model that policy denies."""

    model: str
    requested: str
    fell_back: bool
    forced: bool
    decision: AuthzDecision

    def to_dict(self) -> dict[str, Any]:
        """Return plain JSON data."""
        return {
            "model": self.model,
            "requested": self.requested,
            "fell_back": self.fell_back,
            "forced": self.forced,
            "decision": self.decision.to_dict(),
        }


def resolve_model_with(
    authorizer: Authorizer,
    principal: Principal,
    requested: str,
    candidates: Sequence[str],
    /,
    *,
    fail_closed: bool = True,
) -> ModelChoice:
    """Implement :meth:`Authorizer.resolve_model` (see there)."""
    wanted = authorizer.authorize(principal, "model", requested, "use")
    if wanted.allow:
        return ModelChoice(requested, requested, False, False, wanted)
    for candidate in list(candidates):
        if candidate == requested:
            continue
        if not authorizer.authorize(principal, "model", candidate, "list").allow:
            continue
        # A provider may allow listing while denying use: re-verify with model:use.
        use = authorizer.authorize(principal, "model", candidate, "use")
        if use.allow:
            return ModelChoice(candidate, requested, True, False, use)
    if fail_closed:
        raise AuthorizationError(
            f"model {requested!r} is denied ({wanted.rule}) and no candidate is both visible "
            "and usable for this principal"
        )
    _log.warning(
        "no usable model for the principal; FAIL-OPEN keeps the denied model %r", requested
    )
    return ModelChoice(requested, requested, False, True, wanted)


def resolve_model(
    principal: Principal,
    requested: str,
    candidates: Sequence[str],
    /,
    *,
    authorizer: Authorizer,
    fail_closed: bool = True,
) -> ModelChoice:
    """Choose the model for ``principal``: ``requested`` if usable, else a safe fallback.

    A denied model falls back to the first candidate that is visible (``model:list``) and
    re-verified with ``model:use``. No usable fallback raises
    :class:`~deerguard.errors.AuthorizationError` when ``fail_closed`` (default) and keeps
    the requested model (logged, ``forced=True``) otherwise. Order-preserving, pure.

    >>> from deerguard.authz import Authorizer, Principal
    >>> authz = Authorizer.from_mapping({"roles": {"u": {"models": {"allow": ["gpt-4o-mini"]}}}})
    >>> resolve_model(Principal(roles=("u",)), "o1", ["o1", "gpt-4o-mini"], authorizer=authz).model
    'gpt-4o-mini'
    """
    return resolve_model_with(
        authorizer, principal, requested, candidates, fail_closed=fail_closed
    )
