"""Self-description: the release-relevant parameters of every configured guard, as one value.

A release (or an audit log line) should say exactly which guard settings produced a decision.
Any object may take part by defining ``release_policy_parameters() -> Mapping[str, JSON]``
(duck-typed, no base class); :func:`collect_release_policies` gathers them into a stable,
hashable summary whose ``digest`` changes whenever any setting changes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import CanonicalizationError, ConfigError
from ._canonical import canonical_hash, canonical_json, plain_json

__all__ = ["ReleasePolicySummary", "collect_release_policies"]

_HOOK = "release_policy_parameters"


@dataclass(frozen=True, slots=True)
class ReleasePolicySummary:
    """The collected parameters: ``components`` holds ``(name, canonical JSON)`` pairs.

    Sorted by name then parameters, so the summary does not depend on component order.
    Hashable and comparable; ``digest`` is the canonical hash of :meth:`to_dict`.
    """

    components: tuple[tuple[str, str], ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The component names, sorted (repeated when two components share a name)."""
        return tuple(name for name, _ in self.components)

    def parameters(self, name: str) -> list[dict[str, Any]]:
        """Return the parameter mappings recorded for component ``name`` (possibly several)."""
        return [json.loads(text) for key, text in self.components if key == name]

    @property
    def digest(self) -> str:
        """SHA-256 hex of the canonical JSON of :meth:`to_dict`."""
        return canonical_hash(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """Return ``{"components": [{"name": ..., "parameters": {...}}, ...]}``."""
        return {
            "components": [
                {"name": name, "parameters": json.loads(text)} for name, text in self.components
            ]
        }


def _name(component: object) -> str:
    declared = getattr(component, "release_policy_name", None)
    if isinstance(declared, str) and declared:
        return str.__str__(declared)
    kind = type(component)
    return f"{kind.__module__}.{kind.__qualname__}"


def _shorten(value: Any, max_text: int) -> Any:
    # Works on plain JSON data (from plain_json), whose depth json.loads already bounded.
    if isinstance(value, str):
        return f"sha256:{canonical_hash(value)}" if len(value) > max_text else value
    if isinstance(value, list):
        return [_shorten(item, max_text) for item in value]
    if isinstance(value, dict):
        return {key: _shorten(item, max_text) for key, item in value.items()}
    return value


def collect_release_policies(
    components: Iterable[object],
    /,
    *,
    max_text: int = 200,
) -> ReleasePolicySummary:
    """Gather ``release_policy_parameters()`` from every component that defines it.

    Components without the method are skipped. A component's name is its
    ``release_policy_name`` attribute if it is a non-empty string, else its class's
    ``module.qualname``. Parameters must be a mapping of JSON data; any string longer than
    ``max_text`` characters (a prompt, a policy file) is replaced by
    ``"sha256:<canonical_hash of the string>"`` instead of being copied. The result is sorted,
    so it is independent of component order and of key order. Pure apart from calling each
    component's method.

    Raises ConfigError for a bad ``max_text``, a method that raises or does not return a
    mapping; CanonicalizationError (naming the component and JSON path) for values that are
    not JSON data (NaN, sets, objects...).

    >>> class Guard:
    ...     release_policy_name = "shell"
    ...     def release_policy_parameters(self):
    ...         return {"profile": "strict", "budget": 2000}
    >>> collect_release_policies([Guard(), object()]).to_dict()
    {'components': [{'name': 'shell', 'parameters': {'budget': 2000, 'profile': 'strict'}}]}
    """
    if type(max_text) is not int or max_text < 0:
        raise ConfigError(f"max_text must be a non-negative int, got {max_text!r}")
    entries: list[tuple[str, str]] = []
    for component in components:
        hook = getattr(component, _HOOK, None)
        if not callable(hook):
            continue
        name = _name(component)
        try:
            params = hook()
        except Exception as exc:
            raise ConfigError(f"{name}.{_HOOK}() raised {type(exc).__name__}: {exc}") from exc
        if not isinstance(params, Mapping):
            raise ConfigError(
                f"{name}.{_HOOK}() must return a mapping of JSON data, got {type(params).__name__}"
            )
        try:
            plain = plain_json(params)
        except CanonicalizationError as exc:
            raise CanonicalizationError(f"{name}.{_HOOK}(): {exc}") from None
        text = canonical_json(_shorten(plain, max_text)).decode("utf-8")
        entries.append((name, text))
    entries.sort()
    return ReleasePolicySummary(components=tuple(entries))
