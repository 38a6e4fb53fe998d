"""deerguard.adapters: the framework-neutral hook contract, guard members and adapters.

This package imports no agent framework. The framework adapters are opt-in modules, each
importing its framework at the top (a missing extra raises ``MissingExtraError`` naming the
``pip install 'deerguard[<extra>]'`` line):

* ``deerguard.adapters.langchain`` (extra ``langchain``): ``AgentMiddleware`` classes;
* ``deerguard.adapters.openai_agents`` (extra ``openai-agents``): tool/input guardrails, MCP
  tool filter;
* ``deerguard.adapters.mcp`` (extra ``mcp``): server middleware and a client proxy;
* ``deerguard.adapters.deerflow`` (no extra): a deer-flow guardrail provider.
"""

from __future__ import annotations

from ._guard_authz import Authorization
from ._guard_receipts import ToolReceipts
from ._guard_sanitize import InputSanitization, ToolResultSanitization
from ._guard_shell import SandboxAudit
from .hooks import (
    HOOK_NAMES,
    Decision,
    GuardChain,
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
    "Authorization",
    "Decision",
    "GuardChain",
    "HookContext",
    "InputSanitization",
    "Message",
    "ModelCall",
    "ModelResult",
    "Outcome",
    "Reason",
    "SandboxAudit",
    "ToolCall",
    "ToolReceipts",
    "ToolResult",
    "ToolResultSanitization",
    "ToolSpec",
]
