"""Message provenance stamps: who produced a message and what kind of content it is.

A middleware that injects or rewrites a message stamps it with server-owned metadata keys
(``<ns>_content_kind``, ``<ns>_producer_kind``, optional ``<ns>_producer_entity_id``). Because
the keys are server-owned, anything a *caller* sends under the namespace is a forgery and is
removed by :func:`strip_caller_provenance` before the message enters the agent.

Kinds are open sets. :class:`ContentKind` and :class:`ProducerKind` list the known values
(deer-flow's names included); to add your own, pass any plain string that is a *kind name*:
1 to 64 ASCII characters from ``a-z 0-9 _ . -``, starting with a letter or ``_``. There is
nothing to register::

    provenance_kwargs("audit_note", "my_middleware")   # custom kinds, validated
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import ConfigError

__all__ = [
    "DEFAULT_NAMESPACE",
    "STRIP_NAMESPACES",
    "ContentKind",
    "ProducerKind",
    "check_namespace",
    "provenance_kwargs",
    "strip_caller_provenance",
]

DEFAULT_NAMESPACE = "deerguard"
#: Namespaces :func:`strip_caller_provenance` clears by default: ours and deer-flow's.
STRIP_NAMESPACES: tuple[str, ...] = ("deerguard", "deerflow")

_NS_FIRST = frozenset("abcdefghijklmnopqrstuvwxyz")
_NS_CHARS = _NS_FIRST | frozenset("0123456789_")
_KIND_FIRST = _NS_FIRST | {"_"}
_KIND_CHARS = _NS_CHARS | frozenset(".-")
_MAX_KIND = 64
_MAX_ENTITY_ID = 256


class ContentKind(enum.StrEnum):
    """Known kinds of stamped content (what a message *is*). Any kind name string also works."""

    MIDDLEWARE_INJECTION = "middleware_injection"
    MEMORY = "memory"
    DURABLE_CONTEXT = "durable_context"
    SKILL_BODY = "skill_body"
    IMAGE_PAYLOAD = "image_payload"
    SUMMARY = "summary"
    TOOL_RESULT = "tool_result"
    UNTRUSTED_DATA = "untrusted_data"


class ProducerKind(enum.StrEnum):
    """Known producers (which component made a message). Any kind name string also works."""

    DYNAMIC_CONTEXT = "dynamic_context"
    DYNAMIC_CONTEXT_MEMORY = "dynamic_context_memory"
    DURABLE_CONTEXT = "durable_context"
    SYSTEM_COALESCING = "system_coalescing"
    VIEW_IMAGE = "view_image"
    SKILL_ACTIVATION = "skill_activation"
    SUMMARIZATION = "summarization"
    TITLE = "title"
    SANITIZER = "sanitizer"
    TOOL = "tool"


def check_namespace(namespace: object, /) -> str:
    """Return ``namespace`` if it is a valid key prefix, else raise ConfigError.

    A namespace is 1-32 characters of ``a-z 0-9 _``, starting with a letter and not ending
    with ``_`` (the key separator).
    """
    if (
        not isinstance(namespace, str)
        or not 1 <= len(namespace) <= 32
        or namespace[0] not in _NS_FIRST
        or namespace.endswith("_")
        or any(ch not in _NS_CHARS for ch in namespace)
    ):
        raise ConfigError(
            f"namespace {namespace!r} is invalid: use 1-32 characters of a-z, 0-9 and _, "
            "starting with a letter and not ending with _ (e.g. 'deerguard' or 'deerflow')"
        )
    return str.__str__(namespace)


def _check_kind(value: object, what: str, known: type[enum.StrEnum]) -> str:
    if (
        not isinstance(value, str)
        or not 1 <= len(value) <= _MAX_KIND
        or value[0] not in _KIND_FIRST
        or any(ch not in _KIND_CHARS for ch in value)
    ):
        raise ConfigError(
            f"{what} {value!r} is not a kind name: use a {known.__name__} member or "
            f"1-{_MAX_KIND} characters of a-z, 0-9, _ . - starting with a letter or _"
        )
    return str.__str__(value)


def provenance_kwargs(
    content_kind: ContentKind | str,
    producer_kind: ProducerKind | str,
    producer_entity_id: str | None = None,
    *,
    namespace: str = DEFAULT_NAMESPACE,
) -> dict[str, str]:
    """Return the metadata fragment that stamps a message's content kind and producer.

    Keys are ``<namespace>_content_kind``, ``<namespace>_producer_kind`` and, only when given,
    ``<namespace>_producer_entity_id`` (an absent id is omitted, never written as ``None``).
    Values are plain strings. Pure; raises :class:`~deerguard.errors.ConfigError` for a kind
    that is not a kind name, an entity id that is not a 1-256 character string without
    control characters, or a bad namespace.

    >>> provenance_kwargs(ContentKind.MEMORY, "dynamic_context_memory", namespace="deerflow")
    {'deerflow_content_kind': 'memory', 'deerflow_producer_kind': 'dynamic_context_memory'}
    """
    ns = check_namespace(namespace)
    stamp = {
        f"{ns}_content_kind": _check_kind(content_kind, "content kind", ContentKind),
        f"{ns}_producer_kind": _check_kind(producer_kind, "producer kind", ProducerKind),
    }
    if producer_entity_id is not None:
        if (
            not isinstance(producer_entity_id, str)
            or not 1 <= len(producer_entity_id) <= _MAX_ENTITY_ID
            or any(unicodedata.category(ch) == "Cc" for ch in producer_entity_id)
        ):
            raise ConfigError(
                f"producer_entity_id {producer_entity_id!r} is invalid: pass a 1-"
                f"{_MAX_ENTITY_ID} character string without control characters, or None"
            )
        stamp[f"{ns}_producer_entity_id"] = str.__str__(producer_entity_id)
    return stamp


def _namespaces(namespace: str | Iterable[str]) -> tuple[str, ...]:
    if isinstance(namespace, str):
        return (check_namespace(namespace),)
    try:
        names = tuple(namespace)
    except TypeError:
        raise ConfigError(
            f"namespace must be a str or an iterable of str, got {type(namespace).__name__}"
        ) from None
    if not names:
        raise ConfigError("namespace must name at least one namespace, got an empty iterable")
    return tuple(check_namespace(name) for name in names)


def _fold_key(key: str) -> str:
    # A forged key may hide behind case, fullwidth letters, zero-width or bidi characters or
    # padding; a downstream layer that normalizes keys (or a human reading logs) would see the
    # server's key. Compare on a folded form so every disguise is stripped too.
    text = unicodedata.normalize("NFKC", key)
    text = "".join(
        ch for ch in text if not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Cc")
    )
    return text.casefold()


def strip_caller_provenance(
    metadata: Mapping[Any, Any] | None,
    /,
    *,
    namespace: str | Iterable[str] = STRIP_NAMESPACES,
) -> dict[Any, Any]:
    """Return a copy of caller-supplied ``metadata`` without any key of the namespace(s).

    The namespaces are server-owned, so *every* key whose folded form (NFKC, case-folded,
    whitespace/format/control characters removed) begins with a namespace is removed:
    ``deerguard_content_kind``, ``DeerGuard_receipt``, ``deerguard-x``, a fullwidth or
    zero-width disguise of either. By default both ``deerguard`` and ``deerflow`` are cleared.
    Other keys (including non-string keys) are kept, values are not copied (shallow copy).
    Only top-level keys are inspected.

    Never mutates the input and never raises on the metadata itself: ``None`` gives ``{}``,
    and a value that is not a mapping, or whose iteration fails, fails closed to ``{}`` (all
    caller metadata dropped). A bad ``namespace`` option raises ConfigError. Idempotent.

    >>> strip_caller_provenance({"deerflow_content_kind": "memory", "lang": "en"})
    {'lang': 'en'}
    """
    prefixes = _namespaces(namespace)
    if metadata is None or not isinstance(metadata, Mapping):
        return {}
    try:
        kept: dict[Any, Any] = {}
        for key, value in metadata.items():
            if isinstance(key, str) and _fold_key(key).startswith(prefixes):
                continue
            kept[key] = value
        return kept
    except Exception:  # hostile mapping: fail closed, drop everything the caller sent
        return {}
