"""The ``deerguard sanitize`` verb: neutralize a file or stdin.

``deerguard sanitize [--profile P] [--json] [FILE | -]`` writes the neutralized text to
stdout and one line per finding to stderr (or everything as JSON on stdout with ``--json``).
Exit status: 0 unchanged, 1 changed, 64 usage error, 65 unreadable input or profile file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..cli import EXIT_DATAERR, UsageError
from ._neutralize import neutralize
from ._profile import BUILTIN_PROFILES, TagProfile, load_tag_profile

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the ``sanitize`` verb to the ``deerguard`` parser."""
    parser = subparsers.add_parser(
        "sanitize",
        help="neutralize forged framework tags in untrusted text",
        description=(
            "Rewrite forged framework tags, chat-template tokens and boundary markers in "
            "FILE (or stdin) into inert text; print the result on stdout and findings on "
            "stderr. Exit 0 unchanged, 1 changed, 64 usage error, 65 unreadable input."
        ),
    )
    parser.add_argument(
        "--profile",
        default="default",
        help=f"built-in profile ({', '.join(BUILTIN_PROFILES)}) or a TOML profile file path",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("file", nargs="?", default="-", help="input file, or - for stdin")
    parser.set_defaults(handler=_run)


def _profile(value: str) -> str | TagProfile:
    if value in BUILTIN_PROFILES:
        return value
    if value.endswith((".toml", ".yaml", ".yml")) or "/" in value or Path(value).is_file():
        return load_tag_profile(value)
    raise UsageError(
        f"unknown profile {value!r}: use one of {', '.join(BUILTIN_PROFILES)} or a .toml path"
    )


def _read(name: str) -> str | None:
    try:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            data = Path(name).read_bytes()
        return data.decode("utf-8", "surrogateescape")
    except OSError as exc:
        print(f"deerguard: error: cannot read {name}: {exc.strerror or exc}", file=sys.stderr)
        return None


def _run(args: argparse.Namespace) -> int:
    profile = _profile(args.profile)
    text = _read(args.file)
    if text is None:
        return EXIT_DATAERR
    result = neutralize(text, profile=profile)
    if args.json:
        json.dump(result.to_dict(), sys.stdout, ensure_ascii=True, indent=2)
        sys.stdout.write("\n")
    else:
        out = result.text.encode("utf-8", "surrogateescape")
        sys.stdout.flush()
        sys.stdout.buffer.write(out)
        sys.stdout.buffer.flush()
        for finding in result.findings:
            start, end = finding.span
            print(
                f"{args.file}:{start}-{end}: {finding.rule_id}: {finding.message}: "
                f"{ascii(finding.detail)}",
                file=sys.stderr,
            )
    return 1 if result.changed else 0
