"""Exceptions raised by deerguard, all rooted at :class:`DeerguardError`.

deerguard raises only for *caller mistakes*: a malformed policy file, a bad option, an
uninstalled extra. Hostile input (a command, a web page, a model's answer) never raises: it
becomes a decision with a reason. Every exception also inherits the builtin that fits it, so
``except ValueError`` keeps working for callers who do not know deerguard::

    DeerguardError(Exception)
    ├── PolicyError(DeerguardError, ValueError)        bad policy / profile / roles file or mapping
    ├── ConfigError(DeerguardError, ValueError)        bad option passed to a function
    ├── CanonicalizationError(DeerguardError, ValueError)  value cannot be canonical JSON
    ├── AuthorizationError(DeerguardError, PermissionError)  a fail-closed authz step refused
    └── MissingExtraError(DeerguardError, ImportError) an adapter's framework is not installed

Each docstring says the cause and the fix.
"""

from __future__ import annotations

__all__ = [
    "AuthorizationError",
    "CanonicalizationError",
    "ConfigError",
    "DeerguardError",
    "MissingExtraError",
    "PolicyError",
]


class DeerguardError(Exception):
    """Root of every exception deerguard raises on purpose.

    Cause: a caller mistake (never hostile input). Fix: see the subclass.
    """


class PolicyError(DeerguardError, ValueError):
    """A policy, profile or roles file (or mapping) is malformed.

    Cause: an unknown key, a wrong type, a value that cannot mean what it says, a syntax error.
    Fix: edit the file at ``file:line`` and key ``key`` as ``hint`` says.

    ``str(err)`` reads like a compiler message: ``policy.toml:7: commands.deny: expected a list
    of strings, got int (fix: write deny = ["rm"])``.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        key: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.key = key
        self.hint = hint
        super().__init__(self._render())

    def _render(self) -> str:
        where = self.file or "<policy>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        text = f"{where}: "
        if self.key:
            text += f"{self.key}: "
        text += self.message
        if self.hint:
            text += f" (fix: {self.hint})"
        return text


class ConfigError(DeerguardError, ValueError):
    """An option passed to a deerguard function is invalid.

    Cause: an unknown profile name, a negative budget, a wrong type for a keyword argument.
    Fix: pass a value the function's docstring lists.
    """


class CanonicalizationError(DeerguardError, ValueError):
    """A value cannot be written as canonical JSON.

    Cause: NaN or an infinity, a non-string mapping key, a cycle, or a type JSON has no form
    for. Fix: convert the value to plain JSON data (str, int, finite float, bool, None, list,
    dict with str keys) before hashing it.
    """


class AuthorizationError(DeerguardError, PermissionError):
    """A fail-closed authorization step could not produce an allowed answer.

    Cause: for example no fallback model is both visible and usable for the principal.
    Fix: grant the principal a usable model in the policy, or pass ``fail_closed=False``.
    """


class MissingExtraError(DeerguardError, ImportError):
    """An adapter's agent framework is not installed.

    Cause: importing ``deerguard.adapters.<framework>`` without its extra.
    Fix: ``pip install 'deerguard[<extra>]'`` (the message names the exact line).
    """

    def __init__(self, extra: str, module: str) -> None:
        self.extra = extra
        super().__init__(
            f"deerguard.adapters.{extra.replace('-', '_')} needs the {module!r} package: "
            f"pip install 'deerguard[{extra}]'",
            name=module,
        )
