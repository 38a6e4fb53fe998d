"""deerguard.sanitize: neutralize forged framework tags; wrap and label untrusted content.

- :func:`neutralize` / :class:`Neutralizer`: rewrite forged ``<system-reminder>``-style tags,
  chat-template tokens (``<|im_start|>``, ``[INST]``, ``<<SYS>>``) and boundary markers into
  inert text, keeping every visible character; reveal hidden Unicode payloads.
- :func:`neutralize_content`: the same over message content blocks, keeping their shape.
- :func:`wrap_untrusted`: trim, neutralize and wrap untrusted text in nonce markers.
- :func:`is_remote_content`, :func:`sanitize_tool_result`: scope tool results (allowlist +
  MCP) and record rewrites in the metadata trail.
- :func:`sanitize_inbound`: strip caller-supplied server-owned metadata from user messages.
- Profiles: :class:`TagProfile`, :func:`load_tag_profile`, shipped ``default``, ``deerflow``
  and ``aggressive`` in ``policies/tags/``.
"""

from __future__ import annotations

from ._neutralize import (
    Edit,
    Neutralized,
    NeutralizedContent,
    Neutralizer,
    neutralize,
    neutralize_content,
)
from ._profile import BUILTIN_PROFILES, TagProfile, load_tag_profile
from ._scope import (
    DEFAULT_REMOTE_TOOLS,
    MCP_METADATA_FLAGS,
    MCP_SOURCE_KEYS,
    SERVER_OWNED_KEYS,
    Inbound,
    RemoteScope,
    SanitizedToolResult,
    is_remote_content,
    sanitize_inbound,
    sanitize_tool_result,
)
from ._wrap import WRAPPER_BASE, Wrapped, wrap_untrusted

__all__ = [
    "BUILTIN_PROFILES",
    "DEFAULT_REMOTE_TOOLS",
    "MCP_METADATA_FLAGS",
    "MCP_SOURCE_KEYS",
    "SERVER_OWNED_KEYS",
    "WRAPPER_BASE",
    "Edit",
    "Inbound",
    "Neutralized",
    "NeutralizedContent",
    "Neutralizer",
    "RemoteScope",
    "SanitizedToolResult",
    "TagProfile",
    "Wrapped",
    "is_remote_content",
    "load_tag_profile",
    "neutralize",
    "neutralize_content",
    "sanitize_inbound",
    "sanitize_tool_result",
    "wrap_untrusted",
]
