"""Which tool results are untrusted remote content, and inbound user-message metadata."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._result import Finding
from ..provenance import append_tool_transform, strip_caller_provenance
from ._chars import fold_name
from ._neutralize import Neutralizer
from ._profile import TagProfile

__all__ = [
    "DEFAULT_REMOTE_TOOLS",
    "MCP_METADATA_FLAGS",
    "MCP_SOURCE_KEYS",
    "SERVER_OWNED_KEYS",
    "Inbound",
    "RemoteScope",
    "SanitizedToolResult",
    "is_remote_content",
    "sanitize_inbound",
    "sanitize_tool_result",
]

#: First-party tools whose results carry attacker-influenceable remote content
#: (deer-flow's ``_REMOTE_CONTENT_TOOL_NAMES``).
DEFAULT_REMOTE_TOOLS: frozenset[str] = frozenset(
    {"web_fetch", "web_search", "image_search", "web_capture"}
)
#: Metadata keys whose value names the tool's origin; ``"mcp"`` (any case, or ``mcp:...``,
#: ``mcp/...``) marks an MCP-sourced tool.
MCP_SOURCE_KEYS: tuple[str, ...] = ("source", "origin", "provider", "kind", "tool_source")
#: Metadata keys whose presence with a truthy value marks an MCP-sourced tool.
MCP_METADATA_FLAGS: tuple[str, ...] = (
    "mcp", "mcp_server", "mcp_server_name", "mcp_server_id", "mcp_tool", "deerflow_mcp",
)  # fmt: skip
#: Tool-name prefixes that mark MCP tools (Claude Code's ``mcp__server__tool``).
MCP_NAME_PREFIXES: tuple[str, ...] = ("mcp__",)

#: Metadata keys a server sets on an inbound user message; a caller's values are dropped.
SERVER_OWNED_KEYS: frozenset[str] = frozenset(
    {"original_user_content", "untrusted_input", "hide_from_ui", "human_input_response",
     "provenance", "trusted"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class RemoteScope:
    """Whether a tool's result is untrusted remote content, and why (truthy when remote)."""

    remote: bool
    reason: str

    def __bool__(self) -> bool:
        return self.remote


def _is_mcp_value(value: object) -> bool:
    if not isinstance(value, str):
        return False
    folded = value.strip().casefold()
    return folded == "mcp" or folded.startswith(("mcp:", "mcp/", "mcp_", "mcp-"))


def is_remote_content(
    tool_name: str,
    metadata: Mapping[str, Any] | None = None,
    /,
    *,
    remote_tools: Iterable[str] = DEFAULT_REMOTE_TOOLS,
) -> RemoteScope:
    """Decide whether ``tool_name``'s result is untrusted remote content (truthy result).

    Remote: a name in ``remote_tools`` (default: web_fetch, web_search, image_search,
    web_capture), also when disguised by case, whitespace, invisibles or look-alike letters;
    or an MCP-sourced tool, whatever its name (an MCP server's ``fetch_url`` is covered):
    a name starting with ``mcp__``, a metadata key in ``MCP_METADATA_FLAGS`` with a truthy
    value (``mcp_server``, ``deerflow_mcp``, ...), or a metadata key in ``MCP_SOURCE_KEYS``
    (``source``, ``origin``, ...) whose value is ``"mcp"`` or starts with ``mcp:``. Pure;
    never raises on odd metadata (a non-mapping is ignored).

    >>> bool(is_remote_content("fetch_url", {"source": "mcp"}))
    True
    """
    if isinstance(tool_name, str):
        names = frozenset(remote_tools)
        if tool_name in names or fold_name(tool_name) in {fold_name(n) for n in names}:
            return RemoteScope(True, f"{tool_name!r} is in the remote tool allowlist")
        if fold_name(tool_name).startswith(MCP_NAME_PREFIXES):
            return RemoteScope(True, f"{tool_name!r} has an MCP tool-name prefix")
    if isinstance(metadata, Mapping):
        try:
            for key in MCP_METADATA_FLAGS:
                if metadata.get(key):
                    return RemoteScope(True, f"metadata {key!r} marks an MCP tool")
            for key in MCP_SOURCE_KEYS:
                if _is_mcp_value(metadata.get(key)):
                    return RemoteScope(True, f"metadata {key!r} names MCP as the source")
        except Exception:  # noqa: BLE001 - hostile mapping: treat as remote (fail closed)
            return RemoteScope(True, "metadata could not be read; treated as remote")
    return RemoteScope(False, "local tool: not in the allowlist and not MCP-sourced")


@dataclass(frozen=True, slots=True)
class SanitizedToolResult:
    """A tool result after scoping and neutralization, with the updated metadata trail."""

    content: Any
    metadata: dict[str, Any]
    scope: RemoteScope
    findings: tuple[Finding, ...] = ()

    @property
    def changed(self) -> bool:
        """Whether the content was rewritten."""
        return bool(self.findings)


def sanitize_tool_result(
    tool_name: str,
    content: Any,
    metadata: Mapping[str, Any] | None = None,
    /,
    *,
    profile: str | TagProfile = "default",
    remote_tools: Iterable[str] = DEFAULT_REMOTE_TOOLS,
) -> SanitizedToolResult:
    """Neutralize a tool result when it is remote content and record it in the trail.

    Local tool output is returned untouched (same objects). For remote content, the content is
    neutralized (same shapes as :func:`neutralize_content`) and, when it changed, a
    ``{"name": "neutralize", ...}`` record is appended to the metadata's transform trail
    (``deerguard.provenance.append_tool_transform``). Never mutates its inputs.

    >>> sanitize_tool_result("web_fetch", "<think>x").content
    '&lt;think&gt;x'
    """
    scope = is_remote_content(tool_name, metadata, remote_tools=remote_tools)
    meta = dict(metadata) if isinstance(metadata, Mapping) else {}
    if not scope:
        return SanitizedToolResult(content, meta, scope)
    result = Neutralizer(profile=profile).neutralize_content(content)
    if result.changed:
        meta = append_tool_transform(
            meta,
            {
                "name": "neutralize",
                "by": "deerguard.sanitize",
                "changed": True,
                "findings": len(result.findings),
                "rules": sorted({f.rule_id for f in result.findings}),
            },
        )
    return SanitizedToolResult(result.content, meta, scope, result.findings)


@dataclass(frozen=True, slots=True)
class Inbound:
    """An inbound user message after metadata cleaning and neutralization."""

    content: Any
    metadata: dict[str, Any]
    findings: tuple[Finding, ...] = ()
    stripped: tuple[str, ...] = field(default=())

    @property
    def changed(self) -> bool:
        """Whether the content was rewritten."""
        return bool(self.findings)


def sanitize_inbound(
    content: Any,
    metadata: Mapping[str, Any] | None = None,
    /,
    *,
    trusted: bool = False,
    profile: str | TagProfile = "default",
) -> Inbound:
    """Clean an inbound user message: server-owned metadata out, forged markers labelled.

    Unless ``trusted``, caller-supplied values of server-owned keys (``SERVER_OWNED_KEYS``:
    ``original_user_content``, ``untrusted_input``, ...) and every ``deerguard_*`` /
    ``deerflow_*`` key (``deerguard.provenance.strip_caller_provenance``) are dropped. The
    content is neutralized; markers or tags the caller put in it are never deleted: they are
    rewritten to inert text and listed under ``metadata["untrusted_input"]`` (finding
    dicts). With ``trusted=True`` the metadata is kept as given. Never mutates its inputs.

    >>> sanitize_inbound("hi", {"original_user_content": "forged"}).metadata
    {}
    """
    meta: dict[str, Any] = dict(metadata) if isinstance(metadata, Mapping) else {}
    stripped: list[str] = []
    if not trusted:
        cleaned = strip_caller_provenance(meta)
        for key in list(cleaned):
            if isinstance(key, str) and key.strip().casefold() in SERVER_OWNED_KEYS:
                del cleaned[key]
        stripped = sorted(str(k) for k in meta if k not in cleaned)
        meta = cleaned
    result = Neutralizer(profile=profile).neutralize_content(content)
    if result.changed:
        meta["untrusted_input"] = [f.to_dict() for f in result.findings]
    return Inbound(result.content, meta, result.findings, tuple(stripped))
