"""Fuzz harness: the shell parser on hostile bytes.

The input is decoded as UTF-8 with undecodable bytes kept as lone surrogates. Invariants:

* ``parse`` returns (never raises) and never needs its internal-error boundary (an
  "internal parser error" issue is a bug to fix, not an acceptable answer);
* every span is in bounds, children nest inside parents (heredoc bodies excepted: they sit
  after their command's line), and every character belongs to exactly one top-level
  statement, heredoc region or comment, or is whitespace;
* issue offsets are in bounds.

Seeds: every command of ``corpora/shell/parse/commands.jsonl`` and the classifier corpora
``corpora/shell/{block,warn,pass}.jsonl``. Slow inputs surface through libFuzzer's
``-timeout``. Run: ``python fuzz/fuzz_shell_parse.py -max_total_time=60`` (``--replay``
replays seeds and crashers only).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _harness import ROOT, run  # noqa: E402

from deerguard.shell import ast  # noqa: E402
from deerguard.shell._parse import parse  # noqa: E402


def _check(script: ast.Script, source: str) -> None:
    n = len(source)
    assert script.span == (0, n)
    for issue in script.issues:
        assert 0 <= issue.offset <= n, issue
        assert "internal parser error" not in issue.message, (source, issue)
    covered = bytearray(n)
    docs: list[tuple[int, int]] = []
    stack: list[tuple[ast.Node, int, int]] = [(script, 0, n)]
    while stack:
        node, lo, hi = stack.pop()
        start, end = node.span
        assert 0 <= start <= end <= n, node
        if isinstance(node, ast.Heredoc):
            nl = source.find("\n", end)
            docs.append((start, n if not node.terminated or nl < 0 else nl + 1))
        else:
            assert lo <= start and end <= hi, (node, lo, hi)
        bounds = (0, n) if isinstance(node, ast.Redirect) else (start, end)
        stack.extend((child, *bounds) for child in ast.iter_children(node))
    regions = [s.span for s in script.statements]
    for start, end in sorted(docs):
        if not any(a <= start < b for a, b in regions):
            regions.append((start, end))
    for start, end in regions:
        assert not any(covered[start:end]), (source, start, end)
        covered[start:end] = b"\1" * (end - start)
    for comment in script.comments:
        if not any(covered[comment.span[0] : comment.span[1]]):
            covered[comment.span[0] : comment.span[1]] = b"\1" * (comment.span[1] - comment.span[0])
    for k in range(n):
        if not covered[k]:
            c = source[k]
            ok = c in " \t\n" or source.startswith("\\\n", k) or source[k - 1 : k + 1] == "\\\n"
            assert ok, (source, k, c)


def test_one_input(data: bytes) -> None:
    source = data.decode("utf-8", "surrogateescape")
    _check(parse(source), source)


def seeds() -> Iterator[bytes]:
    folder = ROOT / "corpora" / "shell"
    for name in ("parse/commands.jsonl", "block.jsonl", "warn.jsonl", "pass.jsonl"):
        path = folder / name
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    yield json.loads(line)["command"].encode("utf-8", "surrogatepass")


if __name__ == "__main__":
    run(test_one_input, seeds(), name="shell_parse")
