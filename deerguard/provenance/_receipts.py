"""Tool receipts: a tamper-evident note that a tool call happened with given args and output.

A receipt holds hashes, not data: the tool name, a status from a closed set, the
:func:`canonical_hash` of the arguments, the SHA-256 of the output's bytes, the output's byte
count and the timestamp the caller passed in (the clock is never read here).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import ConfigError
from ._canonical import canonical_hash, canonical_json
from ._stamps import DEFAULT_NAMESPACE, check_namespace

__all__ = [
    "RECEIPT_STATUSES",
    "RECEIPT_VERSION",
    "Receipt",
    "make_receipt",
    "output_bytes",
    "read_receipt",
    "receipt_key",
    "stamp_receipt",
]

#: The closed set of tool-call outcomes a receipt can record.
RECEIPT_STATUSES: frozenset[str] = frozenset({"success", "error", "timeout", "cancelled", "denied"})
RECEIPT_VERSION = 1
_MAX_TOOL_NAME = 256
_MAX_OUTPUT_BYTES = 2**63 - 1
_HEX = frozenset("0123456789abcdef")
_FIELDS = frozenset(
    {"v", "tool_name", "status", "args_hash", "output_hash", "output_bytes", "timestamp"}
)


def _tool_name_ok(name: object) -> bool:
    # Any text is allowed (a model may name a tool it invented); the ledger escapes names
    # that could forge a line. Lone surrogates are refused so the receipt stays valid JSON.
    if type(name) is not str or not 1 <= len(name) <= _MAX_TOOL_NAME:
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _digest_ok(value: object) -> bool:
    return type(value) is str and len(value) == 64 and all(ch in _HEX for ch in value)


def _timestamp_ok(value: object) -> bool:
    if type(value) is int:
        return value >= 0
    if type(value) is float:
        return math.isfinite(value) and value >= 0
    return False


@dataclass(frozen=True, slots=True)
class Receipt:
    """A frozen record of one tool call: who, outcome, and hashes of what went in and out.

    Fields: ``tool_name`` (1-256 characters, no lone surrogates), ``status`` (one of
    ``Receipt.STATUSES``: success, error, timeout, cancelled, denied), ``args_hash`` and
    ``output_hash`` (64 lowercase hex digits), ``output_bytes`` (the output's byte count) and
    ``timestamp`` (non-negative int or finite float, e.g. Unix seconds, as the caller passed
    it). Construction validates every field and raises ConfigError, so every Receipt that
    exists is well formed. Build one with :func:`make_receipt`.
    """

    STATUSES: ClassVar[frozenset[str]] = RECEIPT_STATUSES

    tool_name: str
    status: str
    args_hash: str
    output_hash: str
    output_bytes: int
    timestamp: int | float

    def __post_init__(self) -> None:
        # Accept str subclasses (e.g. a StrEnum status) but store plain str values.
        for name in ("tool_name", "status", "args_hash", "output_hash"):
            value = getattr(self, name)
            if isinstance(value, str) and type(value) is not str:
                object.__setattr__(self, name, str.__str__(value))
        if not _tool_name_ok(self.tool_name):
            raise ConfigError(
                f"tool_name {self.tool_name!r} is invalid: pass 1-{_MAX_TOOL_NAME} characters "
                "of valid Unicode (e.g. 'read_file')"
            )
        if type(self.status) is not str or self.status not in RECEIPT_STATUSES:
            raise ConfigError(
                f"status {self.status!r} is unknown: use one of {sorted(RECEIPT_STATUSES)}"
            )
        for name in ("args_hash", "output_hash"):
            if not _digest_ok(getattr(self, name)):
                raise ConfigError(f"{name} must be 64 lowercase hex digits (a sha256 hexdigest)")
        if type(self.output_bytes) is not int or not 0 <= self.output_bytes <= _MAX_OUTPUT_BYTES:
            raise ConfigError(f"output_bytes must be a non-negative int, got {self.output_bytes!r}")
        if not _timestamp_ok(self.timestamp):
            raise ConfigError(
                f"timestamp must be a non-negative int or finite float (e.g. time.time()), "
                f"got {self.timestamp!r}"
            )

    def to_dict(self) -> dict[str, Any]:
        """Return the receipt as JSON data, with a format version ``v``."""
        return {
            "v": RECEIPT_VERSION,
            "tool_name": self.tool_name,
            "status": self.status,
            "args_hash": self.args_hash,
            "output_hash": self.output_hash,
            "output_bytes": self.output_bytes,
            "timestamp": self.timestamp,
        }

    def matches(self, args: object, output: object) -> bool:
        """Return True when ``args`` and ``output`` are what this receipt recorded.

        Never raises: values that cannot be hashed simply do not match.
        """
        try:
            data = output_bytes(output)
            return (
                canonical_hash(args) == self.args_hash
                and hashlib.sha256(data).hexdigest() == self.output_hash
                and len(data) == self.output_bytes
            )
        except Exception:
            return False


def output_bytes(output: object, /) -> bytes:
    """Return the bytes a receipt hashes for a tool ``output``.

    A ``str`` is its UTF-8 encoding (lone surrogates kept via ``surrogatepass``, so any
    Python string has a receipt); ``bytes``-like values are taken as they are; anything else
    (a list of content blocks such as ``[{"type": "text", "text": "..."}]``, a dict, a number)
    is its :func:`canonical_json`. So ``"hi"`` and ``[{"type": "text", "text": "hi"}]`` hash
    differently: the receipt records the shape the tool returned.
    """
    if isinstance(output, str):
        return output.encode("utf-8", "surrogatepass")
    if isinstance(output, bytes | bytearray | memoryview):
        return bytes(output)
    return canonical_json(output)


def make_receipt(
    tool_name: str,
    status: str,
    args: object,
    output: object,
    *,
    timestamp: int | float,
) -> Receipt:
    """Build the :class:`Receipt` of one tool call.

    ``args_hash`` is ``canonical_hash(args)`` (key order and ``1`` vs ``1.0`` do not matter);
    ``output_hash``/``output_bytes`` are the SHA-256 and length of :func:`output_bytes`.
    Deterministic; ``timestamp`` is stored as passed (never read from a clock). Raises
    ConfigError for a bad name, an unknown status or a bad timestamp, CanonicalizationError
    when args or a structured output are not JSON data.

    >>> r = make_receipt("read_file", "success", {"path": "a.txt"}, "hello", timestamp=1700000000)
    >>> r.output_bytes, r.matches({"path": "a.txt"}, "hello")
    (5, True)
    """
    data = output_bytes(output)
    return Receipt(
        tool_name=tool_name,
        status=status,
        args_hash=canonical_hash(args),
        output_hash=hashlib.sha256(data).hexdigest(),
        output_bytes=len(data),
        timestamp=timestamp,
    )


def receipt_key(namespace: str = DEFAULT_NAMESPACE) -> str:
    """Return the metadata key a receipt is stamped under, ``<namespace>_receipt``."""
    return f"{check_namespace(namespace)}_receipt"


def stamp_receipt(
    metadata: Mapping[str, Any] | None,
    receipt: Receipt,
    /,
    *,
    namespace: str = DEFAULT_NAMESPACE,
) -> dict[str, Any]:
    """Return a copy of ``metadata`` with ``receipt`` stored under ``<namespace>_receipt``.

    Never mutates ``metadata`` (``None`` means ``{}``); an existing receipt is replaced.
    Raises ConfigError when ``receipt`` is not a Receipt or metadata is not a mapping.
    :func:`read_receipt` round-trips it exactly.

    >>> r = make_receipt("ls", "success", {}, "", timestamp=0)
    >>> sorted(stamp_receipt({"lang": "en"}, r))
    ['deerguard_receipt', 'lang']
    """
    key = receipt_key(namespace)
    if not isinstance(receipt, Receipt):
        raise ConfigError(f"receipt must be a Receipt, got {type(receipt).__name__}")
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, Mapping):
        raise ConfigError(f"metadata must be a mapping or None, got {type(metadata).__name__}")
    result = dict(metadata)
    result[key] = receipt.to_dict()
    return result


def read_receipt(
    metadata: object,
    /,
    *,
    namespace: str = DEFAULT_NAMESPACE,
) -> Receipt | None:
    """Return the receipt stamped in ``metadata``, or None if absent or malformed.

    Strict: the stamped value must be a plain dict with exactly the fields ``to_dict()``
    writes, each of the exact type (no bool for int, no str subclasses), ``v == 1``, a known
    status, well-formed digests. Anything else, including a hostile mapping whose methods
    raise, gives None: the reader never raises on metadata (only a bad ``namespace`` option
    raises ConfigError).

    >>> r = make_receipt("ls", "success", {}, "", timestamp=0)
    >>> read_receipt(stamp_receipt({}, r)) == r, read_receipt({"deerguard_receipt": "x"})
    (True, None)
    """
    key = receipt_key(namespace)
    try:
        if not isinstance(metadata, Mapping):
            return None
        value = metadata.get(key)
        if type(value) is not dict or len(value) != len(_FIELDS):
            return None
        if not all(type(name) is str for name in value) or set(value) != _FIELDS:
            return None
        version = value["v"]
        if type(version) is not int or version != RECEIPT_VERSION:
            return None
        return Receipt(
            tool_name=value["tool_name"],
            status=value["status"],
            args_hash=value["args_hash"],
            output_hash=value["output_hash"],
            output_bytes=value["output_bytes"],
            timestamp=value["timestamp"],
        )
    except Exception:
        return None
