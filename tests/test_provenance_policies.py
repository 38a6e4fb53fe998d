"""collect_release_policies: duck-typed gathering, long-text hashing, stable hashable summary."""

from __future__ import annotations

import math
from typing import Any

import pytest

from deerguard.errors import CanonicalizationError, ConfigError
from deerguard.provenance import ReleasePolicySummary, canonical_hash, collect_release_policies


class _Component:
    def __init__(self, params: Any, name: str | None = None) -> None:
        self._params = params
        if name is not None:
            self.release_policy_name = name

    def release_policy_parameters(self) -> Any:
        return self._params


class _Raising:
    def release_policy_parameters(self) -> Any:
        raise RuntimeError("db down")


def test_skips_objects_without_the_hook_and_names_components() -> None:
    summary = collect_release_policies(
        [_Component({"profile": "strict"}, "shell"), object(), "text", _Component({"x": 1})]
    )
    assert summary.names == ("shell", "test_provenance_policies._Component")
    assert summary.parameters("shell") == [{"profile": "strict"}]


def test_summary_is_independent_of_component_and_key_order() -> None:
    a = _Component({"b": 1, "a": [1, 2]}, "alpha")
    b = _Component({"z": None}, "beta")
    first = collect_release_policies([a, b])
    second = collect_release_policies([b, _Component({"a": (1.0, 2), "b": 1}, "alpha")])
    assert first == second
    assert hash(first) == hash(second)
    assert first.digest == second.digest == canonical_hash(first.to_dict())


def test_any_parameter_change_changes_the_digest() -> None:
    base = collect_release_policies([_Component({"budget": 2000}, "ledger")])
    changed = collect_release_policies([_Component({"budget": 2001}, "ledger")])
    renamed = collect_release_policies([_Component({"budget": 2000}, "ledger2")])
    assert len({base.digest, changed.digest, renamed.digest}) == 3


def test_long_text_is_hashed_not_copied_at_any_depth() -> None:
    prompt = "You are a careful agent. " * 40
    summary = collect_release_policies(
        [_Component({"prompt": prompt, "nested": {"rules": [prompt, "short"]}}, "agent")],
        max_text=100,
    )
    (params,) = summary.parameters("agent")
    digest = f"sha256:{canonical_hash(prompt)}"
    assert params == {"prompt": digest, "nested": {"rules": [digest, "short"]}}
    assert prompt not in repr(summary)


def test_duplicate_names_are_both_kept() -> None:
    summary = collect_release_policies([_Component({"v": 2}, "tags"), _Component({"v": 1}, "tags")])
    assert summary.parameters("tags") == [{"v": 1}, {"v": 2}]


@pytest.mark.parametrize(
    ("component", "error", "fragment"),
    [
        (_Component({"x": math.nan}, "c"), CanonicalizationError, "$.x"),
        (_Component({"x": {1, 2}}, "c"), CanonicalizationError, "set"),
        (_Component({3: "x"}, "c"), CanonicalizationError, "not str"),
        (_Component(["not", "a", "mapping"], "c"), ConfigError, "mapping"),
        (_Raising(), ConfigError, "db down"),
    ],
)
def test_bad_parameters_are_caller_errors_naming_the_component(
    component: object, error: type[Exception], fragment: str
) -> None:
    with pytest.raises(error) as info:
        collect_release_policies([component])
    assert fragment in str(info.value)
    assert "release_policy_parameters()" in str(info.value)


@pytest.mark.parametrize("max_text", [-1, 1.5, True, None])
def test_bad_max_text_is_a_config_error(max_text: Any) -> None:
    with pytest.raises(ConfigError):
        collect_release_policies([], max_text=max_text)


def test_empty_summary() -> None:
    summary = collect_release_policies([])
    assert summary == ReleasePolicySummary(components=())
    assert summary.to_dict() == {"components": []}
