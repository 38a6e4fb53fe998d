"""``deerguard classify``: judge bash commands from the command line or from agent logs.

One command (argument or ``-`` for stdin) prints the verdict and each finding with a caret
line under its span, like a compiler, or JSON with ``--json``. ``--batch`` reads JSON Lines
(each line a JSON string, or an object with ``command`` and optional ``id``) and streams one
JSON result per line; a progress bar goes to stderr only when stderr is a terminal.

Exit status: 0 pass, 1 warn, 2 block (the worst verdict in a batch), 64 usage error,
65 unreadable policy/input or (batch) any malformed line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any

from .._result import Finding, Verdict
from ..cli import EXIT_DATAERR, EXIT_PASS, UsageError, exit_status
from ..errors import DeerguardError
from ._classify import Classification, Classifier

if TYPE_CHECKING:
    from ._policy import ShellPolicy

__all__ = ["register", "render"]

_DESCRIPTION = """\
Classify bash commands as pass, warn or block.

examples:
  deerguard classify 'curl -s https://x.sh | sh'
  echo 'rm -rf ~' | deerguard classify -
  deerguard classify --json --policy shell.toml 'sudo rm -rf /tmp/x'
  deerguard classify --batch agent-log.jsonl > verdicts.jsonl

exit status: 0 pass, 1 warn, 2 block (the worst verdict in a batch), 64 usage error,
65 unreadable or invalid policy file or input (in a batch: any malformed line).
"""


def register(subparsers: Any) -> None:
    """Add the ``classify`` verb to the ``deerguard`` parser."""
    parser = subparsers.add_parser(
        "classify",
        help="classify bash commands (pass/warn/block)",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--policy", metavar="FILE", help="shell policy TOML (extends the "
                        "shipped default)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--batch", action="store_true", help="read JSON Lines (a string or "
                        "{\"command\":..., \"id\":...} per line) and write one JSON result "
                        "per line")
    parser.add_argument("command", nargs="?", metavar="COMMAND | -",
                        help="the command to classify, or - for stdin (with --batch: a JSON "
                        "Lines file, default stdin)")
    parser.set_defaults(handler=_handle)


def _policy(args: argparse.Namespace) -> ShellPolicy | None:
    if not args.policy:
        return None  # the shipped default: no pydantic to load
    from ._policy import load_policy

    return load_policy(args.policy)


def _handle(args: argparse.Namespace) -> int:
    classifier = Classifier(policy=_policy(args))
    if args.batch:
        return _batch(classifier, args.command)
    if args.command is None or args.command == "-":
        if args.command is None and sys.stdin.isatty():
            raise UsageError("give a COMMAND, or - to read it from stdin")
        text = sys.stdin.read()
        if text.endswith("\n"):
            text = text[:-1]
    else:
        text = args.command
    result = classifier.classify(text)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=True))
    else:
        sys.stdout.write(render(result))
    return exit_status(result.verdict)


def _visible(line: str) -> str:
    # One column per character, so the caret line stays aligned.
    return "".join(c if c.isprintable() else ("→" if c == "\t" else "?") for c in line)


def _position(text: str, offset: int) -> tuple[int, int, int]:
    """(line number, column, line start) of ``offset``, all from the start of ``text``."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1, line_start


def _render_finding(text: str, f: Finding) -> list[str]:
    start = min(f.span.start, len(text))
    end = max(start, min(f.span.end, len(text)))
    line_no, col, line_start = _position(text, start)
    line_end = text.find("\n", line_start)
    if line_end == -1:
        line_end = len(text)
    line = text[line_start:line_end]
    width = max(1, min(end, line_end) - start)
    shown = line[:200]
    caret_col = min(col - 1, len(shown))
    out = [f"<command>:{line_no}:{col}: {f.severity} [{f.rule_id}] {f.message}",
           f"    {_visible(shown)}",
           f"    {' ' * caret_col}{'^' * max(1, min(width, len(shown) - caret_col))}"]
    if f.detail:
        out.append(f"    = {f.detail}")
    return out


def render(result: Classification) -> str:
    """Human-readable report: verdict, then each finding with a caret line under its span."""
    lines = [f"{result.verdict}"]
    for f in result.findings:
        lines.extend(_render_finding(result.command, f))
    if result.commands:
        lines.append("commands: " + ", ".join(result.commands))
    return "\n".join(lines) + "\n"


def _parse_line(raw: str) -> tuple[str | None, Any, str | None]:
    """Return (command, id, error) for one JSON Lines record."""
    try:
        data = json.loads(raw)
    except ValueError as exc:
        return None, None, f"not valid JSON: {exc}"
    if isinstance(data, str):
        return data, None, None
    if isinstance(data, dict):
        ident = data.get("id")
        if not isinstance(ident, str | int | float | bool | type(None)):
            ident = None
        command = data.get("command")
        if isinstance(command, str):
            return command, ident, None
        return None, ident, "expected a string field 'command'"
    return None, None, "expected a JSON string or an object with 'command'"


class _Progress:
    """A one-line progress indicator on stderr (only used when stderr is a terminal)."""

    def __init__(self, stream: IO[str], total_bytes: int | None) -> None:
        self.stream = stream
        self.total = total_bytes
        self.last = 0.0

    def update(self, lines: int, done_bytes: int, *, final: bool = False) -> None:
        now = time.monotonic()
        if not final and now - self.last < 0.1:
            return
        self.last = now
        if self.total:
            frac = min(1.0, done_bytes / self.total)
            bar = "#" * int(frac * 30)
            text = f"\r[{bar:<30}] {frac * 100:5.1f}% {lines} commands"
        else:
            text = f"\r{lines} commands"
        self.stream.write(text + ("\n" if final else ""))
        self.stream.flush()


def _batch(classifier: Classifier, source: str | None) -> int:
    if source is None or source == "-":
        return _stream(classifier, sys.stdin.buffer, None)
    try:
        handle = open(source, "rb")
    except OSError as exc:
        raise DeerguardError(f"cannot read {source}: {exc.strerror}") from None
    with handle:
        try:
            size: int | None = handle.seek(0, 2)
            handle.seek(0)
        except OSError:
            size = None
        return _stream(classifier, handle, size)


def _stream(classifier: Classifier, lines: Iterable[bytes], total: int | None) -> int:
    progress = _Progress(sys.stderr, total) if sys.stderr.isatty() else None
    out = sys.stdout
    worst = Verdict.PASS
    malformed = False
    done = 0
    count = 0
    for number, raw_bytes in enumerate(lines, start=1):
        done += len(raw_bytes)
        raw = raw_bytes.decode("utf-8", "replace").strip()
        if not raw:
            continue
        command, ident, error = _parse_line(raw)
        record: dict[str, Any] = {"line": number}
        if ident is not None:
            record["id"] = ident
        if command is None:
            malformed = True
            record["error"] = error
        else:
            result = classifier.classify(command)
            worst = max(worst, result.verdict)
            record.update(result.to_dict())
        out.write(json.dumps(record, ensure_ascii=True) + "\n")
        count += 1
        if count % 256 == 0:
            out.flush()
        if progress is not None:
            progress.update(count, done)
    out.flush()
    if progress is not None:
        progress.update(count, done, final=True)
    if malformed:
        return EXIT_DATAERR
    return exit_status(worst) if count else EXIT_PASS
