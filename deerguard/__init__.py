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

from ._result import Finding, Span, Verdict, worst
from ._version import __version__
from .authz import (
    Authorizer,
    AuthzDecision,
    Principal,
    principal_from_context,
    resolve_model,
)
from .errors import (
    AuthorizationError,
    CanonicalizationError,
    ConfigError,
    DeerguardError,
    MissingExtraError,
    PolicyError,
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
