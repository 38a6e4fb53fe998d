"""Table tests from corpora/authz: every scenario's policy gives every expected answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from deerguard.authz import Authorizer, Principal
from deerguard.errors import AuthorizationError, ConfigError, PolicyError

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "authz"
RAISES = {"ConfigError": ConfigError, "AuthorizationError": AuthorizationError}


def _scenarios() -> list[str]:
    return sorted(path.name[: -len("_cases.yaml")] for path in CORPUS.glob("*_cases.yaml"))


def _load(scenario: str) -> Authorizer:
    for suffix in ("yaml", "toml"):
        roles = CORPUS / f"{scenario}_roles.{suffix}"
        if roles.exists():
            return Authorizer.from_file(roles)
    model = CORPUS / f"{scenario}_model.conf"
    policy = CORPUS / f"{scenario}_policy.csv"
    assert policy.exists(), f"scenario {scenario} has no roles file and no policy.csv"
    return Authorizer.from_casbin(model if model.exists() else None, policy)


def _principal(case: dict[str, Any]) -> Principal:
    return Principal(roles=tuple(case["roles"]), tenant=case.get("tenant"))


def _spec(scenario: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((CORPUS / f"{scenario}_cases.yaml").read_text())
    return data


def test_corpus_has_scenarios_of_every_kind() -> None:
    names = _scenarios()
    assert any(n.startswith("invalid_") for n in names)
    assert any(n.startswith("casbin_") for n in names)
    assert len(names) >= 30
    for name in names:
        assert "source" in _spec(name), f"{name} does not say where its cases come from"


@pytest.mark.parametrize("scenario", _scenarios())
def test_scenario_gives_expected_decisions_or_errors(scenario: str) -> None:
    spec = _spec(scenario)
    if "error" in spec:
        expected = spec["error"]
        with pytest.raises(PolicyError) as info:
            _load(scenario)
        err = info.value
        assert expected["contains"] in err.message, str(err)
        assert err.key == expected["key"], str(err)
        assert err.line == expected["line"], str(err)
        assert err.file is not None and scenario in err.file
        return
    authz = _load(scenario)
    for case in spec.get("cases", []):
        principal = _principal(case)
        if "raises" in case:
            with pytest.raises(RAISES[case["raises"]]):
                authz.authorize(principal, case["type"], case["name"], case["action"])
            continue
        decision = authz.authorize(principal, case["type"], case["name"], case["action"])
        assert decision.allow is case["allow"], (case, decision)
        if decision.allow:
            assert decision.source == "policy" and decision.rule.startswith("p, ")
        else:
            assert decision.source in ("policy", "default")
    for case in spec.get("filter", []):
        got = authz.filter_resources(_principal(case), case["type"], case["names"])
        assert got == case["expect"]
    for case in spec.get("resolve_model", []):
        principal = _principal(case)
        if "raises" in case:
            with pytest.raises(RAISES[case["raises"]]):
                authz.resolve_model(principal, case["requested"], case["candidates"])
        else:
            choice = authz.resolve_model(principal, case["requested"], case["candidates"])
            assert choice.model == case["expect"]


def test_shipped_example_roles_file_loads_and_denies_unlisted_types() -> None:
    authz = Authorizer.from_file(CORPUS.parent.parent / "policies" / "authz" / "roles.example.yaml")
    guest = Principal(roles=("guest",))
    assert authz.authorize(guest, "tool", "web_search", "call").allow
    assert not authz.authorize(guest, "sandbox", "docker", "execute").allow
    assert authz.policy.default_role == "guest"


def test_shipped_example_casbin_policy_loads_with_the_shipped_model() -> None:
    policies = CORPUS.parent.parent / "policies" / "authz"
    authz = Authorizer.from_casbin(policies / "model.conf", policies / "policy.example.csv")
    user = Principal(roles=("user",))
    assert authz.authorize(user, "model", "gpt-4o-realtime-preview", "list").allow
    assert not authz.authorize(user, "model", "gpt-4o-realtime-preview", "use").allow
    assert not authz.authorize(user, "tool", "update_agent", "call").allow
    assert authz.authorize(Principal(roles=("user",), tenant="acme"), "mcp_server", "acme_crm",
                           "connect").allow
