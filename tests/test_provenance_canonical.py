"""Canonical JSON (RFC 8785 style) and canonical_hash."""

from __future__ import annotations

from deerguard.provenance import canonical_hash, canonical_json


def test_keys_sorted_no_whitespace_minimal_escapes() -> None:
    value = {"b": [1, 'x\ny\u0001"\\/'], "a": {"z": None, "y": True}, "é": False}
    assert canonical_json(value) == (
        '{"a":{"y":true,"z":null},"b":[1,"x\\ny\\u0001\\"\\\\/"],"é":false}'.encode()
    )


def test_equal_values_hash_equal() -> None:
    assert canonical_hash({"a": 1, "b": (1, 2)}) == canonical_hash({"b": [1.0, 2], "a": 1.0})
    assert canonical_hash(-0.0) == canonical_hash(0)
    assert canonical_hash(10**20) == canonical_hash(1e20)
