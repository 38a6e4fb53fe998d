"""The ``deerguard cite`` and ``deerguard hash`` verbs.

``deerguard cite --receipts R.jsonl [--outputs O.json] [--budget N] [--json] [ANSWER | -]``
checks the ``[r12]`` / ``[r12: evidence]`` citations of a model answer against the receipts
(one JSON receipt per line, as ``Receipt.to_dict()`` or stamped metadata holding
``deerguard_receipt``), rendered as a ledger with the given budget. ``--outputs`` is a JSON
object mapping ids (``"r3"``) to tool output text, for anchor checks. Exit status: 0 every
citation verified, 1 some cite omitted calls, 2 fabricated ids or missing evidence, 64 usage
error, 65 unreadable or invalid input.

``deerguard hash [--canonical] [FILE | -]`` prints the canonical hash (or with
``--canonical`` the RFC 8785-style canonical JSON) of a JSON document. Exit 0, or 65 for
input that is not JSON or has no canonical form.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..cli import EXIT_DATAERR, UsageError, exit_status
from ..errors import CanonicalizationError
from ._canonical import canonical_hash, canonical_json
from ._citations import verify_citations
from ._ledger import render_ledger
from ._receipts import Receipt, read_receipt

__all__ = ["register"]


class _InputError(Exception):
    """An input file is unreadable or invalid; the message names file and line."""


def register(subparsers: Any) -> None:
    """Add the ``cite`` and ``hash`` verbs to the ``deerguard`` parser."""
    cite = subparsers.add_parser(
        "cite",
        help="check an answer's [rN] citations against tool receipts",
        description=(
            "Check the [r12] and [r12: quoted evidence] citations in ANSWER (or stdin) "
            "against RECEIPTS (JSON Lines, one receipt per line, in call order). Exit 0 all "
            "verified, 1 some cite calls omitted from the ledger, 2 fabricated ids or "
            "evidence not found, 64 usage error, 65 unreadable or invalid input."
        ),
    )
    cite.add_argument("--receipts", required=True, help="JSON Lines file of receipts")
    cite.add_argument(
        "--outputs", help='JSON object of tool outputs by id, e.g. {"r3": "text"}, for anchors'
    )
    cite.add_argument(
        "--budget",
        type=int,
        default=2000,
        help="ledger budget in characters the model saw (default 2000)",
    )
    cite.add_argument("--json", action="store_true", help="print the report as JSON")
    cite.add_argument("answer", nargs="?", default="-", help="answer file, or - for stdin")
    cite.set_defaults(handler=_run_cite)

    hasher = subparsers.add_parser(
        "hash",
        help="print the canonical SHA-256 of a JSON document",
        description=(
            "Print the SHA-256 of the RFC 8785-style canonical JSON of FILE (or stdin): key "
            "order, whitespace and 1 vs 1.0 do not change it. Exit 0, or 65 for invalid JSON."
        ),
    )
    hasher.add_argument(
        "--canonical", action="store_true", help="print the canonical JSON instead of its hash"
    )
    hasher.add_argument("file", nargs="?", default="-", help="JSON file, or - for stdin")
    hasher.set_defaults(handler=_run_hash)


def _read_text(name: str) -> str:
    try:
        data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as exc:
        raise _InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    return data.decode("utf-8", "surrogateescape")


def _receipts(name: str) -> list[Receipt]:
    receipts: list[Receipt] = []
    for number, line in enumerate(_read_text(name).splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise _InputError(f"{name}:{number}: not JSON: {exc}") from None
        stamped = value if isinstance(value, dict) and "deerguard_receipt" in value else None
        receipt = read_receipt(stamped if stamped is not None else {"deerguard_receipt": value})
        if receipt is None:
            raise _InputError(
                f"{name}:{number}: not a valid receipt (expected the fields of "
                "Receipt.to_dict(): v, tool_name, status, args_hash, output_hash, "
                "output_bytes, timestamp)"
            )
        receipts.append(receipt)
    return receipts


def _outputs(name: str | None) -> dict[str, str] | None:
    if name is None:
        return None
    try:
        value = json.loads(_read_text(name))
    except (ValueError, RecursionError) as exc:
        raise _InputError(f"{name}: not JSON: {exc}") from None
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise _InputError(f'{name}: expected a JSON object of id -> text, e.g. {{"r3": "..."}}')
    return value


def _fail(message: str) -> int:
    print(f"deerguard: error: {message}", file=sys.stderr)
    return EXIT_DATAERR


def _run_cite(args: argparse.Namespace) -> int:
    if args.budget < 0:
        raise UsageError(f"--budget must be a non-negative number of characters, got {args.budget}")
    try:
        receipts = _receipts(args.receipts)
        outputs = _outputs(args.outputs)
        answer = _read_text(args.answer)
    except _InputError as exc:
        return _fail(str(exc))
    ledger = render_ledger(receipts, budget=args.budget)
    report = verify_citations(answer, ledger, outputs=outputs)
    if args.json:
        json.dump(report.to_dict(), sys.stdout, ensure_ascii=True, indent=2)
        sys.stdout.write("\n")
    else:
        for citation in report.verified:
            print(
                f"verified {citation.id}"
                + (f": {ascii(citation.anchor)}" if citation.anchor else "")
            )
        for finding in report.findings:
            start, end = finding.span
            print(f"{args.answer}:{start}-{end}: {finding.rule_id}: {finding.message}")
        print(f"verdict: {report.verdict}")
    return exit_status(report.verdict)


def _run_hash(args: argparse.Namespace) -> int:
    try:
        text = _read_text(args.file)
        value: Any = json.loads(text)
    except _InputError as exc:
        return _fail(str(exc))
    except (ValueError, RecursionError) as exc:
        return _fail(f"{args.file}: not JSON: {exc}")
    try:
        if args.canonical:
            sys.stdout.flush()
            sys.stdout.buffer.write(canonical_json(value) + b"\n")
            sys.stdout.buffer.flush()
        else:
            print(canonical_hash(value))
    except CanonicalizationError as exc:
        return _fail(f"{args.file}: {exc}")
    return 0
