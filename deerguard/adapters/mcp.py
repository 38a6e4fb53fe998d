"""MCP (python-sdk 2.x) server middleware and client proxy running deerguard guards (extra ``mcp``).

Server side, one line::

    server = MCPServer("files", middleware=[DeerguardServerMiddleware(Authorization(authz))])

:class:`DeerguardServerMiddleware` is a context-tier ``ServerMiddleware``: on ``tools/list`` it
removes the tools the guards hide; on ``tools/call`` it runs the tool hooks around the handler,
so a denied call never reaches the tool and returns ``isError: true`` with the reason, and a
rewritten result (sanitized text) replaces the tool's content blocks. Other methods pass.

Client side, :class:`GuardedClient` wraps an ``mcp.Client`` (or ``ClientSession``): its
``list_tools`` hides tools and its ``call_tool`` checks calls before they leave the process and
rewrites results before the agent sees them. Every other attribute is the wrapped client's.

Tools are presented to guards with ``metadata={"mcp": True, "mcp_server": name}``, so remote
content guards treat every MCP tool as untrusted. Structured content (``structuredContent``)
reaches guards as the result's ``metadata["structured_content"]``, so result sanitization
covers it as well as the ``content`` blocks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any, Literal

try:
    from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
    from mcp.types import CallToolResult, ListToolsResult, TextContent
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from ..errors import MissingExtraError

    raise MissingExtraError("mcp", exc.name or "mcp") from exc

from ._chain import GuardChain
from ._guard_sanitize import STRUCTURED_KEY
from ._values import Decision, HookContext, ToolCall, ToolResult, ToolSpec

__all__ = ["DeerguardServerMiddleware", "GuardedClient"]

FailMode = Literal["closed", "open"]


def _chain(guards: Sequence[object], fail_mode: FailMode) -> GuardChain:
    if len(guards) == 1 and isinstance(guards[0], GuardChain):
        return guards[0]
    return GuardChain(guards, fail_mode=fail_mode)


def _as_model(value: Any, model: type[Any]) -> Any:
    if isinstance(value, model):
        return value
    return model.model_validate(value)


def _spec(tool: Any, server: str | None) -> ToolSpec:
    return ToolSpec(
        name=str(getattr(tool, "name", "")),
        description=str(getattr(tool, "description", "") or ""),
        metadata={"mcp": True, "mcp_server": server},
    )


def _blocks(result: CallToolResult) -> list[dict[str, Any]]:
    return [block.model_dump(by_alias=True, exclude_none=True) for block in result.content]


def _to_neutral(result: CallToolResult) -> ToolResult:
    metadata = {}
    if result.structured_content is not None:
        metadata[STRUCTURED_KEY] = result.structured_content
    return ToolResult(
        content=_blocks(result),
        status="error" if result.is_error else "success",
        metadata=metadata,
    )


def _back(original: CallToolResult | None, result: ToolResult) -> CallToolResult:
    content = result.content
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    data: dict[str, Any] = {"content": content, "isError": result.status == "error"}
    structured = result.metadata.get(STRUCTURED_KEY)
    if structured is not None:
        data["structuredContent"] = structured
    if (
        original is not None
        and content == _blocks(original)
        and (result.status == "error") == bool(original.is_error)
        and structured == original.structured_content
    ):
        return original
    return CallToolResult.model_validate(data)


def _denied(name: str, decision: Decision) -> CallToolResult:
    return CallToolResult(
        content=[
            TextContent(type="text", text=f"deerguard blocked tool '{name}': {decision.summary}")
        ],
        is_error=True,
    )


class DeerguardServerMiddleware:
    """An MCP ``ServerMiddleware`` that filters ``tools/list`` and guards ``tools/call``.

    Guarantees: fails closed (a guard error denies the call, hides the tool); never lists a
    tool the server did not list; a denied call never runs. ``principal`` is a value or a
    callable taking the request context (derive identity from the authenticated transport,
    never from request params).
    """

    def __init__(
        self,
        *guards: object,
        principal: Any = None,
        fail_mode: FailMode = "closed",
        server_name: str | None = None,
    ) -> None:
        self.chain = _chain(guards, fail_mode)
        self._principal = principal
        self._server_name = server_name

    def _context(self, ctx: Any) -> HookContext:
        principal = self._principal
        if callable(principal) and not isinstance(principal, type):
            principal = principal(ctx)
        return HookContext(framework="mcp", principal=principal, extra={"request": ctx})

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        """Guard ``tools/list`` and ``tools/call``; pass every other message through."""
        if ctx.method == "tools/list":
            listed = _as_model(await call_next(ctx), ListToolsResult)
            specs = [_spec(tool, self._server_name) for tool in listed.tools]
            kept = {spec.name for spec in await self.chain.afilter_tools(self._context(ctx), specs)}
            filtered: ListToolsResult = listed.model_copy(
                update={"tools": [t for t in listed.tools if t.name in kept]}
            )
            return filtered
        if ctx.method != "tools/call" or not isinstance(ctx.params, dict):
            return await call_next(ctx)
        params = ctx.params
        name = str(params.get("name", ""))
        arguments = params.get("arguments") or {}
        if not isinstance(arguments, dict):
            return await call_next(ctx)  # the SDK rejects malformed params itself
        seen: list[CallToolResult] = []

        async def execute(call: ToolCall) -> ToolResult:
            next_ctx = ctx
            if dict(call.args) != arguments:
                next_ctx = replace(ctx, params={**params, "arguments": dict(call.args)})
            raw = _as_model(await call_next(next_ctx), CallToolResult)
            seen.append(raw)
            return _to_neutral(raw)

        call = ToolCall(
            name=name,
            args=arguments,
            call_id=None if ctx.request_id is None else str(ctx.request_id),
            metadata={"mcp": True, "mcp_server": self._server_name},
        )
        outcome = await self.chain.arun_tool(self._context(ctx), call, execute)
        if outcome.denied or outcome.result is None:
            return _denied(name, outcome.decision)
        return _back(seen[-1] if seen else None, outcome.result)


class GuardedClient:
    """A client-side proxy that guards an MCP client's ``list_tools`` and ``call_tool``.

    >>> # async with Client(server) as client:
    >>> #     guarded = GuardedClient(client, Authorization(authz), principal=p)
    >>> #     await guarded.call_tool("read_file", {"path": "a.txt"})
    """

    def __init__(
        self,
        client: Any,
        /,
        *guards: object,
        principal: Any = None,
        fail_mode: FailMode = "closed",
        server_name: str | None = None,
    ) -> None:
        self._client = client
        self.chain = _chain(guards, fail_mode)
        self._principal = principal
        self._server_name = server_name

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def _context(self) -> HookContext:
        principal = self._principal
        if callable(principal) and not isinstance(principal, type):
            principal = principal(self._client)
        return HookContext(framework="mcp-client", principal=principal)

    async def list_tools(self, *args: Any, **kwargs: Any) -> ListToolsResult:
        """List the server's tools, minus those the guards hide."""
        listed = _as_model(await self._client.list_tools(*args, **kwargs), ListToolsResult)
        specs = [_spec(tool, self._server_name) for tool in listed.tools]
        kept = {spec.name for spec in await self.chain.afilter_tools(self._context(), specs)}
        result: ListToolsResult = listed.model_copy(
            update={"tools": [t for t in listed.tools if t.name in kept]}
        )
        return result

    async def call_tool(
        self, name: str, arguments: dict[str, Any] | None = None, *args: Any, **kwargs: Any
    ) -> CallToolResult:
        """Call a tool through the guards: a denied call is answered locally with the reason."""
        seen: list[CallToolResult] = []
        send: Callable[..., Awaitable[Any]] = self._client.call_tool

        async def execute(call: ToolCall) -> ToolResult:
            raw = _as_model(await send(call.name, dict(call.args), *args, **kwargs), CallToolResult)
            seen.append(raw)
            return _to_neutral(raw)

        call = ToolCall(
            name=name,
            args=arguments or {},
            metadata={"mcp": True, "mcp_server": self._server_name},
        )
        outcome = await self.chain.arun_tool(self._context(), call, execute)
        if outcome.denied or outcome.result is None:
            return _denied(name, outcome.decision)
        return _back(seen[-1] if seen else None, outcome.result)
