"""The framework-neutral hook contract and the chain that runs guards in a pinned order.

A guard is any object with some of six hooks (a missing hook is skipped)::

    before_model(ctx, call: ModelCall)                -> None | ModelCall | Decision
    wrap_model(ctx, call, proceed)                    -> ModelResult | Decision
    after_model(ctx, call, result: ModelResult)       -> None | ModelResult | Decision
    before_tool(ctx, call: ToolCall)                  -> None | ToolCall | Decision
    around_tool(ctx, call, proceed)                   -> ToolResult | Decision
    after_tool(ctx, call, result: ToolResult)         -> None | ToolResult | Decision

``None`` (or an allowing ``Decision``) means "continue unchanged", a returned call or result
replaces the current one, a denying ``Decision`` stops the call. For async runs a guard may add
``abefore_model``, ``awrap_model``, ... coroutines; otherwise its sync hooks are used (a sync
``wrap_model``/``around_tool`` cannot wrap an async call, so those need their async twin).

Order, pinned: ``before_*`` in registration order (the first deny short-circuits); ``wrap_*`` /
``around_*`` nested with the first registered guard outermost; ``after_*`` in reverse order.

Fail mode: closed by default, so a guard that raises or returns a malformed value turns the call
into a deny (``source="error"``). ``fail_mode="open"`` skips the failing hook instead and logs a
warning. A deny is never overridden, not even by an outer wrapping guard that swallows it.
Exceptions raised by the framework's own model or tool propagate unchanged, and so do the
exception types a framework uses for control flow (interrupts): pass them as ``passthrough=``
or ``passthrough_if=``.
"""

from __future__ import annotations

from ._chain import GuardChain, guard_name
from ._chain_base import HOOK_NAMES
from ._values import (
    Decision,
    HookContext,
    Message,
    ModelCall,
    ModelResult,
    Outcome,
    Reason,
    ToolCall,
    ToolResult,
    ToolSpec,
)

__all__ = [
    "HOOK_NAMES",
    "Decision",
    "GuardChain",
    "HookContext",
    "Message",
    "ModelCall",
    "ModelResult",
    "Outcome",
    "Reason",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
    "guard_name",
]
