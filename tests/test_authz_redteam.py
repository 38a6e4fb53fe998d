"""Red-team properties of the authorizer: a disguised name is never allowed more than the
name it imitates (case, whitespace, invisibles, compatibility forms, look-alike letters)."""

from __future__ import annotations

from typing import Any

import pytest

from deerguard.authz import Authorizer, Principal

_POLICY = {
    "roles": {
        "user": {
            "tools": {"allow": "*", "deny": ["bash", "web_*_admin"]},
            "models": {"allow": ["gpt-4o*"], "deny": ["gpt-4o-realtime*"]},
        }
    }
}

DISGUISES = [
    ("tool", "bash "),
    ("tool", " bash"),
    ("tool", "ba sh"),
    ("tool", "BASH"),
    ("tool", "Bash"),
    ("tool", "ba\u200bsh"),
    ("tool", "bash\ufeff"),
    ("tool", "\uff42\uff41\uff53\uff48"),  # fullwidth
    ("tool", "\U0001d41b\U0001d41a\U0001d42c\U0001d421"),  # math bold
    ("tool", "b\u0430sh"),  # Cyrillic a
    ("tool", "b\u0251sh"),  # Latin alpha
    ("tool", "ba\u0301sh"),  # combining mark
    ("tool", "web_x_\u0430dmin"),
    ("model", "gpt-4o-\uff52ealtime"),
    ("model", "gpt-4o-Realtime-preview"),
    ("tool", "WEB_x_ADMIN"),
]


@pytest.mark.parametrize(("rtype", "name"), DISGUISES)
def test_a_disguised_denied_name_is_denied(rtype: str, name: str) -> None:
    authz = Authorizer.from_mapping(_POLICY)
    action = "call" if rtype == "tool" else "use"
    decision = authz.authorize(Principal(roles=("user",)), rtype, name, action)
    assert decision.allow is False
    assert decision.reasons[0].code == "denied-look-alike"


@pytest.mark.parametrize("name", ["web_search", "python", "gpt_tool", "Web_Search", "tool-ü"])
def test_plain_names_keep_their_decision(name: str) -> None:
    authz = Authorizer.from_mapping(_POLICY)
    assert authz.authorize(Principal(roles=("user",)), "tool", name, "call").allow is True


def test_a_disguised_denied_name_is_filtered_out_of_lists() -> None:
    authz = Authorizer.from_mapping(_POLICY)
    names = ["web_search", "bash ", "BASH", "b\u0430sh", "python"]
    assert authz.filter_resources(Principal(roles=("user",)), "tool", names) == [
        "web_search",
        "python",
    ]


def test_a_policy_file_saved_with_a_byte_order_mark_loads_the_same(tmp_path: Any) -> None:
    from deerguard.authz import Authorizer as _A

    rows = "p, user, *, tool, bash, call, deny\np, user, *, tool, *, call, allow\n"
    plain, bom = tmp_path / "plain.csv", tmp_path / "bom.csv"
    plain.write_text(rows, encoding="utf-8")
    bom.write_text("\ufeff" + rows, encoding="utf-8")
    model = "policies/authz/model.conf"
    user = Principal(roles=("user",))
    for name in ("bash", "web_search"):
        expected = _A.from_casbin(model, plain).authorize(user, "tool", name, "call").allow
        assert _A.from_casbin(model, bom).authorize(user, "tool", name, "call").allow == expected
    roles = tmp_path / "roles.yaml"
    roles.write_text("\ufeffroles:\n  user:\n    tools: {allow: ['*'], deny: [bash]}\n", "utf-8")
    assert _A.from_file(roles).authorize(user, "tool", "bash", "call").allow is False


@pytest.mark.parametrize(
    "tenant", ["Beta", "BETA", "beta ", "b\u0435ta", "\uff42\uff45\uff54\uff41"]
)
def test_a_disguised_tenant_still_gets_its_tenant_denies(tenant: str) -> None:
    authz = Authorizer.from_file("corpora/authz/tenants_roles.yaml")
    exact = authz.authorize(
        Principal(roles=("user",), tenant="beta"), "mcp_server", "github", "connect"
    )
    assert exact.allow is False
    decision = authz.authorize(
        Principal(roles=("user",), tenant=tenant), "mcp_server", "github", "connect"
    )
    assert decision.allow is False
    assert decision.reasons[0].code == "denied-look-alike"


def test_an_unrelated_tenant_keeps_the_global_rules() -> None:
    authz = Authorizer.from_file("corpora/authz/tenants_roles.yaml")
    user = Principal(roles=("user",), tenant="Gamma")
    assert authz.authorize(user, "mcp_server", "github", "connect").allow is True
