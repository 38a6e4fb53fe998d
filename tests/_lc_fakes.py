"""An offline LangChain chat model that replays scripted AI messages (test support).

It is LangChain's own ``GenericFakeChatModel`` plus ``bind_tools`` (which records the tool
names the agent offered) and a record of every message history it was sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field


class ScriptedChatModel(GenericFakeChatModel):
    """Replays ``script`` (AI messages, tool calls included) and records what it saw."""

    model_name: str | None = None
    offered_tools: list[list[str]] = Field(default_factory=list)
    histories: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        self.offered_tools.append([convert_to_openai_tool(t)["function"]["name"] for t in tools])
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.histories.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def scripted(*steps: AIMessage | str, model_name: str | None = None) -> ScriptedChatModel:
    """Return a fake model answering with ``steps`` in order."""
    return ScriptedChatModel(messages=iter(steps), model_name=model_name)


def tool_call(name: str, args: dict[str, Any], call_id: str = "call_1") -> AIMessage:
    """Return an AI message proposing one tool call."""
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])
