"""Concurrency: 4 threads checking while the policy reloads see exactly the single-thread answers.

Reload builds a complete new snapshot and swaps one reference, so no check can observe a
half-loaded policy (Casbin's ``load_policy()`` clears role links in place, which shows up as
spurious denies for inherited grants: exactly what this test would catch).
"""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

from deerguard.authz import RESOURCE_ACTIONS, Authorizer, Principal

THREADS = 4
CHECKS_PER_THREAD = 12_500  # 50,000 in total


def _roles_file(path: Path) -> None:
    lines = ["roles:", "  base:", "    tools:", "      allow:"]
    lines += [f"        - tool_{i}" for i in range(40)] + ['        - "web_*"']
    lines += ["      deny: [tool_13, web_admin]", "    models: {allow: [\"gpt-*\"]}"]
    lines += ["  mid:", "    inherits: [base]", "    skills: {allow: \"*\", deny: [s_3]}"]
    lines += ["  top:", "    inherits: [mid]", "    sandbox: {allow: [box_1]}"]
    lines += ["    tools: {allow: [extra_1], deny: [tool_7]}"]
    path.write_text("\n".join(lines) + "\n")


def _requests() -> list[tuple[Principal, str, str, str]]:
    names = [f"tool_{i}" for i in range(0, 45, 3)] + ["web_x", "web_admin", "extra_1"]
    names += ["gpt-4o", "claude", "s_3", "s_4", "box_1", "box_2"]
    principals = [Principal(roles=(role,)) for role in ("base", "mid", "top")]
    out = []
    for principal, name, (typ, actions) in itertools.product(
        principals, names, RESOURCE_ACTIONS.items()
    ):
        for action in actions:
            out.append((principal, typ, name, action))
    return out


def test_four_threads_during_reloads_match_the_single_thread_oracle(tmp_path: Path) -> None:
    path = tmp_path / "roles.yaml"
    _roles_file(path)
    authz = Authorizer.from_file(path)
    requests = _requests()
    oracle = [authz.authorize(*request).allow for request in requests]
    assert any(oracle) and not all(oracle)
    # Inherited grants are what an in-place reload would lose first.
    assert authz.authorize(Principal(roles=("top",)), "tool", "tool_1", "call").allow

    stop = threading.Event()
    reloads = 0
    mismatches: list[tuple[int, bool]] = []
    counts = [0] * THREADS
    errors: list[BaseException] = []

    def reloader() -> None:
        nonlocal reloads
        while not stop.is_set():
            authz.reload()
            reloads += 1

    def checker(index: int) -> None:
        try:
            for n in range(CHECKS_PER_THREAD):
                position = (n * 7 + index) % len(requests)
                allowed = authz.authorize(*requests[position]).allow
                if allowed is not oracle[position]:
                    mismatches.append((position, allowed))
                counts[index] += 1
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    reload_thread = threading.Thread(target=reloader)
    workers = [threading.Thread(target=checker, args=(i,)) for i in range(THREADS)]
    reload_thread.start()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    stop.set()
    reload_thread.join()

    assert errors == []
    assert sum(counts) >= 50_000
    assert reloads >= 2, "the policy must actually reload while threads check"
    assert mismatches == []


def test_casbin_backed_engine_is_also_reload_safe(tmp_path: Path) -> None:
    # A custom model is answered by casbin.Enforcer; reload still builds a new enforcer and
    # swaps it, so its (slower) checks see no spurious denies either.
    root = Path(__file__).resolve().parent.parent
    csv = tmp_path / "p.csv"
    csv.write_text(
        "p, base, *, tool, web_*, call, allow\np, base, *, tool, web_admin, call, deny\n"
        "g, mid, base\ng, top, mid\n"
    )
    authz = Authorizer.from_casbin(root / "corpora" / "authz" / "casbin_nodomain_model.conf", csv)
    requests = [
        (Principal(roles=(role,)), "tool", name, "call")
        for role in ("base", "mid", "top")
        for name in ("web_a", "web_admin", "other")
    ]
    oracle = [authz.authorize(*request).allow for request in requests]
    assert oracle.count(True) == 3
    stop = threading.Event()
    mismatches: list[int] = []

    def reloader() -> None:
        while not stop.is_set():
            authz.reload()

    def checker(index: int) -> None:
        for n in range(300):
            position = (n + index) % len(requests)
            if authz.authorize(*requests[position]).allow is not oracle[position]:
                mismatches.append(position)

    threads = [threading.Thread(target=checker, args=(i,)) for i in range(THREADS)]
    reload_thread = threading.Thread(target=reloader)
    reload_thread.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    reload_thread.join()
    assert mismatches == []
