"""Benchmark the shell parser: corpus median vs bashlex, and scaling on adversarial input.

Run: ``python benchmarks/shell_parse.py [--quick] [--no-gc]``. Prints

* the median microseconds per command over ``corpora/shell/parse/commands.jsonl`` for
  deerguard and for bashlex (bashlex only on the commands it parses; both on that same set),
* a scaling table: time to parse 1 KB, 10 KB, 100 KB and 1 MB of each adversarial family,
  and the ratio of each step (a linear parser stays near 10x per 10x input).

Targets (issue 3): median >= 10x faster than bashlex; each 10x input costs <= ~12x time;
1 MB parses in under 2 s.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deerguard.shell._parse import parse  # noqa: E402

CORPUS = ROOT / "corpora" / "shell" / "parse" / "commands.jsonl"


def _median_us(fn: Callable[[str], object], commands: list[str], repeat: int) -> float:
    per_command: list[float] = []
    for command in commands:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            fn(command)
            best = min(best, time.perf_counter() - start)
        per_command.append(best * 1e6)
    return statistics.median(per_command)


def _paired_medians(
    first: Callable[[str], object],
    second: Callable[[str], object],
    commands: list[str],
    repeat: int,
) -> tuple[float, float]:
    """Per-command best-of-``repeat`` for both parsers in A-B-B-A passes over the corpus (each
    command keeps its best pass), so load drift and one parser's leftover garbage do not bias
    the other; returns the two medians in microseconds."""
    best_a = [float("inf")] * len(commands)
    best_b = [float("inf")] * len(commands)
    for fn, best in ((first, best_a), (second, best_b), (second, best_b), (first, best_a)):
        gc.collect()
        for k, command in enumerate(commands):
            for _ in range(repeat):
                start = time.perf_counter()
                fn(command)
                best[k] = min(best[k], time.perf_counter() - start)
    return statistics.median(best_a) * 1e6, statistics.median(best_b) * 1e6


def corpus_table(repeat: int) -> None:
    commands = [json.loads(line)["command"] for line in CORPUS.read_text().splitlines()]
    print(f"corpus: {len(commands)} commands")
    ours_all = _median_us(parse, commands, repeat)
    print(f"  deerguard   median {ours_all:8.1f} us/command (all {len(commands)})")
    try:
        import bashlex  # type: ignore[import-untyped]
    except ImportError:
        print("  bashlex not installed")
        return
    accepted: list[str] = []
    for command in commands:
        try:
            bashlex.parse(command)
        except Exception:  # noqa: BLE001 - bashlex fails in many ways on what it lacks
            continue
        accepted.append(command)
    ours, theirs = _paired_medians(parse, bashlex.parse, accepted, repeat)
    print(f"  on the {len(accepted)} commands bashlex parses:")
    print(f"  deerguard   median {ours:8.1f} us/command")
    print(f"  bashlex     median {theirs:8.1f} us/command")
    print(f"  speedup     {theirs / ours:8.1f}x")


def _fill(unit: str, size: int, head: str = "", tail: str = "") -> str:
    body = unit * max(1, (size - len(head) - len(tail)) // len(unit))
    return head + body + tail


FAMILIES: dict[str, Callable[[int], str]] = {
    "long word": lambda n: _fill("a", n, "echo "),
    "many words": lambda n: _fill("ab ", n, "echo "),
    "many quotes": lambda n: _fill("'a'\"b\"$'c' ", n, "echo "),
    "unclosed dquote": lambda n: _fill("a $x ", n, 'echo "'),
    "unclosed squote": lambda n: _fill("a b ", n, "echo '"),
    "unclosed $(": lambda n: _fill("a b ", n, "echo $("),
    "unclosed ${": lambda n: _fill("a b ", n, "echo ${x:-"),
    "unclosed backtick": lambda n: _fill("a b ", n, "echo `"),
    "deep $( nesting": lambda n: _fill("$(", n, "echo "),
    "deep ( nesting": lambda n: _fill("(", n),
    "deep { nesting": lambda n: _fill("{ ", n),
    "((((": lambda n: _fill("((", n),
    "$(($((": lambda n: _fill("$((", n, "echo "),
    "$(( a ) (": lambda n: _fill("$(( a ) ", n, "echo "),
    "many heredocs": lambda n: _fill("cat <<EOF\nx $y\nEOF\n", n),
    "heredocs on one line": lambda n: (
        _fill(" <<E", n // 2, "cat") + "\n" + _fill("a\nE\n", n // 2)
    ),
    "unterminated heredoc": lambda n: _fill("line $x\n", n, "cat <<EOF\n"),
    "pipes and lists": lambda n: _fill("a | b && c; ", n),
    "brace expansion": lambda n: _fill("{a,", n, "echo ", "}"),
    "open braces": lambda n: _fill("{", n, "echo "),
    "extglob opens": lambda n: _fill("@(", n, "echo "),
    "backslashes": lambda n: _fill("\\", n, "echo "),
    "many backticks": lambda n: _fill("`a` ", n, "echo "),
    "case items": lambda n: _fill("a) b;; ", n, "case x in ", "esac"),
    "[[ words": lambda n: _fill("a < b && ", n, "[[ ", " c ]]"),
    "garbage": lambda n: _fill(";)|&<>(\"'`$\\{}", n),
}


def scaling_table(sizes: list[int]) -> None:
    header = "".join(f"{s // 1000:>9} KB" for s in sizes)
    print(f"\nscaling (ms){' ' * 12}{header}   worst 10x step")
    for name, make in FAMILIES.items():
        times: list[float] = []
        for size in sizes:
            source = make(size)
            best = float("inf")
            for _ in range(3 if size <= 100_000 else 2):  # best of N damps machine noise
                start = time.perf_counter()
                parse(source)
                best = min(best, time.perf_counter() - start)
            times.append(best * 1000)
        steps = [b / a for a, b in zip(times, times[1:], strict=False) if a > 1.0]
        worst = f"{max(steps):6.1f}x" if steps else "   n/a"
        cells = "".join(f"{t:12.2f}" for t in times)
        print(f"  {name:<22}{cells}   {worst}")


def main() -> None:
    quick = "--quick" in sys.argv
    corpus_table(repeat=3 if quick else 7)
    sizes = [1_000, 10_000, 100_000] if quick else [1_000, 10_000, 100_000, 1_000_000]
    if "--no-gc" in sys.argv:
        # CPython's full collections rescan the whole (growing) tree, which bends the curve
        # at 1 MB; with the collector off the table shows the parser's own cost.
        print("\n(cyclic GC disabled for the scaling table)")
        gc.disable()
    scaling_table(sizes)
    gc.enable()


if __name__ == "__main__":
    main()
