"""LangChain <-> neutral value conversions (imported only by ``deerguard.adapters.langchain``).

Only plain values cross into the chain: role, content, names, arguments, metadata dicts.
Mapping back never adds anything the framework did not already have: a tool list can only
shrink, a message list keeps its length and order and only its content may change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage

from ..errors import ConfigError
from ._values import Decision, Message, ModelResult, ToolCall, ToolResult, ToolSpec

__all__ = [
    "CONTROL_FLOW_NAMES",
    "denied_ai_message",
    "denied_tool_message",
    "is_control_flow",
    "messages_back",
    "model_name",
    "synthetic_ai_message",
    "to_message",
    "to_model_result",
    "to_tool_result",
    "to_tool_spec",
    "tool_message_back",
    "tools_back",
]

#: LangGraph control-flow exception classes, matched by name anywhere in the MRO so that an
#: interrupt raised inside a tool (``GraphInterrupt``, ``NodeInterrupt``, ``ParentCommand``,
#: all ``GraphBubbleUp``) is never turned into a deny.
CONTROL_FLOW_NAMES = frozenset(
    {"GraphBubbleUp", "GraphInterrupt", "NodeInterrupt", "ParentCommand"}
)

_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


def is_control_flow(exc: BaseException) -> bool:
    """True when ``exc`` is a LangGraph control-flow signal (name check over the MRO)."""
    return any(cls.__name__ in CONTROL_FLOW_NAMES for cls in type(exc).__mro__)


def to_message(message: BaseMessage) -> Message:
    """Return the neutral view of a LangChain message."""
    role = _ROLES.get(message.type, message.type)
    return Message(role=role, content=message.content, name=message.name)


def messages_back(
    originals: Sequence[BaseMessage], neutral: Sequence[Message]
) -> list[BaseMessage]:
    """Return ``originals`` with the contents a guard rewrote (same length and order)."""
    if len(originals) != len(neutral):
        raise ConfigError(
            f"a guard changed the number of messages ({len(originals)} -> {len(neutral)}); "
            "guards may rewrite message content but not add or drop messages"
        )
    out: list[BaseMessage] = []
    for original, new in zip(originals, neutral, strict=True):
        if new.content is original.content or new.content == original.content:
            out.append(original)
        else:
            out.append(original.model_copy(update={"content": new.content}))
    return out


def to_tool_spec(tool: Any) -> ToolSpec:
    """Return the neutral view of a bound tool (a ``BaseTool`` or a provider tool dict)."""
    if isinstance(tool, Mapping):
        function = tool.get("function")
        name = tool.get("name")
        if name is None and isinstance(function, Mapping):
            name = function.get("name")
        return ToolSpec(name=str(name or ""), description=str(tool.get("description") or ""))
    metadata = getattr(tool, "metadata", None)
    return ToolSpec(
        name=str(getattr(tool, "name", "")),
        description=str(getattr(tool, "description", "") or ""),
        metadata=dict(metadata) if isinstance(metadata, Mapping) else {},
    )


def tools_back(originals: Sequence[Any], kept: Sequence[ToolSpec]) -> list[Any]:
    """Return the original tools whose names survived the guards, in their original order."""
    names = {spec.name for spec in kept}
    return [tool for tool in originals if to_tool_spec(tool).name in names]


def model_name(model: Any) -> str | None:
    """Return a chat model's model name (``model_name``, ``model``, ``model_id``), if any."""
    for attr in ("model_name", "model", "model_id", "deployment_name"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    return None


def _last_ai(result: Sequence[BaseMessage]) -> int | None:
    for index in range(len(result) - 1, -1, -1):
        if isinstance(result[index], AIMessage):
            return index
    return None


def to_model_result(result: Sequence[BaseMessage]) -> ModelResult:
    """Return the neutral view of a model response (its last AI message)."""
    index = _last_ai(result)
    if index is None:
        return ModelResult(content="")
    message = result[index]
    assert isinstance(message, AIMessage)
    calls = tuple(
        ToolCall(name=c["name"], args=dict(c.get("args") or {}), call_id=c.get("id"))
        for c in message.tool_calls
    )
    return ModelResult(content=message.content, tool_calls=calls)


def model_result_back(result: list[BaseMessage], neutral: ModelResult) -> list[BaseMessage]:
    """Return ``result`` with the last AI message's content and kept tool calls applied."""
    index = _last_ai(result)
    if index is None:
        return result
    message = result[index]
    assert isinstance(message, AIMessage)
    kept_ids = {c.call_id for c in neutral.tool_calls}
    calls = [c for c in message.tool_calls if c.get("id") in kept_ids]
    if neutral.content == message.content and len(calls) == len(message.tool_calls):
        return result
    updated = message.model_copy(update={"content": neutral.content, "tool_calls": calls})
    return [*result[:index], updated, *result[index + 1 :]]


def denied_ai_message(decision: Decision) -> AIMessage:
    """Return the assistant message that replaces a denied model call."""
    return AIMessage(
        content=f"Request blocked by deerguard: {decision.summary}",
        response_metadata={"deerguard_decision": decision.to_dict()},
    )


def synthetic_ai_message(result: ModelResult) -> AIMessage:
    """Return an assistant message built from a neutral result no model produced."""
    calls = [
        {"name": c.name, "args": dict(c.args), "id": c.call_id, "type": "tool_call"}
        for c in result.tool_calls
    ]
    return AIMessage(content=result.content, tool_calls=calls)


def to_tool_result(message: ToolMessage) -> ToolResult:
    """Return the neutral view of a tool message (``response_metadata`` is its metadata)."""
    status: Literal["success", "error"] = "error" if message.status == "error" else "success"
    return ToolResult(
        content=message.content, status=status, metadata=dict(message.response_metadata)
    )


def tool_message_back(message: ToolMessage, neutral: ToolResult) -> ToolMessage:
    """Return ``message`` with the content, status and metadata the guards produced."""
    if (
        neutral.content == message.content
        and neutral.status == message.status
        and dict(neutral.metadata) == message.response_metadata
    ):
        return message
    return message.model_copy(
        update={
            "content": neutral.content,
            "status": neutral.status,
            "response_metadata": dict(neutral.metadata),
        }
    )


def denied_tool_message(call: Mapping[str, Any], decision: Decision) -> ToolMessage:
    """Return the error tool message that replaces a denied tool call, saying why."""
    name = str(call.get("name") or "unknown_tool")
    return ToolMessage(
        content=f"deerguard blocked tool '{name}': {decision.summary}",
        tool_call_id=str(call.get("id") or ""),
        name=name,
        status="error",
        response_metadata={"deerguard_decision": decision.to_dict()},
    )


def system_and_messages(
    system: SystemMessage | None, messages: Sequence[BaseMessage]
) -> list[BaseMessage]:
    """Return the full history the model sees, system message first."""
    return [system, *messages] if system is not None else list(messages)
