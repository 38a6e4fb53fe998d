"""Fuzz harness: deerguard.shell.classify on hostile text.

Invariants checked on every input (decoded as UTF-8, undecodable bytes kept as surrogates):

1. no internal error: ``internal-error`` never appears (classify would fail closed, but it is
   a bug);
2. the verdict is the worst finding severity and every span lies inside the input;
3. determinism: classifying twice gives equal results;
4. wrapping never lowers risk: ``(\\n CMD \\n)`` and ``true && {\\n CMD \\n}`` classify at
   least as high as ``CMD`` (checked when ``CMD`` parses cleanly).

Seeds: ``corpora/shell/{block,warn,pass}.jsonl`` commands.
Run: ``python fuzz/fuzz_classify.py -max_total_time=60`` (``--replay`` replays seeds only).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _harness import ROOT, run  # noqa: E402

from deerguard import Verdict  # noqa: E402
from deerguard.shell import classify, parse  # noqa: E402


def test_one_input(data: bytes) -> None:
    text = data.decode("utf-8", "surrogateescape")
    result = classify(text)
    assert "internal-error" not in result.rule_ids, (text, result.findings)
    assert result.verdict == max([Verdict.PASS, *(f.severity for f in result.findings)])
    for f in result.findings:
        assert 0 <= f.span.start <= f.span.end <= len(text) or (
            f.rule_id == "shell.too-long"), (text, f)
    assert classify(text) == result
    if len(text) < 2000 and not parse(text).issues:
        for wrapped in (f"(\n{text}\n)", f"true && {{\n{text}\n}}"):
            assert classify(wrapped).verdict >= result.verdict, (text, wrapped)


def seeds() -> Iterator[bytes]:
    for name in ("block.jsonl", "warn.jsonl", "pass.jsonl"):
        path = ROOT / "corpora" / "shell" / name
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)["command"].encode("utf-8", "surrogatepass")


if __name__ == "__main__":
    run(test_one_input, seeds(), name="classify")
