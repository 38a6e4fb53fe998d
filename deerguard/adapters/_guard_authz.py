"""``Authorization``: the chain member over :class:`deerguard.authz.Authorizer`.

Three checks, one engine: tool visibility before each model call (``tool:list``, plus
``mcp_server:connect`` for MCP tools), each tool call at execution (``tool:call``, plus
``mcp_server:connect``), and the model (``model:use`` with fallback to a candidate that is
both visible and usable). The principal comes only from trusted places: the value the adapter
was given, or the server-owned keys of the framework's run context.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..authz import Authorizer, AuthzDecision, Principal
from ..errors import AuthorizationError, ConfigError
from ._values import Decision, HookContext, ModelCall, Reason, ToolCall

__all__ = ["Authorization"]


def _deny(decision: AuthzDecision) -> Decision:
    reasons = tuple(Reason(f"authz.{r.code}", r.message) for r in decision.reasons)
    return Decision(
        False, reasons or (Reason("authz.denied", decision.rule),), guard="authorization"
    )


def _mcp_server(metadata: Any) -> str | None:
    server = metadata.get("mcp_server") if hasattr(metadata, "get") else None
    return server if isinstance(server, str) and server else None


def _as_mapping(context: Any) -> Any:
    """A run context as a mapping: dicts as they are, dataclass and pydantic contexts dumped."""
    if isinstance(context, Mapping):
        return context
    if dataclasses.is_dataclass(context) and not isinstance(context, type):
        return {f.name: getattr(context, f.name) for f in dataclasses.fields(context)}
    dump = getattr(context, "model_dump", None)
    if callable(dump):
        return dump()
    return context


class Authorization:
    """Authorize tools (visibility and calls), MCP servers and the model for the principal.

    Guarantees: deny by default and deny wins (the Authorizer's policy); visibility only
    removes tools; a denied model falls back only to a candidate that passes ``model:list``
    and ``model:use``, and with none the model call is denied; a missing or unknown principal
    is a guard error, so the chain fails closed. A model whose name the adapter cannot read
    (``None``) is not checked. A run context may be a mapping, a dataclass or a pydantic
    model; only its server-owned keys are read (``principal_from_context``).

    >>> # Authorization(Authorizer.from_file("roles.yaml"), fallback_models=["gpt-4o-mini"])
    """

    name = "authorization"

    def __init__(
        self,
        authorizer: Authorizer,
        /,
        *,
        principal: Principal | Callable[[HookContext], Principal] | None = None,
        default_role: str | None = None,
        fallback_models: Sequence[str] = (),
        check_model: bool = True,
    ) -> None:
        if not isinstance(authorizer, Authorizer):
            raise ConfigError(f"expected an Authorizer, got {type(authorizer).__name__}")
        self.authorizer = authorizer
        self._principal = principal
        self._default_role = default_role
        self._fallbacks = tuple(fallback_models)
        self._check_model = check_model

    def principal(self, ctx: HookContext) -> Principal:
        """Return the principal for this call (adapter value, configured value, or context)."""
        if isinstance(ctx.principal, Principal):
            return ctx.principal
        if isinstance(self._principal, Principal):
            return self._principal
        if callable(self._principal):
            return self._principal(ctx)
        context = _as_mapping(ctx.extra.get("context"))
        if isinstance(context, Mapping):
            return self.authorizer.principal_from_context(context, default_role=self._default_role)
        raise ConfigError(
            "Authorization has no principal: pass principal= to the guard or the adapter, "
            "or run the agent with a context holding the server-owned user_role"
        )

    def _visible(self, principal: Principal, call: ModelCall) -> tuple[Any, ...]:
        kept = []
        for tool in call.tools:
            if not self.authorizer.authorize(principal, "tool", tool.name, "list").allow:
                continue
            server = _mcp_server(tool.metadata)
            if (
                server is not None
                and not self.authorizer.authorize(principal, "mcp_server", server, "connect").allow
            ):
                continue
            kept.append(tool)
        return tuple(kept)

    def before_model(self, ctx: HookContext, call: ModelCall) -> ModelCall | Decision | None:
        """Hide tools the principal may not see; check the model, falling back if allowed."""
        principal = self.principal(ctx)
        tools = self._visible(principal, call)
        model = call.model
        if self._check_model and model is not None:
            try:
                choice = self.authorizer.resolve_model(principal, model, self._fallbacks)
            except AuthorizationError as exc:
                return Decision.deny("authz.model-denied", str(exc), guard=self.name)
            if choice.fell_back:
                ctx.state.setdefault("deerguard.model_fallbacks", []).append(choice.to_dict())
            model = choice.model
        if len(tools) == len(call.tools) and model == call.model:
            return None
        return replace(call, tools=tools, model=model)

    def before_tool(self, ctx: HookContext, call: ToolCall) -> Decision | None:
        """Check ``tool:call`` (and ``mcp_server:connect`` for MCP tools) for this call."""
        principal = self.principal(ctx)
        server = _mcp_server(call.metadata)
        if server is not None:
            decision = self.authorizer.authorize(principal, "mcp_server", server, "connect")
            if not decision.allow:
                return _deny(decision)
        decision = self.authorizer.authorize_tool_call(principal, call.name, dict(call.args))
        return None if decision.allow else _deny(decision)
