"""Differential check: this tree's neutralizer against another checkout's, on the same inputs.

Runs the same deterministic inputs through ``neutralize`` (profiles default, deerflow and
aggressive) and ``neutralize_content`` (the input split into text blocks) of two source
trees, each in its own process, and compares the full results: the text, every finding and
every edit. A speed-up or a refactoring of ``deerguard/sanitize`` must give identical results.

Inputs: the tag corpora (``corpora/tags/*.jsonl``), the red-team probes when present,
random strings built from pieces of every class (brackets and look-alikes, names and
fragments, separators, invisibles, JSON escapes, template tokens, markers, hidden payload
characters, comment gaps) and random code points, the shapes of ``benchmarks/neutralize.py``
(floods of brackets and hidden characters) and slices of its 1 MB samples.

Run: ``python benchmarks/neutralize_diff.py OTHER_ROOT [--random N] [--seed S]``
(for example ``/work/main``); exit 1 on any difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PROFILES = ("default", "deerflow", "aggressive")
PROBES = Path("/work/redteam/sanitize2/probes.jsonl")

PIECES = [
    "<", ">", "/", "</", "/>", "<|", "|>", "<<", ">>", "<<<", "[", "]", "[/", "[[", "\\", "\\/",
    "\\u003c", "\\u003e", "\\\\u003c", "\\x3c", "\\x3E", "\\u{3c}", "\\U0000003c", "\\u002f",
    "＜", "＞", "﹤", "﹥", "‹", "›", "〈", "〉", "⟨", "⟩", "˂", "˃", "ᐸ", "ᐳ", "❮", "❯", "«",
    "»", "《", "》", "≪", "◁", "▷", "⊲", "⊳", "／", "∕", "｜", "|", "¦", "丨", "【", "】", "［",
    "'", '"', "=", " ", "  ", "\n", "\t", "\r", "\x0b", "-", "_", ".", ":", "–", "▁", "!", "?",
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\u202e", "\u180e",
    "\u3164", "\ufe0f", "\ufe00", "\U000e0100", "\U000e0041", "\U000e0067", "\U000e0062",
    "\U000e007f", "🏴", "😀", "é", "\u0301", "\u20dd", "İ", "ẞ", "ǅ", "ﬆ", "⒜", "⒯", "⑴",
    "\x00", "\x1b", "\x7f", "\ud800", "Ꭲ", "ꓔ", "Η", "Ι", "Ν", "Κ", "Τ", "🆃", "ı", "µ", "\u3000",
    "system", "reminder", "system-reminder", "SYSTEM", "ѕуstem", "tool", "result", "tool_result",
    "think", "thi", "nk", "hink", "th", "ink", "sys", "tem-reminder", "ns:", "a:b:", "im_start",
    "im", "_start", "eot_id", "SYS", "INST", "inst", "memory", "prompt", "role", "search_result",
    "untrusted-content-", "ab12", "div", "span", "a", "b", "x", "p", "br", "1", "42",
    "END", "end", "USER", "user", "INPUT", "input", "BEGIN", "END USER INPUT", " USER", " INPUT",
    "---", "===", "ｔｈｉｎｋ", "EXTERNAL_", "UNTRUSTED", "CONTENT", "User", "&", "&reg", "&lt;",
    "&#x41;", "<!--", "-->", "<!---->", "<![CDATA[]]>", "<?x?>", "<a>", "</p>", "<b ", "<a\n",
    "<a;", "<a<", "<think", "</think>", "<|im_end|>", "[INST]", "<<SYS>>", "<", "<", "<",
]  # fmt: skip
# a bracket flood with spacing, invisibles, letters or escapes between the brackets
FLOOD_UNITS = [
    "<", "< ", "<\n", "<\t ", "＜", "‹", "<<a", "<a", "<ab;", "</a", "<a/", "<1", "<\u200b",
    "[", "[ ", "［", "\\u003c", "\\\\u003c", "\\x3c", "<|", "|", "<!", "<?", "<-", "<:", "<a-",
    "\U000e0041", "\U000e0100", "\ufe01", "\u200b", "a", " ", "<</a;", "<<SYS>>", "<< sys;",
    "<<INST<", "[INST;", "[ [INST]", "<<\\u003c", "<｜", "<¦",
]  # fmt: skip


def random_texts(seed: int, count: int) -> Iterator[str]:
    rng = random.Random(seed)
    for index in range(count):
        kind = index % 5
        if kind == 3:  # a flood: one or two units repeated, with a tail
            units = [rng.choice(FLOOD_UNITS) for _ in range(rng.randint(1, 2))]
            body = "".join(rng.choice(units) for _ in range(rng.randint(1, 300)))
            yield body + "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 3)))
        elif kind == 4:  # random code points mixed with pieces
            parts = []
            for _ in range(rng.randint(0, 30)):
                if rng.random() < 0.5:
                    parts.append(rng.choice(PIECES))
                else:
                    cp = rng.choice((rng.randint(0, 0x7F), rng.randint(0x80, 0x3000),
                                     rng.randint(0xFE00, 0xFFFF), rng.randint(0xE0000, 0xE01EF)))
                    parts.append(chr(cp))
            yield "".join(parts)
        else:
            yield "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12 * (kind + 1))))


def corpus_texts() -> Iterator[str]:
    tags = ROOT / "corpora" / "tags"
    paths = [tags / "attacks.jsonl", tags / "benign.jsonl"]
    if PROBES.exists():
        paths.append(PROBES)
    for path in paths:
        for line in path.read_text("utf-8").split("\n"):
            row = json.loads(line) if line.strip() else {}
            if isinstance(row.get("input"), str):  # the probes hold timing rows too
                yield row["input"]


def shape_texts() -> Iterator[str]:
    sys.path.insert(0, str(HERE))
    import neutralize as bench  # noqa: PLC0415 - the benchmark's own samples

    size = 100_000
    for build in (bench.prose, bench.source_code, bench.html_pages, bench.attack_dense):
        sample = build(size)
        yield sample
        for start in range(0, size, 40_000):
            yield sample[start : start + 3_000]
    for unit in FLOOD_UNITS:
        yield unit * (20_000 // len(unit))
        yield "text " + unit * 500 + "think>"
    yield from bench.hostile_shapes().values()


def inputs(seed: int, count: int) -> list[str]:
    return [*corpus_texts(), *shape_texts(), *random_texts(seed, count)]


def digest(value: object) -> str:
    data = json.dumps(value, ensure_ascii=True, sort_keys=True, default=str)
    return hashlib.sha256(data.encode("ascii")).hexdigest()[:24]


def child(seed: int, count: int) -> None:
    import deerguard
    from deerguard.sanitize import Neutralizer

    print(json.dumps({"package": deerguard.__file__}), flush=True)
    neutralizers = {name: Neutralizer(profile=name) for name in PROFILES}
    rng = random.Random(seed + 1)
    for index, text in enumerate(inputs(seed, count)):
        row: dict[str, str] = {}
        for name, neutralizer in neutralizers.items():
            result = neutralizer.neutralize(text)
            row[name] = digest(result.to_dict())
            if (result.text is text) != (not result.changed):
                row[name] += "-identity"
        cut = sorted(rng.randint(0, len(text)) for _ in range(2))
        blocks = [text[: cut[0]], {"type": "text", "text": text[cut[0] : cut[1]]}, text[cut[1] :]]
        row["content"] = digest(neutralizers["default"].neutralize_content(blocks).to_dict())
        print(json.dumps({"i": index, **row}), flush=True)


def run_child(root: Path, seed: int, count: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--seed", str(seed)]
    cmd += ["--random", str(count)]
    return subprocess.Popen(cmd, env=env, cwd=root, stdout=subprocess.PIPE, text=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", nargs="?", help="the other source tree (e.g. /work/main)")
    parser.add_argument("--random", type=int, default=20_000, help="random inputs (20000)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.seed, args.random)
        return 0
    if not args.other:
        parser.error("name the other source tree")
    procs = [run_child(ROOT, args.seed, args.random), run_child(Path(args.other), args.seed,
                                                                 args.random)]
    outs = [p.communicate()[0].splitlines() for p in procs]
    if any(p.returncode for p in procs):
        print("a child failed", [p.returncode for p in procs])
        return 1
    print("ours:  ", json.loads(outs[0][0])["package"])
    print("theirs:", json.loads(outs[1][0])["package"])
    texts = inputs(args.seed, args.random)
    differ = [
        i for i, (a, b) in enumerate(zip(outs[0][1:], outs[1][1:], strict=True)) if a != b
    ]
    for i in differ[:10]:
        print("DIFFERS:", repr(texts[i][:200]), outs[0][i + 1], outs[1][i + 1])
    size = sum(len(t) for t in texts)
    print(
        f"{len(texts)} inputs ({size / 1e6:.1f} M characters) x {len(PROFILES)} profiles + "
        f"content blocks: {len(differ)} differ"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
