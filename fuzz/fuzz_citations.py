"""Fuzz harness: parse_citations, verify_citations and the receipt reader on hostile bytes.

Every input is decoded (UTF-8, undecodable bytes kept as lone surrogates) and used as model
text for ``parse_citations``/``verify_citations``; when it is JSON, also as a stamped receipt
value and as whole metadata for ``read_receipt``, as ids for ``validate_snapshot`` and as
caller metadata for ``strip_caller_provenance``. Invariants checked:

* nothing raises;
* every citation id is ``r`` plus 1-6 ASCII digits, its span covers ``[<id>...]``, anchors
  are stripped, non-empty, at most 300 characters and bracket-free, no (id, anchor) repeats;
* the report partitions the citations consistently with the ledger;
* the reader returns a Receipt or None, and a Receipt it returns round-trips through
  ``stamp_receipt``; after ``strip_caller_provenance`` no receipt can be read;
* ``validate_snapshot`` returns a bool.

Seeds: every text of ``corpora/provenance/*.jsonl`` plus stamped receipts and mutations.
Run: ``python fuzz/fuzz_citations.py -max_total_time=60`` (``--replay`` replays seeds only).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _harness import ROOT, run  # noqa: E402

from deerguard.provenance import (  # noqa: E402
    Receipt,
    make_receipt,
    read_receipt,
    render_ledger,
    stamp_receipt,
    strip_caller_provenance,
    validate_snapshot,
    verify_citations,
)
from deerguard.provenance import parse_citations as parse  # noqa: E402

_ASCII = frozenset("0123456789")
_RECEIPTS = [
    make_receipt("tool", "success", {"n": i}, f"output {i} [r{i}]", timestamp=i) for i in range(12)
]
_LEDGER = render_ledger(_RECEIPTS, budget=400)
_OUTPUTS = {f"r{i + 1}": f"output {i} [r{i}]" for i in range(12)}


def _check_text(text: str) -> None:
    citations = parse(text)
    pairs = [(c.id, c.anchor) for c in citations]
    assert len(pairs) == len(set(pairs)), pairs
    for citation in citations:
        digits = citation.id[1:]
        assert citation.id[:1] == "r" and 1 <= len(digits) <= 6, citation
        assert set(digits) <= _ASCII, citation
        assert citation.span is not None
        token = text[citation.span.start : citation.span.end]
        assert token.startswith("[" + citation.id) and token.endswith("]"), (citation, token)
        anchor = citation.anchor
        if anchor is not None:
            assert anchor and anchor == anchor.strip() and len(anchor) <= 300, citation
            assert "[" not in anchor and "]" not in anchor, citation
    report = verify_citations(text, _LEDGER, outputs=_OUTPUTS)
    assert report.citations == tuple(citations)
    for citation in report.verified:
        assert _LEDGER.status(citation.id) == "retained"
    for ident in report.unknown_ids:
        assert _LEDGER.status(ident) == "unknown"
    for ident in report.omitted_ids:
        assert _LEDGER.status(ident) == "omitted"
    json.dumps(report.to_dict())


def _check_json(value: object) -> None:
    for metadata in ({"deerguard_receipt": value}, value):
        receipt = read_receipt(metadata)
        assert receipt is None or isinstance(receipt, Receipt)
        if receipt is not None:
            assert read_receipt(stamp_receipt({}, receipt)) == receipt
    assert validate_snapshot(value) in (True, False)
    stripped = strip_caller_provenance(value)  # type: ignore[arg-type]
    assert isinstance(stripped, dict)
    if isinstance(value, dict):
        assert set(stripped) <= set(value)
        assert read_receipt(stripped) is None


def test_one_input(data: bytes) -> None:
    text = data.decode("utf-8", "surrogateescape")
    _check_text(text)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return
    _check_json(value)


def seeds() -> Iterator[bytes]:
    for path in sorted((ROOT / "corpora" / "provenance").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            yield json.loads(line)["text"].encode("utf-8", "surrogatepass")
    stamp = stamp_receipt({}, _RECEIPTS[3])
    yield json.dumps(stamp).encode()
    yield json.dumps(stamp["deerguard_receipt"]).encode()
    for key, bad in [("v", 2), ("status", "ok"), ("output_bytes", -1), ("timestamp", None)]:
        yield json.dumps({**stamp["deerguard_receipt"], key: bad}).encode()
    yield b"[r1][r12: output 11 ][r13]" + b"[r" + b"9" * 50 + b"]"
    yield b'["r24", "r25", 26, "r27"]'
    yield b'{"DeerGuard_receipt": 1, "deerflow_content_kind": "memory", "lang": "en"}'


if __name__ == "__main__":
    run(test_one_input, seeds(), name="citations")
