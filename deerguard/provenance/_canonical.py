"""Canonical JSON (RFC 8785 / JCS style) and its SHA-256 hash.

Two values that mean the same JSON hash the same: key order does not matter, ``1`` and
``1.0`` are one number, a tuple is a list. Values JSON has no form for are refused with a
:class:`~deerguard.errors.CanonicalizationError` that names the JSON path of the bad value.

Deviations from RFC 8785, both deliberate:

* Python integers are written exactly, with all their digits. RFC 8785 treats every number as
  an IEEE-754 double, so an integer beyond 2**53 would be rounded (or refused) there.
  Consequence: an
  integer and a float are written alike (and hash alike) only while the float's ES form has no
  exponent, i.e. for integral floats below 1e21 (``10**20 == 1e20`` hash equal, ``10**21`` and
  ``1e21`` do not). Integers longer than 13,000 bits (about 3,900 digits) are refused with a
  clear error, so the answer never depends on the interpreter's integer-to-string digit limit.
* Only ``dict``-like mappings with ``str`` keys, ``list``/``tuple``, ``str``, ``int``,
  ``float``, ``bool`` and ``None`` are accepted (plus subclasses such as ``StrEnum`` and
  ``IntEnum``, written as their plain value). Sets, bytes and other objects are refused
  rather than guessed at.

The encoder is iterative, so nesting depth is bounded only by memory, never by Python's
recursion limit; it runs in time linear in the size of the output.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from json.encoder import encode_basestring as _encode_basestring
from typing import Any

from ..errors import CanonicalizationError

__all__ = ["canonical_hash", "canonical_json", "es_number", "plain_json"]

_SHORT_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}
# RFC 8785 section 3.2.2.2: the short escapes above, \u00xx (lowercase hex) for the other
# control characters, everything else as is.
_ESCAPE_TABLE: dict[int, str] = {code: f"\\u{code:04x}" for code in range(0x20)}
_ESCAPE_TABLE.update({ord(ch): text for ch, text in _SHORT_ESCAPES.items()})

# A path is a linked list (parent, segment) so that building it costs O(1) per value; it is
# only rendered when an error is raised.
_Path = tuple[Any, str] | None


def _render_path(path: _Path) -> str:
    parts: list[str] = []
    while path is not None:
        path, segment = path
        parts.append(segment)
    return "$" + "".join(reversed(parts))


def _key_segment(key: str) -> str:
    if key.isidentifier() and key.isascii():
        return "." + key
    return "[" + _quote_for_message(key) + "]"


def _quote_for_message(text: str) -> str:
    shown = text if len(text) <= 40 else text[:37] + "..."
    return repr(shown)


def _fail(path: _Path, message: str) -> CanonicalizationError:
    return CanonicalizationError(f"{_render_path(path)}: {message}")


def es_number(value: float) -> str:
    """Write a finite float as ECMAScript ``Number.prototype.toString`` does.

    Python's ``repr`` already yields the shortest digits that round-trip; only the layout
    differs. ``-0.0`` becomes ``0``.

    >>> es_number(1.0), es_number(1e21), es_number(1.5e-7), es_number(0.000001)
    ('1', '1e+21', '1.5e-7', '0.000001')
    """
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    text = repr(abs(value))
    mantissa, _, exp_text = text.partition("e")
    exponent = int(exp_text) if exp_text else 0
    int_part, _, frac_part = mantissa.partition(".")
    raw = int_part + frac_part
    stripped = raw.lstrip("0")
    leading = len(raw) - len(stripped)
    digits = stripped.rstrip("0")
    k = len(digits)
    # value == 0.d1d2...dk * 10**n, the ES notation.
    n = len(int_part) + exponent - leading
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        body = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-")
        body += str(abs(e))
    return sign + body


def _string(value: str, path: _Path) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise _fail(
            path,
            f"string contains a lone surrogate at index {exc.start}; canonical JSON needs "
            "valid Unicode (decode text with errors='replace' first)",
        ) from None
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return '"' + value + '"'
    # The stdlib's C string encoder (ensure_ascii=False) writes exactly these escapes; a test
    # checks every code point against _ESCAPE_TABLE, the reference definition.
    return _encode_basestring(value)


_MAX_INT_BITS = 13_000


def _scalar(value: object, path: _Path) -> str | None:
    """Return the canonical text of a scalar, or None when ``value`` is a container."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _string(str.__str__(value), path)
    if isinstance(value, bool):  # bool subclasses cannot exist, but stay explicit
        return "true" if value else "false"
    if isinstance(value, int):
        # Bounded so the answer never depends on sys.set_int_max_str_digits (and stays cheap):
        # 13,000 bits is about 3,900 digits, under every interpreter limit.
        bits = int.bit_length(value)
        if bits > _MAX_INT_BITS:
            raise _fail(
                path,
                f"integer of {bits} bits is too large for canonical JSON (at most "
                f"{_MAX_INT_BITS} bits); encode it as a string",
            )
        try:
            return int.__repr__(value)
        except ValueError as exc:  # an interpreter with a lower digit limit
            raise _fail(path, f"integer too large to print here ({exc}); use a string") from None
    if isinstance(value, float):
        number = float(value)
        if math.isnan(number) or math.isinf(number):
            raise _fail(path, f"{number!r} has no JSON form (use a finite number or a string)")
        return es_number(number)
    if isinstance(value, Mapping | list | tuple):
        return None
    raise _fail(
        path,
        f"unsupported type {type(value).__name__}; use str, int, finite float, bool, None, "
        "list or a dict with str keys",
    )


def _sort_key(key: str) -> bytes:
    # UTF-16 big-endian bytes compare exactly like the UTF-16 code units RFC 8785 sorts by.
    return key.encode("utf-16-be", "surrogatepass")


def canonical_json(value: object, /) -> bytes:
    """Return ``value`` as canonical JSON bytes (RFC 8785 style, UTF-8).

    Object keys are sorted by their UTF-16 code units, there is no whitespace, strings use the
    minimal escapes (``\\" \\\\ \\b \\f \\n \\r \\t`` and ``\\u00xx`` for other control
    characters; everything else is raw UTF-8), floats use ECMAScript's shortest round-trip
    form (``1.0`` -> ``1``, ``1e21`` -> ``1e+21``, ``-0.0`` -> ``0``). Deterministic and
    linear; see the module docstring for the two deviations from RFC 8785 (exact big integers;
    only plain JSON types accepted).

    Raises :class:`~deerguard.errors.CanonicalizationError` naming the JSON path for NaN,
    infinities, non-string keys, lone surrogates, cycles and unsupported types.

    >>> canonical_json({"b": [1.0, True], "a": None})
    b'{"a":null,"b":[1,true]}'
    """
    out: list[str] = []
    # Work items: ("v", value, path) to encode a value, ("s", text) to emit text,
    # ("x", container_id) to leave a container (pops it from the cycle guard).
    work: list[tuple[Any, ...]] = [("v", value, None)]
    active: set[int] = set()
    while work:
        item = work.pop()
        tag = item[0]
        if tag == "s":
            out.append(item[1])
            continue
        if tag == "x":
            active.discard(item[1])
            continue
        current, path = item[1], item[2]
        text = _scalar(current, path)
        if text is not None:
            out.append(text)
            continue
        ident = id(current)
        if ident in active:
            raise _fail(path, "cycle: this container contains itself")
        active.add(ident)
        pending: list[tuple[Any, ...]] = []
        if isinstance(current, Mapping):
            entries: list[tuple[bytes, str, str, Any]] = []
            for key, child in current.items():
                if not isinstance(key, str):
                    raise _fail(
                        path,
                        f"mapping key {key!r} is {type(key).__name__}, not str "
                        "(JSON object keys must be strings)",
                    )
                plain_key = str.__str__(key)
                key_text = _string(plain_key, (path, _key_segment(plain_key)))
                entries.append((_sort_key(plain_key), plain_key, key_text, child))
            entries.sort(key=lambda entry: entry[0])
            pending.append(("s", "{"))
            for index, (_, plain_key, key_text, child) in enumerate(entries):
                if index:
                    pending.append(("s", ","))
                if index and entries[index - 1][1] == plain_key:
                    raise _fail(path, f"duplicate key {_quote_for_message(plain_key)}")
                pending.append(("s", key_text + ":"))
                pending.append(("v", child, (path, _key_segment(plain_key))))
            pending.append(("s", "}"))
        else:
            pending.append(("s", "["))
            for index, child in enumerate(current):
                if index:
                    pending.append(("s", ","))
                pending.append(("v", child, (path, f"[{index}]")))
            pending.append(("s", "]"))
        pending.append(("x", ident))
        work.extend(reversed(pending))
    return "".join(out).encode("utf-8")


def canonical_hash(value: object, /) -> str:
    """Return the SHA-256 hex digest of :func:`canonical_json` of ``value``.

    Stable across key order and equal-valued inputs (``1`` vs ``1.0``, tuple vs list); raises
    :class:`~deerguard.errors.CanonicalizationError` exactly when ``canonical_json`` does.

    >>> canonical_hash({"a": 1}) == canonical_hash({"a": 1.0})
    True
    """
    return hashlib.sha256(canonical_json(value)).hexdigest()


def _copy(value: Any) -> Any:
    if value is None or value is True or value is False:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int(int.__index__(value))
    if isinstance(value, float):
        return float(value) + 0.0  # -0.0 + 0.0 == 0.0: canonical JSON has no negative zero
    if isinstance(value, Mapping):
        return {str.__str__(key): _copy(item) for key, item in value.items()}
    return [_copy(item) for item in value]


def plain_json(value: object, /) -> Any:
    """Return a deep copy of ``value`` as plain JSON data (dict, list, str, int, float, ...).

    Validates with :func:`canonical_json` first (same errors, same paths), then copies:
    tuples become lists, enum members and other subclasses their plain values, ``-0.0``
    becomes ``0.0``; ints and floats keep their type and exact value.
    """
    canonical_json(value)
    try:
        return _copy(value)
    except RecursionError:
        raise CanonicalizationError("$: value is nested too deeply to copy") from None
