"""The receipt ledger: a budgeted, model-readable list of tool calls with display ids r1..rN.

The ledger is what a model sees and cites (``[r12]``). Ids are positions in the receipt list
(the order the calls happened), so they stay stable as the conversation grows: appending a
new receipt never renumbers an old one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError
from ._canonical import es_number
from ._receipts import Receipt

__all__ = [
    "Ledger",
    "LedgerEntry",
    "MAX_ID_DIGITS",
    "parse_id",
    "render_ledger",
    "validate_snapshot",
]

#: Display ids have at most this many digits (r1 .. r999999), matching the citation parser.
MAX_ID_DIGITS = 6
_MAX_ID = 10**MAX_ID_DIGITS - 1
_DIGITS = frozenset("0123456789")


def parse_id(value: object, /) -> int | None:
    """Return the number of a canonical display id (``"r12"`` -> 12), else None.

    Canonical means ``r`` plus 1-6 ASCII digits without a leading zero; never raises.
    """
    if type(value) is not str or not 2 <= len(value) <= MAX_ID_DIGITS + 1 or value[0] != "r":
        return None
    digits = value[1:]
    if digits[0] == "0" or any(ch not in _DIGITS for ch in digits):
        return None
    return int(digits)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One retained ledger line: its display id (``r12``) and its receipt."""

    id: str
    receipt: Receipt


@dataclass(frozen=True, slots=True)
class Ledger:
    """A rendered ledger: ``text`` for the model and the ``retained`` entries it shows.

    ``retained`` holds the newest receipts that fit the budget, in chronological order with
    their original ids; ``omitted`` lists the ids of the older ones (``r1``..``rk``), which the
    text summarizes in a single marker line. ``text`` and ``retained`` always describe the
    same subset. ``total`` is the number of receipts, ``budget`` the character budget used.
    """

    text: str
    retained: tuple[LedgerEntry, ...]
    omitted: tuple[str, ...]
    total: int
    budget: int

    def __post_init__(self) -> None:
        # status() and get() rely on this shape; a hand-built Ledger must keep it too.
        first = len(self.omitted)
        if (
            type(self.total) is not int
            or self.omitted != tuple(f"r{i}" for i in range(1, first + 1))
            or tuple(entry.id for entry in self.retained)
            != tuple(f"r{i}" for i in range(first + 1, self.total + 1))
            or not all(isinstance(entry.receipt, Receipt) for entry in self.retained)
        ):
            raise ConfigError(
                "a Ledger must omit r1..rk and retain r(k+1)..r{total} in order; "
                "build it with render_ledger()"
            )

    @property
    def ids(self) -> tuple[str, ...]:
        """The display ids of the retained entries, oldest first."""
        return tuple(entry.id for entry in self.retained)

    def status(self, citation_id: object) -> str:
        """Return ``"retained"``, ``"omitted"`` or ``"unknown"`` for a display id; never raises.

        Only canonical ids (``r12``, not ``r012`` or ``R12``) in ``r1..r{total}`` are known.
        """
        number = parse_id(citation_id)
        if number is None or number > self.total:
            return "unknown"
        return "omitted" if number <= len(self.omitted) else "retained"

    def get(self, citation_id: object) -> Receipt | None:
        """Return the retained receipt with display id ``citation_id``, else None."""
        if self.status(citation_id) != "retained":
            return None
        number = parse_id(citation_id)
        assert number is not None
        return self.retained[number - len(self.omitted) - 1].receipt

    def to_dict(self) -> dict[str, Any]:
        """Return the ledger as JSON data."""
        return {
            "text": self.text,
            "retained": [{"id": e.id, **e.receipt.to_dict()} for e in self.retained],
            "omitted": list(self.omitted),
            "total": self.total,
            "budget": self.budget,
        }


def _display_name(name: str) -> str:
    # A tool name is model-influenced: one with whitespace (a line break, U+2028), invisible
    # or unprintable characters, or a leading quote could forge or disguise a ledger line, so
    # it is shown as an ASCII JSON string instead.
    if name.isprintable() and not any(ch.isspace() for ch in name) and name[0] != '"':
        return name
    return json.dumps(name, ensure_ascii=True)


def _line(number: int, receipt: Receipt) -> str:
    stamp = receipt.timestamp
    when = str(stamp) if type(stamp) is int else es_number(float(stamp))
    name = _display_name(receipt.tool_name)
    return (
        f"r{number} {name} {receipt.status} args={receipt.args_hash[:12]} "
        f"out={receipt.output_hash[:12]} bytes={receipt.output_bytes} t={when}"
    )


def _marker(omitted: int) -> str:
    if omitted == 1:
        return "r1 omitted (1 older tool call; not shown)"
    return f"r1-r{omitted} omitted ({omitted} older tool calls; not shown)"


def render_ledger(receipts: Iterable[Receipt], /, *, budget: int = 2000) -> Ledger:
    """Render ``receipts`` (in call order) as a ledger of at most ``budget`` characters.

    Receipt i (1-based) gets display id ``ri``. One line per receipt (hash prefixes of 12 hex
    digits; a tool name with whitespace or unprintable characters is shown as an ASCII JSON
    string, so no name can break or forge a line)::

        r3 read_file success args=5f1c0a2e9b7d out=9d8e7f6a5b4c bytes=1532 t=1700000000

    If every line fits, all are shown. Otherwise the newest receipts that fit are kept with
    their original ids, preceded by one marker line ``r1-rk omitted (k older tool calls; not
    shown)``; the number kept is the largest that fits together with the marker. If even the
    marker alone does not fit (a budget of a few characters), ``text`` is empty and nothing is
    retained. Guarantees: ``len(text) <= budget``; the ids at the start of the text's receipt
    lines are exactly ``retained``'s ids; linear in the number of receipts; deterministic.

    Raises ConfigError for a budget that is not a non-negative int, an item that is not a
    :class:`Receipt`, or more than 999999 receipts (ids have at most 6 digits).

    >>> from deerguard.provenance import make_receipt
    >>> r = make_receipt("ls", "success", {}, "a b", timestamp=5)
    >>> render_ledger([r, r, r], budget=170).ids
    ('r2', 'r3')
    """
    if type(budget) is not int or budget < 0:
        raise ConfigError(f"budget must be a non-negative int (characters), got {budget!r}")
    items = list(receipts)
    for index, item in enumerate(items):
        if not isinstance(item, Receipt):
            raise ConfigError(
                f"receipts[{index}] is {type(item).__name__}, not a Receipt (use make_receipt)"
            )
    total = len(items)
    if total > _MAX_ID:
        raise ConfigError(f"a ledger holds at most {_MAX_ID} receipts, got {total}")
    lines = [_line(i + 1, receipt) for i, receipt in enumerate(items)]
    # cost[k] = characters of the newest k lines joined by newlines.
    cost = [0]
    for line in reversed(lines):
        cost.append(cost[-1] + len(line) + (1 if len(cost) > 1 else 0))
    keep = -1
    if cost[total] <= budget:
        keep = total
    else:
        for k in range(total - 1, -1, -1):
            marker_len = len(_marker(total - k))
            if marker_len + (cost[k] + 1 if k else 0) <= budget:
                keep = k
                break
    if keep < 0:
        return Ledger(
            text="",
            retained=(),
            omitted=tuple(f"r{i}" for i in range(1, total + 1)),
            total=total,
            budget=budget,
        )
    first = total - keep
    shown = lines[first:]
    text_lines = ([_marker(first)] if first else []) + shown
    return Ledger(
        text="\n".join(text_lines),
        retained=tuple(LedgerEntry(f"r{i + 1}", items[i]) for i in range(first, total)),
        omitted=tuple(f"r{i}" for i in range(1, first + 1)),
        total=total,
        budget=budget,
    )


def validate_snapshot(ids: object, /) -> bool:
    """Return True when ``ids`` is a strictly consecutive ascending run of positive ids.

    Items may be canonical display ids (``"r24"``) or plain ints (``24``), mixed freely;
    ``["r24", "r25", 26]`` is valid. Rejected (False): an empty run, gaps, duplicates, a
    descending order, zero, negatives, bools, leading zeros (``"r024"``), ids beyond 6 digits,
    a bare string or any other non-iterable. Never raises; linear.

    >>> validate_snapshot(["r24", "r25", "r26"]), validate_snapshot(["r1", "r3"])
    (True, False)
    """
    if isinstance(ids, str | bytes | bytearray):
        return False
    try:
        previous: int | None = None
        count = 0
        for item in ids:  # type: ignore[attr-defined]
            if type(item) is int:
                number: int | None = item if 1 <= item <= _MAX_ID else None
            else:
                number = parse_id(item)
            if number is None or (previous is not None and number != previous + 1):
                return False
            previous = number
            count += 1
        return count > 0
    except Exception:
        return False
