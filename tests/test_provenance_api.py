"""The public surface of deerguard.provenance: pinned exports and runnable docstring examples."""

from __future__ import annotations

import doctest
import importlib

import pytest

import deerguard.provenance as provenance

EXPECTED = {
    "Citation",
    "CitationReport",
    "ContentKind",
    "Ledger",
    "LedgerEntry",
    "ProducerKind",
    "RECEIPT_STATUSES",
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
}


def test_all_is_pinned_and_every_name_resolves() -> None:
    assert set(provenance.__all__) == EXPECTED
    for name in provenance.__all__:
        assert getattr(provenance, name) is not None


def test_every_public_function_has_a_docstring_with_an_example() -> None:
    for name in provenance.__all__:
        obj = getattr(provenance, name)
        if callable(obj) and not isinstance(obj, type):
            assert obj.__doc__ and ">>>" in obj.__doc__, name


@pytest.mark.parametrize(
    "module",
    ["_canonical", "_stamps", "_trail", "_receipts", "_ledger", "_citations", "_policies"],
)
def test_docstring_examples_run(module: str) -> None:
    mod = importlib.import_module(f"deerguard.provenance.{module}")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
