"""The public surface of deerguard.sanitize: __all__ is explicit, complete and importable."""

from __future__ import annotations

import deerguard.sanitize as sanitize

EXPECTED = {
    "BUILTIN_PROFILES", "DEFAULT_REMOTE_TOOLS", "MCP_METADATA_FLAGS", "MCP_SOURCE_KEYS",
    "SERVER_OWNED_KEYS", "WRAPPER_BASE", "Edit", "Inbound", "Neutralized",
    "NeutralizedContent", "Neutralizer", "RemoteScope", "SanitizedToolResult", "TagProfile",
    "Wrapped", "is_remote_content", "load_tag_profile", "neutralize", "neutralize_content",
    "sanitize_inbound", "sanitize_tool_result", "wrap_untrusted",
}  # fmt: skip


def test_all_is_pinned_and_every_name_exists() -> None:
    assert set(sanitize.__all__) == EXPECTED
    assert all(hasattr(sanitize, name) for name in sanitize.__all__)


def test_public_functions_document_guarantees_and_an_example() -> None:
    for name in ("neutralize", "neutralize_content", "wrap_untrusted", "is_remote_content",
                 "load_tag_profile", "sanitize_inbound", "sanitize_tool_result"):  # fmt: skip
        doc = getattr(sanitize, name).__doc__ or ""
        assert ">>>" in doc, name


def test_default_data_is_frozen() -> None:
    assert isinstance(sanitize.DEFAULT_REMOTE_TOOLS, frozenset)
    assert isinstance(sanitize.SERVER_OWNED_KEYS, frozenset)
    assert isinstance(sanitize.BUILTIN_PROFILES, tuple)


def test_docstring_examples_run() -> None:
    import doctest
    import importlib

    for name in ("_neutralize", "_wrap", "_scope", "_profile", "_chars"):
        module = importlib.import_module(f"deerguard.sanitize.{name}")
        result = doctest.testmod(module)
        assert result.failed == 0, name
