"""The guard chain: runs hooks in the pinned order and owns the fail mode (see ``hooks``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Literal

from ..errors import ConfigError
from ._chain_async import AsyncRuns
from ._chain_base import KINDS, Denied, Malformed, check_guard, guard_name, kept
from ._values import (
    ALLOW,
    Decision,
    HookContext,
    ModelCall,
    ModelResult,
    Outcome,
    ToolCall,
    ToolResult,
    ToolSpec,
)

__all__ = ["GuardChain", "guard_name"]


class GuardChain(AsyncRuns):
    """Run guards around model and tool calls in the pinned order, owning the fail mode.

    Guarantees: ``before_*`` hooks run in registration order and the first deny wins;
    wrapping hooks nest first-outermost; ``after_*`` hooks run in reverse; a guard error is a
    deny unless ``fail_mode="open"``; framework exceptions and ``passthrough`` types propagate.

    >>> chain = GuardChain([])
    >>> out = chain.run_tool(HookContext(), ToolCall("echo", {"x": 1}), lambda c: ToolResult("ok"))
    >>> (out.decision.allow, out.result.content)
    (True, 'ok')
    """

    __slots__ = ("_fail_mode", "_guards", "_passthrough", "_passthrough_if")

    def __init__(
        self,
        guards: Iterable[object] = (),
        *,
        fail_mode: Literal["closed", "open"] = "closed",
        passthrough: tuple[type[BaseException], ...] = (),
        passthrough_if: Callable[[BaseException], bool] | None = None,
    ) -> None:
        if fail_mode not in ("closed", "open"):
            raise ConfigError(f"fail_mode must be 'closed' or 'open', got {fail_mode!r}")
        if not isinstance(passthrough, tuple) or not all(
            isinstance(t, type) and issubclass(t, BaseException) for t in passthrough
        ):
            raise ConfigError("passthrough must be a tuple of exception classes")
        self._guards: tuple[object, ...] = tuple(guards)
        for guard in self._guards:
            # A hook-less object would silently guard nothing: a fail-open mistake.
            check_guard(guard)
        self._fail_mode: Literal["closed", "open"] = fail_mode
        self._passthrough = passthrough
        self._passthrough_if = passthrough_if

    @property
    def guards(self) -> tuple[object, ...]:
        """The registered guards, in registration order."""
        return self._guards

    @property
    def fail_mode(self) -> Literal["closed", "open"]:
        """``"closed"`` (default) or ``"open"``."""
        return self._fail_mode

    def extended(self, *guards: object) -> GuardChain:
        """Return a new chain with ``guards`` registered after the current ones."""
        return GuardChain(
            (*self._guards, *guards),
            fail_mode=self._fail_mode,
            passthrough=self._passthrough,
            passthrough_if=self._passthrough_if,
        )

    # -- public runs -------------------------------------------------------------------------

    def run_model(
        self, ctx: HookContext, call: ModelCall, invoke: Callable[[ModelCall], ModelResult]
    ) -> Outcome[ModelResult]:
        """Run the model hooks around ``invoke`` (the framework's model call)."""
        return self._run("model", ctx, call, invoke)

    def run_tool(
        self, ctx: HookContext, call: ToolCall, execute: Callable[[ToolCall], ToolResult]
    ) -> Outcome[ToolResult]:
        """Run the tool hooks around ``execute`` (the framework's tool execution)."""
        return self._run("tool", ctx, call, execute)

    async def arun_model(
        self,
        ctx: HookContext,
        call: ModelCall,
        invoke: Callable[[ModelCall], Awaitable[ModelResult]],
    ) -> Outcome[ModelResult]:
        """Async :meth:`run_model`: async hooks are awaited, sync ones are called."""
        return await self._arun("model", ctx, call, invoke)

    async def arun_tool(
        self,
        ctx: HookContext,
        call: ToolCall,
        execute: Callable[[ToolCall], Awaitable[ToolResult]],
    ) -> Outcome[ToolResult]:
        """Async :meth:`run_tool`."""
        return await self._arun("tool", ctx, call, execute)

    def check_model(self, ctx: HookContext, call: ModelCall) -> Outcome[ModelCall]:
        """Run only the ``before_model`` hooks: the (rewritten) call, or a deny."""
        return self._before("model", ctx, call)

    def check_tool(self, ctx: HookContext, call: ToolCall) -> Outcome[ToolCall]:
        """Run only the ``before_tool`` hooks: for frameworks that check a call up front."""
        return self._before("tool", ctx, call)

    async def acheck_model(self, ctx: HookContext, call: ModelCall) -> Outcome[ModelCall]:
        """Async :meth:`check_model`."""
        return await self._abefore("model", ctx, call)

    async def acheck_tool(self, ctx: HookContext, call: ToolCall) -> Outcome[ToolCall]:
        """Async :meth:`check_tool`."""
        return await self._abefore("tool", ctx, call)

    def filter_tools(self, ctx: HookContext, tools: Iterable[ToolSpec]) -> tuple[ToolSpec, ...]:
        """Return the tools the ``before_model`` hooks leave visible, in input order.

        Never adds a tool (the result is a subset of ``tools``); a deny hides every tool.
        """
        offered = tuple(tools)
        checked = self._before("model", ctx, ModelCall(messages=(), tools=offered))
        return kept(offered, checked)

    async def afilter_tools(
        self, ctx: HookContext, tools: Iterable[ToolSpec]
    ) -> tuple[ToolSpec, ...]:
        """Async :meth:`filter_tools`."""
        offered = tuple(tools)
        checked = await self._abefore("model", ctx, ModelCall(messages=(), tools=offered))
        return kept(offered, checked)

    # -- sync --------------------------------------------------------------------------------

    def _run(
        self, kind: str, ctx: HookContext, call: Any, invoke: Callable[[Any], Any]
    ) -> Outcome[Any]:
        _, wrap, after, _, result_t = KINDS[kind]
        checked = self._before(kind, ctx, call)
        if checked.denied or checked.result is None:
            return Outcome(checked.decision)
        call = checked.result
        wrappers = self._hooks(wrap)
        denied: list[Decision] = []
        try:
            result = self._layer(0, wrappers, wrap, ctx, call, invoke, result_t, denied)
        except Denied as stop:
            return Outcome(stop.decision)
        if denied:
            return Outcome(denied[0])
        for guard, hook in reversed(self._hooks(after)):
            try:
                result = self._check(hook(ctx, call, result), result_t, result, guard)
            except Exception as exc:
                if self._passes(exc):
                    raise
                denial = self._failure(guard, after, exc)
                if denial is not None:
                    return Outcome(denial)
                continue
            if isinstance(result, Decision):
                return Outcome(result)
        return Outcome(ALLOW, result)

    def _layer(
        self,
        index: int,
        wrappers: list[tuple[object, Any]],
        hook_name: str,
        ctx: HookContext,
        call: Any,
        invoke: Callable[[Any], Any],
        result_t: type[Any],
        denied: list[Decision],
    ) -> Any:
        if index == len(wrappers):
            return invoke(call)
        guard, hook = wrappers[index]
        downstream: list[BaseException] = []
        produced: list[Any] = []

        def proceed(next_call: Any) -> Any:
            try:
                out = self._layer(
                    index + 1, wrappers, hook_name, ctx, next_call, invoke, result_t, denied
                )
            except BaseException as exc:
                downstream.append(exc)
                raise
            produced.append(out)
            return out

        try:
            value = hook(ctx, call, proceed)
        except Exception as exc:
            if any(exc is d for d in downstream) or self._passes(exc):
                raise
            return self._wrap_failure(
                guard,
                hook_name,
                exc,
                produced,
                denied,
                lambda: self._layer(
                    index + 1, wrappers, hook_name, ctx, call, invoke, result_t, denied
                ),
            )
        return self._wrap_value(
            guard,
            hook_name,
            value,
            result_t,
            produced,
            denied,
            lambda: self._layer(
                index + 1, wrappers, hook_name, ctx, call, invoke, result_t, denied
            ),
        )

    def _wrap_failure(
        self,
        guard: object,
        hook_name: str,
        exc: BaseException,
        produced: list[Any],
        denied: list[Decision],
        fallback: Callable[[], Any],
    ) -> Any:
        denial = self._failure(guard, hook_name, exc)
        if denial is not None:
            denied.append(denial)
            raise Denied(denial) from exc
        # Fail-open: behave as if the guard were absent.
        return produced[-1] if produced else fallback()

    def _wrap_value(
        self,
        guard: object,
        hook_name: str,
        value: object,
        result_t: type[Any],
        produced: list[Any],
        denied: list[Decision],
        fallback: Callable[[], Any],
    ) -> Any:
        if isinstance(value, Decision) and value.allow is not True:
            decision = self._as_deny(value, guard)
            denied.append(decision)
            raise Denied(decision)
        if isinstance(value, result_t):
            return value
        return self._wrap_failure(
            guard,
            hook_name,
            Malformed(f"{hook_name} returned {type(value)}"),
            produced,
            denied,
            fallback,
        )
