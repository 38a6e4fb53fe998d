"""deerguard: policy and security guards for LLM agents.

Five guards as pure functions, each with adapters for agent frameworks: tag neutralization,
shell command classification, authorization, provenance, and the hooks that plug them in.
Importing deerguard imports no agent framework and performs no I/O.
"""

from __future__ import annotations

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

__all__ = [
    "AuthorizationError",
    "CanonicalizationError",
    "ConfigError",
    "DeerguardError",
    "Finding",
    "MissingExtraError",
    "PolicyError",
    "Span",
    "Verdict",
    "__version__",
    "worst",
]
