"""The Authorizer: one reusable object answering every authorization question of an agent.

Policies come from a roles file (YAML/TOML, deer-flow's shape), a mapping of the same shape,
or native Casbin ``model.conf`` + ``policy.csv``. All of them become Casbin rows; rows under
the shipped model are compiled to the fast path, other models are answered by Casbin itself.

Thread safety: the current policy is an immutable snapshot held in one attribute. A check
reads that attribute once; :meth:`Authorizer.reload` builds a complete new snapshot and
assigns it, so concurrent checks see the old or the new policy, never a half-built one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..errors import ConfigError
from ._compiled import NO_MATCH, CompiledPolicy, Match, compile_policy
from ._glob import CONTROL_CHARACTERS, MAX_NAME_LENGTH, name_problem
from ._lookalike import lookalike_denial
from ._models import ModelChoice, resolve_model_with
from ._principal import TRUSTED_CONTEXT_KEYS, Principal, principal_from_context
from ._rolesfile import load_roles_file, roles_from_mapping
from ._types import DEFAULT_DENY, RESOURCE_ACTIONS, AuthzDecision, AuthzReason, PolicySet

__all__ = ["Authorizer", "Snapshot"]

_log = logging.getLogger("deerguard.authz")
_control = CONTROL_CHARACTERS.search
_PERMISSIONS = frozenset(
    (typ, action) for typ, actions in RESOURCE_ACTIONS.items() for action in actions
)
_DEFAULT_REASONS = {
    (typ, action): (
        AuthzReason("default-deny", f"no rule grants {typ}:{action} to the principal's roles"),
    )
    for typ, action in _PERMISSIONS
}


class Snapshot(Protocol):
    """An immutable compiled policy: the fast path or a Casbin-backed engine."""

    policy: PolicySet
    roles: frozenset[str]

    def decide(
        self, roles: tuple[str, ...], tenant: str, typ: str, name: str, action: str
    ) -> Match: ...


def _snapshot_for(policy: PolicySet, model_text: str | None, model_file: str) -> Snapshot:
    if model_text is None:
        return compile_policy(policy)
    from . import _engine  # casbin is imported only when a Casbin model is in play

    model = _engine.load_model(model_text, file=model_file)
    if _engine.is_canonical_model(model):
        return compile_policy(policy)
    return _engine.CasbinEngine(model_text, policy, file=model_file)


class Authorizer:
    """Decide what a :class:`Principal` may do with models, sandboxes, tools, MCP servers, skills.

    Build with :meth:`from_file`, :meth:`from_mapping` or :meth:`from_casbin`. Checks are
    deny-by-default and deny-wins. ``fail_closed=True`` (the default) turns any engine error
    into a deny with ``source="error"``; ``fail_closed=False`` turns it into an allow and
    logs a warning on ``logging.getLogger("deerguard.authz")``. A principal role the policy
    does not define raises :class:`~deerguard.errors.ConfigError` (a deployment mistake).

    >>> authz = Authorizer.from_mapping({"roles": {"user": {"tools": {"allow": ["web_*"]}}}})
    >>> authz.authorize(Principal(roles=("user",)), "tool", "web_search", "call").allow
    True
    """

    __slots__ = ("_fail_closed", "_loader", "_snapshot")

    def __init__(
        self, loader: Callable[[], Snapshot], /, *, fail_closed: bool = True
    ) -> None:
        if not isinstance(fail_closed, bool):
            raise ConfigError(f"fail_closed must be a bool, got {type(fail_closed).__name__}")
        self._loader = loader
        self._fail_closed = fail_closed
        self._snapshot: Snapshot = loader()
        if not fail_closed:
            _log.warning("deerguard authorizer is FAIL-OPEN: engine errors will allow requests")

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_file(cls, path: str | Path, /, *, fail_closed: bool = True) -> Authorizer:
        """Load a roles file (``.yaml``/``.yml``/``.toml``); :meth:`reload` re-reads it.

        Raises :class:`~deerguard.errors.PolicyError` (file, line, key, fix) for any problem.
        Example: ``Authorizer.from_file("roles.yaml")``.
        """
        name = str(path)
        return cls(lambda: compile_policy(load_roles_file(name)), fail_closed=fail_closed)

    @classmethod
    def from_mapping(
        cls, data: Mapping[str, Any], /, *, fail_closed: bool = True, name: str = "<mapping>"
    ) -> Authorizer:
        """Load roles given as a mapping in the roles-file shape (validated the same way).

        Example: ``Authorizer.from_mapping({"roles": {"user": {"tools": {"allow": "*"}}}})``.
        """
        policy = roles_from_mapping(data, name=name)
        return cls(lambda: compile_policy(policy), fail_closed=fail_closed)

    @classmethod
    def from_policy(cls, policy: PolicySet, /, *, fail_closed: bool = True) -> Authorizer:
        """Serve already-validated rows (a :class:`PolicySet`) with the shipped model."""
        return cls(lambda: compile_policy(policy), fail_closed=fail_closed)

    @classmethod
    def from_casbin(
        cls,
        model_path: str | Path | None,
        policy_path: str | Path,
        /,
        *,
        fail_closed: bool = True,
        default_role: str | None = None,
    ) -> Authorizer:
        """Load a native Casbin model and policy CSV (``model_path=None``: the shipped model).

        The model must use ``r = sub, dom, typ, obj, act`` and an allow/deny effect that
        denies by default; the shipped model is compiled to the fast path, any other model is
        answered by ``casbin.Enforcer`` itself. Rows are validated with line numbers.
        Example: ``Authorizer.from_casbin("model.conf", "policy.csv")``.
        """
        from ._casbinfile import parse_policy_csv, read_text

        def load() -> Snapshot:
            policy = parse_policy_csv(
                read_text(policy_path), file=str(policy_path), default_role=default_role
            )
            if model_path is None:
                return compile_policy(policy)
            return _snapshot_for(policy, read_text(model_path), str(model_path))

        return cls(load, fail_closed=fail_closed)

    def reload(self) -> None:
        """Rebuild the policy from its source and swap it in atomically.

        A policy that fails to load raises :class:`~deerguard.errors.PolicyError` and the
        old policy stays in force.
        """
        self._snapshot = self._loader()

    # -- properties ---------------------------------------------------------------------

    @property
    def roles(self) -> frozenset[str]:
        """Every role the current policy defines."""
        return self._snapshot.roles

    @property
    def policy(self) -> PolicySet:
        """The current validated rows and links."""
        return self._snapshot.policy

    @property
    def fail_closed(self) -> bool:
        """True unless fail-open was set explicitly."""
        return self._fail_closed

    # -- principals ---------------------------------------------------------------------

    def principal_from_context(
        self,
        context: Mapping[str, Any],
        /,
        *,
        trusted_keys: frozenset[str] = TRUSTED_CONTEXT_KEYS,
        default_role: str | None = None,
    ) -> Principal:
        """Build a principal (see :func:`principal_from_context`) and check its roles now.

        ``default_role`` defaults to the policy's ``default_role``. A role the policy does
        not define raises :class:`~deerguard.errors.ConfigError` here, at construction.
        """
        principal = principal_from_context(
            context,
            trusted_keys=trusted_keys,
            default_role=default_role if default_role is not None else self.policy.default_role,
        )
        self._check_roles(principal, self._snapshot)
        return principal

    @staticmethod
    def _check_roles(principal: Principal, snapshot: Snapshot) -> None:
        if not isinstance(principal, Principal):
            raise ConfigError(f"expected a Principal, got {type(principal).__name__}")
        if not principal.roles:
            raise ConfigError("the principal has no role; every principal needs one")
        known = snapshot.roles
        for role in principal.roles:
            if role not in known:
                raise ConfigError(
                    f"role {role!r} has no policy; known roles: {', '.join(sorted(known))}"
                )

    # -- checks -------------------------------------------------------------------------

    def authorize(
        self, principal: Principal, resource_type: str, name: str, action: str, /
    ) -> AuthzDecision:
        """Decide whether ``principal`` may ``action`` the ``resource_type`` called ``name``.

        Deny by default, deny wins, never raises for a hostile ``name`` (a non-string,
        empty, over-long or control-character name is denied). Raises ConfigError for an
        unknown resource type/action pair or an undefined role. Fails closed on engine
        errors unless built with ``fail_closed=False``.

        Example: ``authz.authorize(p, "tool", "web_search", "call").allow``.
        """
        snapshot = self._snapshot
        try:
            default_reasons = _DEFAULT_REASONS.get((resource_type, action))
        except TypeError:  # unhashable resource type or action
            default_reasons = None
        if default_reasons is None:
            raise ConfigError(
                f"unknown permission {resource_type}:{action}; known: "
                + ", ".join(f"{t}:{a}" for t, a in sorted(_PERMISSIONS))
            )
        if type(principal) is not Principal:
            self._check_roles(principal, snapshot)
        roles = principal.roles
        known = snapshot.roles
        if not roles or not known.issuperset(roles):
            self._check_roles(principal, snapshot)
        if type(name) is not str or not name or len(name) > MAX_NAME_LENGTH or _control(name):
            problem = name_problem(name) or "invalid resource name"
            return AuthzDecision._make(
                False,
                resource_type,
                name if isinstance(name, str) else repr(name),
                action,
                (AuthzReason("invalid-name", problem),),
                DEFAULT_DENY,
                "default",
            )
        try:
            match = snapshot.decide(roles, principal.tenant or "", resource_type, name, action)
            row = match.row
            if row is None and match is NO_MATCH:
                return AuthzDecision._make(
                    False, resource_type, name, action, default_reasons, DEFAULT_DENY, "default"
                )
            if match.allow is True:
                denial = lookalike_denial(snapshot, principal, resource_type, name, action)
                if denial is not None:
                    return denial
            return AuthzDecision._make(
                match.allow is True,  # only a literal True allows
                resource_type,
                name,
                action,
                match.reasons,
                match.rule,
                "policy",
                row.origin if row is not None else "",
            )
        except Exception as exc:  # the core boundary: engine failures become decisions
            return self._error_decision(resource_type, name, action, exc)

    def _error_decision(
        self, resource_type: str, name: str, action: str, exc: BaseException
    ) -> AuthzDecision:
        allow = not self._fail_closed
        if allow:
            _log.warning(
                "authorization engine error on %s:%s %r; FAIL-OPEN allows it: %s",
                resource_type, action, name, type(exc).__name__,
            )
            code, text = "engine-error-fail-open", "engine error; allowed because fail-open is set"
        else:
            _log.warning(
                "authorization engine error on %s:%s %r; denied (fail-closed): %s",
                resource_type, action, name, type(exc).__name__,
            )
            code, text = "engine-error", "engine error; denied (fail-closed)"
        return AuthzDecision(
            allow,
            resource_type,
            name,
            action,
            (AuthzReason(code, f"{text}: {type(exc).__name__}"),),
            DEFAULT_DENY,
            "error",
        )

    def filter_resources(
        self,
        principal: Principal,
        resource_type: str,
        names: Iterable[str],
        /,
        *,
        action: str | None = None,
    ) -> list[str]:
        """Return the ``names`` the principal may ``action`` (default: ``list`` if the type has
        it, else its only action), in the given order, duplicates kept, never adding any."""
        if action is None:
            known = isinstance(resource_type, str)
            actions = RESOURCE_ACTIONS.get(resource_type, ()) if known else ()
            action = "list" if "list" in actions else (actions[0] if actions else "")
        if isinstance(names, str | bytes) or not isinstance(names, Iterable):
            raise ConfigError(f"names must be a list of names, got {type(names).__name__}")
        candidates = list(names)  # a snapshot: the caller's list is never modified
        # Check the principal and the permission even when there is nothing to filter.
        self.authorize(principal, resource_type, "-", action)
        authorize = self.authorize
        return [n for n in candidates if authorize(principal, resource_type, n, action).allow]

    def explain(
        self, principal: Principal, resource_type: str, name: str, action: str, /
    ) -> str:
        """Return a human-readable account of a decision: the answer and every matching row."""
        from ._explain import explain_text

        snapshot = self._snapshot
        decision = self.authorize(principal, resource_type, name, action)
        custom = not isinstance(snapshot, CompiledPolicy)
        return explain_text(snapshot.policy, principal, decision, custom_model=custom)

    # -- tools and models ---------------------------------------------------------------

    def visible_tools(self, principal: Principal, tools: Sequence[Any], /) -> list[Any]:
        """Keep the tools the principal may see (``tool:list``), in order, before the model
        sees them. A tool is a name, a mapping with ``"name"`` (or OpenAI's
        ``{"function": {"name": ...}}``), or an object with a ``.name``; a tool whose name
        cannot be read is dropped (fail closed)."""
        visible = []
        for tool in list(tools):
            name = _tool_name(tool)
            if name is not None and self.authorize(principal, "tool", name, "list").allow:
                visible.append(tool)
        return visible

    def authorize_tool_call(
        self, principal: Principal, name: str, args: Any = None, /
    ) -> AuthzDecision:
        """Check one tool call (``tool:call``) at execution time, whatever the model saw.

        ``args`` is accepted for argument-aware policies; the shipped model does not look at
        it, and it is never parsed, so hostile arguments cannot raise."""
        return self.authorize(principal, "tool", name, "call")

    def resolve_model(
        self,
        principal: Principal,
        requested: str,
        candidates: Sequence[str],
        /,
        *,
        fail_closed: bool = True,
    ) -> ModelChoice:
        """Return the model to use: ``requested`` if ``model:use`` allows it, else the first
        candidate that is visible (``model:list``) *and* re-verified with ``model:use``.

        With no usable fallback, raises :class:`~deerguard.errors.AuthorizationError` when
        ``fail_closed`` (the default), or keeps ``requested`` (logged) when not.
        """
        return resolve_model_with(self, principal, requested, candidates, fail_closed=fail_closed)


def _tool_name(tool: Any) -> str | None:
    if isinstance(tool, str):
        return tool
    if isinstance(tool, Mapping):
        name = tool.get("name")
        if name is None and isinstance(tool.get("function"), Mapping):
            name = tool["function"].get("name")
        return name if isinstance(name, str) else None
    name = getattr(tool, "name", None)
    return name if isinstance(name, str) else None

