"""Per-run state for adapters: one state dict and a step counter per run key.

Frameworks differ in what identifies a run; the adapter supplies the key. The registry is
bounded (oldest runs are dropped first) so a run that never reports its end cannot leak
memory, and it is locked because one middleware instance serves concurrent runs.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ObjectRuns", "RunRegistry", "RunSlot"]


@dataclass(slots=True)
class RunSlot:
    """The mutable per-run record: the shared state dict and the model-call step count."""

    state: dict[str, Any] = field(default_factory=dict)
    step: int = 0


class RunRegistry:
    """A bounded, thread-safe map from run key to :class:`RunSlot`."""

    __slots__ = ("_limit", "_lock", "_slots")

    def __init__(self, *, limit: int = 1024) -> None:
        self._limit = max(1, limit)
        self._lock = threading.Lock()
        self._slots: OrderedDict[str, RunSlot] = OrderedDict()

    def slot(self, key: str | None) -> RunSlot:
        """Return the slot for ``key`` (a fresh, unregistered slot when ``key`` is None)."""
        if key is None:
            return RunSlot()
        with self._lock:
            slot = self._slots.get(key)
            if slot is None:
                slot = self._slots[key] = RunSlot()
                while len(self._slots) > self._limit:
                    self._slots.popitem(last=False)
            return slot

    def advance(self, key: str | None) -> RunSlot:
        """Count one more model call in the run and return its slot."""
        slot = self.slot(key)
        with self._lock:
            slot.step += 1
        return slot

    def end(self, key: str | None) -> None:
        """Forget the run ``key``."""
        if key is None:
            return
        with self._lock:
            self._slots.pop(key, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._slots)


class ObjectRuns:
    """Per-run slots keyed by the identity of an object that lives exactly as long as the run.

    For frameworks whose run has no id but carries one object through every callback (the
    OpenAI Agents SDK's ``usage``). The slot is dropped when that object is collected, before
    its id can be reused, so one run's state never leaks into another. An object that cannot
    be weakly referenced gets a fresh slot per call.
    """

    __slots__ = ("_known", "_lock", "_registry")

    def __init__(self) -> None:
        self._registry = RunRegistry()
        self._known: set[str] = set()
        self._lock = threading.Lock()

    def slot(self, anchor: object) -> RunSlot:
        """Return the run slot of ``anchor`` (a fresh slot when ``anchor`` is None)."""
        if anchor is None:
            return RunSlot()
        key = f"{id(anchor):x}"
        with self._lock:
            if key not in self._known:
                try:
                    weakref.finalize(anchor, self._forget, key)
                except TypeError:
                    return RunSlot()
                self._known.add(key)
        return self._registry.slot(key)

    def _forget(self, key: str) -> None:
        with self._lock:
            self._known.discard(key)
        self._registry.end(key)
