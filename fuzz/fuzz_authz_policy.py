"""Fuzz harness: the authz policy loaders (roles YAML/TOML, Casbin policy CSV) on hostile bytes.

The first byte picks the format (yaml, toml, csv); the rest is decoded as UTF-8 (undecodable
bytes kept as lone surrogates). Invariants:

* loading either succeeds or raises :class:`~deerguard.errors.PolicyError`, never anything
  else (no KeyError/TypeError/RecursionError/yaml errors escaping);
* a PolicyError names a file;
* a policy that loads compiles, and every defined role can be checked for every permission
  with hostile names without raising, and the answer is a bool.

Seeds: every roles file and policy CSV of ``corpora/authz`` plus the shipped examples.
Run: ``python fuzz/fuzz_authz_policy.py -max_total_time=60`` (``--replay`` replays seeds only).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _harness import ROOT, run  # noqa: E402

from deerguard.authz import RESOURCE_ACTIONS, Authorizer, Principal  # noqa: E402
from deerguard.authz._casbinfile import parse_policy_csv  # noqa: E402
from deerguard.authz._rolesfile import roles_from_text  # noqa: E402
from deerguard.authz._types import PolicySet  # noqa: E402
from deerguard.errors import PolicyError  # noqa: E402

FORMATS = ("yaml", "toml", "csv")
NAMES = ("web_search", "", "gpt-4o", "mcp__github__x", "\x00", "a" * 2000, "*", "**")


def _load(fmt: str, text: str) -> PolicySet:
    if fmt == "csv":
        return parse_policy_csv(text, file="fuzz.csv")
    return roles_from_text(text, file=f"fuzz.{fmt}", fmt=fmt)


def test_one_input(data: bytes) -> None:
    if not data:
        return
    fmt = FORMATS[data[0] % len(FORMATS)]
    text = data[1:].decode("utf-8", "surrogateescape")
    try:
        policy = _load(fmt, text)
    except PolicyError as exc:
        assert exc.file, exc
        return
    authz = Authorizer.from_policy(policy)
    for role in sorted(policy.roles)[:4]:
        principal = Principal(roles=(role,), tenant="acme")
        for typ, actions in RESOURCE_ACTIONS.items():
            for action in actions:
                for name in (*NAMES, text[:40]):
                    assert authz.authorize(principal, typ, name, action).allow in (True, False)


def seeds() -> Iterator[bytes]:
    for path in sorted((ROOT / "corpora" / "authz").iterdir()):
        suffix = path.suffix.lstrip(".")
        if path.name.endswith("_cases.yaml") or suffix not in ("yaml", "yml", "toml", "csv"):
            continue
        fmt = "yaml" if suffix == "yml" else suffix
        yield bytes([FORMATS.index(fmt)]) + path.read_bytes()
    shipped = ROOT / "policies" / "authz"
    yield bytes([FORMATS.index("yaml")]) + (shipped / "roles.example.yaml").read_bytes()
    yield bytes([FORMATS.index("csv")]) + (shipped / "policy.example.csv").read_bytes()


if __name__ == "__main__":
    run(test_one_input, seeds(), name="authz_policy")
