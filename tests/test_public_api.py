"""The public API is curated: ``deerguard.__all__`` is pinned, and every name resolves."""

from __future__ import annotations

import importlib

import pytest

import deerguard

PINNED_TOP_LEVEL = {
    # results and errors
    "Finding", "Span", "Verdict", "worst", "__version__",
    "DeerguardError", "PolicyError", "ConfigError", "CanonicalizationError",
    "AuthorizationError", "MissingExtraError",
    # shell
    "classify", "Classification", "Classifier", "ShellPolicy",
    # sanitize
    "neutralize", "Neutralized", "Neutralizer", "neutralize_content", "TagProfile",
    "load_tag_profile", "wrap_untrusted", "Wrapped", "is_remote_content", "sanitize_inbound",
    "sanitize_tool_result",
    # authz
    "Authorizer", "AuthzDecision", "Principal", "principal_from_context", "resolve_model",
    # provenance
    "provenance_kwargs", "strip_caller_provenance", "canonical_json", "canonical_hash",
    "Receipt", "make_receipt", "stamp_receipt", "read_receipt", "Ledger", "render_ledger",
    "validate_snapshot", "Citation", "CitationReport", "parse_citations", "verify_citations",
    "append_tool_transform",
}


def test_top_level_all_is_exactly_the_pinned_api() -> None:
    assert set(deerguard.__all__) == PINNED_TOP_LEVEL
    assert len(deerguard.__all__) == len(set(deerguard.__all__)), "no duplicates"


def test_every_exported_name_resolves_and_is_the_subpackage_object() -> None:
    for name in deerguard.__all__:
        assert hasattr(deerguard, name), name
    assert deerguard.classify is importlib.import_module("deerguard.shell").classify
    assert deerguard.neutralize is importlib.import_module("deerguard.sanitize").neutralize


def test_star_import_gives_only_the_curated_names() -> None:
    namespace: dict[str, object] = {}
    exec("from deerguard import *", namespace)
    assert set(namespace) - {"__builtins__"} == PINNED_TOP_LEVEL


@pytest.mark.parametrize(
    "module", ["deerguard.shell", "deerguard.sanitize", "deerguard.authz",
               "deerguard.provenance", "deerguard.adapters", "deerguard.errors"]
)
def test_subpackages_curate_their_all_and_every_name_resolves(module: str) -> None:
    mod = importlib.import_module(module)
    names = mod.__all__
    assert names == sorted(set(names), key=names.index), "no duplicates"
    for name in names:
        assert hasattr(mod, name), f"{module}.{name}"


def test_the_root_never_exposes_framework_adapters() -> None:
    assert not any(name in deerguard.__all__ for name in ("langchain", "openai_agents", "mcp"))


def test_guard_subpackages_load_on_first_use_of_their_names() -> None:
    import subprocess
    import sys

    code = (
        "import sys, deerguard\n"
        "before = {m for m in ('deerguard.authz', 'deerguard.sanitize', 'deerguard.provenance',"
        " 'deerguard.shell', 'casbin') if m in sys.modules}\n"
        "authorizer = deerguard.Authorizer\n"
        "print(sorted(before), 'deerguard.authz' in sys.modules, 'deerguard.shell' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["[]", "True", "False"]


def test_unknown_top_level_name_raises_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        deerguard.nope  # type: ignore[attr-defined]  # noqa: B018
    assert set(deerguard.__all__) <= set(dir(deerguard))
