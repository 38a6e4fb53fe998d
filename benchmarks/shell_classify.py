"""Benchmark the shell classifier: µs per command over the corpora, worst adversarial cases.

Run: ``python benchmarks/shell_classify.py [--quick] [--installed]``. It measures the source
tree's package, unless ``--installed`` is given: then the interpreter's installed deerguard
(for example the mypyc-compiled build, ``DEERGUARD_COMPILE=1 pip install .``). Prints which
build it measured (pure Python or compiled), then

* median and p99 microseconds per ``classify()`` call over ``corpora/shell/pass.jsonl`` and
  ``corpora/shell/block.jsonl`` (the full public call: parse, resolve, rules, result object),
  each command timed on its own (its best of several passes over the corpus);
* the parse-only median on the same commands, to show the classifier's own share;
* the worst time over adversarial 10,000-character inputs (deep nesting, long pipelines,
  thousands of words, wrappers, nested ``bash -c``/``eval`` quoting, variables, heredocs,
  brace products, unclosed constructs, garbage, and the slow inputs the classify fuzzer
  found, ``fuzz:*``, repeated to size);
* a growth table: each adversarial family at 1,000 / 10,000 / 100,000 characters (the last
  with ``limits.max_length`` raised), with the ratio per 10x step (linear stays near 10x).

Targets (issue 4, 2-core machines): median < 30 µs, p99 < 200 µs, any 10,000-character input
< 5 ms, linear growth.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if "--installed" not in sys.argv:
    sys.path.insert(0, str(ROOT))

import deerguard.shell._walk  # noqa: E402
from deerguard.shell import Classifier, parse, parse_policy  # noqa: E402

BUILD = "compiled (mypyc)" if not deerguard.shell._walk.__file__.endswith(".py") else \
    "pure Python"


def _corpus(name: str) -> list[str]:
    path = ROOT / "corpora" / "shell" / f"{name}.jsonl"
    return [json.loads(line)["command"] for line in path.read_text("utf-8").splitlines()
            if line.strip()]


def _time_each(fn: Callable[[str], object], commands: list[str], rounds: int) -> list[float]:
    """Per-command cost in µs: the best of ``rounds`` timings of each command, taken in
    ``rounds`` passes over the whole list (so a burst of load on a shared machine spoils one
    pass, not every timing of one command). Same method as ``benchmarks/shell_parse.py``."""
    best = [float("inf")] * len(commands)
    for _ in range(rounds):
        for k, command in enumerate(commands):
            t0 = time.perf_counter()
            fn(command)
            best[k] = min(best[k], time.perf_counter() - t0)
    return [b * 1e6 for b in best]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _fit(unit: str, size: int) -> str:
    """Whole copies of ``unit`` padded with spaces to exactly ``size`` characters."""
    text = unit * max(0, size // len(unit))
    return text + " " * (size - len(text))


def _rep(unit: str, size: int, head: str = "", tail: str = "") -> str:
    """``head`` + whole copies of ``unit`` + ``tail``, at most ``size`` characters."""
    count = max(0, (size - len(head) - len(tail)) // len(unit))
    return head + unit * count + tail


FAMILIES: dict[str, Callable[[int], str]] = {
    "deep-subshells": lambda n: "( " * ((n - 2) // 4) + "ls" + " )" * ((n - 2) // 4),
    "deep-cmdsubst": lambda n: "echo " + "$(" * ((n - 6) // 3) + "x" + ")" * ((n - 6) // 3),
    "long-pipeline": lambda n: _rep("cat f | ", n, tail="sh"),
    "many-words": lambda n: _rep("a ", n, head="echo "),
    "many-statements": lambda n: _rep("rm -f x; ", n),
    # The densest statements there are (two characters each): the per-statement worst case.
    "dense-statements": lambda n: _rep("a;", n),
    "dense-and-or": lambda n: _rep("a&&", n, tail="a"),
    "wrapper-chain": lambda n: _rep("env ", n, tail="rm -rf /"),
    "sudo-nice-chain": lambda n: _rep("sudo -u r nice -n 1 ", n, tail="ls"),
    "nested-bash-c": lambda n: _nested_bash(n),
    "nested-eval": lambda n: _rep("eval ", n, tail="ls"),
    "variables": lambda n: _rep("x=$x$x; ", n, tail="$x"),
    "brace-products": lambda n: _rep("{a,b}", n, head="echo "),
    "heredocs": lambda n: _rep("cat <<E\nx\nE\n", n),
    "unclosed-quotes": lambda n: _rep("echo \"a ' b $( ", n),
    # One unclosed quote or backtick, then dense statements: the raw-text fallback parses
    # and walks the rest again (quotes dropped, then grouping flattened).
    "unclosed-then-statements": lambda n: _rep("a; ", n, head="echo '"),
    "unclosed-backtick-statements": lambda n: _rep("a; ", n, head="echo `"),
    "functions": lambda n: _rep("f(){ f; }; f; ", n),
    "find-exec": lambda n: _rep("-exec rm {} ; ", n, head="find / "),
    "python-c": lambda n: _rep("os.system(\"ls\");", n, head="python3 -c '", tail="'"),
    # A keyword, then a whitespace run: a reader regex with two optional-space runs around an
    # optional token (`open\s*\(?\s*`) backtracked quadratically here (fixed: possessive).
    "keyword-spaces": lambda n: _rep(" ", n, head="perl -e 'open", tail="x'"),
    "garbage": lambda n: _rep("\x00\\'\"`$({[<|&;>]})\n#~!", n),
    # Many variables, then many subshells: each subshell's scope must cost its own writes,
    # not a copy of every variable (that was quadratic).
    "vars-then-pipes": lambda n: _rep("cat f | ", n, head=_vars(n // 2), tail="cat f"),
    "vars-then-substs": lambda n: _rep("$(true) ", n, head=_vars(n // 2) + "echo "),
}


# Slow inputs the classify fuzzer found (fuzz/crashers/classify/slow-*), repeated to size:
# garbage nested code that does not parse (each nested string is parsed and walked again
# as raw text), alias and function fan-out. The hand-written families above missed these.
for _path in sorted((ROOT / "fuzz" / "crashers" / "classify").glob("slow-*")):
    _unit = _path.read_bytes().decode("utf-8", "replace") + "\n"
    FAMILIES["fuzz:" + _path.name[5:]] = lambda n, u=_unit: (u * (n // len(u) + 1))[:n]


def _vars(n: int) -> str:
    return "".join(f"v{i}=a; " for i in range(n // 9))


def _nested_bash(n: int) -> str:
    text = "ls"
    while True:
        bigger = "bash -c " + "'" + text.replace("'", "'\\''") + "'"
        if len(bigger) > n:
            return text
        text = bigger


def main() -> None:
    quick = "--quick" in sys.argv
    rounds = 3 if quick else 7
    clf = Classifier()
    print(f"deerguard shell classifier benchmark: {BUILD} build from "
          f"{Path(deerguard.shell._walk.__file__).parent}")
    for name in ("pass", "block"):
        commands = _corpus(name)
        for c in commands:  # warm caches (policy compile, regexes)
            clf.classify(c)
        cost = _time_each(clf.classify, commands, rounds)
        parse_cost = _time_each(parse, commands, rounds)
        print(f"  {name:5} corpus ({len(commands)} commands): classify median "
              f"{statistics.median(cost):6.1f} µs, p99 {_pct(cost, 0.99):7.1f} µs, "
              f"max {max(cost):7.1f} µs; parse-only median {statistics.median(parse_cost):5.1f} µs")
    print("\n  adversarial 10,000-character inputs (median of 5 runs each; parse-only beside):")
    worst = 0.0
    for family, make in FAMILIES.items():
        text = make(10_000)
        samples = []
        parse_samples = []
        for _ in range(5):
            t0 = time.perf_counter()
            result = clf.classify(text)
            samples.append((time.perf_counter() - t0) * 1e3)
            t0 = time.perf_counter()
            parse(text)
            parse_samples.append((time.perf_counter() - t0) * 1e3)
        cost = statistics.median(samples)
        worst = max(worst, cost)
        print(f"    {family:30} {cost:7.2f} ms  (parse {statistics.median(parse_samples):6.2f} ms)"
              f"  -> {result.verdict}")
    print(f"  worst: {worst:.2f} ms (target < 5 ms)")
    big = Classifier(policy=parse_policy("[limits]\nmax_length = 200000\n"))
    sizes = (1_000, 10_000) if quick else (1_000, 10_000, 100_000)
    print("\n  growth (ms; ratio per 10x input):")
    print("    " + f"{'family':30}" + "".join(f"{s:>12,}" for s in sizes) + "   ratios")
    for family, make in FAMILIES.items():
        times = []
        for size in sizes:
            text = make(size)
            best = float("inf")
            for _ in range(3 if size <= 10_000 else 1):
                t0 = time.perf_counter()
                big.classify(text)
                best = min(best, time.perf_counter() - t0)
            times.append(best * 1e3)
        ratios = " ".join(f"{b / a:5.1f}x" for a, b in zip(times, times[1:], strict=False)
                          if a > 0)
        print("    " + f"{family:30}" + "".join(f"{t:12.2f}" for t in times) + "   " + ratios)


if __name__ == "__main__":
    main()
