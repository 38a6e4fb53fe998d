"""Read the default policies shipped with deerguard.

In an installed wheel the top-level ``policies/`` folder lives at ``deerguard/policies``
(hatchling force-include); in a source checkout it sits beside the package. Both are found
here, so callers never care which.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["policy_path", "read_policy_text"]


def _policies_root() -> Traversable:
    packaged = resources.files("deerguard") / "policies"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "policies"


def policy_path(relative: str, /) -> Traversable:
    """Return the shipped policy resource at ``relative`` (``"shell/default.toml"``)."""
    node = _policies_root()
    for part in relative.split("/"):
        node = node / part
    return node


def read_policy_text(relative: str, /) -> str:
    """Return the text of the shipped policy at ``relative`` (UTF-8).

    Raises ``FileNotFoundError`` if deerguard ships no such policy.
    """
    return policy_path(relative).read_text(encoding="utf-8")
