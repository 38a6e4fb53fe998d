"""The neutral values that cross the hook contract: calls, results, decisions, context.

Adapters pull plain values out of a framework event (a chat request, a tool call) into these
frozen objects, run the guard chain, and map the outcome back. No framework object is ever
stored here, so a guard written against this module works unchanged under every adapter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, Literal, TypeVar

__all__ = [
    "Decision",
    "HookContext",
    "Message",
    "ModelCall",
    "ModelResult",
    "Outcome",
    "Reason",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
]

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    # A read-only view of a shallow copy: a guard cannot mutate what the adapter handed in,
    # and a later change to the caller's dict does not leak into a frozen value.
    if not value:
        return _EMPTY
    if isinstance(value, MappingProxyType):
        return value
    return MappingProxyType(dict(value))


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message: ``role`` (system, user, assistant, tool), ``content`` and metadata.

    ``content`` is a string or a list of content blocks (``{"type": "text", "text": ...}``
    and non-text blocks), as frameworks send it.
    """

    role: str
    content: Any
    name: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def __post_init__(self) -> None:
        object.__setattr__(self, "metadata", _frozen_mapping(self.metadata))


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool the model may be offered: its name, description and metadata (MCP origin...)."""

    name: str
    description: str = ""
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def __post_init__(self) -> None:
        object.__setattr__(self, "metadata", _frozen_mapping(self.metadata))


@dataclass(frozen=True, slots=True)
class ModelCall:
    """A request to the model: the history it will see, the tools offered, the model name."""

    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    model: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "messages", tuple(self.messages))
        object.__setattr__(self, "tools", tuple(self.tools))


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call proposed by the model: tool name, arguments, call id, tool metadata."""

    name: str
    args: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    call_id: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", _frozen_mapping(self.args))
        object.__setattr__(self, "metadata", _frozen_mapping(self.metadata))


@dataclass(frozen=True, slots=True)
class ModelResult:
    """What the model answered: its content and the tool calls it proposed."""

    content: Any = ""
    tool_calls: tuple[ToolCall, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tool_calls", tuple(self.tool_calls))
        object.__setattr__(self, "metadata", _frozen_mapping(self.metadata))


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What a tool returned: content (string or blocks), status and result metadata.

    ``metadata`` is where guards leave their trail (``deerguard_transforms``, receipts,
    warnings); adapters copy it onto the framework's tool message.
    """

    content: Any
    status: Literal["success", "error"] = "success"
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def __post_init__(self) -> None:
        object.__setattr__(self, "metadata", _frozen_mapping(self.metadata))


@dataclass(frozen=True, slots=True)
class Reason:
    """One coded reason for a decision: ``code`` (``shell.pipe-to-shell``) and a message."""

    code: str
    message: str = ""

    def to_dict(self) -> dict[str, str]:
        """Return ``{"code": ..., "message": ...}``."""
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class Decision:
    """Allow or deny, with coded reasons, the guard that decided and where it came from.

    ``source`` is ``"guard"`` for a guard's own verdict, ``"error"`` for a fail-closed deny
    after a guard raised or returned something malformed.
    """

    allow: bool
    reasons: tuple[Reason, ...] = ()
    guard: str | None = None
    source: Literal["guard", "error"] = "guard"

    def __post_init__(self) -> None:
        object.__setattr__(self, "reasons", tuple(self.reasons))

    @classmethod
    def deny(cls, code: str, message: str, *, guard: str | None = None) -> Decision:
        """Return a deny with one reason.

        >>> Decision.deny("tool.denied", "tool 'bash' is not allowed").allow
        False
        """
        return cls(False, (Reason(code, message),), guard=guard)

    @property
    def message(self) -> str:
        """All reason messages joined by ``"; "`` (the text a blocked call reports)."""
        return "; ".join(r.message or r.code for r in self.reasons)

    @property
    def summary(self) -> str:
        """Each reason as ``code: message``, joined by ``"; "`` (what a refusal tells the model).

        >>> Decision.deny("shell.pipe-to-shell", "pipes data into sh").summary
        'shell.pipe-to-shell: pipes data into sh'
        """
        return "; ".join(f"{r.code}: {r.message}" if r.message else r.code for r in self.reasons)

    def to_dict(self) -> dict[str, Any]:
        """Return the decision as JSON data."""
        return {
            "allow": self.allow,
            "reasons": [r.to_dict() for r in self.reasons],
            "guard": self.guard,
            "source": self.source,
        }


ALLOW = Decision(True)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Outcome(Generic[T]):
    """What the chain produced for one model or tool call.

    ``decision.allow`` is False when a guard denied; then ``result`` is None and the adapter
    answers the framework with ``decision.message`` (a refusal, an error tool message).
    """

    decision: Decision
    result: T | None = None

    @property
    def denied(self) -> bool:
        """True when a guard (or a fail-closed error) denied the call."""
        return self.decision.allow is not True


@dataclass(frozen=True, slots=True)
class HookContext:
    """What every hook receives besides the call: step number and the per-run state dict.

    ``step`` counts model calls in the run (1 for the first; tool calls carry the step of the
    model call that proposed them). ``state`` is one mutable dict per run shared by every
    guard of the chain (namespace your keys). ``principal`` and ``thread_id`` come from the
    adapter's trusted context; ``extra`` carries framework-specific values, read-only.
    """

    step: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    framework: str = "neutral"
    thread_id: str | None = None
    principal: Any = None
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
