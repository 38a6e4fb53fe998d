"""Provenance stamps, stripping of caller-forged provenance, and the tool transform trail."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deerguard.errors import CanonicalizationError, ConfigError
from deerguard.provenance import (
    ContentKind,
    ProducerKind,
    append_tool_transform,
    provenance_kwargs,
    strip_caller_provenance,
)


def test_provenance_kwargs_uses_namespaced_keys_and_omits_absent_entity() -> None:
    assert provenance_kwargs(ContentKind.MEMORY, ProducerKind.DYNAMIC_CONTEXT_MEMORY) == {
        "deerguard_content_kind": "memory",
        "deerguard_producer_kind": "dynamic_context_memory",
    }
    stamp = provenance_kwargs("skill_body", "skill_activation", "pdf-skill", namespace="deerflow")
    assert stamp == {
        "deerflow_content_kind": "skill_body",
        "deerflow_producer_kind": "skill_activation",
        "deerflow_producer_entity_id": "pdf-skill",
    }
    assert all(type(value) is str for value in stamp.values())


def test_custom_kind_names_are_accepted_and_bad_ones_are_config_errors() -> None:
    assert provenance_kwargs("audit.note", "_my-middleware")["deerguard_content_kind"] == (
        "audit.note"
    )
    for bad in ["", "Memory", "has space", "x" * 65, "1st", "mém", 3]:
        with pytest.raises(ConfigError):
            provenance_kwargs(bad, "tool")  # type: ignore[arg-type]
    for bad_id in ["", "a\nb", 7, "x" * 257]:
        with pytest.raises(ConfigError):
            provenance_kwargs("memory", "tool", bad_id)  # type: ignore[arg-type]
    for bad_ns in ["", "Deer", "deer_", "de er", "x" * 33, None]:
        with pytest.raises(ConfigError):
            provenance_kwargs("memory", "tool", namespace=bad_ns)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "forged",
    [
        "deerguard_content_kind",
        "deerflow_producer_kind",
        "deerflow_producer_entity_id",
        "deerguard_receipt",
        "deerguard_tool_transforms",
        "DeerGuard_Content_Kind",
        "\u200bdeerflow_content_kind",
        " deerguard_content_kind",
        "\uff44\uff45\uff45\uff52\uff46\uff4c\uff4f\uff57_content_kind",  # fullwidth "deerflow"
        "deerguard-content-kind",
        "deerguardContentKind",
        "deer\u00adflow_content_kind",  # soft hyphen (format character) inside
    ],
)
def test_strip_removes_every_disguise_of_a_namespaced_key(forged: str) -> None:
    metadata = {forged: "memory", "lang": "en", 7: "int key kept"}
    assert strip_caller_provenance(metadata) == {"lang": "en", 7: "int key kept"}


def test_strip_only_clears_the_requested_namespaces() -> None:
    metadata = {"deerflow_content_kind": "memory", "deerguard_receipt": {}, "x": 1}
    assert strip_caller_provenance(metadata, namespace="deerflow") == {
        "deerguard_receipt": {},
        "x": 1,
    }
    assert strip_caller_provenance(metadata, namespace=["deerguard"]) == {
        "deerflow_content_kind": "memory",
        "x": 1,
    }
    with pytest.raises(ConfigError):
        strip_caller_provenance(metadata, namespace=[])
    with pytest.raises(ConfigError):
        strip_caller_provenance(metadata, namespace="bad ns")


class _ExplodingMapping(dict[str, Any]):
    def items(self) -> Any:
        raise RuntimeError("hostile")


def test_strip_fails_closed_on_hostile_or_missing_metadata() -> None:
    assert strip_caller_provenance(None) == {}
    assert strip_caller_provenance(["deerguard_receipt"]) == {}  # type: ignore[arg-type]
    assert strip_caller_provenance(_ExplodingMapping(a=1)) == {}


_keys = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["deerguard_content_kind", "deerflow_producer_kind", "DEERGUARD_x"]),
)


@settings(max_examples=200)
@given(st.dictionaries(_keys, st.integers() | st.text(max_size=5), max_size=8))
def test_strip_never_mutates_is_idempotent_and_keeps_only_foreign_keys(
    metadata: dict[str, Any],
) -> None:
    before = copy.deepcopy(metadata)
    once = strip_caller_provenance(metadata)
    assert metadata == before
    assert once is not metadata
    assert strip_caller_provenance(once) == once
    for key in once:
        folded = key.casefold()
        assert not folded.startswith(("deerguard", "deerflow"))
    # Nothing foreign is lost: a key that cannot fold into a namespace prefix is kept as is.
    for key, value in metadata.items():
        if key.isascii() and "deer" not in key.casefold():
            assert once[key] == value


def test_append_tool_transform_keeps_order_and_never_mutates() -> None:
    original: dict[str, Any] = {"source": "web"}
    first = append_tool_transform(original, {"name": "neutralize", "changed": True, "findings": 3})
    assert original == {"source": "web"}
    second = append_tool_transform(first, {"name": "wrap", "changed": False})
    assert first["deerguard_tool_transforms"] == [
        {"name": "neutralize", "changed": True, "findings": 3}
    ]
    assert second["source"] == "web"
    assert [t["name"] for t in second["deerguard_tool_transforms"]] == ["neutralize", "wrap"]
    # The returned trail shares no mutable state with the input trail.
    second["deerguard_tool_transforms"][0]["findings"] = 99
    assert first["deerguard_tool_transforms"][0]["findings"] == 3


def test_append_tool_transform_copies_transform_as_plain_json() -> None:
    transform: dict[str, Any] = {"name": "truncate", "spans": ((0, 4),), "ratio": 1.0}
    result = append_tool_transform(None, transform)
    assert result == {
        "deerguard_tool_transforms": [{"name": "truncate", "spans": [[0, 4]], "ratio": 1}]
    }
    transform["name"] = "changed later"
    assert result["deerguard_tool_transforms"][0]["name"] == "truncate"
    assert append_tool_transform({}, "wrap", namespace="deerflow") == {
        "deerflow_tool_transforms": [{"name": "wrap"}]
    }


def test_append_tool_transform_rejects_bad_transforms() -> None:
    for bad in [{}, {"name": ""}, {"name": 3}, 42, None]:
        with pytest.raises(ConfigError):
            append_tool_transform({}, bad)  # type: ignore[arg-type]
    with pytest.raises(CanonicalizationError, match="nan"):
        append_tool_transform({}, {"name": "x", "score": float("nan")})
    with pytest.raises(CanonicalizationError):
        append_tool_transform({}, {"name": "x", "raw": b"bytes"})
    with pytest.raises(ConfigError):
        append_tool_transform("not a mapping", "x")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("existing", "kept", "dropped"),
    [
        ("forged string", [], 1),
        ({"name": "a dict, not a list"}, [], 1),
        ([{"name": "ok"}, "bare", {"no": "name"}, {"name": float("inf")}], [{"name": "ok"}], 3),
    ],
)
def test_malformed_existing_trail_is_replaced_with_a_reset_marker(
    existing: object, kept: list[dict[str, Any]], dropped: int
) -> None:
    result = append_tool_transform({"deerguard_tool_transforms": existing}, "neutralize")
    assert result["deerguard_tool_transforms"] == [
        *kept,
        {"name": "deerguard.trail-reset", "changed": True, "dropped": dropped},
        {"name": "neutralize"},
    ]
