"""The classifier's variable environment, with cheap subshell scopes.

A subshell (``( )``, ``$( )``, a pipeline element, ``cmd &``, nested ``bash -c`` code) must
not leak its assignments. Copying the whole environment at each one made a script with many
variables and many subshells quadratic; instead every write is journaled while a scope is
open, and leaving the scope undoes exactly the writes made inside it (time proportional to
those writes, so the total stays linear).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._words import Var

__all__ = ["Env"]

_MISSING: Any = object()


class Env(dict[str, "Var"]):
    """A ``dict`` of variables whose writes can be undone back to a checkpoint."""

    __slots__ = ("_log", "_depth")

    def __init__(self) -> None:
        # dict.__init__ is not called: with no arguments it does nothing (the dict is empty).
        self._log: list[tuple[str, Any]] = []
        self._depth = 0

    def checkpoint(self) -> int:
        """Open a scope; return its mark for :meth:`rollback` or :meth:`release`."""
        self._depth += 1
        return len(self._log)

    def rollback(self, mark: int) -> None:
        """Close the scope opened at ``mark`` and undo every write made since."""
        log = self._log
        put = dict.__setitem__
        while len(log) > mark:
            key, old = log.pop()
            if old is _MISSING:
                dict.pop(self, key, None)
            else:
                put(self, key, old)
        self._close()

    def release(self, mark: int) -> bool:
        """Close the scope opened at ``mark`` keeping its writes; True when the variables
        are as they were at ``mark`` (every write since was undone or rewrote the same)."""
        same = True
        seen: set[str] = set()
        for key, old in self._log[mark:]:
            if key not in seen:
                seen.add(key)
                if dict.get(self, key, _MISSING) != old:
                    same = False
                    break
        self._close()
        return same

    def _close(self) -> None:
        self._depth -= 1
        if self._depth <= 0:
            self._depth = 0
            self._log.clear()  # no scope open: nothing to undo, stop growing

    def __setitem__(self, key: str, value: Var) -> None:
        if self._depth:
            self._log.append((key, dict.get(self, key, _MISSING)))
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        if self._depth:
            self._log.append((key, dict.get(self, key, _MISSING)))
        dict.__delitem__(self, key)

    def pop(self, key: str, default: Any = _MISSING) -> Any:
        # No ``dict.pop(self, key, *default)``: mypyc types its result as a Var and checks
        # it, so a missing key's default (None) raised TypeError in the compiled build.
        if key not in self:
            if default is _MISSING:
                raise KeyError(key)
            return default
        if self._depth:
            self._log.append((key, dict.__getitem__(self, key)))
        return dict.pop(self, key)

    def setdefault(self, key: str, default: Var) -> Var:
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def clear(self) -> None:
        for key in list(self):
            del self[key]

    def popitem(self) -> tuple[str, Var]:
        key = next(reversed(self))
        return key, self.pop(key)
