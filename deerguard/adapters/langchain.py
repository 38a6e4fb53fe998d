"""LangChain 1.x middleware running deerguard guards (extra ``langchain``).

One line::

    agent = create_agent(model, tools, middleware=deerguard_middleware(authorizer=authz))

Each middleware pulls plain values out of the ``ModelRequest`` / ``ToolCallRequest``, runs its
:class:`~deerguard.adapters.hooks.GuardChain` (sync via ``wrap_model_call`` /
``wrap_tool_call``, async via ``awrap_model_call`` / ``awrap_tool_call``) and maps the outcome
back: a denied tool call becomes an error ``ToolMessage`` that says why (the agent can adapt),
a denied model call becomes an assistant message, rewrites replace message content, tool
visibility can only shrink. LangGraph interrupts (``GraphBubbleUp`` and subclasses) pass
through unchanged. Guard metadata lands in ``ToolMessage.response_metadata``.
"""

from __future__ import annotations

try:
    import langchain.agents.middleware  # noqa: F401
    import langchain_core.messages  # noqa: F401
    import langgraph.prebuilt.tool_node  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from ..errors import MissingExtraError

    raise MissingExtraError("langchain", exc.name or "langchain") from exc

from ._lc_middleware import DeerguardMiddleware, DeerguardState
from ._lc_stack import (
    AuthorizationMiddleware,
    InputSanitizationMiddleware,
    SandboxAuditMiddleware,
    ToolReceiptMiddleware,
    ToolResultSanitizationMiddleware,
    deerguard_middleware,
)

__all__ = [
    "AuthorizationMiddleware",
    "DeerguardMiddleware",
    "DeerguardState",
    "InputSanitizationMiddleware",
    "SandboxAuditMiddleware",
    "ToolReceiptMiddleware",
    "ToolResultSanitizationMiddleware",
    "deerguard_middleware",
]
