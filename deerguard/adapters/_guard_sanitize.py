"""``InputSanitization`` and ``ToolResultSanitization``: forged-tag neutralization as members.

Both are thin wrappers over :mod:`deerguard.sanitize`: they never drop text (every visible
character stays, forgeries become inert character references) and record what they changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..provenance import append_tool_transform
from ..sanitize import DEFAULT_REMOTE_TOOLS, Neutralizer, TagProfile, is_remote_content
from ._values import HookContext, ModelCall, ToolCall, ToolResult

__all__ = ["STRUCTURED_KEY", "InputSanitization", "ToolResultSanitization"]

#: Per-run state key counting neutralization findings, for audits.
FINDINGS_STATE_KEY = "deerguard.sanitize_findings"
#: Result metadata key where adapters put a tool's structured (JSON) output, e.g. MCP's
#: ``structuredContent``; its string values are neutralized like the text content.
STRUCTURED_KEY = "structured_content"
_MAX_DEPTH = 64


def _neutralize_json(neutralizer: Neutralizer, value: Any, depth: int = 0) -> tuple[Any, int]:
    """Neutralize every string value (not key) of JSON data; return it and the finding count."""
    if isinstance(value, str):
        result = neutralizer.neutralize(value)
        return (result.text, len(result.findings)) if result.changed else (value, 0)
    if depth >= _MAX_DEPTH:
        # Deeper than any real tool output: replace it rather than pass it unread (fail closed).
        return "[deerguard: structured content too deep]", 1
    if isinstance(value, Mapping):
        found = 0
        out: dict[Any, Any] = {}
        for key, item in value.items():
            out[key], n = _neutralize_json(neutralizer, item, depth + 1)
            found += n
        return (out, found) if found else (value, 0)
    if isinstance(value, list | tuple):
        found = 0
        items = []
        for item in value:
            new, n = _neutralize_json(neutralizer, item, depth + 1)
            items.append(new)
            found += n
        return (items, found) if found else (value, 0)
    return value, 0


class InputSanitization:
    """Neutralize forged tags in user messages across the whole history sent to the model.

    Every message whose role is in ``roles`` (default: ``user``) is rewritten, not only the
    last one: a forgery planted in an earlier turn is inert in every later model call too.
    Content shape is kept (strings and content-block lists). Idempotent: already-neutralized
    history is returned unchanged, so repeated model calls cost one scan per message.

    >>> InputSanitization(profile="default").name
    'input_sanitization'
    """

    name = "input_sanitization"

    def __init__(
        self, *, profile: str | TagProfile = "default", roles: Iterable[str] = ("user",)
    ) -> None:
        self._neutralizer = Neutralizer(profile=profile)
        self._roles = frozenset(roles)

    def before_model(self, ctx: HookContext, call: ModelCall) -> ModelCall | None:
        """Return the call with neutralized user messages, or None when nothing fired."""
        messages = list(call.messages)
        found = 0
        for index, message in enumerate(messages):
            if message.role not in self._roles:
                continue
            result = self._neutralizer.neutralize_content(message.content)
            if result.changed:
                messages[index] = replace(message, content=result.content)
                found += len(result.findings)
        if not found:
            return None
        ctx.state[FINDINGS_STATE_KEY] = ctx.state.get(FINDINGS_STATE_KEY, 0) + found
        return replace(call, messages=tuple(messages))


class ToolResultSanitization:
    """Neutralize forged tags in results of remote-content tools and every MCP tool.

    Scope is :func:`deerguard.sanitize.is_remote_content` over the tool name, the tool's
    metadata (adapters mark MCP tools ``{"mcp": True, "mcp_server": ...}``) and the result's
    metadata; local tools' output is untouched. String values of structured output that an
    adapter put under ``metadata["structured_content"]`` (MCP ``structuredContent``) are
    neutralized too. Each rewrite appends a ``neutralize`` record to the result's transform
    trail (``deerguard_tool_transforms``).
    """

    name = "tool_result_sanitization"

    def __init__(
        self,
        *,
        profile: str | TagProfile = "default",
        remote_tools: Iterable[str] = DEFAULT_REMOTE_TOOLS,
    ) -> None:
        self._neutralizer = Neutralizer(profile=profile)
        self._remote = frozenset(remote_tools)

    def _remote_scope(self, call: ToolCall, result: ToolResult) -> bool:
        return bool(
            is_remote_content(call.name, call.metadata, remote_tools=self._remote)
            or is_remote_content(call.name, result.metadata, remote_tools=self._remote)
        )

    def after_tool(self, ctx: HookContext, call: ToolCall, result: ToolResult) -> ToolResult | None:
        """Return the neutralized result of a remote-content tool, or None when unchanged."""
        if not self._remote_scope(call, result):
            return None
        out = self._neutralizer.neutralize_content(result.content)
        metadata: Mapping[str, Any] = result.metadata
        structured_found = 0
        if STRUCTURED_KEY in metadata:
            structured, structured_found = _neutralize_json(
                self._neutralizer, metadata[STRUCTURED_KEY]
            )
            if structured_found:
                metadata = {**metadata, STRUCTURED_KEY: structured}
        if not out.changed and not structured_found:
            return None
        found = len(out.findings) + structured_found
        metadata = append_tool_transform(
            metadata,
            {
                "name": "neutralize",
                "by": "deerguard.adapters",
                "changed": True,
                "findings": found,
                "rules": sorted({f.rule_id for f in out.findings}),
            },
        )
        ctx.state[FINDINGS_STATE_KEY] = ctx.state.get(FINDINGS_STATE_KEY, 0) + found
        return replace(result, content=out.content, metadata=metadata)
