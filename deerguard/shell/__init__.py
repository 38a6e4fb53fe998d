"""Shell command parsing and classification.

``parse`` turns bash source into deerguard's own syntax tree (:mod:`deerguard.shell.ast`);
``classify`` decides ``pass``/``warn``/``block`` for an agent's command under a
:class:`ShellPolicy` (``load_policy`` reads one from TOML, extending ``default_policy()``).
"""

from __future__ import annotations

from . import ast
from ._classify import Classification, Classifier, classify
from ._parse import parse
from ._policy import ShellPolicy, default_policy, load_policy, parse_policy
from ._rules import RULES, Rule

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
