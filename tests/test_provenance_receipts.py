"""Tool receipts: hashing of args and outputs, stamping, and the strict, non-raising reader."""

from __future__ import annotations

import hashlib
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deerguard.errors import CanonicalizationError, ConfigError
from deerguard.provenance import (
    Receipt,
    canonical_hash,
    make_receipt,
    read_receipt,
    stamp_receipt,
)

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=15,
)
_names = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20)
_stamps = st.integers(min_value=0, max_value=2**40) | st.floats(
    min_value=0, max_value=1e12, allow_nan=False, allow_infinity=False
)
_receipts = st.builds(
    make_receipt,
    _names,
    st.sampled_from(sorted(Receipt.STATUSES)),
    _json,
    st.text(max_size=50)
    | st.binary(max_size=20)
    | st.lists(
        st.fixed_dictionaries({"type": st.just("text"), "text": st.text(max_size=10)}), max_size=3
    ),
    timestamp=_stamps,
)


def test_string_output_hashes_its_utf8_bytes() -> None:
    receipt = make_receipt("read_file", "success", {"path": "é.txt"}, "héllo", timestamp=1.5)
    assert receipt.output_bytes == len("héllo".encode())
    assert receipt.output_hash == hashlib.sha256("héllo".encode()).hexdigest()
    assert receipt.args_hash == canonical_hash({"path": "é.txt"})
    assert receipt.timestamp == 1.5


def test_content_block_output_hashes_its_canonical_json() -> None:
    blocks = [{"type": "text", "text": "hi"}]
    receipt = make_receipt("fetch", "success", {}, blocks, timestamp=0)
    expected = b'[{"text":"hi","type":"text"}]'
    assert receipt.output_hash == hashlib.sha256(expected).hexdigest()
    assert receipt.output_bytes == len(expected)
    assert (
        receipt.output_hash != make_receipt("fetch", "success", {}, "hi", timestamp=0).output_hash
    )


def test_args_hash_ignores_key_order_and_int_float_spelling() -> None:
    first = make_receipt("t", "success", {"a": 1, "b": [1, 2]}, "", timestamp=0)
    second = make_receipt("t", "success", {"b": (1.0, 2), "a": 1.0}, "", timestamp=0)
    assert first == second


def test_matches_detects_changed_args_or_output_and_never_raises() -> None:
    receipt = make_receipt("t", "success", {"q": "x"}, "out", timestamp=0)
    assert receipt.matches({"q": "x"}, "out")
    assert not receipt.matches({"q": "y"}, "out")
    assert not receipt.matches({"q": "x"}, "out!")
    assert not receipt.matches({"q": math.nan}, "out")
    assert not receipt.matches({"q": "x"}, object())


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"tool_name": ""}, ConfigError),
        ({"tool_name": "x" * 257}, ConfigError),
        ({"tool_name": "lone\ud800"}, ConfigError),
        ({"tool_name": 3}, ConfigError),
        ({"status": "ok"}, ConfigError),
        ({"status": "SUCCESS"}, ConfigError),
        ({"timestamp": True}, ConfigError),
        ({"timestamp": -1}, ConfigError),
        ({"timestamp": math.inf}, ConfigError),
        ({"timestamp": "2024-01-01"}, ConfigError),
        ({"args": {"x": math.nan}}, CanonicalizationError),
        ({"args": {1: "int key"}}, CanonicalizationError),
        ({"output": [{"blob": b"x"}]}, CanonicalizationError),
    ],
)
def test_make_receipt_rejects_caller_mistakes(kwargs: dict[str, Any], error: type) -> None:
    call: dict[str, Any] = {
        "tool_name": "t",
        "status": "success",
        "args": {},
        "output": "",
        "timestamp": 0,
    }
    call.update(kwargs)
    timestamp = call.pop("timestamp")
    with pytest.raises(error):
        make_receipt(**call, timestamp=timestamp)


@settings(max_examples=200)
@given(_receipts, st.dictionaries(st.text(max_size=8), st.integers(), max_size=3))
def test_stamp_then_read_round_trips_and_never_mutates(
    receipt: Receipt, meta: dict[str, Any]
) -> None:
    before = dict(meta)
    stamped = stamp_receipt(meta, receipt)
    assert meta == before
    assert read_receipt(stamped) == receipt
    assert read_receipt(
        stamp_receipt(None, receipt, namespace="deerflow"), namespace="deerflow"
    ) == (receipt)


def _stamped() -> dict[str, Any]:
    receipt = make_receipt("t", "success", {}, "x", timestamp=7)
    return stamp_receipt({}, receipt)["deerguard_receipt"]


_MUTATIONS: list[tuple[str, Any]] = [
    ("v", 2),
    ("v", True),
    ("v", "1"),
    ("status", "ok"),
    ("status", None),
    ("tool_name", ""),
    ("tool_name", "x" * 257),
    ("args_hash", "0" * 63),
    ("args_hash", "G" * 64),
    ("output_hash", "A" * 64),
    ("output_bytes", -1),
    ("output_bytes", 1.0),
    ("output_bytes", True),
    ("output_bytes", 2**64),
    ("timestamp", "now"),
    ("timestamp", math.nan),
    ("timestamp", None),
]


@pytest.mark.parametrize(("field", "value"), _MUTATIONS)
def test_reader_returns_none_for_each_malformed_field(field: str, value: Any) -> None:
    stamp = _stamped()
    stamp[field] = value
    assert read_receipt({"deerguard_receipt": stamp}) is None


class _Hostile(dict[str, Any]):
    def get(self, *args: Any) -> Any:
        raise RuntimeError("boom")


def test_reader_returns_none_for_missing_extra_or_hostile_shapes() -> None:
    base = _stamped()
    extra = {**base, "more": 1}
    missing = {k: v for k, v in base.items() if k != "status"}
    for metadata in [
        None,
        "deerguard_receipt",
        {},
        {"deerguard_receipt": None},
        {"deerguard_receipt": [base]},
        {"deerguard_receipt": extra},
        {"deerguard_receipt": missing},
        {"deerguard_receipt": {**base, 1: 2}},
        _Hostile(deerguard_receipt=base),
    ]:
        assert read_receipt(metadata) is None
    assert read_receipt({"deerguard_receipt": base}) is not None
    # A receipt under another namespace is not read.
    assert read_receipt({"deerguard_receipt": base}, namespace="deerflow") is None


@settings(max_examples=200)
@given(st.dictionaries(st.text(max_size=12), _json, max_size=8) | _json)
def test_reader_never_raises_on_arbitrary_json(value: Any) -> None:
    result = read_receipt({"deerguard_receipt": value})
    assert result is None or isinstance(result, Receipt)
    assert read_receipt(value) is None or isinstance(read_receipt(value), Receipt)
