"""``ToolReceipts``: stamp every tool result with a receipt of the call that produced it."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..errors import CanonicalizationError
from ..provenance import Receipt, make_receipt, stamp_receipt
from ..provenance._receipts import _tool_name_ok
from ._values import HookContext, ToolCall, ToolResult

__all__ = ["RECEIPTS_STATE_KEY", "ToolReceipts"]

#: Per-run state key holding the run's receipts in call order (what a ledger renders).
RECEIPTS_STATE_KEY = "deerguard.receipts"


class ToolReceipts:
    """After each tool call, stamp a receipt (args hash, output hash, bytes, time) on the result.

    The receipt goes into the result metadata under ``<namespace>_receipt`` and into the
    run's state list ``deerguard.receipts`` (for ``render_ledger``); ``sink`` also receives
    it. Arguments that are not JSON data are hashed by their ``repr`` and the receipt's
    metadata says so (``deerguard_receipt_args`` = ``"repr"``); a tool name a receipt cannot
    hold (empty, over 256 characters, lone surrogates) is recorded as ``sha256:<digest>``
    and the metadata says so (``deerguard_receipt_tool_name`` = ``"sha256"``). So a receipt
    never blocks a result. ``clock`` is the adapter's clock (seconds since the epoch).
    """

    name = "tool_receipts"

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.time,
        namespace: str = "deerguard",
        sink: Callable[[Receipt], None] | None = None,
    ) -> None:
        self._clock = clock
        self._namespace = namespace
        self._sink = sink

    def after_tool(self, ctx: HookContext, call: ToolCall, result: ToolResult) -> ToolResult:
        """Stamp the receipt of ``call`` and ``result`` onto the result metadata."""
        now = self._clock()
        args: Any = dict(call.args)
        metadata = dict(result.metadata)
        name = call.name
        if not _tool_name_ok(name):
            # A receipt takes 1-256 characters of valid Unicode; a model can call a tool by
            # any name, so a name outside that is recorded by its digest, and said so.
            name = "sha256:" + hashlib.sha256(
                str(name).encode("utf-8", "surrogatepass")).hexdigest()
            metadata[f"{self._namespace}_receipt_tool_name"] = "sha256"
        try:
            receipt = make_receipt(name, result.status, args, result.content, timestamp=now)
        except CanonicalizationError:
            args = {"repr": repr(args)}
            metadata[f"{self._namespace}_receipt_args"] = "repr"
            receipt = make_receipt(name, result.status, args, result.content, timestamp=now)
        ctx.state.setdefault(RECEIPTS_STATE_KEY, []).append(receipt)
        if self._sink is not None:
            self._sink(receipt)
        stamped = stamp_receipt(metadata, receipt, namespace=self._namespace)
        return replace(result, metadata=stamped)
