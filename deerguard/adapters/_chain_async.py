"""The async half of the guard chain (same order and fail mode as the sync runs)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ._chain_base import KINDS, ChainCore, Denied, Malformed
from ._values import ALLOW, Decision, HookContext, Outcome

__all__ = ["AsyncRuns"]


class AsyncRuns(ChainCore):
    """``_arun``: before hooks, nested async wrapping hooks, after hooks in reverse."""

    __slots__ = ()

    async def _arun(
        self, kind: str, ctx: HookContext, call: Any, invoke: Callable[[Any], Awaitable[Any]]
    ) -> Outcome[Any]:
        _, wrap, after, _, result_t = KINDS[kind]
        wrappers = self._async_hooks(wrap, wrapping=True)
        checked = await self._abefore(kind, ctx, call)
        if checked.denied or checked.result is None:
            return Outcome(checked.decision)
        call = checked.result
        denied: list[Decision] = []
        try:
            result = await self._alayer(0, wrappers, wrap, ctx, call, invoke, result_t, denied)
        except Denied as stop:
            return Outcome(stop.decision)
        if denied:
            return Outcome(denied[0])
        for guard, hook, is_async in reversed(self._async_hooks(after, wrapping=False)):
            try:
                value = await hook(ctx, call, result) if is_async else hook(ctx, call, result)
                result = self._check(value, result_t, result, guard)
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

    async def _alayer(
        self,
        index: int,
        wrappers: list[tuple[object, Any, bool]],
        hook_name: str,
        ctx: HookContext,
        call: Any,
        invoke: Callable[[Any], Awaitable[Any]],
        result_t: type[Any],
        denied: list[Decision],
    ) -> Any:
        if index == len(wrappers):
            return await invoke(call)
        guard, hook, _ = wrappers[index]
        downstream: list[BaseException] = []
        produced: list[Any] = []

        async def inner(next_call: Any) -> Any:
            return await self._alayer(
                index + 1, wrappers, hook_name, ctx, next_call, invoke, result_t, denied
            )

        async def proceed(next_call: Any) -> Any:
            try:
                out = await inner(next_call)
            except BaseException as exc:
                downstream.append(exc)
                raise
            produced.append(out)
            return out

        try:
            value = await hook(ctx, call, proceed)
        except Exception as exc:
            if any(exc is d for d in downstream) or self._passes(exc):
                raise
            denial = self._failure(guard, hook_name, exc)
            if denial is not None:
                denied.append(denial)
                raise Denied(denial) from exc
            return produced[-1] if produced else await inner(call)
        if isinstance(value, Decision) and value.allow is not True:
            decision = self._as_deny(value, guard)
            denied.append(decision)
            raise Denied(decision)
        if isinstance(value, result_t):
            return value
        denial = self._failure(guard, hook_name, Malformed(f"{hook_name} returned {type(value)}"))
        if denial is not None:
            denied.append(denial)
            raise Denied(denial)
        return produced[-1] if produced else await inner(call)
