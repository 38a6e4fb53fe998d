"""The named LangChain middlewares (one per guard) and the recommended stack."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware

from ..authz import Authorizer
from ..provenance import Receipt
from ..sanitize import DEFAULT_REMOTE_TOOLS, TagProfile
from ..shell import ShellPolicy, load_policy
from ._guard_authz import Authorization
from ._guard_receipts import ToolReceipts
from ._guard_sanitize import InputSanitization, ToolResultSanitization
from ._guard_shell import SandboxAudit
from ._lc_middleware import DeerguardMiddleware, PrincipalSource

__all__ = [
    "AuthorizationMiddleware",
    "InputSanitizationMiddleware",
    "SandboxAuditMiddleware",
    "ToolReceiptMiddleware",
    "ToolResultSanitizationMiddleware",
    "deerguard_middleware",
]


class InputSanitizationMiddleware(DeerguardMiddleware):
    """Neutralize forged tags in every user message of the history sent to the model."""

    def __init__(
        self,
        *,
        profile: str | TagProfile = "default",
        roles: Sequence[str] = ("user",),
        fail_mode: Literal["closed", "open"] = "closed",
        name: str | None = None,
    ) -> None:
        super().__init__(
            InputSanitization(profile=profile, roles=roles), fail_mode=fail_mode, name=name
        )


class ToolResultSanitizationMiddleware(DeerguardMiddleware):
    """Neutralize forged tags in results of remote-content tools (web_*) and MCP tools."""

    def __init__(
        self,
        *,
        profile: str | TagProfile = "default",
        remote_tools: Sequence[str] = tuple(DEFAULT_REMOTE_TOOLS),
        fail_mode: Literal["closed", "open"] = "closed",
        name: str | None = None,
    ) -> None:
        guard = ToolResultSanitization(profile=profile, remote_tools=remote_tools)
        super().__init__(guard, fail_mode=fail_mode, name=name)


class SandboxAuditMiddleware(DeerguardMiddleware):
    """Classify bash commands: block with a tool message, warn and run, audit every call.

    ``policy`` is a ``ShellPolicy`` or the path of a shell policy TOML file (loaded now, so
    a bad file raises ``PolicyError`` when the agent is built, not mid-run).
    """

    def __init__(
        self,
        *,
        policy: ShellPolicy | str | PathLike[str] | None = None,
        tool_names: Sequence[str] = ("bash",),
        command_arg: str = "command",
        audit: Callable[[dict[str, Any]], None] | None = None,
        fail_mode: Literal["closed", "open"] = "closed",
        name: str | None = None,
    ) -> None:
        if policy is not None and not isinstance(policy, ShellPolicy):
            policy = load_policy(Path(policy))
        guard = SandboxAudit(
            policy=policy, tool_names=tool_names, command_arg=command_arg, audit=audit
        )
        super().__init__(guard, fail_mode=fail_mode, name=name)


class AuthorizationMiddleware(DeerguardMiddleware):
    """Hide tools the principal may not see, check each call, check the model (fallback).

    ``principal`` is a ``Principal`` or a callable taking the run context; by default the
    principal is built from the server-owned keys of the run ``context`` (``user_role``...).
    ``models`` maps model names to chat models: the fallback candidates, in order.
    """

    def __init__(
        self,
        authorizer: Authorizer,
        /,
        *,
        principal: PrincipalSource = None,
        default_role: str | None = None,
        models: Mapping[str, Any] | None = None,
        fail_mode: Literal["closed", "open"] = "closed",
        name: str | None = None,
    ) -> None:
        guard = Authorization(
            authorizer, default_role=default_role, fallback_models=tuple(models or ())
        )
        super().__init__(guard, principal=principal, models=models, fail_mode=fail_mode, name=name)


class ToolReceiptMiddleware(DeerguardMiddleware):
    """Stamp each tool result with a receipt (args hash, output hash, size, time)."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] | None = None,
        namespace: str = "deerguard",
        sink: Callable[[Receipt], None] | None = None,
        name: str | None = None,
    ) -> None:
        guard = (
            ToolReceipts(namespace=namespace, sink=sink)
            if clock is None
            else ToolReceipts(clock=clock, namespace=namespace, sink=sink)
        )
        super().__init__(guard, name=name)


def deerguard_middleware(
    *,
    authorizer: Authorizer | None = None,
    principal: PrincipalSource = None,
    default_role: str | None = None,
    models: Mapping[str, Any] | None = None,
    shell_policy: ShellPolicy | str | PathLike[str] | None = None,
    bash_tools: Sequence[str] = ("bash",),
    command_arg: str = "command",
    audit: Callable[[dict[str, Any]], None] | None = None,
    profile: str | TagProfile = "default",
    receipts: bool = True,
) -> list[AgentMiddleware[Any, Any, Any]]:
    """Return deerguard's recommended LangChain middleware stack, in order.

    Authorization (only when ``authorizer`` is given) is outermost, so an unauthorized call is
    refused before anything else sees it; then input sanitization, the bash sandbox audit,
    tool-result sanitization and, innermost, tool receipts (which therefore hash the tool's
    own output, before sanitization rewrites what the model sees). All fail closed.

    >>> [type(m).__name__ for m in deerguard_middleware(receipts=False)]
    ['InputSanitizationMiddleware', 'SandboxAuditMiddleware', 'ToolResultSanitizationMiddleware']
    """
    stack: list[AgentMiddleware[Any, Any, Any]] = []
    if authorizer is not None:
        stack.append(
            AuthorizationMiddleware(
                authorizer, principal=principal, default_role=default_role, models=models
            )
        )
    stack.append(InputSanitizationMiddleware(profile=profile))
    stack.append(
        SandboxAuditMiddleware(
            policy=shell_policy, tool_names=bash_tools, command_arg=command_arg, audit=audit
        )
    )
    stack.append(ToolResultSanitizationMiddleware(profile=profile))
    if receipts:
        stack.append(ToolReceiptMiddleware())
    return stack
