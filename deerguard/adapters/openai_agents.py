"""OpenAI Agents SDK guardrails running deerguard guards (extra ``openai-agents``).

One line per surface::

    agent = Agent(name="a", tools=guard_function_tools(tools, SandboxAudit(audit=log.append)))
    agent = Agent(name="a", input_guardrails=[model_guardrail(Authorization(authz))], ...)
    server = MCPServerStdio(params, tool_filter=mcp_tool_filter(Authorization(authz)))

- :func:`tool_guardrail` returns a ``ToolInputGuardrail`` that runs the guards' ``before_tool``
  hooks; a deny rejects the call with ``ToolGuardrailFunctionOutput.reject_content`` and the
  reason, so the model reads why and can adapt.
- :func:`model_guardrail` returns a non-parallel ``InputGuardrail`` (it runs before the model
  is called) that runs the ``before_model`` hooks; a deny (e.g. a model the principal may not
  use) trips the wire and the SDK raises ``InputGuardrailTripwireTriggered``.
- :func:`mcp_tool_filter` returns an MCP ``tool_filter`` that hides the tools the guards hide;
  :func:`guard_function_tools` applies both visibility and the call guardrail to function tools.

The SDK's guardrails can check and reject but not rewrite, so rewriting hooks (sanitizing tool
results) are not run here. Fail mode is the chain's: closed by default.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, Literal

try:
    from agents import (
        Agent,
        FunctionTool,
        GuardrailFunctionOutput,
        InputGuardrail,
        RunContextWrapper,
        ToolGuardrailFunctionOutput,
        ToolInputGuardrail,
    )
    from agents.tool_guardrails import ToolInputGuardrailData
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from ..errors import MissingExtraError

    raise MissingExtraError("openai-agents", exc.name or "agents") from exc

from ._chain import GuardChain
from ._values import Decision, HookContext, Message, ModelCall, ToolCall, ToolSpec

__all__ = [
    "guard_function_tools",
    "mcp_tool_filter",
    "model_guardrail",
    "tool_guardrail",
]

FailMode = Literal["closed", "open"]


def _chain(guards: Sequence[object], fail_mode: FailMode) -> GuardChain:
    if len(guards) == 1 and isinstance(guards[0], GuardChain):
        return guards[0]
    return GuardChain(guards, fail_mode=fail_mode)


def _context(run_context: Any, principal: Any) -> HookContext:
    user_context = getattr(run_context, "context", None)
    if callable(principal) and not isinstance(principal, type):
        principal = principal(user_context)
    return HookContext(
        framework="openai-agents", principal=principal, extra={"context": user_context}
    )


def _reject_text(name: str, decision: Decision) -> str:
    return f"deerguard blocked tool '{name}': {decision.summary}"


def tool_guardrail(
    *guards: object,
    principal: Any = None,
    fail_mode: FailMode = "closed",
    name: str = "deerguard_tool_guardrail",
) -> ToolInputGuardrail[Any]:
    """Return a tool input guardrail that rejects calls the guards deny, saying why.

    Fails closed: arguments that are not a JSON object, a guard error (unless
    ``fail_mode="open"``) and a deny all reject the call; the tool never runs.

    >>> guardrail = tool_guardrail()
    >>> guardrail.get_name()
    'deerguard_tool_guardrail'
    """
    chain = _chain(guards, fail_mode)

    async def check(data: ToolInputGuardrailData) -> ToolGuardrailFunctionOutput:
        tool_context = data.context
        tool_name = str(tool_context.tool_name)
        try:
            args = json.loads(tool_context.tool_arguments or "{}")
        except ValueError:
            args = None
        if not isinstance(args, dict):
            decision = Decision.deny(
                "deerguard.bad-arguments", "tool arguments are not a JSON object"
            )
            return ToolGuardrailFunctionOutput.reject_content(
                _reject_text(tool_name, decision), output_info=decision.to_dict()
            )
        call = ToolCall(
            name=tool_name,
            args=args,
            call_id=tool_context.tool_call_id,
            metadata={"namespace": tool_context.tool_namespace}
            if tool_context.tool_namespace
            else {},
        )
        outcome = await chain.acheck_tool(_context(tool_context, principal), call)
        if outcome.denied:
            return ToolGuardrailFunctionOutput.reject_content(
                _reject_text(tool_name, outcome.decision), output_info=outcome.decision.to_dict()
            )
        return ToolGuardrailFunctionOutput.allow(output_info=outcome.decision.to_dict())

    return ToolInputGuardrail(guardrail_function=check, name=name)


def _messages(items: str | list[Any]) -> tuple[Message, ...]:
    if isinstance(items, str):
        return (Message("user", items),)
    messages = []
    for item in items:
        if isinstance(item, dict) and "role" in item:
            messages.append(Message(str(item["role"]), item.get("content", "")))
    return tuple(messages)


def _model_name(agent: Any) -> str | None:
    model = getattr(agent, "model", None)
    if isinstance(model, str):
        return model
    name = getattr(model, "model", None)
    return name if isinstance(name, str) else None


def model_guardrail(
    *guards: object,
    principal: Any = None,
    fail_mode: FailMode = "closed",
    name: str = "deerguard_model_guardrail",
) -> InputGuardrail[Any]:
    """Return a non-parallel input guardrail that trips when the guards deny the model call.

    It runs before the agent's first model call (``run_in_parallel=False``), so a model the
    principal may not use is never called. A guard that would switch to a fallback model also
    trips (the SDK cannot swap the model from a guardrail): choose the model up front with
    ``Authorizer.resolve_model`` and build the agent with it.
    """
    chain = _chain(guards, fail_mode)

    async def check(
        run_context: RunContextWrapper[Any], agent: Agent[Any], items: str | list[Any]
    ) -> GuardrailFunctionOutput:
        requested = _model_name(agent)
        call = ModelCall(messages=_messages(items), tools=(), model=requested)
        outcome = await chain.acheck_model(_context(run_context, principal), call)
        decision = outcome.decision
        if not outcome.denied and outcome.result is not None and outcome.result.model != requested:
            decision = Decision.deny(
                "deerguard.model-switch",
                f"model {requested!r} is not usable; a guard chose {outcome.result.model!r}",
            )
        return GuardrailFunctionOutput(
            output_info=decision.to_dict(), tripwire_triggered=not decision.allow
        )

    return InputGuardrail(guardrail_function=check, name=name, run_in_parallel=False)


def mcp_tool_filter(
    *guards: object, principal: Any = None, fail_mode: FailMode = "closed"
) -> Callable[[Any, Any], Any]:
    """Return an MCP ``tool_filter`` keeping the tools the guards leave visible.

    Each tool is offered as ``ToolSpec(name, description, metadata={"mcp": True,
    "mcp_server": server_name})``; a guard error hides the tool (fail closed).
    """
    chain = _chain(guards, fail_mode)

    async def keep(filter_context: Any, tool: Any) -> bool:
        spec = ToolSpec(
            name=str(getattr(tool, "name", "")),
            description=str(getattr(tool, "description", "") or ""),
            metadata={"mcp": True, "mcp_server": getattr(filter_context, "server_name", None)},
        )
        ctx = _context(getattr(filter_context, "run_context", None), principal)
        return bool(await chain.afilter_tools(ctx, [spec]))

    return keep


def guard_function_tools(
    tools: Iterable[FunctionTool],
    /,
    *guards: object,
    principal: Any = None,
    fail_mode: FailMode = "closed",
) -> list[FunctionTool]:
    """Return copies of ``tools`` with deerguard visibility and call checks attached.

    Each copy keeps its own ``is_enabled`` condition and adds the guards' visibility filter
    (a tool hidden by a guard is not offered to the model) and :func:`tool_guardrail` in
    front of its existing input guardrails. The originals are not modified.
    """
    chain = _chain(guards, fail_mode)
    guardrail = tool_guardrail(chain, principal=principal)
    guarded = []
    for tool in tools:
        guarded.append(
            replace(
                tool,
                is_enabled=_enabled(tool, chain, principal),
                tool_input_guardrails=[guardrail, *(tool.tool_input_guardrails or [])],
            )
        )
    return guarded


def _enabled(tool: FunctionTool, chain: GuardChain, principal: Any) -> Callable[..., Any]:
    previous = tool.is_enabled
    spec = ToolSpec(name=tool.name, description=tool.description or "")

    async def enabled(run_context: RunContextWrapper[Any], agent: Any) -> bool:
        if callable(previous):
            verdict = previous(run_context, agent)
            if hasattr(verdict, "__await__"):
                verdict = await verdict
            if not verdict:
                return False
        elif not previous:
            return False
        return bool(await chain.afilter_tools(_context(run_context, principal), [spec]))

    return enabled
