"""The compiled fast path: Casbin rows turned into immutable per-(role, tenant, type, action)
lookup buckets, with role inheritance closed in advance.

A :class:`CompiledPolicy` is built once and never mutated, so any number of threads may read
it while a new one is built; the :class:`~deerguard.authz.Authorizer` swaps snapshots with a
single reference assignment. Answers equal ``casbin.Enforcer`` on the shipped model (deny by
default, deny wins, ``nameMatch`` globs): a differential property test pins that.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from ._glob import Glob, compile_glob, is_glob
from ._types import RESOURCE_ACTIONS, PolicyRow, PolicySet

__all__ = ["Bucket", "CompiledPolicy", "Match", "compile_policy", "role_closure"]


@dataclass(frozen=True, slots=True)
class Bucket:
    """The rows of one (role, tenant, type, action) after inheritance, split for lookup."""

    exact_deny: MappingProxyType[str, PolicyRow]
    glob_deny: tuple[tuple[Glob, PolicyRow], ...]
    exact_allow: MappingProxyType[str, PolicyRow]
    glob_allow: tuple[tuple[Glob, PolicyRow], ...]

    def deny_row(self, name: str) -> PolicyRow | None:
        """Return a deny row matching ``name``, if any."""
        row = self.exact_deny.get(name)
        if row is not None:
            return row
        for glob, candidate in self.glob_deny:
            if glob.matches(name):
                return candidate
        return None

    def allow_row(self, name: str) -> PolicyRow | None:
        """Return an allow row matching ``name``, if any."""
        row = self.exact_allow.get(name)
        if row is not None:
            return row
        for glob, candidate in self.glob_allow:
            if glob.matches(name):
                return candidate
        return None


@dataclass(frozen=True, slots=True)
class Match:
    """The outcome of a lookup: the deciding row (``None`` means nothing matched)."""

    allow: bool
    row: PolicyRow | None


_NO_MATCH = Match(False, None)


def role_closure(
    roles: Iterable[str], links: Iterable[tuple[str, str]]
) -> dict[str, frozenset[str]]:
    """Map each role to itself plus every role it inherits, transitively (cycle-safe)."""
    parents: dict[str, set[str]] = {}
    for member, parent in links:
        parents.setdefault(member, set()).add(parent)
    closure: dict[str, frozenset[str]] = {}
    for role in roles:
        seen = {role}
        stack = [role]
        while stack:
            for parent in parents.get(stack.pop(), ()):
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        closure[role] = frozenset(seen)
    return closure


class _Builder:
    __slots__ = ("exact_allow", "exact_deny", "glob_allow", "glob_deny")

    def __init__(self) -> None:
        self.exact_deny: dict[str, PolicyRow] = {}
        self.glob_deny: list[tuple[Glob, PolicyRow]] = []
        self.exact_allow: dict[str, PolicyRow] = {}
        self.glob_allow: list[tuple[Glob, PolicyRow]] = []

    def add(self, row: PolicyRow, globs: dict[str, Glob]) -> None:
        if is_glob(row.obj):
            glob = globs.get(row.obj)
            if glob is None:
                glob = globs[row.obj] = compile_glob(row.obj)
            (self.glob_deny if row.eft == "deny" else self.glob_allow).append((glob, row))
        else:
            target = self.exact_deny if row.eft == "deny" else self.exact_allow
            target.setdefault(row.obj, row)

    def freeze(self) -> Bucket:
        return Bucket(
            MappingProxyType(self.exact_deny),
            tuple(self.glob_deny),
            MappingProxyType(self.exact_allow),
            tuple(self.glob_allow),
        )


class CompiledPolicy:
    """An immutable, thread-safe compiled policy. Build with :func:`compile_policy`."""

    __slots__ = ("_buckets", "policy", "roles")

    def __init__(self, policy: PolicySet, buckets: dict[tuple[str, str, str, str], Bucket]):
        self.policy = policy
        self.roles = policy.roles
        self._buckets: MappingProxyType[tuple[str, str, str, str], Bucket] = MappingProxyType(
            buckets
        )

    def decide(
        self, roles: tuple[str, ...], tenant: str, typ: str, name: str, action: str
    ) -> Match:
        """Return the deciding row for a request: any matching deny wins, then any allow.

        ``tenant`` is ``""`` for a principal without one (only ``dom == "*"`` rows apply).
        Cost: a few dict lookups plus the glob rows of the matched buckets.
        """
        buckets = self._buckets
        found: list[Bucket] = []
        for role in roles:
            bucket = buckets.get((role, "*", typ, action))
            if bucket is not None:
                found.append(bucket)
            if tenant and tenant != "*":
                bucket = buckets.get((role, tenant, typ, action))
                if bucket is not None:
                    found.append(bucket)
        for bucket in found:
            row = bucket.deny_row(name)
            if row is not None:
                return Match(False, row)
        for bucket in found:
            row = bucket.allow_row(name)
            if row is not None:
                return Match(True, row)
        return _NO_MATCH


def compile_policy(policy: PolicySet) -> CompiledPolicy:
    """Compile validated rows into a :class:`CompiledPolicy` (linear in rows x roles).

    Each role's buckets hold its own rows plus those of every role it inherits; rows with
    ``act == "*"`` are expanded to every action of their resource type.
    """
    closure = role_closure(
        policy.roles | {row.sub for row in policy.rows},
        ((link.member, link.parent) for link in policy.links),
    )
    # Which roles receive a row written for ``sub``: every role whose closure contains it.
    heirs: dict[str, list[str]] = {}
    for role, ancestors in closure.items():
        for ancestor in ancestors:
            heirs.setdefault(ancestor, []).append(role)
    builders: dict[tuple[str, str, str, str], _Builder] = {}
    globs: dict[str, Glob] = {}
    for row in policy.rows:
        actions = RESOURCE_ACTIONS.get(row.typ, ()) if row.act == "*" else (row.act,)
        for role in heirs.get(row.sub, (row.sub,)):
            for action in actions:
                key = (role, row.dom, row.typ, action)
                builder = builders.get(key)
                if builder is None:
                    builder = builders[key] = _Builder()
                builder.add(row, globs)
    return CompiledPolicy(policy, {key: b.freeze() for key, b in builders.items()})
