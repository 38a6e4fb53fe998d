"""deerguard: policy and security guards for LLM agents.

Five guards as pure functions, each with adapters for agent frameworks:

* tag neutralization (``neutralize``, ``neutralize_content``, ``wrap_untrusted``),
* shell command classification (``classify``),
* authorization (``Authorizer``, ``Principal``),
* provenance (``make_receipt``, ``render_ledger``, ``verify_citations``, ...),
* adapters (``deerguard.adapters`` and one opt-in module per framework).

Untrusted data is positional, options are keyword-only, results are frozen values with a
verdict, findings and ``to_dict()``. Importing deerguard imports no agent framework and
performs no I/O.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._result import Finding, Span, Verdict, worst
from ._version import __version__
from .errors import (
    AuthorizationError,
    CanonicalizationError,
    ConfigError,
    DeerguardError,
    MissingExtraError,
    PolicyError,
)

if TYPE_CHECKING:  # the names below load on first use (PEP 562): import deerguard stays cheap
    from .authz import (
        Authorizer,
        AuthzDecision,
        Principal,
        principal_from_context,
        resolve_model,
    )
    from .provenance import (
        Citation,
        CitationReport,
        Ledger,
        Receipt,
        append_tool_transform,
        canonical_hash,
        canonical_json,
        make_receipt,
        parse_citations,
        provenance_kwargs,
        read_receipt,
        render_ledger,
        stamp_receipt,
        strip_caller_provenance,
        validate_snapshot,
        verify_citations,
    )
    from .sanitize import (
        Neutralized,
        Neutralizer,
        TagProfile,
        Wrapped,
        is_remote_content,
        load_tag_profile,
        neutralize,
        neutralize_content,
        sanitize_inbound,
        sanitize_tool_result,
        wrap_untrusted,
    )
    from .shell import Classification, Classifier, ShellPolicy, classify

# Each guard's subpackage is imported on first access of one of its names, so a program that
# only classifies shell commands never loads Casbin, pydantic models or the sanitizer tables.
_LAZY: dict[str, str] = {
    "Authorizer": "authz",
    "AuthzDecision": "authz",
    "Principal": "authz",
    "principal_from_context": "authz",
    "resolve_model": "authz",
    "Citation": "provenance",
    "CitationReport": "provenance",
    "Ledger": "provenance",
    "Receipt": "provenance",
    "append_tool_transform": "provenance",
    "canonical_hash": "provenance",
    "canonical_json": "provenance",
    "make_receipt": "provenance",
    "parse_citations": "provenance",
    "provenance_kwargs": "provenance",
    "read_receipt": "provenance",
    "render_ledger": "provenance",
    "stamp_receipt": "provenance",
    "strip_caller_provenance": "provenance",
    "validate_snapshot": "provenance",
    "verify_citations": "provenance",
    "Neutralized": "sanitize",
    "Neutralizer": "sanitize",
    "TagProfile": "sanitize",
    "Wrapped": "sanitize",
    "is_remote_content": "sanitize",
    "load_tag_profile": "sanitize",
    "neutralize": "sanitize",
    "neutralize_content": "sanitize",
    "sanitize_inbound": "sanitize",
    "sanitize_tool_result": "sanitize",
    "wrap_untrusted": "sanitize",
    "Classification": "shell",
    "Classifier": "shell",
    "ShellPolicy": "shell",
    "classify": "shell",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'deerguard' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "AuthorizationError",
    "Authorizer",
    "AuthzDecision",
    "CanonicalizationError",
    "Citation",
    "CitationReport",
    "Classification",
    "Classifier",
    "ConfigError",
    "DeerguardError",
    "Finding",
    "Ledger",
    "MissingExtraError",
    "Neutralized",
    "Neutralizer",
    "PolicyError",
    "Principal",
    "Receipt",
    "ShellPolicy",
    "Span",
    "TagProfile",
    "Verdict",
    "Wrapped",
    "__version__",
    "append_tool_transform",
    "canonical_hash",
    "canonical_json",
    "classify",
    "is_remote_content",
    "load_tag_profile",
    "make_receipt",
    "neutralize",
    "neutralize_content",
    "parse_citations",
    "principal_from_context",
    "provenance_kwargs",
    "read_receipt",
    "render_ledger",
    "resolve_model",
    "sanitize_inbound",
    "sanitize_tool_result",
    "stamp_receipt",
    "strip_caller_provenance",
    "validate_snapshot",
    "verify_citations",
    "worst",
    "wrap_untrusted",
]
