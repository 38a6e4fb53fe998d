"""The generic LangChain middleware: neutral conversion, per-run state, chain runs.

Imported only through :mod:`deerguard.adapters.langchain` (which converts a missing LangChain
into ``MissingExtraError``).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, NotRequired

from langchain.agents.middleware import AgentMiddleware, AgentState, ModelRequest
from langchain.agents.middleware.types import ModelResponse, PrivateStateAttr
from langchain_core.messages import ToolMessage
from langgraph.prebuilt.tool_node import ToolCallRequest
from langgraph.types import Command

from ..errors import ConfigError
from . import _lc_convert as cv
from ._chain import GuardChain
from ._runs import RunRegistry
from ._values import Decision, HookContext, ModelCall, ModelResult, ToolCall, ToolResult

__all__ = ["DeerguardMiddleware", "DeerguardState", "PrincipalSource"]


def _merge_runs(left: dict[str, str] | None, right: dict[str, str | None] | None) -> dict[str, str]:
    """Reducer for the run-key map: ``None`` removes a middleware's key."""
    merged = dict(left or {})
    for key, value in (right or {}).items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


class DeerguardState(AgentState[Any]):
    """Agent state plus the private per-middleware run keys (hidden from input and output)."""

    deerguard_runs: NotRequired[Annotated[dict[str, str], PrivateStateAttr, _merge_runs]]


PrincipalSource = Any | Callable[[Any], Any]


class DeerguardMiddleware(AgentMiddleware[DeerguardState, Any, Any]):
    """A LangChain ``AgentMiddleware`` that runs a chain of deerguard guards.

    Guarantees: fails closed by default (a guard error denies the call), never overrides a
    deny, never adds a tool the agent was not given, passes LangGraph interrupts through.
    ``principal`` is a value or a callable taking the run's ``context`` (trusted, server side).
    ``models`` maps model names to chat models for guards that switch models (fallback).

    >>> mw = DeerguardMiddleware(name="noop")
    >>> mw.name
    'noop'
    """

    state_schema = DeerguardState

    def __init__(
        self,
        *guards: object,
        fail_mode: Literal["closed", "open"] = "closed",
        passthrough: tuple[type[BaseException], ...] = (),
        principal: PrincipalSource = None,
        models: Mapping[str, Any] | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        if len(guards) == 1 and isinstance(guards[0], GuardChain):
            # A prepared chain: keep its guards and fail mode, add LangGraph's passthrough.
            fail_mode = guards[0].fail_mode
            guards = guards[0].guards
        self.chain = GuardChain(
            guards,
            fail_mode=fail_mode,
            passthrough=passthrough,
            passthrough_if=cv.is_control_flow,
        )
        self.tools = []
        self._principal = principal
        self._models = dict(models or {})
        self._name = name
        self._runs = RunRegistry()
        self._key = f"{type(self).__name__}:{uuid.uuid4().hex[:12]}"

    @property
    def name(self) -> str:
        """The middleware name (class name unless ``name=`` was given); must be unique."""
        return self._name or type(self).__name__

    # -- run bookkeeping ---------------------------------------------------------------------

    def before_agent(self, state: DeerguardState, runtime: Any) -> dict[str, Any] | None:
        """Start a run: give this middleware a fresh run key in the agent state."""
        return {"deerguard_runs": {self._key: uuid.uuid4().hex}}

    async def abefore_agent(self, state: DeerguardState, runtime: Any) -> dict[str, Any] | None:
        """Async :meth:`before_agent`."""
        return self.before_agent(state, runtime)

    def after_agent(self, state: DeerguardState, runtime: Any) -> dict[str, Any] | None:
        """End a run: drop its per-run state."""
        self._runs.end(self._run_key(state))
        return {"deerguard_runs": {self._key: None}}

    async def aafter_agent(self, state: DeerguardState, runtime: Any) -> dict[str, Any] | None:
        """Async :meth:`after_agent`."""
        return self.after_agent(state, runtime)

    def _run_key(self, state: Any) -> str | None:
        runs = state.get("deerguard_runs") if isinstance(state, Mapping) else None
        key = runs.get(self._key) if isinstance(runs, Mapping) else None
        return f"{self._key}/{key}" if isinstance(key, str) else None

    def _context(self, state: Any, runtime: Any, *, advance: bool) -> HookContext:
        key = self._run_key(state)
        slot = self._runs.advance(key) if advance else self._runs.slot(key)
        run_context = getattr(runtime, "context", None)
        principal = self._principal
        if callable(principal) and not isinstance(principal, type):
            principal = principal(run_context)
        info = getattr(runtime, "execution_info", None)
        thread_id = getattr(info, "thread_id", None)
        if thread_id is None and isinstance(run_context, Mapping):
            value = run_context.get("thread_id")
            thread_id = value if isinstance(value, str) else None
        return HookContext(
            step=slot.step,
            state=slot.state,
            framework="langchain",
            thread_id=thread_id,
            principal=principal,
            extra={"context": run_context},
        )

    # -- model calls -------------------------------------------------------------------------

    def _model_call(self, request: ModelRequest[Any]) -> ModelCall:
        history = cv.system_and_messages(request.system_message, request.messages)
        return ModelCall(
            messages=tuple(cv.to_message(m) for m in history),
            tools=tuple(cv.to_tool_spec(t) for t in request.tools),
            model=cv.model_name(request.model),
        )

    def _request_back(self, request: ModelRequest[Any], call: ModelCall) -> ModelRequest[Any]:
        history = cv.system_and_messages(request.system_message, request.messages)
        new_history = cv.messages_back(history, call.messages)
        overrides: dict[str, Any] = {}
        if request.system_message is not None:
            system, messages = new_history[0], new_history[1:]
            if system is not request.system_message:
                overrides["system_message"] = system
        else:
            messages = new_history
        if any(a is not b for a, b in zip(messages, request.messages, strict=True)):
            overrides["messages"] = messages
        tools = cv.tools_back(request.tools, call.tools)
        if len(tools) != len(request.tools):
            overrides["tools"] = tools
        if call.model is not None and call.model != cv.model_name(request.model):
            if call.model not in self._models:
                raise ConfigError(
                    f"a guard switched to model {call.model!r}, which this middleware cannot "
                    "build; pass models={name: chat_model} to the middleware"
                )
            overrides["model"] = self._models[call.model]
        return request.override(**overrides) if overrides else request

    @staticmethod
    def _response_back(
        response: ModelResponse[Any], original: ModelResult, result: ModelResult
    ) -> ModelResponse[Any]:
        if result is original:
            return response
        messages = cv.model_result_back(list(response.result), result)
        return ModelResponse(result=messages, structured_response=response.structured_response)

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any]:
        """Run the model hooks around the model call."""
        ctx = self._context(request.state, request.runtime, advance=True)
        seen: list[tuple[ModelResponse[Any], ModelResult]] = []

        def invoke(call: ModelCall) -> ModelResult:
            response = handler(self._request_back(request, call))
            neutral = cv.to_model_result(response.result)
            seen.append((response, neutral))
            return neutral

        outcome = self.chain.run_model(ctx, self._model_call(request), invoke)
        return self._finish_model(outcome.decision, outcome.result, seen)

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        """Async :meth:`wrap_model_call`."""
        ctx = self._context(request.state, request.runtime, advance=True)
        seen: list[tuple[ModelResponse[Any], ModelResult]] = []

        async def invoke(call: ModelCall) -> ModelResult:
            response = await handler(self._request_back(request, call))
            neutral = cv.to_model_result(response.result)
            seen.append((response, neutral))
            return neutral

        outcome = await self.chain.arun_model(ctx, self._model_call(request), invoke)
        return self._finish_model(outcome.decision, outcome.result, seen)

    def _finish_model(
        self,
        decision: Decision,
        result: ModelResult | None,
        seen: list[tuple[ModelResponse[Any], ModelResult]],
    ) -> ModelResponse[Any]:
        if not decision.allow or result is None:
            return ModelResponse(result=[cv.denied_ai_message(decision)])
        if not seen:
            # A wrapping guard answered without calling the model (a cache, a canned reply).
            return ModelResponse(result=[cv.synthetic_ai_message(result)])
        response, original = seen[-1]
        return self._response_back(response, original, result)

    # -- tool calls --------------------------------------------------------------------------

    @staticmethod
    def _tool_call(request: ToolCallRequest) -> ToolCall:
        call = request.tool_call
        metadata = getattr(request.tool, "metadata", None)
        return ToolCall(
            name=str(call.get("name") or ""),
            args=dict(call.get("args") or {}),
            call_id=call.get("id"),
            metadata=dict(metadata) if isinstance(metadata, Mapping) else {},
        )

    @staticmethod
    def _tool_request_back(request: ToolCallRequest, call: ToolCall) -> ToolCallRequest:
        if dict(call.args) == dict(request.tool_call.get("args") or {}):
            return request
        return request.override(tool_call={**request.tool_call, "args": dict(call.args)})

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Run the tool hooks around the tool execution."""
        ctx = self._context(request.state, request.runtime, advance=False)
        seen: list[ToolMessage | Command[Any]] = []
        call_id = str(request.tool_call.get("id") or "")

        def execute(call: ToolCall) -> ToolResult:
            raw = handler(self._tool_request_back(request, call))
            seen.append(raw)
            return _neutral_tool_result(raw, call_id)

        outcome = self.chain.run_tool(ctx, self._tool_call(request), execute)
        return _finish_tool(request, outcome.decision, outcome.result, seen)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async :meth:`wrap_tool_call`."""
        ctx = self._context(request.state, request.runtime, advance=False)
        seen: list[ToolMessage | Command[Any]] = []
        call_id = str(request.tool_call.get("id") or "")

        async def execute(call: ToolCall) -> ToolResult:
            raw = await handler(self._tool_request_back(request, call))
            seen.append(raw)
            return _neutral_tool_result(raw, call_id)

        outcome = await self.chain.arun_tool(ctx, self._tool_call(request), execute)
        return _finish_tool(request, outcome.decision, outcome.result, seen)


def _command_message(raw: Command[Any], call_id: str) -> tuple[int, ToolMessage] | None:
    """Locate the tool message a ``Command`` adds to ``update["messages"]`` (the one answering
    ``call_id``, else the last one): (index in the list, message)."""
    update = raw.update
    value = update.get("messages") if isinstance(update, Mapping) else None
    if not isinstance(value, (list, tuple)):
        return None  # create_agent's ToolNode accepts message updates only in this form
    found: tuple[int, ToolMessage] | None = None
    for index, message in enumerate(value):
        if isinstance(message, ToolMessage):
            found = (index, message)
            if message.tool_call_id == call_id:
                break
    return found


def _neutral_tool_result(raw: ToolMessage | Command[Any], call_id: str) -> ToolResult:
    if isinstance(raw, ToolMessage):
        return cv.to_tool_result(raw)
    # A Command updates graph state directly. The tool message it adds to the history is
    # what the model will read, so the guards see (and may rewrite) that message; other
    # state keys are the tool's own business and pass unchanged.
    located = _command_message(raw, call_id)
    if located is None:
        return ToolResult(content="", metadata={"deerguard_command": True})
    result = cv.to_tool_result(located[1])
    return ToolResult(content=result.content, status=result.status,
                      metadata={**result.metadata, "deerguard_command": True})


def _command_back(raw: Command[Any], call_id: str, result: ToolResult) -> Command[Any]:
    """``raw`` with its tool message carrying the guards' content, status and metadata."""
    located = _command_message(raw, call_id)
    if located is None:
        return raw
    index, message = located
    metadata = {k: v for k, v in result.metadata.items() if k != "deerguard_command"}
    neutral = ToolResult(content=result.content, status=result.status, metadata=metadata)
    replaced = cv.tool_message_back(message, neutral)
    if replaced is message:
        return raw
    update: Any = raw.update  # a Mapping: _command_message checked it
    items = list(update["messages"])
    items[index] = replaced
    new_update = {**update, "messages": items}
    return dataclasses.replace(raw, update=new_update)


def _finish_tool(
    request: ToolCallRequest,
    decision: Decision,
    result: ToolResult | None,
    seen: Sequence[ToolMessage | Command[Any]],
) -> ToolMessage | Command[Any]:
    if not decision.allow or result is None:
        return cv.denied_tool_message(request.tool_call, decision)
    if not seen:
        # A wrapping guard answered without running the tool (a cache, a dry run).
        return ToolMessage(
            content=result.content,
            tool_call_id=str(request.tool_call.get("id") or ""),
            name=str(request.tool_call.get("name") or ""),
            status=result.status,
            response_metadata=dict(result.metadata),
        )
    raw = seen[-1]
    if isinstance(raw, ToolMessage):
        return cv.tool_message_back(raw, result)
    return _command_back(raw, str(request.tool_call.get("id") or ""), result)
