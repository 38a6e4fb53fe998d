"""Shared runner for deerguard's fuzz harnesses.

Each harness defines ``test_one_input(data: bytes) -> None`` (raising only on a real bug) and
the seed inputs. ``run()`` fuzzes with atheris when it is installed and ``--replay`` is not
given; otherwise it replays every seed and every committed crasher, so CI exercises each
harness even without atheris (mvdan/sh ``testdata/fuzz`` habit).

Usage from a harness::

    if __name__ == "__main__":
        run(test_one_input, seeds(), name="shell_parse")

Command line: ``python fuzz/fuzz_x.py [--replay] [atheris/libFuzzer flags...]``, e.g.
``python fuzz/fuzz_x.py -max_total_time=60``. The corpus accumulates in
``.fuzz-corpus/<name>/`` unless ``DEERGUARD_FUZZ_CORPUS`` names another folder. Crashers go
in ``fuzz/crashers/<name>/`` and are replayed by the tests.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parent
ROOT = FUZZ_DIR.parent
CRASHERS = FUZZ_DIR / "crashers"


def crashers(name: str) -> Iterator[bytes]:
    """Yield every committed crasher / slow input for harness ``name``."""
    folder = CRASHERS / name
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.is_file():
                yield path.read_bytes()


def replay(test_one_input: Callable[[bytes], None], inputs: Iterable[bytes]) -> int:
    """Run ``test_one_input`` on every input; return how many ran (errors propagate)."""
    count = 0
    for data in inputs:
        test_one_input(data)
        count += 1
    return count


def run(
    test_one_input: Callable[[bytes], None],
    seeds: Iterable[bytes],
    *,
    name: str,
    argv: list[str] | None = None,
) -> None:
    """Fuzz with atheris (seeded), or replay seeds and crashers with ``--replay``/no atheris."""
    args = list(sys.argv if argv is None else argv)
    want_replay = "--replay" in args
    args = [a for a in args if a != "--replay"]
    try:
        if want_replay:
            raise ImportError
        import atheris  # type: ignore[import-not-found]
    except ImportError:
        count = replay(test_one_input, [*seeds, *crashers(name)])
        print(f"{name}: replayed {count} inputs, no failures")
        return
    # DEERGUARD_FUZZ_CORPUS: where the corpus lives (the smoke tests pass a fresh folder, so
    # a local run takes the same path as CI's clean clone; by default it accumulates).
    corpus_dir = Path(os.environ.get("DEERGUARD_FUZZ_CORPUS") or ROOT / ".fuzz-corpus") / name
    corpus_dir.mkdir(parents=True, exist_ok=True)
    for index, data in enumerate([*seeds, *crashers(name)]):
        (corpus_dir / f"seed-{index:05d}").write_bytes(data)
    atheris.instrument_all()
    atheris.Setup([args[0], *args[1:], str(corpus_dir)], test_one_input)
    atheris.Fuzz()
