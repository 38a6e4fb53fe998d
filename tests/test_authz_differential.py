"""Differential oracle: the compiled fast path answers exactly as ``casbin.Enforcer`` does.

Casbin (pycasbin 2.8) is the source of truth: the shipped model, the same rows and links,
and ``nameMatch`` registered as deerguard's glob. A principal with several roles is asked of
Casbin as a synthetic subject linked (``g``) to each of those roles.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from deerguard.authz import RESOURCE_ACTIONS, glob_match
from deerguard.authz._compiled import compile_policy
from deerguard.authz._engine import CasbinEngine, build_enforcer, canonical_model_text
from deerguard.authz._rolesfile import roles_from_mapping
from deerguard.authz._types import PolicyRow, PolicySet, RoleLink

ROLE_NAMES = ["r0", "r1", "r2"]
TENANTS = ["t1", "t2"]
SUBJECTS = ["s0", "s1"]
# Few roles and two types make rows collide (exact vs glob, allow vs deny) often.
TYPES = ["model", "tool"]

names = st.text(alphabet="ab_", min_size=1, max_size=4)
patterns = st.text(alphabet="ab_*", min_size=1, max_size=6).filter(lambda p: "**" not in p)


@st.composite
def rows(draw: Any, vocab: tuple[str, ...]) -> PolicyRow:
    """A row whose name pattern is built from a small vocabulary, so that exact names, globs
    over the same names, allows and denies collide in the same buckets often."""
    typ = draw(st.sampled_from(TYPES))
    word = draw(st.sampled_from(vocab))
    cut = draw(st.integers(0, len(word)))
    obj = draw(st.sampled_from([word, word[:cut] + "*", "*" + word[cut:], "*"]) | patterns)
    return PolicyRow(
        draw(st.sampled_from(ROLE_NAMES)),
        draw(st.sampled_from(["*", "*", *TENANTS])),
        typ,
        obj,
        draw(st.sampled_from(["*", *RESOURCE_ACTIONS[typ]])),
        draw(st.sampled_from(["allow", "deny"])),
    )


@st.composite
def requests(draw: Any, vocab: tuple[str, ...]) -> tuple[tuple[str, ...], str, str, str, str]:
    typ = draw(st.sampled_from(TYPES))
    roles = tuple(draw(st.lists(st.sampled_from(ROLE_NAMES), min_size=1, max_size=3, unique=True)))
    return (
        roles,
        draw(st.sampled_from(["", "*", *TENANTS])),
        typ,
        draw(st.sampled_from(vocab) | names),
        draw(st.sampled_from(RESOURCE_ACTIONS[typ])),
    )


links = st.lists(
    st.tuples(st.sampled_from(ROLE_NAMES), st.sampled_from(ROLE_NAMES)).filter(
        lambda pair: pair[0] != pair[1]
    ),
    max_size=5,
)


@settings(max_examples=200)
@given(role_links=links, data=st.data())
def test_compiled_path_matches_casbin_enforcer(
    role_links: list[tuple[str, str]], data: st.DataObject
) -> None:
    vocab = tuple(data.draw(st.lists(names, min_size=1, max_size=4, unique=True)))
    policy_rows = data.draw(st.lists(rows(vocab), max_size=25))
    asked = data.draw(st.lists(requests(vocab), min_size=1, max_size=15))
    policy = PolicySet(
        tuple(policy_rows),
        tuple(RoleLink(m, p) for m, p in role_links),
        frozenset(ROLE_NAMES),
    )
    compiled = compile_policy(policy)
    engine = CasbinEngine(canonical_model_text(), policy)
    for roles, tenant, typ, name, action in asked:
        # Casbin as the oracle: one synthetic subject inheriting exactly these roles.
        oracle_links = (*policy.links, *(RoleLink("__principal__", role) for role in roles))
        oracle = build_enforcer(
            canonical_model_text(), PolicySet(policy.rows, oracle_links, policy.roles)
        )
        expected = oracle.enforce("__principal__", tenant, typ, name, action)
        got = compiled.decide(roles, tenant, typ, name, action)
        assert got.allow is expected, (roles, tenant, typ, name, action)
        if got.row is not None:
            assert got.row.eft == ("allow" if got.allow else "deny")
        assert engine.decide(roles, tenant, typ, name, action).allow is expected


@settings(max_examples=200)
@given(data=st.data())
def test_one_bucket_exact_and_glob_allow_and_deny_match_casbin(data: st.DataObject) -> None:
    # Focus on what happens inside one (role, type, action) bucket, where the compiled path
    # merges exact names and indexes globs: exact vs glob, allow vs deny, same words.
    vocab = tuple(data.draw(st.lists(names, min_size=1, max_size=3, unique=True)))
    patterns_for = st.sampled_from(vocab).flatmap(
        lambda word: st.integers(0, len(word)).flatmap(
            lambda cut: st.sampled_from([word, word[:cut] + "*", "*" + word[cut:], "*"])
        )
    )
    rows_ = data.draw(
        st.lists(
            st.builds(
                PolicyRow,
                st.just("r0"),
                st.just("*"),
                st.just("tool"),
                patterns_for,
                st.sampled_from(["call", "*"]),
                st.sampled_from(["allow", "deny"]),
            ),
            min_size=1,
            max_size=8,
        )
    )
    policy = PolicySet(tuple(rows_), (), frozenset({"r0"}))
    compiled = compile_policy(policy)
    enforcer = build_enforcer(canonical_model_text(), policy)
    for name in (*vocab, *data.draw(st.lists(names, max_size=3))):
        expected = enforcer.enforce("r0", "", "tool", name, "call")
        assert compiled.decide(("r0",), "", "tool", name, "call").allow is expected, name


section = st.fixed_dictionaries(
    {},
    optional={
        "allow": st.one_of(st.just("*"), st.lists(patterns, max_size=3), st.booleans()),
        "deny": st.lists(patterns, max_size=3),
    },
)


@st.composite
def roles_files(draw: Any) -> dict[str, Any]:
    roles: dict[str, Any] = {}
    for index, role in enumerate(ROLE_NAMES[:3]):
        spec: dict[str, Any] = {}
        for key in draw(st.lists(st.sampled_from(["models", "tools", "skills"]), unique=True)):
            spec[key] = draw(section)
        # Only inherit from earlier roles: no cycles, as the loader demands.
        parents = draw(st.lists(st.sampled_from(ROLE_NAMES[:index] or ["-"]), unique=True))
        if index and parents:
            spec["inherits"] = parents
        roles[role] = spec
    return {"roles": roles}


@settings(max_examples=100)
@given(data=roles_files(), asked=st.lists(requests(("a", "ab", "b_a")), min_size=1, max_size=10))
def test_roles_files_compile_to_rows_casbin_agrees_with(
    data: dict[str, Any], asked: list[tuple[tuple[str, ...], str, str, str, str]]
) -> None:
    policy = roles_from_mapping(data)
    compiled = compile_policy(policy)
    enforcer = build_enforcer(canonical_model_text(), policy)
    for roles, tenant, typ, name, action in asked:
        role = roles[0]
        if role not in policy.roles:
            continue
        expected = enforcer.enforce(role, tenant, typ, name, action)
        assert compiled.decide((role,), tenant, typ, name, action).allow is expected


def _regex_oracle(name: str, pattern: str) -> bool:
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, name, flags=re.DOTALL) is not None


@settings(max_examples=200)
@given(name=st.text(alphabet="ab_*x", max_size=12), pattern=patterns)
def test_glob_is_whole_pattern_star_matching(name: str, pattern: str) -> None:
    assert glob_match(name, pattern) is _regex_oracle(name, pattern)


def test_glob_checks_text_after_the_first_star_unlike_keymatch() -> None:
    assert glob_match("mcp__slack__read", "mcp__*__read")
    assert not glob_match("mcp__slack__write", "mcp__*__read")
    assert not glob_match("my_web_search", "web_*")
