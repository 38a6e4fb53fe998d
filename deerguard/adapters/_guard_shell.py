"""``SandboxAudit``: the shell classifier as a chain member for an agent's bash tool.

``block`` stops the call with a tool message that says why (rule ids and messages), ``warn``
runs the command and appends the warning to its output, and every call on a guarded tool
writes one audit record (:meth:`Classification.to_audit_record`) whatever the verdict.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .._result import Verdict
from ..sanitize._chars import fold_name
from ..shell import Classification, Classifier
from ._values import Decision, HookContext, Reason, ToolCall, ToolResult

if TYPE_CHECKING:  # a pydantic model: loaded only by a caller that has a policy object
    from ..shell import ShellPolicy

__all__ = ["AUDIT_STATE_KEY", "SandboxAudit"]

#: Per-run state key: the audit records of the run, in call order.
AUDIT_STATE_KEY = "deerguard.sandbox_audit"
_WARN_KEY = "deerguard.sandbox_warn"

_audit_log = logging.getLogger("deerguard.audit")


def _log_sink(record: Mapping[str, Any]) -> None:
    _audit_log.info("%s", json.dumps(record, sort_keys=True))


def _utc_now() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC)


def _warning_text(classification: Classification) -> str:
    lines = [
        f"{f.rule_id}: {f.message}" for f in classification.findings if f.severity >= Verdict.WARN
    ]
    return "[deerguard warning] " + "; ".join(lines)


class SandboxAudit:
    """Classify each command sent to a bash tool: block, warn-and-run, and audit every call.

    ``tool_names`` (default ``("bash",)``) are the guarded tools and ``command_arg``
    (``"command"``) the argument holding the command; a name that disguises a guarded one
    (``"Bash"``, ``"bash "``) is guarded too. A guarded call without a string command
    is blocked (fails closed). ``audit`` receives each record (default: the
    ``deerguard.audit`` logger at INFO, as JSON); records also accumulate in the run state
    under ``deerguard.sandbox_audit``. ``clock`` returns an aware datetime (default UTC now).

    >>> SandboxAudit().tool_names
    frozenset({'bash'})
    """

    name = "sandbox_audit"

    def __init__(
        self,
        *,
        policy: ShellPolicy | None = None,
        tool_names: Iterable[str] = ("bash",),
        command_arg: str = "command",
        audit: Callable[[dict[str, Any]], None] | None = None,
        clock: Callable[[], _dt.datetime] = _utc_now,
        max_command_chars: int = 200,
    ) -> None:
        self._classifier = Classifier(policy=policy)
        self.tool_names = frozenset(tool_names)
        self._folded_names = frozenset(fold_name(n) for n in self.tool_names)
        self._arg = command_arg
        self._audit = audit or _log_sink
        self._clock = clock
        self._max = max_command_chars

    def guards(self, tool_name: str) -> bool:
        """Return whether calls to ``tool_name`` are classified.

        Matched fail-closed: a name that only disguises a guarded one (case, whitespace,
        invisible characters, fullwidth or look-alike letters: ``"Bash"``, ``"bash "``) is
        guarded too, in case the framework's tool lookup normalizes names.
        """
        return tool_name in self.tool_names or (
            isinstance(tool_name, str) and fold_name(tool_name) in self._folded_names
        )

    def _key(self, call: ToolCall) -> str:
        return f"{_WARN_KEY}:{call.call_id or call.name}"

    def before_tool(self, ctx: HookContext, call: ToolCall) -> Decision | None:
        """Classify the command; deny on ``block``, remember a ``warn`` for after the run."""
        if not self.guards(call.name):
            return None
        command = call.args.get(self._arg)
        if not isinstance(command, str):
            record = {
                "timestamp": self._clock().isoformat(),
                "thread_id": ctx.thread_id,
                "tool": call.name,
                "verdict": "block",
                "rule_ids": ["shell.missing-command"],
            }
            self._write(ctx, record)
            return Decision.deny(
                "shell.missing-command",
                f"argument {self._arg!r} must be a command string",
                guard=self.name,
            )
        result = self._classifier.classify(command)
        record = result.to_audit_record(
            thread_id=ctx.thread_id, now=self._clock(), max_command_chars=self._max
        )
        record["tool"] = call.name
        self._write(ctx, record)
        if result.verdict is Verdict.BLOCK:
            reasons = tuple(
                Reason(f.rule_id, f.message) for f in result.findings if f.severity is Verdict.BLOCK
            )
            return Decision(False, reasons, guard=self.name)
        if result.verdict is Verdict.WARN:
            ctx.state[self._key(call)] = _warning_text(result)
        return None

    def _write(self, ctx: HookContext, record: dict[str, Any]) -> None:
        ctx.state.setdefault(AUDIT_STATE_KEY, []).append(record)
        self._audit(record)

    def after_tool(self, ctx: HookContext, call: ToolCall, result: ToolResult) -> ToolResult | None:
        """Append a remembered ``warn`` to the command's output."""
        warning = ctx.state.pop(self._key(call), None)
        if not isinstance(warning, str):
            return None
        content = result.content
        if isinstance(content, str):
            content = f"{content}\n\n{warning}" if content else warning
        elif isinstance(content, list):
            content = [*content, {"type": "text", "text": warning}]
        else:
            return None
        metadata = {**result.metadata, "deerguard_shell_warning": warning}
        return replace(result, content=content, metadata=metadata)
