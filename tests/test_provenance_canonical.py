"""Canonical JSON (RFC 8785 style) and canonical_hash: vectors, properties, oracles, errors."""

from __future__ import annotations

import enum
import json
import math
import random
import shutil
import struct
import subprocess
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deerguard.errors import CanonicalizationError
from deerguard.provenance import canonical_hash, canonical_json
from deerguard.provenance._canonical import es_number

# RFC 8785 Appendix B: IEEE-754 bit patterns and their ECMAScript serializations.
RFC8785_NUMBERS = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize(("bits", "expected"), RFC8785_NUMBERS)
def test_rfc8785_number_vectors(bits: str, expected: str) -> None:
    (value,) = struct.unpack(">d", bytes.fromhex(bits))
    assert es_number(value) == expected
    assert canonical_json(value) == expected.encode()


def test_rfc8785_sample_object() -> None:
    value = {
        "numbers": [333333333.33333329, 1e30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000f\u000aA'\u0042\u0022\u005c\\\"/",
        "literals": [None, True, False],
    }
    assert (
        canonical_json(value)
        == (
            '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
            '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
        ).encode()
    )


def test_keys_sort_by_utf16_code_units() -> None:
    keys = ["\u20ac", "\r", "\ufb33", "1", "\U0001f600", "\u0080", "\u00f6"]
    value = {key: index for index, key in enumerate(keys)}
    order = list(json.loads(canonical_json(value)))
    # U+1F600 is the surrogate pair D83D DE00, which sorts before U+FB33 in UTF-16.
    assert order == ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"]


def test_keys_sorted_no_whitespace_minimal_escapes() -> None:
    value = {"b": [1, 'x\ny\u0001"\\/\u007f\u2028'], "a": {"z": None, "y": True}, "é": False}
    assert canonical_json(value) == (
        '{"a":{"y":true,"z":null},"b":[1,"x\\ny\\u0001\\"\\\\/\u007f\u2028"],"é":false}'.encode()
    )


class _Color(enum.StrEnum):
    RED = "red"


class _Level(enum.IntEnum):
    HIGH = 3


def test_equal_values_hash_equal() -> None:
    assert canonical_hash({"a": 1, "b": (1, 2)}) == canonical_hash({"b": [1.0, 2], "a": 1.0})
    assert canonical_hash(-0.0) == canonical_hash(0)
    assert canonical_hash(10**20) == canonical_hash(1e20)
    assert canonical_hash({"c": _Color.RED, "l": _Level.HIGH}) == canonical_hash(
        {"c": "red", "l": 3}
    )
    assert canonical_hash({}) != canonical_hash([])
    assert canonical_hash("1") != canonical_hash(1)


def test_big_integers_are_exact_documented_deviation() -> None:
    assert canonical_json(2**64) == b"18446744073709551616"
    assert canonical_json(10**21) != canonical_json(1e21)


def _cycle() -> Any:
    loop: list[Any] = [1]
    loop.append({"inner": loop})
    return loop


@pytest.mark.parametrize(
    ("value", "path", "words"),
    [
        ({"a": [1, math.nan]}, "$.a[1]", "nan"),
        ({"a": {"b": math.inf}}, "$.a.b", "inf"),
        ([-math.inf], "$[0]", "inf"),
        ({"a": {1: "x"}}, "$.a", "not str"),
        ({"a": {None: "x"}}, "$.a", "not str"),
        (_cycle(), "$[1].inner", "cycle"),
        ({"s": {1, 2}}, "$.s", "set"),
        ({"b": b"x"}, "$.b", "bytes"),
        ({"o": object()}, "$.o", "object"),
        ({"weird key!": ["\ud800"]}, "$['weird key!'][0]", "surrogate"),
        ({"\udc00": 1}, "$['\\udc00']", "surrogate"),
    ],
)
def test_rejections_name_the_json_path(value: Any, path: str, words: str) -> None:
    with pytest.raises(CanonicalizationError) as info:
        canonical_hash(value)
    message = str(info.value)
    assert message.startswith(path + ":"), message
    assert words in message


def test_deep_nesting_does_not_hit_the_recursion_limit() -> None:
    value: Any = "leaf"
    for _ in range(50_000):
        value = [value]
    text = canonical_json(value)
    assert text == b"[" * 50_000 + b'"leaf"' + b"]" * 50_000


def test_shared_subvalues_are_not_cycles() -> None:
    shared = [1, 2]
    assert canonical_json({"a": shared, "b": shared}) == b'{"a":[1,2],"b":[1,2]}'


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


def _shuffled(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {key: _shuffled(item, rng) for key, item in items}
    if isinstance(value, list):
        return [_shuffled(item, rng) for item in value]
    return value


@settings(max_examples=200)
@given(_json, st.integers())
def test_hash_is_invariant_under_key_reordering(value: Any, seed: int) -> None:
    assert canonical_hash(_shuffled(value, random.Random(seed))) == canonical_hash(value)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in _leaves(item, (*path, key))]
    if isinstance(value, list):
        return [p for index, item in enumerate(value) for p in _leaves(item, (*path, index))]
    return [path]


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


@settings(max_examples=200)
@given(_json, st.data())
def test_hash_changes_when_any_value_changes(value: Any, data: st.DataObject) -> None:
    leaves = _leaves(value)
    if not leaves:
        return  # an empty container has no value to change
    path = data.draw(st.sampled_from(leaves))
    old = _get(value, path)
    new = data.draw(_scalars.filter(lambda x: json.dumps(x) != json.dumps(old)))
    if isinstance(new, float | int) and not isinstance(new, bool) and not isinstance(old, bool):
        if isinstance(old, int | float) and float(new) == float(old):
            return  # equal numbers are the same JSON value (1 == 1.0 == -0.0 + 0)
    assert canonical_hash(_replace(value, path, new)) != canonical_hash(value)


@settings(max_examples=200)
@given(_json)
def test_output_is_json_that_reparses_to_an_equal_value_and_is_a_fixed_point(value: Any) -> None:
    text = canonical_json(value)
    # Numbers compare as doubles: JSON (and RFC 8785) does not tell ints from floats.
    assert json.loads(text, parse_int=float) == _floatify(value)
    reparsed = json.loads(text)
    assert canonical_json(reparsed) == text
    # No insignificant whitespace: a space or line break can only come from inside a string.
    assert b"\n" not in text and b"\r" not in text
    assert b" " not in text or any(" " in s for s in _strings(value))


def _floatify(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, dict):
        return {key: _floatify(item) for key, item in value.items()}
    return [_floatify(item) for item in value]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value.keys(), *(s for item in value.values() for s in _strings(item))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


@settings(max_examples=200)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_es_number_round_trips_every_float(value: float) -> None:
    assert float(es_number(value)) == value


try:  # test-only differential oracle (Trail of Bits' pure-Python RFC 8785 implementation)
    import rfc8785
except ImportError:  # pragma: no cover - depends on the test environment
    rfc8785 = None


@pytest.mark.skipif(rfc8785 is None, reason="rfc8785 is not installed")
@settings(max_examples=100)
@given(_json)
def test_matches_the_rfc8785_reference_package(value: Any) -> None:
    assert rfc8785 is not None
    assert canonical_json(value) == rfc8785.dumps(value)


def test_number_formatting_matches_node() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    rng = random.Random(8785)
    values = [struct.unpack(">d", rng.randbytes(8))[0] for _ in range(3000)]
    values += [rng.uniform(-1e6, 1e6) for _ in range(500)] + [10.0**e for e in range(-30, 30)]
    values = [v for v in values if math.isfinite(v)]
    script = (
        "const xs = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(xs.map(x => String(x))));"
    )
    result = subprocess.run(
        [node, "-e", script],
        input=json.dumps([repr(v) for v in values]).replace('"', ""),
        capture_output=True,
        text=True,
        check=True,
    )
    expected = json.loads(result.stdout)
    assert [es_number(v) for v in values] == [e if e != "-0" else "0" for e in expected]


def test_string_escapes_match_rfc8785_for_every_code_point() -> None:
    from deerguard.provenance._canonical import _ESCAPE_TABLE

    for start in range(0, 0x110000, 0x1000):
        chunk = "".join(
            chr(code) for code in range(start, start + 0x1000) if not 0xD800 <= code < 0xE000
        )
        expected = '"' + chunk.translate(_ESCAPE_TABLE) + '"'
        assert canonical_json(chunk) == expected.encode(), hex(start)
