"""Authorizer behaviour: principals from trusted context, decisions, filters, tools, models,
fail modes, reload, and the Casbin boundary's logging fence."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import deerguard.authz as authz_pkg
from deerguard.authz import (
    RESOURCE_ACTIONS,
    Authorizer,
    Principal,
    principal_from_context,
    resolve_model,
)
from deerguard.authz._compiled import Match
from deerguard.authz._types import PolicySet
from deerguard.errors import AuthorizationError, ConfigError, PolicyError

ROLES: dict[str, Any] = {
    "default_role": "guest",
    "roles": {
        "guest": {"tools": {"allow": ["web_search"]}, "models": {"allow": ["gpt-4o-mini"]}},
        "user": {
            "inherits": ["guest"],
            "tools": {"allow": "*", "deny": ["update_agent"]},
            "models": {"allow": ["gpt-4o*", "o1"], "deny": ["gpt-4o-realtime"]},
        },
    },
}


@pytest.fixture()
def authz() -> Authorizer:
    return Authorizer.from_mapping(ROLES)


USER = Principal(user_id="u1", roles=("user",))
GUEST = Principal(user_id="g1", roles=("guest",))


def test_public_api_is_pinned() -> None:
    assert sorted(authz_pkg.__all__) == sorted(
        [
            "DEFAULT_DENY",
            "RESOURCE_ACTIONS",
            "ROLES_FILE_SECTIONS",
            "TRUSTED_CONTEXT_KEYS",
            "Authorizer",
            "AuthzDecision",
            "AuthzReason",
            "ModelChoice",
            "PolicyRow",
            "PolicySet",
            "Principal",
            "RoleLink",
            "glob_match",
            "principal_from_context",
            "resolve_model",
        ]
    )
    for name in authz_pkg.__all__:
        assert getattr(authz_pkg, name) is not None


def test_resource_actions_are_frozen_and_complete() -> None:
    assert dict(RESOURCE_ACTIONS) == {
        "model": ("use", "list"),
        "sandbox": ("execute",),
        "tool": ("call", "list"),
        "mcp_server": ("connect",),
        "skill": ("use",),
    }
    with pytest.raises(TypeError):
        RESOURCE_ACTIONS["tool"] = ("call",)  # type: ignore[index]


# -- principals --------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["true", "True", 1, 1.0, [True], {"v": True}, None])
def test_is_internal_counts_only_the_literal_true(value: object) -> None:
    assert principal_from_context({"user_role": "user", "is_internal": value}).is_internal is False
    assert Principal(roles=("user",), is_internal=value).is_internal is False
    assert principal_from_context({"user_role": "user", "is_internal": True}).is_internal is True


def test_principal_ignores_caller_supplied_identity_overrides() -> None:
    context = {
        "user_id": "u1",
        "user_role": "guest",
        "role": "admin",
        "roles": ["admin"],
        "configurable": {"user_role": "admin", "is_internal": True},
        "overrides": {"user_role": "admin", "tenant_id": "root"},
        "request": {"context": {"user_role": "admin"}},
    }
    principal = principal_from_context(context)
    assert principal.roles == ("guest",)
    assert principal.is_internal is False
    assert principal.tenant is None


def test_principal_reads_only_trusted_keys() -> None:
    context = {"user_role": "admin", "user_id": "u1", "is_internal": True}
    principal = principal_from_context(
        context, trusted_keys=frozenset({"user_id"}), default_role="guest"
    )
    assert principal.roles == ("guest",)
    assert principal.user_id == "u1"
    assert principal.is_internal is False


def test_principal_without_role_or_default_raises() -> None:
    with pytest.raises(ConfigError):
        principal_from_context({"user_id": "u1"})
    with pytest.raises(ConfigError):
        principal_from_context({"user_role": ["admin"]})
    assert principal_from_context({"user_role": ""}, default_role="guest").roles == ("guest",)


def test_principal_attributes_are_a_deep_immutable_copy() -> None:
    source = {"team": {"name": "red", "tags": ["a"]}}
    principal = principal_from_context({"user_role": "user", "authz_attributes": source})
    source["team"]["name"] = "blue"
    source["team"]["tags"].append("b")  # type: ignore[attr-defined]
    assert principal.attributes["team"]["name"] == "red"
    assert principal.attributes["team"]["tags"] == ("a",)
    with pytest.raises(TypeError):
        principal.attributes["team"]["name"] = "x"
    with pytest.raises(Exception):  # noqa: B017 - pydantic's frozen-instance error
        principal.roles = ("admin",)  # type: ignore[misc]
    assert principal.to_dict()["attributes"] == {"team": {"name": "red", "tags": ["a"]}}


def test_role_with_no_policy_raises_at_construction_and_at_check(authz: Authorizer) -> None:
    with pytest.raises(ConfigError, match="no policy"):
        authz.principal_from_context({"user_role": "admin"})
    assert authz.principal_from_context({}).roles == ("guest",)  # the policy's default_role
    with pytest.raises(ConfigError, match="no policy"):
        authz.authorize(Principal(roles=("user", "admin")), "tool", "x", "call")
    with pytest.raises(ConfigError):
        authz.authorize(Principal(), "tool", "x", "call")
    with pytest.raises(ConfigError):
        authz.authorize({"roles": ["user"]}, "tool", "x", "call")  # type: ignore[arg-type]


# -- decisions ---------------------------------------------------------------------------


def test_decision_names_the_rule_its_origin_and_serializes(authz: Authorizer) -> None:
    denied = authz.authorize(USER, "tool", "update_agent", "call")
    assert (denied.allow, denied.source) == (False, "policy")
    assert denied.rule == "p, user, *, tool, update_agent, call, deny"
    assert "roles.user.tools.deny.0" in denied.origin
    assert denied.reasons[0].code == "denied-by-rule"
    default = authz.authorize(GUEST, "sandbox", "docker", "execute")
    assert (default.allow, default.source, default.rule) == (False, "default", "default-deny")
    data = json.loads(json.dumps(denied.to_dict()))
    assert data["permission"] == "tool:call" and data["allow"] is False
    with pytest.raises(TypeError):
        bool(denied)


def test_unknown_permission_is_a_caller_mistake(authz: Authorizer) -> None:
    with pytest.raises(ConfigError):
        authz.authorize(USER, "tool", "x", "execute")
    with pytest.raises(ConfigError):
        authz.authorize(USER, "database", "x", "call")


@settings(max_examples=200)
@given(name=st.one_of(st.text(max_size=40), st.none(), st.integers(), st.binary(max_size=8)))
def test_hostile_names_never_raise_and_odd_ones_are_denied(name: Any) -> None:
    authz = Authorizer.from_mapping(ROLES)
    decision = authz.authorize(USER, "tool", name, "call")
    odd = not isinstance(name, str) or not name
    if odd or any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        assert decision.allow is False
        assert decision.reasons[0].code == "invalid-name"
    else:
        assert decision.allow is (name != "update_agent")


@settings(max_examples=200)
@given(names=st.lists(st.sampled_from(["web_search", "update_agent", "x", "gpt", ""]), max_size=12))
def test_filter_resources_keeps_order_and_never_adds(names: list[str]) -> None:
    authz = Authorizer.from_mapping(ROLES)
    kept = authz.filter_resources(GUEST, "tool", names)
    assert kept == [n for n in names if authz.authorize(GUEST, "tool", n, "list").allow]
    assert all(n == "web_search" for n in kept)


def test_visible_tools_filters_schemas_and_drops_unreadable(authz: Authorizer) -> None:
    tools: list[Any] = [
        {"name": "web_search", "description": "d"},
        {"type": "function", "function": {"name": "web_search"}},
        SimpleNamespace(name="web_search"),
        "web_search",
        {"name": "shell"},
        {"description": "no name"},
        SimpleNamespace(name=42),
        None,
    ]
    assert authz.visible_tools(GUEST, tools) == tools[:4]


def test_tool_call_layer_checks_each_call_whatever_the_model_saw(authz: Authorizer) -> None:
    hostile_args = {"__class__": "x", "nested": [object()]}
    assert authz.authorize_tool_call(USER, "web_search", hostile_args).allow
    assert not authz.authorize_tool_call(USER, "update_agent", hostile_args).allow
    assert not authz.authorize_tool_call(GUEST, "shell").allow


# -- model resolution --------------------------------------------------------------------

LIST_ONLY = {
    "roles": {"user": {"models": {"allow": ["*"], "deny": ["banned"]}}},
}


def test_resolve_model_falls_back_to_first_visible_and_usable(authz: Authorizer) -> None:
    choice = authz.resolve_model(USER, "gpt-4o-realtime", ["claude", "gpt-4o-realtime", "o1"])
    assert (choice.model, choice.fell_back, choice.forced) == ("o1", True, False)
    same = authz.resolve_model(USER, "gpt-4o", ["o1"])
    assert (same.model, same.fell_back) == ("gpt-4o", False)
    assert resolve_model(USER, "gpt-4o", [], authorizer=authz).model == "gpt-4o"


def test_resolve_model_reverifies_use_when_listing_is_allowed(tmp_path: Path) -> None:
    csv = tmp_path / "p.csv"
    csv.write_text(
        "p, user, *, model, *, list, allow\n"
        "p, user, *, model, good, use, allow\n"
        "p, user, *, model, listed_only, use, deny\n"
    )
    authz = Authorizer.from_casbin(None, csv)
    user = Principal(roles=("user",))
    assert authz.resolve_model(user, "wanted", ["listed_only", "good"]).model == "good"
    with pytest.raises(AuthorizationError):
        authz.resolve_model(user, "wanted", ["listed_only"])


def test_resolve_model_fail_open_keeps_requested_and_logs(
    authz: Authorizer, caplog: pytest.LogCaptureFixture
) -> None:
    with pytest.raises(AuthorizationError):
        authz.resolve_model(GUEST, "gpt-4o", ["gpt-4o", "claude"])
    with caplog.at_level(logging.WARNING, logger="deerguard.authz"):
        choice = authz.resolve_model(GUEST, "gpt-4o", ["claude"], fail_closed=False)
    assert (choice.model, choice.forced) == ("gpt-4o", True)
    assert any("FAIL-OPEN" in r.getMessage() for r in caplog.records)


# -- fail modes ---------------------------------------------------------------------------


class _BrokenSnapshot:
    policy = PolicySet((), (), frozenset({"user"}))
    roles = frozenset({"user"})

    def decide(self, *args: Any) -> Match:
        raise RuntimeError("engine exploded")


def test_engine_error_fails_closed_by_default(caplog: pytest.LogCaptureFixture) -> None:
    authz = Authorizer(_BrokenSnapshot)
    with caplog.at_level(logging.WARNING, logger="deerguard.authz"):
        decision = authz.authorize(USER, "tool", "web_search", "call")
    assert (decision.allow, decision.source) == (False, "error")
    assert decision.reasons[0].code == "engine-error"
    assert authz.filter_resources(USER, "tool", ["a", "b"]) == []


def test_fail_open_only_when_set_explicitly_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="deerguard.authz"):
        authz = Authorizer(_BrokenSnapshot, fail_closed=False)
        decision = authz.authorize(USER, "tool", "web_search", "call")
    assert (decision.allow, decision.source) == (True, "error")
    messages = [r.getMessage() for r in caplog.records if r.name == "deerguard.authz"]
    assert any("FAIL-OPEN" in m for m in messages)
    with pytest.raises(ConfigError):
        Authorizer(_BrokenSnapshot, fail_closed=0)  # type: ignore[arg-type]


# -- reload -------------------------------------------------------------------------------


def test_reload_swaps_in_new_policy_and_keeps_old_on_error(tmp_path: Path) -> None:
    path = tmp_path / "roles.yaml"
    path.write_text("roles:\n  user:\n    tools: {allow: [a]}\n")
    authz = Authorizer.from_file(path)
    assert authz.authorize(USER, "tool", "a", "call").allow
    path.write_text("roles:\n  user:\n    tools: {allow: [b]}\n")
    authz.reload()
    assert not authz.authorize(USER, "tool", "a", "call").allow
    assert authz.authorize(USER, "tool", "b", "call").allow
    path.write_text("roles:\n  user:\n    tools: {allow: null}\n")
    with pytest.raises(PolicyError):
        authz.reload()
    assert authz.authorize(USER, "tool", "b", "call").allow


# -- the Casbin boundary ------------------------------------------------------------------


def _logging_state() -> dict[str, tuple[object, ...]]:
    manager = logging.Logger.manager
    state: dict[str, tuple[object, ...]] = {
        "": (tuple(logging.getLogger().handlers), logging.getLogger().level)
    }
    for name, logger in list(manager.loggerDict.items()):
        if isinstance(logger, logging.Logger):
            state[name] = (tuple(logger.handlers), logger.level, logger.disabled, logger.propagate)
    return state


def _is_pristine(state: tuple[object, ...]) -> bool:
    handlers, level, disabled, propagate = state
    return handlers == () and level == logging.NOTSET and not disabled and propagate is True


def test_constructing_the_casbin_engine_configures_no_logging() -> None:
    from deerguard.authz import _engine

    before = _logging_state()
    policy = PolicySet((), (), frozenset({"user"}))
    model = (
        Path(__file__).resolve().parent.parent / "corpora" / "authz" / "casbin_nodomain_model.conf"
    ).read_text()
    engine = _engine.CasbinEngine(model, policy)
    _engine.build_enforcer(_engine.canonical_model_text(), policy)
    after = _logging_state()
    for name, state in before.items():
        assert after[name] == state, f"logger {name!r} was reconfigured"
    for name in after.keys() - before.keys():
        assert _is_pristine(after[name]), f"new logger {name!r} was configured"
    assert not hasattr(engine, "enable_enforce")
    assert engine.decide(("user",), "", "tool", "x", "call").allow is False


def test_shipped_model_is_compiled_and_custom_models_use_casbin(tmp_path: Path) -> None:
    from deerguard.authz._compiled import CompiledPolicy
    from deerguard.authz._engine import CasbinEngine

    root = Path(__file__).resolve().parent.parent
    csv = tmp_path / "p.csv"
    csv.write_text("p, user, *, tool, web_*, call, allow\n")
    shipped = root / "policies" / "authz" / "model.conf"
    custom = root / "corpora" / "authz" / "casbin_nodomain_model.conf"
    assert isinstance(Authorizer.from_casbin(shipped, csv)._snapshot, CompiledPolicy)
    engine_backed = Authorizer.from_casbin(custom, csv)
    assert isinstance(engine_backed._snapshot, CasbinEngine)
    assert engine_backed.authorize(USER, "tool", "web_x", "call").allow
    assert not engine_backed.authorize(USER, "tool", "web_x", "list").allow
    assert "custom Casbin model" in engine_backed.explain(USER, "tool", "web_x", "call")
    assert "custom" not in Authorizer.from_casbin(shipped, csv).explain(USER, "tool", "x", "call")


def test_docstring_examples_run() -> None:
    import doctest
    import importlib

    for module in (
        "deerguard.authz",
        "deerguard.authz._glob",
        "deerguard.authz._authorizer",
        "deerguard.authz._principal",
        "deerguard.authz._models",
    ):
        result = doctest.testmod(importlib.import_module(module))
        assert result.failed == 0 and result.attempted > 0, module


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=200)
@given(
    extra=st.dictionaries(
        st.text(max_size=12).filter(lambda k: k not in authz_pkg.TRUSTED_CONTEXT_KEYS),
        _json,
        max_size=6,
    )
)
def test_untrusted_context_keys_never_change_the_principal(extra: dict[str, Any]) -> None:
    trusted = {"user_id": "u1", "user_role": "guest", "tenant_id": "acme", "is_internal": False}
    assert principal_from_context({**extra, **trusted}) == principal_from_context(trusted)


_roles_shaped = st.fixed_dictionaries(
    {
        "roles": st.dictionaries(
            st.sampled_from(["user", "guest", "", "a*", 3]),
            st.one_of(
                _json,
                st.dictionaries(
                    st.sampled_from(["tools", "models", "inherits", "skills", "tool", "x"]),
                    st.one_of(
                        _json, st.dictionaries(st.sampled_from(["allow", "deny", "alow"]), _json)
                    ),
                ),
            ),
            max_size=3,
        )
    },
    optional={"default_role": _json, "tenants": _json, "version": _json},
)


@settings(max_examples=200)
@given(data=_roles_shaped)
def test_any_roles_mapping_loads_or_raises_policy_error(data: dict[str, Any]) -> None:
    try:
        authz = Authorizer.from_mapping(data)
    except PolicyError as exc:
        assert exc.file == "<mapping>" and exc.message
        return
    for role in authz.roles:
        assert authz.authorize(Principal(roles=(role,)), "tool", "web", "call").allow in (
            True,
            False,
        )


def test_filter_validates_its_inputs_even_with_nothing_to_filter(authz: Authorizer) -> None:
    with pytest.raises(ConfigError):
        authz.filter_resources(Principal(roles=("editor",)), "tool", [])
    with pytest.raises(ConfigError):
        authz.filter_resources(USER, "", [])
    with pytest.raises(ConfigError):
        authz.filter_resources(USER, "tool", "web_search")  # a string is not a list of names
    with pytest.raises(ConfigError):
        authz.filter_resources(USER, "tool", None)  # type: ignore[arg-type]
    names = ["update_agent", "web_search"]
    assert authz.filter_resources(USER, "tool", tuple(names)) == ["web_search"]
    assert names == ["update_agent", "web_search"]


def test_mutating_the_mapping_after_construction_changes_nothing() -> None:
    data: dict[str, Any] = {"roles": {"user": {"tools": {"allow": ["bash"]}}}}
    authz = Authorizer.from_mapping(data)
    data["roles"]["user"]["tools"]["allow"] = ["web_search"]
    data["roles"]["admin"] = {"tools": {"allow": "*"}}
    authz.reload()
    assert authz.authorize(USER, "tool", "bash", "call").allow
    assert not authz.authorize(USER, "tool", "web_search", "call").allow
    with pytest.raises(ConfigError):
        authz.authorize(Principal(roles=("admin",)), "tool", "bash", "call")


def test_only_the_engine_module_imports_casbin() -> None:
    import re
    import subprocess
    import sys

    package = Path(__file__).resolve().parent.parent / "deerguard"
    importers = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if re.search(r"^\s*(import casbin|from casbin)", path.read_text(), re.MULTILINE)
    )
    assert importers == ["authz/_engine.py"]
    # The fast path never needs Casbin: importing and using roles files leaves it unloaded.
    probe = (
        "import sys, deerguard.authz as a;"
        "z = a.Authorizer.from_mapping({'roles': {'u': {'tools': {'allow': '*'}}}});"
        "z.authorize(a.Principal(roles=('u',)), 'tool', 'x', 'call');"
        "print('casbin' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_casbin_engine_emits_nothing_through_application_logging(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    root = Path(__file__).resolve().parent.parent
    csv = tmp_path / "p.csv"
    csv.write_text("p, base, *, tool, x, call, allow\ng, user, base\n")
    with caplog.at_level(logging.DEBUG):
        authz = Authorizer.from_casbin(
            root / "corpora" / "authz" / "casbin_nodomain_model.conf", csv
        )
        assert authz.authorize(USER, "tool", "x", "call").allow
        assert not authz.authorize(USER, "tool", "y", "call").allow
    assert [r for r in caplog.records if r.name.startswith("casbin")] == []
