"""Red-team properties of provenance helpers on hostile values."""

from __future__ import annotations

import pytest

from deerguard.errors import CanonicalizationError
from deerguard.provenance import canonical_hash, canonical_json


@pytest.mark.parametrize(
    "value", [10**5000, -(10**5000), [1, {"n": 2**20000}]], ids=["pos", "neg", "nested"]
)
def test_a_huge_integer_is_a_canonicalization_error_not_a_value_error(value: object) -> None:
    with pytest.raises(CanonicalizationError, match="too large"):
        canonical_json(value)


def test_integers_up_to_the_bound_are_written_exactly() -> None:
    big = 2**12_999
    assert canonical_json(big) == str(big).encode()
    assert canonical_hash(big) != canonical_hash(big + 1)


def test_a_very_deep_value_never_raises_recursion_error() -> None:
    deep: list[object] = []
    cur = deep
    for _ in range(100_000):
        nxt: list[object] = []
        cur.append(nxt)
        cur = nxt
    try:
        out = canonical_json(deep)
    except CanonicalizationError:
        return
    assert out.startswith(b"[[[")
