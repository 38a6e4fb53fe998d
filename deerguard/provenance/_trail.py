"""The ordered trail of rewrites applied to a tool result, kept in its metadata.

Each guard that rewrites a tool result (neutralize, wrap as untrusted, truncate, ...) appends
one JSON-safe record, so an auditor can see what the model saw versus what the tool returned.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import CanonicalizationError, ConfigError
from ._canonical import plain_json
from ._stamps import DEFAULT_NAMESPACE, check_namespace

__all__ = ["TRAIL_RESET", "append_tool_transform", "trail_key"]

#: Name of the record inserted when an existing trail was malformed and had to be replaced.
TRAIL_RESET = "deerguard.trail-reset"


def trail_key(namespace: str = DEFAULT_NAMESPACE) -> str:
    """Return the metadata key of the transform trail, ``<namespace>_tool_transforms``."""
    return f"{check_namespace(namespace)}_tool_transforms"


def _record(transform: object) -> dict[str, Any]:
    if isinstance(transform, str):
        transform = {"name": transform}
    if not isinstance(transform, Mapping):
        raise ConfigError(
            f"transform must be a mapping like {{'name': 'neutralize', 'changed': True}} or a "
            f"name string, got {type(transform).__name__}"
        )
    name = transform.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(
            f"transform needs a non-empty string 'name' (e.g. 'neutralize'), got {name!r}"
        )
    try:
        record = plain_json(transform)
    except CanonicalizationError as exc:
        raise CanonicalizationError(f"transform {name!r} is not JSON-safe: {exc}") from None
    assert isinstance(record, dict)
    return record


def _existing(value: object) -> tuple[list[dict[str, Any]], int]:
    """Return the valid records of an existing trail and how many were dropped."""
    if value is None:
        return [], 0
    if not isinstance(value, list | tuple):
        return [], 1
    kept: list[dict[str, Any]] = []
    dropped = 0
    for entry in value:
        try:
            kept.append(_record(entry) if isinstance(entry, Mapping) else _record(None))
        except (ConfigError, CanonicalizationError):
            dropped += 1
    return kept, dropped


def append_tool_transform(
    metadata: Mapping[str, Any] | None,
    transform: Mapping[str, Any] | str,
    /,
    *,
    namespace: str = DEFAULT_NAMESPACE,
) -> dict[str, Any]:
    """Return a copy of ``metadata`` with ``transform`` appended to its rewrite trail.

    The trail lives under ``<namespace>_tool_transforms`` (``deerguard_tool_transforms`` by
    default) as a list of JSON records in the order the rewrites happened, e.g.
    ``{"name": "neutralize", "changed": True, "findings": 3}``. ``transform`` is a mapping with
    a non-empty string ``name`` (a bare string is shorthand for ``{"name": ...}``); it is
    deep-copied as plain JSON data (tuples become lists, enum members plain values).

    Never mutates ``metadata`` (``None`` means ``{}``): the result is a new dict, a shallow
    copy except for the trail, which is a new list of new records. An existing trail that is
    not a list of valid records (forged or corrupted) is not trusted: its valid records are
    kept, and a ``{"name": "deerguard.trail-reset", "dropped": n}`` record notes the rest.

    Raises ConfigError for a transform without a name or a metadata value that is not a
    mapping, CanonicalizationError when the transform is not JSON data.

    >>> meta = append_tool_transform({}, {"name": "neutralize", "changed": True})
    >>> append_tool_transform(meta, "wrap")["deerguard_tool_transforms"]
    [{'name': 'neutralize', 'changed': True}, {'name': 'wrap'}]
    """
    key = trail_key(namespace)
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, Mapping):
        raise ConfigError(f"metadata must be a mapping or None, got {type(metadata).__name__}")
    record = _record(transform)
    result = dict(metadata)
    trail, dropped = _existing(result.get(key))
    if dropped:
        trail.append({"name": TRAIL_RESET, "changed": True, "dropped": dropped})
    trail.append(record)
    result[key] = trail
    return result
