"""Shell command parsing and classification.

``parse`` turns bash source into deerguard's own syntax tree (:mod:`deerguard.shell.ast`);
``classify`` decides ``pass``/``warn``/``block`` for an agent's command under a
:class:`ShellPolicy` (``load_policy`` reads one from TOML, extending ``default_policy()``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import ast
from ._classify import Classification, Classifier, classify
from ._parse import parse
from ._rules import RULES, Rule

if TYPE_CHECKING:
    from ._policy import ShellPolicy, default_policy, load_policy, parse_policy

# The policy objects are pydantic models: they load on first use (PEP 562), so classifying
# under the shipped default never imports pydantic (see _policydata).
_LAZY = frozenset({"ShellPolicy", "default_policy", "load_policy", "parse_policy"})


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module("._policy", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "RULES",
    "Classification",
    "Classifier",
    "Rule",
    "ShellPolicy",
    "ast",
    "classify",
    "default_policy",
    "load_policy",
    "parse",
    "parse_policy",
]
