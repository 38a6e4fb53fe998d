"""OpenAI Agents SDK integration running deerguard guards (extra ``openai-agents``).

One line per surface::

    agent = Agent(name="a", tools=guard_function_tools(tools, SandboxAudit(), Authorization(a)))
    agent = Agent(name="a", input_guardrails=[model_guardrail(Authorization(authz))], ...)
    config = RunConfig(call_model_input_filter=model_input_filter(InputSanitization()))
    server = MCPServerStdio(params, tool_filter=mcp_tool_filter(Authorization(authz)))

- :func:`guard_function_tools` hides tools the guards hide and runs the whole tool chain
  (``before_tool``, ``around_tool``, ``after_tool``) around the SDK's own invoker: a denied call
  returns the reason to the model without running; sanitizing, receipts and warnings apply.
- :func:`tool_guardrail` is the same call check as a standalone ``ToolInputGuardrail``: a deny
  is ``ToolGuardrailFunctionOutput.reject_content`` with the reason, so the model can adapt.
- :func:`model_guardrail` is a non-parallel ``InputGuardrail`` (it runs before the model is
  called) over the ``before_model`` hooks; a deny (a model the principal may not use) trips the
  wire and the SDK raises ``InputGuardrailTripwireTriggered``.
- :func:`model_input_filter` runs the ``before_model`` hooks before every model call and may
  rewrite the input (``InputSanitization`` over every user turn).
- :func:`mcp_tool_filter` is an MCP ``tool_filter`` hiding the tools the guards hide.

Tool hooks share one state dict per run (anchored on the run's ``usage`` object) and see the
number of model calls so far as ``ctx.step``. Fail mode is the chain's: closed by default.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
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
    from agents.run_config import CallModelData, ModelInputData
    from agents.tool_guardrails import ToolInputGuardrailData
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from ..errors import MissingExtraError

    raise MissingExtraError("openai-agents", exc.name or "agents") from exc

from ..errors import AuthorizationError, ConfigError
from ._chain import GuardChain
from ._runs import ObjectRuns, RunSlot
from ._values import Decision, HookContext, Message, ModelCall, ToolCall, ToolResult, ToolSpec

__all__ = [
    "guard_function_tools",
    "mcp_tool_filter",
    "model_guardrail",
    "model_input_filter",
    "tool_guardrail",
]

FailMode = Literal["closed", "open"]


def _chain(guards: Sequence[object], fail_mode: FailMode) -> GuardChain:
    if len(guards) == 1 and isinstance(guards[0], GuardChain):
        return guards[0]
    return GuardChain(guards, fail_mode=fail_mode)


def _context(run_context: Any, principal: Any, runs: ObjectRuns | None = None) -> HookContext:
    user_context = getattr(run_context, "context", None)
    if callable(principal) and not isinstance(principal, type):
        principal = principal(user_context)
    # The run's ``usage`` object is shared by every tool context of one run: it anchors the
    # per-run state, and its request count is the step (model calls so far).
    usage = getattr(run_context, "usage", None)
    slot = runs.slot(usage) if runs is not None else RunSlot()
    requests = getattr(usage, "requests", 0)
    return HookContext(
        step=requests if isinstance(requests, int) else 0,
        state=slot.state,
        framework="openai-agents",
        principal=principal,
        extra={"context": user_context},
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
    runs = ObjectRuns()

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
        outcome = await chain.acheck_tool(_context(tool_context, principal, runs), call)
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


_TEXT_PARTS = ("input_text", "output_text")


def _neutral_content(content: Any) -> Any:
    if not isinstance(content, list):
        return content
    return [
        {"type": "text", "text": part.get("text", "")}
        if isinstance(part, dict) and part.get("type") in _TEXT_PARTS
        else part
        for part in content
    ]


def _content_back(original: Any, neutral: Any) -> Any:
    if not isinstance(original, list) or not isinstance(neutral, list):
        return neutral
    return [
        {**old, "text": new["text"]}
        if isinstance(old, dict) and old.get("type") in _TEXT_PARTS and isinstance(new, dict)
        else old
        for old, new in zip(original, neutral, strict=True)
    ]


def model_input_filter(
    *guards: object, principal: Any = None, fail_mode: FailMode = "closed"
) -> Callable[[CallModelData[Any]], Awaitable[ModelInputData]]:
    """Return a ``RunConfig(call_model_input_filter=...)`` running the ``before_model`` hooks.

    Runs before every model call on the whole input the model will see, so rewriting guards
    (``InputSanitization``) apply to every user turn of the history. A deny, or a guard that
    would switch the model, raises :class:`~deerguard.errors.AuthorizationError` (the SDK has
    no softer way to stop a run from a filter) and the model is not called.
    """
    chain = _chain(guards, fail_mode)

    async def apply(data: CallModelData[Any]) -> ModelInputData:
        items: list[Any] = list(data.model_data.input)
        slots = [
            i
            for i, item in enumerate(items)
            if isinstance(item, dict) and isinstance(item.get("role"), str) and "content" in item
        ]
        messages = tuple(
            Message(str(items[i]["role"]), _neutral_content(items[i]["content"])) for i in slots
        )
        requested = _model_name(data.agent)
        call = ModelCall(messages=messages, tools=(), model=requested)
        outcome = await chain.acheck_model(_context(data, principal), call)
        if outcome.denied or outcome.result is None:
            raise AuthorizationError(f"deerguard denied the model call: {outcome.decision.summary}")
        result = outcome.result
        if result.model != requested:
            raise AuthorizationError(
                f"model {requested!r} is not usable; a guard chose {result.model!r} (choose the "
                "model up front with Authorizer.resolve_model)"
            )
        if len(result.messages) != len(messages):
            raise ConfigError("a guard changed the number of messages sent to the model")
        for index, old, new in zip(slots, messages, result.messages, strict=True):
            if new.content is not old.content:
                original = items[index]
                items[index] = {
                    **original,
                    "content": _content_back(original["content"], new.content),
                }
        return ModelInputData(input=items, instructions=data.model_data.instructions)

    return apply


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
    """Return copies of ``tools`` with the whole guard chain around each invocation.

    Each copy hides itself when a guard hides it (its own ``is_enabled`` still applies) and
    runs ``before_tool`` / ``around_tool`` / ``after_tool`` around the SDK's own invoker, so
    a denied call returns the reason to the model without running, and rewriting guards
    (result sanitization, receipts, shell warnings) apply to the output. The SDK's failure
    handling, timeouts and guardrails still wrap the call. The originals are not modified.
    """
    chain = _chain(guards, fail_mode)
    runs = ObjectRuns()
    return [
        replace(
            tool,
            is_enabled=_enabled(tool, chain, principal),
            on_invoke_tool=_guarded_invoke(tool, chain, principal, runs),
        )
        for tool in tools
    ]


def _guarded_invoke(
    tool: FunctionTool, chain: GuardChain, principal: Any, runs: ObjectRuns
) -> Callable[[Any, str], Awaitable[Any]]:
    original = tool.on_invoke_tool

    async def invoke(tool_context: Any, args_json: str) -> Any:
        try:
            args = json.loads(args_json or "{}")
        except ValueError:
            args = None
        if not isinstance(args, dict):
            decision = Decision.deny(
                "deerguard.bad-arguments", "tool arguments are not a JSON object"
            )
            return _reject_text(tool.name, decision)

        async def execute(call: ToolCall) -> ToolResult:
            raw = args_json if dict(call.args) == args else json.dumps(dict(call.args))
            return ToolResult(await original(tool_context, raw))

        call = ToolCall(
            name=tool.name, args=args, call_id=getattr(tool_context, "tool_call_id", None)
        )
        outcome = await chain.arun_tool(_context(tool_context, principal, runs), call, execute)
        if outcome.denied or outcome.result is None:
            return _reject_text(tool.name, outcome.decision)
        return outcome.result.content

    return invoke


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
