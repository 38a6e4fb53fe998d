"""Shell command parsing and classification."""

from __future__ import annotations

from . import ast
from ._policy import ShellPolicy, default_policy, load_policy, parse_policy
from ._rules import RULES, Rule

__all__ = [
    "RULES",
    "Rule",
    "ShellPolicy",
    "ast",
    "default_policy",
    "load_policy",
    "parse_policy",
]
