"""Pieces shared by the sync and async chain runs: hook lookup, fail mode, before hooks."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

from ..errors import ConfigError
from ._values import (
    ALLOW,
    Decision,
    HookContext,
    ModelCall,
    ModelResult,
    Outcome,
    Reason,
    ToolCall,
    ToolResult,
    ToolSpec,
)

__all__ = ["HOOK_NAMES", "ChainCore", "check_guard", "guard_name"]

#: The six hooks of the contract, in the order a call meets them.
HOOK_NAMES = (
    "before_model",
    "wrap_model",
    "after_model",
    "before_tool",
    "around_tool",
    "after_tool",
)

_log = logging.getLogger("deerguard.adapters")

# (before, wrap, after, call type, result type) per kind of call.
KINDS: dict[str, tuple[str, str, str, type[Any], type[Any]]] = {
    "model": ("before_model", "wrap_model", "after_model", ModelCall, ModelResult),
    "tool": ("before_tool", "around_tool", "after_tool", ToolCall, ToolResult),
}


def check_guard(guard: object) -> None:
    """Raise ConfigError for an object with none of the six hooks (it would guard nothing)."""
    if any(hasattr(guard, h) or hasattr(guard, "a" + h) for h in HOOK_NAMES):
        return
    hint = (
        "pass its guards instead (chain.guards) or the chain itself where an adapter takes one"
        if type(guard).__name__ == "GuardChain"
        else "implement at least one of " + ", ".join(HOOK_NAMES)
    )
    raise ConfigError(f"{type(guard).__name__} object is not a guard: {hint}")


def guard_name(guard: object) -> str:
    """Return a guard's ``name`` attribute, or its class name."""
    name = getattr(guard, "name", None)
    return name if isinstance(name, str) and name else type(guard).__name__


def kept(offered: tuple[ToolSpec, ...], checked: Outcome[ModelCall]) -> tuple[ToolSpec, ...]:
    if checked.denied or checked.result is None:
        return ()
    names = {spec.name for spec in checked.result.tools}
    return tuple(spec for spec in offered if spec.name in names)


class Denied(Exception):
    """Internal: unwinds nested wrap hooks after a deny; never leaves the chain."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.message)
        self.decision = decision


class Malformed(Exception):
    """Internal: a hook returned a value of the wrong type."""


class ChainCore:
    """State and helpers of a chain; :class:`~deerguard.adapters.hooks.GuardChain` adds runs."""

    __slots__ = ()

    _guards: tuple[object, ...]
    _fail_mode: Literal["closed", "open"]
    _passthrough: tuple[type[BaseException], ...]
    _passthrough_if: Callable[[BaseException], bool] | None

    def _passes(self, exc: BaseException) -> bool:
        if isinstance(exc, self._passthrough):
            return True
        return self._passthrough_if is not None and bool(self._passthrough_if(exc))

    def _failure(self, guard: object, hook: str, exc: BaseException) -> Decision | None:
        name = guard_name(guard)
        if self._fail_mode == "open":
            _log.warning(
                "deerguard guard %s failed in %s; fail-open, skipping", name, hook, exc_info=exc
            )
            return None
        _log.warning(
            "deerguard guard %s failed in %s; fail-closed, denying", name, hook, exc_info=exc
        )
        reason = Reason(
            "deerguard.guard-error",
            f"guard {name} failed in {hook} ({type(exc).__name__}); denied (fail-closed)",
        )
        return Decision(False, (reason,), guard=name, source="error")

    @staticmethod
    def _as_deny(value: Decision, guard: object) -> Decision:
        reasons = value.reasons or (Reason("deerguard.denied", "denied by guard policy"),)
        return replace(value, allow=False, reasons=reasons, guard=value.guard or guard_name(guard))

    @staticmethod
    def _check(value: object, expected: type[Any], current: Any, guard: object) -> Any:
        """Map a before/after hook's return value to the new current value or a deny."""
        if value is None:
            return current
        if isinstance(value, Decision):
            # only a literal True allows: Decision("no") or Decision(1) from a sloppy guard deny
            return current if value.allow is True else ChainCore._as_deny(value, guard)
        if isinstance(value, expected):
            return value
        raise Malformed(f"expected None, {expected.__name__} or Decision, got {type(value)}")

    def _hooks(self, name: str) -> list[tuple[object, Any]]:
        found = []
        for guard in self._guards:
            hook = getattr(guard, name, None)
            if hook is not None:
                found.append((guard, hook))
        return found

    def _async_hooks(self, name: str, *, wrapping: bool) -> list[tuple[object, Any, bool]]:
        found: list[tuple[object, Any, bool]] = []
        for guard in self._guards:
            ahook = getattr(guard, "a" + name, None)
            if ahook is not None:
                found.append((guard, ahook, True))
                continue
            hook = getattr(guard, name, None)
            if hook is None:
                continue
            if wrapping:
                raise ConfigError(
                    f"guard {guard_name(guard)} defines {name} but not a{name}; a sync "
                    f"wrapping hook cannot wrap an async call (add async def a{name})"
                )
            found.append((guard, hook, False))
        return found

    def _before(self, kind: str, ctx: HookContext, call: Any) -> Outcome[Any]:
        before, _, _, call_t, _ = KINDS[kind]
        for guard, hook in self._hooks(before):
            try:
                call = self._check(hook(ctx, call), call_t, call, guard)
            except Exception as exc:
                if self._passes(exc):
                    raise
                denial = self._failure(guard, before, exc)
                if denial is not None:
                    return Outcome(denial)
                continue
            if isinstance(call, Decision):
                return Outcome(call)
        return Outcome(ALLOW, call)

    async def _abefore(self, kind: str, ctx: HookContext, call: Any) -> Outcome[Any]:
        before, _, _, call_t, _ = KINDS[kind]
        for guard, hook, is_async in self._async_hooks(before, wrapping=False):
            try:
                value = await hook(ctx, call) if is_async else hook(ctx, call)
                call = self._check(value, call_t, call, guard)
            except Exception as exc:
                if self._passes(exc):
                    raise
                denial = self._failure(guard, before, exc)
                if denial is not None:
                    return Outcome(denial)
                continue
            if isinstance(call, Decision):
                return Outcome(call)
        return Outcome(ALLOW, call)
