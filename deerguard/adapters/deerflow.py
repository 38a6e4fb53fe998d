"""A deer-flow guardrail provider backed by deerguard (no extra: deer-flow is not imported).

deer-flow loads guardrail providers by class path and calls them before every tool call.
One block of its ``config.yaml``::

    guardrails:
      enabled: true
      provider:
        use: deerguard.adapters.deerflow:DeerguardGuardrailProvider
        config:
          roles_file: config/roles.yaml      # authorization (tool:call, mcp_server:connect)
          shell_policy: config/shell.toml    # optional; the shipped default otherwise
          shell_tools: [bash]

The provider has deer-flow's shape (``name``, ``evaluate(request)``, ``aevaluate(request)``)
and answers with decisions shaped like deer-flow's ``GuardrailDecision`` (``allow``,
``reasons`` of ``code`` and ``message``, ``policy_id``, ``metadata``). The dataclasses here
mirror deer-flow's ``GuardrailRequest`` / ``GuardrailReason`` / ``GuardrailDecision`` field for
field, so the provider also works outside deer-flow; it reads requests by attribute, so
deer-flow's own request objects work unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ._chain import GuardChain
from ._values import Decision, HookContext, ToolCall

__all__ = [
    "DeerguardGuardrailProvider",
    "GuardrailDecision",
    "GuardrailReason",
    "GuardrailRequest",
]

#: Request fields deer-flow fills from its server-owned runtime context; they become the
#: trusted context the principal is built from (never the tool input).
_IDENTITY_FIELDS = (
    "user_id",
    "user_role",
    "oauth_provider",
    "oauth_id",
    "channel_user_id",
    "is_internal",
    "authz_attributes",
)


@dataclass
class GuardrailRequest:
    """deer-flow's per-tool-call request (mirrored field for field)."""

    tool_name: str
    tool_input: dict[str, Any]
    agent_id: str | None = None
    thread_id: str | None = None
    is_subagent: bool = False
    timestamp: str = ""
    user_id: str | None = None
    user_role: str | None = None
    oauth_provider: str | None = None
    oauth_id: str | None = None
    run_id: str | None = None
    tool_call_id: str | None = None
    channel_user_id: str | None = None
    is_internal: bool = False
    authz_attributes: dict[str, Any] = field(default_factory=dict)


@dataclass
class GuardrailReason:
    """deer-flow's structured reason: a stable code and a message."""

    code: str
    message: str = ""


@dataclass
class GuardrailDecision:
    """deer-flow's allow/deny verdict."""

    allow: bool
    reasons: list[GuardrailReason] = field(default_factory=list)
    policy_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


def _default_guards(
    roles_file: str | None,
    shell_policy: str | None,
    shell_tools: Sequence[str],
    command_arg: str,
    default_role: str | None,
) -> list[object]:
    from ..shell import load_policy
    from ._guard_shell import SandboxAudit

    policy = load_policy(shell_policy) if shell_policy is not None else None
    guards: list[object] = [
        SandboxAudit(policy=policy, tool_names=shell_tools, command_arg=command_arg)
    ]
    if roles_file is not None:
        from ..authz import Authorizer
        from ._guard_authz import Authorization

        guards.append(Authorization(Authorizer.from_file(roles_file), default_role=default_role))
    return guards


class DeerguardGuardrailProvider:
    """deer-flow ``GuardrailProvider`` running deerguard's shell classifier and authorization.

    Guarantees: fails closed (a guard error is a deny with code ``deerguard.guard-error``)
    unless ``fail_closed=False``; the principal comes only from the identity fields deer-flow
    fills from its server-owned context, never from tool input. Configuration mistakes (a bad
    roles file or shell policy) raise ``PolicyError`` at construction, when deer-flow loads it.

    >>> provider = DeerguardGuardrailProvider(guards=[])
    >>> provider.evaluate(GuardrailRequest(tool_name="ls", tool_input={})).allow
    True
    """

    name = "deerguard"
    policy_id = "deerguard"

    def __init__(
        self,
        *,
        roles_file: str | None = None,
        shell_policy: str | None = None,
        shell_tools: Sequence[str] = ("bash",),
        command_arg: str = "command",
        default_role: str | None = None,
        guards: Sequence[object] | None = None,
        fail_closed: bool = True,
        policy_id: str | None = None,
    ) -> None:
        if guards is None:
            guards = _default_guards(
                roles_file, shell_policy, tuple(shell_tools), command_arg, default_role
            )
        self.chain = GuardChain(guards, fail_mode="closed" if fail_closed else "open")
        if policy_id is not None:
            self.policy_id = policy_id

    def _inputs(self, request: Any) -> tuple[HookContext, ToolCall]:
        context = {key: getattr(request, key, None) for key in _IDENTITY_FIELDS}
        context = {key: value for key, value in context.items() if value is not None}
        thread_id = getattr(request, "thread_id", None)
        tool_input = getattr(request, "tool_input", None)
        call = ToolCall(
            name=str(getattr(request, "tool_name", "") or ""),
            args=dict(tool_input) if isinstance(tool_input, dict) else {},
            call_id=getattr(request, "tool_call_id", None),
        )
        ctx = HookContext(
            framework="deerflow",
            thread_id=thread_id if isinstance(thread_id, str) else None,
            extra={"context": context, "request": request},
        )
        return ctx, call

    def _decision(self, decision: Decision) -> GuardrailDecision:
        reasons = [GuardrailReason(code=r.code, message=r.message) for r in decision.reasons]
        if decision.allow and not reasons:
            reasons = [GuardrailReason(code="deerguard.allowed")]
        return GuardrailDecision(
            allow=decision.allow,
            reasons=reasons,
            policy_id=self.policy_id,
            metadata={"guard": decision.guard, "source": decision.source},
        )

    def evaluate(self, request: Any) -> GuardrailDecision:
        """Decide whether the tool call in ``request`` may run."""
        ctx, call = self._inputs(request)
        return self._decision(self.chain.check_tool(ctx, call).decision)

    async def aevaluate(self, request: Any) -> GuardrailDecision:
        """Async :meth:`evaluate`."""
        ctx, call = self._inputs(request)
        return self._decision((await self.chain.acheck_tool(ctx, call)).decision)
