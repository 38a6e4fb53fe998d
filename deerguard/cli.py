"""The ``deerguard`` command line: one adapter over the pure guards.

argv/stdin -> core -> JSON or text on stdout; the verdict becomes the exit status. Each verb
lives in its own module exposing ``register(subparsers)``; the module's parser sets
``handler`` to a function ``(args) -> int`` returning the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from ._result import Verdict
from ._version import __version__
from .errors import DeerguardError

__all__ = [
    "EXIT_BLOCK",
    "EXIT_DATAERR",
    "EXIT_PASS",
    "EXIT_USAGE",
    "EXIT_WARN",
    "UsageError",
    "build_parser",
    "exit_status",
    "main",
]

EXIT_PASS = 0
EXIT_WARN = 1
EXIT_BLOCK = 2
EXIT_USAGE = 64  # sysexits EX_USAGE: argparse's own 2 would read as "block"
EXIT_DATAERR = 65  # sysexits EX_DATAERR: unreadable or invalid input or policy file

EXIT_CODES_HELP = """\
exit status (verbs that judge input):
  0   pass / allow / unchanged
  1   warn / changed (sanitize)
  2   block / deny
  64  usage error (bad option or argument)
  65  unreadable or invalid input or policy file
"""

# The module that registers each verb, in the order the verbs appear in --help. Each module
# exposes register(subparsers). A run names one verb, so only that verb's module is imported:
# `deerguard classify` loads no Casbin, sanitizer tables or provenance code (a hook that starts
# one process per agent command pays for the shell guard only). A test checks this table
# against what each module registers.
_VERBS: dict[str, str] = {
    "classify": "deerguard.shell._cli",
    "hook": "deerguard.shell._hookcli",
    "sanitize": "deerguard.sanitize._cli",
    "authz": "deerguard.authz._cli",
    "cite": "deerguard.provenance._cli",
    "hash": "deerguard.provenance._cli",
}
_VERB_MODULES: tuple[str, ...] = tuple(dict.fromkeys(_VERBS.values()))


class UsageError(DeerguardError, ValueError):
    """A command-line usage mistake. Cause: a bad option or argument. Fix: see ``--help``."""


class _Parser(argparse.ArgumentParser):
    """argparse exits 2 on usage errors; 2 means *block* here, so usage errors exit 64.

    A verb module may set ``USAGE_STATUS`` (a hook must block, not fail open, when its
    command line is wrong): a run of that verb then exits with it on any usage error."""

    usage_status = EXIT_USAGE
    usage_note = ""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(self.usage_status, f"{self.prog}: error: {message}{self.usage_note}\n")


def exit_status(verdict: Verdict) -> int:
    """Map a verdict to the CLI exit status: pass 0, warn 1, block 2."""
    return verdict.rank


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """Build the ``deerguard`` argument parser with every installed verb registered, or only
    ``verb``'s module when ``verb`` is a known verb (what :func:`main` does for a run)."""
    parser = _Parser(
        prog="deerguard",
        description="Policy and security guards for LLM agents.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"deerguard {__version__}")
    subparsers = parser.add_subparsers(dest="verb", metavar="VERB")
    module_of = _VERBS.get(verb or "")
    for name in (module_of,) if module_of is not None else _VERB_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # Only while a verb is being developed; tests assert every verb registers.
            if exc.name != name:
                raise
            continue
        module.register(subparsers)
        if module_of is not None and hasattr(module, "USAGE_STATUS"):
            # Usage errors of this run, the top-level parser's included, exit as it says.
            for each in (parser, *subparsers.choices.values()):
                each.usage_status = module.USAGE_STATUS
                each.usage_note = getattr(module, "USAGE_NOTE", "")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``) and return the exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    # The top-level parser takes no option with a value: the first other word is the verb.
    parser = build_parser(next((w for w in words if not w.startswith("-")), None))
    args = parser.parse_args(words)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        status: int = handler(args)
    except UsageError as exc:
        print(f"deerguard: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except DeerguardError as exc:
        # Caller mistakes that reach the CLI are policy/input files: EX_DATAERR.
        print(f"deerguard: error: {exc}", file=sys.stderr)
        return EXIT_DATAERR
    except BrokenPipeError:  # pragma: no cover - e.g. `deerguard ... | head`
        return status if "status" in locals() else EXIT_PASS
    return status
