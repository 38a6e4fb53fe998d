"""Fuzz harness: deerguard.sanitize.neutralize on hostile text, guarantees 1-4 on every input.

The first byte picks the profile (default, deerflow, aggressive); the rest is decoded as
UTF-8 (undecodable bytes kept as lone surrogates). Invariants checked on every input:

1. no forgery survives: the independent tolerant reader of the tests
   (``tests/test_sanitize_reader.py``) finds no profile tag, token or marker in the output,
   and no Tag-block character remains outside a kept flag sequence;
2. preservation: every edit's replacement unescapes to its original, and the edits rebuild
   the output from the input;
3. benign identity: no finding means the very same object comes back;
4. idempotence: neutralizing the output changes nothing.

Seeds: ``corpora/tags/attacks.jsonl`` and ``corpora/tags/benign.jsonl`` inputs, and
``fuzz/seeds/neutralize-disguised.jsonl``: forgeries disguised with every class of both
red-team rounds (look-alike letters, marks, invisibles, comment/CDATA/PI gaps, look-alike
brackets, pipes, slashes, square brackets, escapes, fences), one class at a time and all
together, made by ``tests/_sanitize_disguise.py`` ``build()`` with fixed random seeds.
Run: ``python fuzz/fuzz_neutralize.py -max_total_time=60`` (``--replay`` replays seeds only).
"""

from __future__ import annotations

import html
import json
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _harness import ROOT, run  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))

from test_sanitize_reader import find_forgeries, has_hidden_payload  # noqa: E402

from deerguard.sanitize import Neutralizer  # noqa: E402

PROFILES = ("default", "deerflow", "aggressive")
NEUTRALIZERS = [Neutralizer(profile=name) for name in PROFILES]


def test_one_input(data: bytes) -> None:
    if not data:
        return
    neutralizer = NEUTRALIZERS[data[0] % len(NEUTRALIZERS)]
    profile = neutralizer.profile
    text = data[1:].decode("utf-8", "surrogateescape")
    result = neutralizer.neutralize(text)
    out = result.text
    # 1. no forgery survives
    assert find_forgeries(out, profile) == [], (text, out)
    assert not has_hidden_payload(out, profile.emoji_tag_sequences), (text, out)
    # 2. preservation
    rebuilt, last = [], 0
    for edit in result.edits:
        assert edit.span.start >= last, result.edits
        assert html.unescape(edit.replacement) == edit.original == text[slice(*edit.span)]
        rebuilt.append(text[last : edit.span.start] + edit.replacement)
        last = edit.span.end
    rebuilt.append(text[last:])
    assert "".join(rebuilt) == out
    # 3. benign identity
    if not result.findings:
        assert out is text
    # 4. idempotence
    again = neutralizer.neutralize(out)
    assert again.text == out and not again.changed, (text, out, again.text)


SEED_FILES = (
    ROOT / "corpora" / "tags" / "attacks.jsonl",
    ROOT / "corpora" / "tags" / "benign.jsonl",
    ROOT / "fuzz" / "seeds" / "neutralize-disguised.jsonl",
)


def seeds() -> Iterator[bytes]:
    for path in SEED_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            index = PROFILES.index(row.get("profile", "default"))
            yield bytes([index]) + row["input"].encode("utf-8", "surrogatepass")


if __name__ == "__main__":
    run(test_one_input, seeds(), name="neutralize")
