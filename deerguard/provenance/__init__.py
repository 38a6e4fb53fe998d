"""deerguard.provenance: stamps, canonical hashing, receipts, ledger and citation checks.

When an agent answers "the file says X [r12]", these pure functions let anyone check that tool
call 12 really happened, with those arguments and that output, and that injected context came
from the server and not from a caller:

* stamps: :func:`provenance_kwargs`, :func:`strip_caller_provenance`,
  :func:`append_tool_transform` (server-owned metadata keys under a namespace);
* :func:`canonical_json` / :func:`canonical_hash` (RFC 8785 style);
* receipts: :func:`make_receipt`, :func:`stamp_receipt`, :func:`read_receipt`;
* the ledger the model cites: :func:`render_ledger`, :func:`validate_snapshot`;
* citations: :func:`parse_citations`, :func:`verify_citations`;
* self-description: :func:`collect_release_policies`.

Server-owned metadata keys (``<ns>`` is ``deerguard`` by default, ``deerflow`` for deer-flow)::

    <ns>_content_kind, <ns>_producer_kind, <ns>_producer_entity_id   provenance_kwargs
    <ns>_receipt                                                     stamp_receipt
    <ns>_tool_transforms                                             append_tool_transform

Every key of a namespace is server-owned: strip_caller_provenance removes them all (and their
case, width and zero-width disguises) from inbound caller metadata.

No clock reads (timestamps are passed in), no I/O, no globals. Caller mistakes raise
:class:`~deerguard.errors.ConfigError` or :class:`~deerguard.errors.CanonicalizationError`;
hostile metadata and model text never raise.
"""

from __future__ import annotations

from ._canonical import canonical_hash, canonical_json
from ._citations import Citation, CitationReport, parse_citations, verify_citations
from ._ledger import Ledger, LedgerEntry, render_ledger, validate_snapshot
from ._policies import ReleasePolicySummary, collect_release_policies
from ._receipts import RECEIPT_STATUSES, Receipt, make_receipt, read_receipt, stamp_receipt
from ._stamps import ContentKind, ProducerKind, provenance_kwargs, strip_caller_provenance
from ._trail import append_tool_transform

__all__ = [
    "RECEIPT_STATUSES",
    "Citation",
    "CitationReport",
    "ContentKind",
    "Ledger",
    "LedgerEntry",
    "ProducerKind",
    "Receipt",
    "ReleasePolicySummary",
    "append_tool_transform",
    "canonical_hash",
    "canonical_json",
    "collect_release_policies",
    "make_receipt",
    "parse_citations",
    "provenance_kwargs",
    "read_receipt",
    "render_ledger",
    "stamp_receipt",
    "strip_caller_provenance",
    "validate_snapshot",
    "verify_citations",
]
