"""Benchmark deerguard.sanitize.neutralize: MB/s on 1 MB samples and growth with size.

Samples (deterministic, built here): English prose with no ``<``-like characters, Python
source code (the standard library), HTML pages, attack-dense text (the attack corpus
repeated) and attacker-shaped floods: only ``<``, runs of ``<`` before short words, only
hidden Tag characters, short hidden payloads between words (an attacker controls the input,
so a page of brackets must not cost seconds). Prints the median of several runs per sample,
the time ratio between the sample repeated 4 times and the sample (linear growth gives
about 4), the same for hostile shapes, and a comparison with bleach on the benign corpus
(bleach is a baseline only: it is never used to sanitize).

Targets (issue 5): >= 50 MB/s on text without ``<``-like characters, >= 5 MB/s on HTML.
Run: ``python benchmarks/neutralize.py``.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Measure the source tree this file belongs to (a worktree), not whichever copy of deerguard
# is installed: run as a script, sys.path[0] is benchmarks/, not the tree's root.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from deerguard.sanitize import Neutralizer  # noqa: E402 - after the path set-up above

MB = 1_000_000
WORDS = (
    "the of and to in is that for it as was with be by on not he this are or his from at "
    "which but have an they you were her all she there would their we him been has when "
    "who will more no if out so said what up its about into than them can only other new "
    "some could time these two may then do first any my now such like our over man me even "
    "most made after also did many before must through back years where much your way well "
    "down should because each just those people how too little state good very make world "
    "still own see men work long get here between both life being under never day same another"
).split()


def prose(size: int) -> str:
    rng = random.Random(5)
    out: list[str] = []
    total = 0
    while total < size:
        sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18)))
        sentence = sentence.capitalize() + rng.choice([". ", ", and ", "; ", "? "])
        if rng.random() < 0.08:
            sentence += "\n\n"
        out.append(sentence)
        total += len(sentence)
    return "".join(out)[:size]


def source_code(size: int) -> str:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    out: list[str] = []
    total = 0
    for path in sorted(stdlib.glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        out.append(text)
        total += len(text)
        if total >= size:
            break
    return "".join(out)[:size]


def html_pages(size: int) -> str:
    rng = random.Random(7)
    out: list[str] = []
    total = 0
    while total < size:
        rows = "".join(
            f'<tr class="r{i}"><td><a href="/item/{i}?q={rng.randint(0, 999)}">'
            f"{' '.join(rng.choice(WORDS) for _ in range(4))}</a></td><td><span>{i}</span>"
            f"</td></tr>"
            for i in range(20)
        )
        page = (
            '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Page</title>'
            '<link rel="stylesheet" href="/s.css"><script>if (a < b && c > d) {}</script>'
            '</head><body><div id="main"><h1>Title</h1><p>'
            + " ".join(rng.choice(WORDS) for _ in range(60))
            + "</p><table>"
            + rows
            + "</table><ul><li><b>x</b></li><li><i>y</i></li></ul><br/><img src='a.png' "
            "alt='pic'></div></body></html>\n"
        )
        out.append(page)
        total += len(page)
    return "".join(out)[:size]


def attack_dense(size: int) -> str:
    rows = [
        json.loads(line)["input"]
        for line in (ROOT / "corpora" / "tags" / "attacks.jsonl").read_text("utf-8").splitlines()
    ]
    text = "\n".join(rows) + "\n"
    return (text * (size // len(text) + 1))[:size]


def lt_flood(size: int) -> str:
    """Only ``<``: every character is a trigger (a web page of brackets)."""
    return "<" * size


def lt_letters(size: int) -> str:
    """Runs of ``<`` and ``<`` before short words and spaces (``<<<ab < <c<d``)."""
    rng = random.Random(11)
    out: list[str] = []
    total = 0
    while total < size:
        piece = "<" * rng.randint(1, 4) + rng.choice(WORDS)[: rng.randint(1, 3)]
        piece += rng.choice(["", " ", "<", ";", "\n"])
        out.append(piece)
        total += len(piece)
    return "".join(out)[:size]


def hidden_flood(size: int) -> str:
    """Unicode Tag characters only (a hidden payload the size of the input)."""
    return "".join(chr(0xE0000 + 0x20 + i % 0x5F) for i in range(size))


def hidden_in_text(size: int) -> str:
    """Short hidden payloads (Tag characters, variation selectors) between words."""
    rng = random.Random(13)
    out: list[str] = []
    total = 0
    while total < size:
        hidden = "".join(chr(0xE0041 + rng.randint(0, 25)) for _ in range(rng.randint(1, 6)))
        piece = rng.choice(WORDS) + " " + hidden + rng.choice(["", "\ufe01\ufe02", " "])
        out.append(piece)
        total += len(piece)
    return "".join(out)[:size]


def hostile_shapes() -> dict[str, str]:
    """Hostile shapes: each should grow about 4x for 4x the input (linear time)."""
    return {
        "open quotes": '<think a="' * 20_000,
        "spaces after <": "<" + " " * 200_000 + "think",
        "backslash runs": "\\" * 100_000 + "u003c" + "think>",
        "pipe tokens": "<|a " * 50_000,
        "brackets": "[" * 200_000,
        "marker words": "--- end user " * 20_000,
        "tag chars": "\U000e0041" * 100_000,
        "name prefixes": "<system " * 30_000,
        "spaced <": "< " * 100_000,
        "escaped <": "\\u003c" * 30_000,
    }


def median_seconds(fn: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    neutralizer = Neutralizer(profile="default")
    neutralizer.neutralize("<think> warm-up --- END USER INPUT ---")
    samples = {
        "prose (no <)": prose,
        "source code": source_code,
        "html pages": html_pages,
        "attack-dense": attack_dense,
        "< flood": lt_flood,
        "< and letters": lt_letters,
        "hidden flood": hidden_flood,
        "hidden in text": hidden_in_text,
    }
    print(f"{'sample':16} {'MB/s (1 MB)':>12} {'4MB/1MB time':>13} {'changed':>8}")
    for name, build in samples.items():
        small = build(MB)
        big = small * 4  # same content, so the ratio measures growth alone
        t_small = median_seconds(lambda s=small: neutralizer.neutralize(s))
        t_big = median_seconds(lambda s=big: neutralizer.neutralize(s), runs=3)
        changed = neutralizer.neutralize(small).changed
        print(f"{name:16} {MB / t_small / 1e6:12.1f} {t_big / t_small:13.2f} {changed!s:>8}")

    shapes = hostile_shapes()
    print(f"{'hostile shape':16} {'ms (1x)':>10} {'4x/1x time':>11}")
    for name, sample in shapes.items():
        t1 = median_seconds(lambda s=sample: neutralizer.neutralize(s), runs=3)
        t4 = median_seconds(lambda s=sample * 4: neutralizer.neutralize(s), runs=3)
        print(f"{name:16} {t1 * 1000:10.1f} {t4 / t1:11.2f}")

    try:
        import bleach
    except ImportError:  # pragma: no cover - bleach is a dev dependency
        print("bleach not installed: comparison skipped")
        return
    benign = [
        json.loads(line)
        for line in (ROOT / "corpora" / "tags" / "benign.jsonl").read_text("utf-8").splitlines()
    ]
    by_bleach = sum(1 for row in benign if bleach.clean(row["input"]) != row["input"])
    by_us = sum(
        1 for row in benign if Neutralizer(profile=row["profile"]).neutralize(row["input"]).changed
    )
    page = html_pages(MB // 4)
    t_bleach = median_seconds(lambda: bleach.clean(page), runs=3)
    t_us = median_seconds(lambda: neutralizer.neutralize(page), runs=3)
    print(f"benign corpus ({len(benign)} strings) changed: bleach {by_bleach}, deerguard {by_us}")
    print(
        f"html 250 KB: bleach.clean {len(page) / t_bleach / 1e6:.1f} MB/s, "
        f"neutralize {len(page) / t_us / 1e6:.1f} MB/s ({t_bleach / t_us:.0f}x)"
    )


if __name__ == "__main__":
    main()
