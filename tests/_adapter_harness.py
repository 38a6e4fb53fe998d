"""One driver per adapter for the shared contract suite (test support, not collected).

Each driver runs a real framework (LangChain ``create_agent`` with a scripted fake chat
model, the OpenAI Agents SDK ``Runner`` with its ``ScriptedModel``, an MCP server and client
over the SDK's in-memory transport, the deer-flow provider called as deer-flow calls it) with
one real tool, ``echo``, and reports what the framework saw: whether the tool ran and the text
the model received for the call.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Literal

import anyio

FailMode = Literal["closed", "open"]


@dataclass(frozen=True)
class Observed:
    """What one guarded tool call looked like from the framework's side."""

    ran: bool
    text: str


class Driver:
    """Base driver: ``call`` (sync path), ``acall`` (async path), ``visible`` (tool list)."""

    name = "base"
    supports_visibility = True
    supports_result_hooks = True

    def call(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        raise NotImplementedError

    def acall(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        raise NotImplementedError

    def visible(self, guards: list[object], names: list[str]) -> list[str]:
        raise NotImplementedError


class NeutralDriver(Driver):
    name = "neutral"

    def _run(
        self, guards: list[object], text: str, fail_mode: FailMode, use_async: bool
    ) -> Observed:
        from deerguard.adapters.hooks import GuardChain, HookContext, ToolCall, ToolResult

        ran: list[str] = []
        chain = GuardChain(guards, fail_mode=fail_mode)
        call = ToolCall("echo", {"text": text}, call_id="c1")

        def execute(c: ToolCall) -> ToolResult:
            ran.append(c.args["text"])
            return ToolResult(f"echo:{c.args['text']}")

        async def aexecute(c: ToolCall) -> ToolResult:
            return execute(c)

        if use_async:
            out = asyncio.run(chain.arun_tool(HookContext(), call, aexecute))
        else:
            out = chain.run_tool(HookContext(), call, execute)
        shown = out.result.content if out.result is not None else out.decision.message
        return Observed(bool(ran), str(shown))

    def call(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        return self._run(guards, text, fail_mode, False)

    def acall(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        return self._run(guards, text, fail_mode, True)

    def visible(self, guards: list[object], names: list[str]) -> list[str]:
        from deerguard.adapters.hooks import GuardChain, HookContext, ToolSpec

        kept = GuardChain(guards).filter_tools(HookContext(), [ToolSpec(n) for n in names])
        return [spec.name for spec in kept]


class LangChainDriver(Driver):
    name = "langchain"

    def _agent(self, guards: list[object], names: list[str], text: str, fail_mode: FailMode) -> Any:
        from _lc_fakes import scripted, tool_call
        from langchain.agents import create_agent
        from langchain_core.tools import StructuredTool

        from deerguard.adapters.langchain import DeerguardMiddleware

        ran: list[str] = []

        def make(name: str) -> Any:
            def run(text: str) -> str:
                ran.append(text)
                return f"{name}:{text}"

            return StructuredTool.from_function(run, name=name, description=f"{name} tool")

        model = scripted(tool_call("echo", {"text": text}), "done")
        middleware = DeerguardMiddleware(*guards, fail_mode=fail_mode)
        agent = create_agent(model, [make(n) for n in names], middleware=[middleware])
        return agent, model, ran

    @staticmethod
    def _observed(result: dict[str, Any], ran: list[str]) -> Observed:
        from langchain_core.messages import ToolMessage

        tool_messages = [m for m in result["messages"] if isinstance(m, ToolMessage)]
        return Observed(bool(ran), str(tool_messages[-1].content))

    def call(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        agent, _, ran = self._agent(guards, ["echo"], text, fail_mode)
        return self._observed(agent.invoke({"messages": [("user", "go")]}), ran)

    def acall(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        agent, _, ran = self._agent(guards, ["echo"], text, fail_mode)
        result = asyncio.run(agent.ainvoke({"messages": [("user", "go")]}))
        return self._observed(result, ran)

    def visible(self, guards: list[object], names: list[str]) -> list[str]:
        agent, model, _ = self._agent(guards, names, "hi", "closed")
        agent.invoke({"messages": [("user", "go")]})
        # A denied model call never reaches the model: it was offered nothing.
        offered: list[str] = model.offered_tools[0] if model.offered_tools else []
        return offered


class OpenAIAgentsDriver(Driver):
    name = "openai-agents"

    def _run(
        self,
        guards: list[object],
        names: list[str],
        text: str | None,
        fail_mode: FailMode,
    ) -> Any:
        from agents import Agent, RunConfig, Runner, function_tool
        from agents.testing import ScriptedModel, assistant_message, function_call

        from deerguard.adapters.openai_agents import guard_function_tools

        ran: list[str] = []

        def make(name: str) -> Any:
            def run(text: str) -> str:
                ran.append(text)
                return f"{name}:{text}"

            return function_tool(run, name_override=name, description_override=f"{name} tool")

        steps: list[Any] = [[assistant_message("done")]]
        if text is not None:
            steps.insert(0, [function_call("echo", {"text": text}, call_id="c1")])
        model = ScriptedModel(steps)
        tools = guard_function_tools([make(n) for n in names], *guards, fail_mode=fail_mode)
        agent = Agent(name="a", model=model, tools=tools)
        return agent, model, ran, Runner, RunConfig(tracing_disabled=True)

    @staticmethod
    def _observed(model: Any, ran: list[str]) -> Observed:
        outputs = [i for i in model.calls[-1].input if i.get("type") == "function_call_output"]
        return Observed(bool(ran), str(outputs[-1]["output"]))

    def call(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        # The SDK's guardrails are async-only; Runner.run_sync is a wrapper that leaves its
        # event loop open, so the "sync" path runs the same coroutine in a fresh loop.
        return self.acall(guards, text, fail_mode)

    def acall(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        agent, model, ran, runner, config = self._run(guards, ["echo"], text, fail_mode)
        asyncio.run(runner.run(agent, "go", run_config=config))
        return self._observed(model, ran)

    def visible(self, guards: list[object], names: list[str]) -> list[str]:
        agent, model, _, runner, config = self._run(guards, names, None, "closed")
        asyncio.run(runner.run(agent, "go", run_config=config))
        return [tool.name for tool in model.calls[0].tools]


class MCPServerDriver(Driver):
    name = "mcp-server"

    def _server(self, guards: list[object], names: list[str], fail_mode: FailMode) -> Any:
        from mcp.server.mcpserver import MCPServer

        from deerguard.adapters.mcp import DeerguardServerMiddleware

        ran: list[str] = []
        middleware = DeerguardServerMiddleware(*guards, fail_mode=fail_mode, server_name="demo")
        server = MCPServer("demo", middleware=[middleware])

        def make(name: str) -> Any:
            def run(text: str) -> str:
                ran.append(text)
                return f"{name}:{text}"

            return run

        for name in names:
            server.add_tool(make(name), name=name, description=f"{name} tool")
        return server, ran

    async def _call(self, guards: list[object], text: str, fail_mode: FailMode) -> Observed:
        from mcp import Client

        server, ran = self._server(guards, ["echo"], fail_mode)
        async with Client(server) as client:
            result = await client.call_tool("echo", {"text": text})
        return Observed(bool(ran), "".join(block.text for block in result.content))

    def call(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        return anyio.run(self._call, guards, text, fail_mode)

    def acall(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        return asyncio.run(self._call(guards, text, fail_mode))

    def visible(self, guards: list[object], names: list[str]) -> list[str]:
        from mcp import Client

        async def listed() -> list[str]:
            server, _ = self._server(guards, names, "closed")
            async with Client(server) as client:
                return [tool.name for tool in (await client.list_tools()).tools]

        return anyio.run(listed)


class MCPClientDriver(MCPServerDriver):
    name = "mcp-client"

    def _plain(self, names: list[str]) -> Any:
        return self._server([], names, "closed")

    async def _call(self, guards: list[object], text: str, fail_mode: FailMode) -> Observed:
        from mcp import Client

        from deerguard.adapters.mcp import GuardedClient

        server, ran = self._plain(["echo"])
        async with Client(server) as client:
            guarded = GuardedClient(client, *guards, fail_mode=fail_mode)
            result = await guarded.call_tool("echo", {"text": text})
        return Observed(bool(ran), "".join(block.text for block in result.content))

    def visible(self, guards: list[object], names: list[str]) -> list[str]:
        from mcp import Client

        from deerguard.adapters.mcp import GuardedClient

        async def listed() -> list[str]:
            server, _ = self._plain(names)
            async with Client(server) as client:
                tools = (await GuardedClient(client, *guards).list_tools()).tools
                return [tool.name for tool in tools]

        return anyio.run(listed)


class DeerFlowDriver(Driver):
    """Calls the provider as deer-flow's GuardrailMiddleware does, then runs the tool."""

    name = "deerflow"
    supports_visibility = False  # deer-flow's provider contract only sees tool calls
    supports_result_hooks = False  # ... before they run: results never pass through it

    def _run(
        self, guards: list[object], text: str, fail_mode: FailMode, use_async: bool
    ) -> Observed:
        from deerguard.adapters.deerflow import DeerguardGuardrailProvider, GuardrailRequest

        provider = DeerguardGuardrailProvider(guards=guards, fail_closed=fail_mode == "closed")
        request = GuardrailRequest(tool_name="echo", tool_input={"text": text}, tool_call_id="c1")
        if use_async:
            decision = asyncio.run(provider.aevaluate(request))
        else:
            decision = provider.evaluate(request)
        if not decision.allow:
            return Observed(False, "; ".join(r.message for r in decision.reasons))
        return Observed(True, f"echo:{text}")

    def call(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        return self._run(guards, text, fail_mode, False)

    def acall(self, guards: list[object], text: str, fail_mode: FailMode = "closed") -> Observed:
        return self._run(guards, text, fail_mode, True)


DRIVERS: list[Driver] = [
    NeutralDriver(),
    LangChainDriver(),
    OpenAIAgentsDriver(),
    MCPServerDriver(),
    MCPClientDriver(),
    DeerFlowDriver(),
]
