"""deerguard.provenance: stamps, canonical hashing, receipts, ledger and citation checks.

Pure functions over data a model or caller controls: no clock reads (timestamps are passed
in), no I/O, no globals. Caller mistakes raise :class:`~deerguard.errors.ConfigError` or
:class:`~deerguard.errors.CanonicalizationError`; hostile metadata and model text never raise.
"""

from __future__ import annotations

from ._canonical import canonical_hash, canonical_json
from ._stamps import ContentKind, ProducerKind, provenance_kwargs, strip_caller_provenance
from ._trail import append_tool_transform

__all__ = [
    "ContentKind",
    "ProducerKind",
    "append_tool_transform",
    "canonical_hash",
    "canonical_json",
    "provenance_kwargs",
    "strip_caller_provenance",
]
