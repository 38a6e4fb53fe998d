"""Benchmark: authorization checks per second and policy load time, deerguard vs casbin.Enforcer.

For 10, 1,000 and 10,000 policy rows (exact names, ~2% globs, ~5% denies, a 3-level role
hierarchy) it measures, in one run, on the same rows and the same requests:

* ``Authorizer.authorize`` (the full public call, decision object included), single thread;
* ``casbin.Enforcer.enforce`` on the shipped model (nameMatch registered), a short run;

and the time to load 10,000 rows from a roles file (YAML and TOML) and from a Casbin CSV.
Prints medians of repeated timings and the speed-up. Targets (issue 6): >= 200,000 checks/s
at 1,000 rows single-threaded; 10,000-row load < 1 s.

Run: ``python benchmarks/authz.py`` (about half a minute).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from deerguard.authz import Authorizer, Principal
from deerguard.authz._engine import build_enforcer, canonical_model_text

ROLE_CHAIN = ("base", "mid", "top")


def _rows_csv(count: int, rng: random.Random) -> str:
    lines = ["g, mid, base", "g, top, mid"]
    for index in range(count):
        role = rng.choice(ROLE_CHAIN)
        roll = rng.random()
        if roll < 0.02:
            name, eft = f"ns{index}_*", "allow"
        elif roll < 0.07:
            name, eft = f"tool_{rng.randrange(count)}", "deny"
        else:
            name, eft = f"tool_{index}", "allow"
        lines.append(f"p, {role}, *, tool, {name}, call, {eft}")
    return "\n".join(lines) + "\n"


def _roles_yaml(count: int) -> str:
    # count rows = count/2 names x 2 tool actions.
    names = "\n".join(f"        - tool_{i}" for i in range(count // 2))
    return f"roles:\n  user:\n    tools:\n      allow:\n{names}\n"


def _roles_toml(count: int) -> str:
    names = ", ".join(f'"tool_{i}"' for i in range(count // 2))
    return f"[roles.user.tools]\nallow = [{names}]\n"


def _rates(fn: object, requests: list[tuple[str, ...]], repeats: int) -> tuple[float, float]:
    """Return (median, best) checks per second over ``repeats`` runs.

    Both are printed: on a shared machine the median shows the load, the best run shows
    what the code can do when it gets a core.
    """
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(requests)  # type: ignore[operator]
        rates.append(len(requests) / (time.perf_counter() - start))
    return statistics.median(rates), max(rates)


def _median_seconds(fn: object, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    rng = random.Random(6)
    tmp = Path(tempfile.mkdtemp(prefix="deerguard-authz-bench-"))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"python {sys.version.split()[0]}; {os.cpu_count()} cores, load average {load:.1f}; "
        "single thread; median (best) of repeated runs"
    )
    print(f"{'rows':>6} {'deerguard checks/s':>28} {'casbin checks/s':>20} {'speed-up':>9}")
    for count in (10, 1_000, 10_000):
        csv = tmp / f"p{count}.csv"
        csv.write_text(_rows_csv(count, rng))
        authz = Authorizer.from_casbin(None, csv)
        enforcer = build_enforcer(canonical_model_text(), authz.policy)
        principals = {role: Principal(roles=(role,)) for role in ROLE_CHAIN}
        requests = [
            (rng.choice(ROLE_CHAIN), f"tool_{rng.randrange(count * 2)}")
            for _ in range(20_000)
        ]
        requests += [(rng.choice(ROLE_CHAIN), f"ns{rng.randrange(count)}_x") for _ in range(500)]
        rng.shuffle(requests)

        def ours(
            batch: list[tuple[str, str]], authorize: Any = authz.authorize, who: Any = principals
        ) -> None:
            for role, name in batch:
                authorize(who[role], "tool", name, "call")

        def theirs(batch: list[tuple[str, str]], enforce: Any = enforcer.enforce) -> None:
            for role, name in batch:
                enforce(role, "", "tool", name, "call")

        # Same answers on the sample casbin is timed on (the differential test covers more).
        sample = requests[: {10: 2000, 1_000: 200, 10_000: 30}[count]]
        for role, name in sample:
            mine = authz.authorize(principals[role], "tool", name, "call").allow
            assert mine is enforcer.enforce(role, "", "tool", name, "call"), (role, name)
        deer, deer_best = _rates(ours, requests, 7)
        cas, cas_best = _rates(theirs, sample, 3 if count < 10_000 else 1)
        print(
            f"{count:>6} {deer:>16,.0f} ({deer_best:>9,.0f}) {cas:>10,.0f} ({cas_best:>7,.0f})"
            f" {deer / cas:>8,.0f}x"
        )

    print("\nload 10,000 rows (parse + validate + compile), median of 5:")
    yaml_path, toml_path, csv_path = tmp / "r.yaml", tmp / "r.toml", tmp / "p10000.csv"
    yaml_path.write_text(_roles_yaml(10_000))
    toml_path.write_text(_roles_toml(10_000))
    for label, load in (
        ("roles YAML", lambda: Authorizer.from_file(yaml_path)),
        ("roles TOML", lambda: Authorizer.from_file(toml_path)),
        ("Casbin CSV", lambda: Authorizer.from_casbin(None, csv_path)),
        ("reload CSV", Authorizer.from_casbin(None, csv_path).reload),
    ):
        print(f"  {label:<11} {_median_seconds(load, 5) * 1000:8.1f} ms")
    assert len(Authorizer.from_file(yaml_path).policy.rows) == 10_000


if __name__ == "__main__":
    main()
