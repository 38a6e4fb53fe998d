"""Wrap untrusted text in nonce-labelled markers, after trimming and neutralizing it."""

from __future__ import annotations

import secrets
import string
from dataclasses import dataclass
from typing import Any

from .._result import Finding, Verdict
from ..errors import ConfigError
from ._neutralize import Neutralizer
from ._profile import TagProfile, resolve_profile

__all__ = ["WRAPPER_BASE", "Wrapped", "wrap_untrusted"]

#: Base name of the wrapper tag: ``<untrusted-content-NONCE source="...">``. Any tag whose
#: name starts with it is neutralized inside the content, whatever its nonce.
WRAPPER_BASE = "untrusted-content"

_NONCE_CHARS = frozenset(string.ascii_letters + string.digits)


@dataclass(frozen=True, slots=True)
class Wrapped:
    """The result of :func:`wrap_untrusted`.

    ``text`` is the full wrapped text, ``content`` the neutralized (and trimmed) content
    between the markers, ``nonce`` the marker nonce, ``truncated`` whether the budget cut
    the input, ``findings`` the neutralization findings (spans index the trimmed input).
    """

    text: str
    content: str
    source: str
    nonce: str
    truncated: bool = False
    omitted: int = 0
    findings: tuple[Finding, ...] = ()

    @property
    def changed(self) -> bool:
        """Whether neutralization rewrote anything in the content."""
        return bool(self.findings)

    @property
    def verdict(self) -> Verdict:
        """``warn`` when something was neutralized, else ``pass``."""
        return Verdict.WARN if self.findings else Verdict.PASS

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON data."""
        return {
            "verdict": str(self.verdict),
            "text": self.text,
            "content": self.content,
            "source": self.source,
            "nonce": self.nonce,
            "truncated": self.truncated,
            "omitted": self.omitted,
            "findings": [f.to_dict() for f in self.findings],
        }


def _attribute(value: str) -> str:
    return (
        value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\n", "&#xA;").replace("\r", "&#xD;")
    )  # fmt: skip


def _marker(omitted: int) -> str:
    return f"\n[truncated: {omitted} more characters]"


def _trim(text: str, budget: int) -> tuple[str, bool, int]:
    """Trim raw ``text`` to ``budget`` characters, marker included when it fits."""
    if len(text) <= budget:
        return text, False, 0
    keep = budget
    marker = ""
    for _ in range(3):  # the marker's length depends on the count it reports
        candidate = _marker(len(text) - keep)
        if len(candidate) >= budget:
            marker, keep = "", budget
            break
        keep = budget - len(candidate)
        marker = _marker(len(text) - keep)
        if len(marker) == len(candidate):
            break
    return text[:keep] + marker, True, len(text) - keep


def wrap_untrusted(
    text: str,
    /,
    *,
    source: str,
    budget: int | None = None,
    nonce: str | None = None,
    profile: str | TagProfile = "default",
) -> Wrapped:
    """Trim, neutralize and wrap untrusted ``text`` in ``<untrusted-content-NONCE>`` markers.

    Order: trim the raw text to ``budget`` characters first, then neutralize, so no escape
    (``&lt;``) is ever cut in half; a tail marker ``[truncated: N more characters]`` is added
    only when the marker and some content fit in the budget (the budget counts the raw
    content plus the marker, not the escapes or the wrapper lines). Any tag named like the
    wrapper (``untrusted-content-*``, every nonce) is neutralized inside the content, so
    content cannot close the wrapper early. ``nonce`` defaults to ``secrets.token_hex(8)``:
    the one deliberate source of nondeterminism (pass ``nonce=`` for reproducible output).
    Never raises on hostile text; a bad ``budget``, ``nonce`` or ``source`` raises ConfigError.

    >>> wrap_untrusted("hi <think>", source="web_fetch", nonce="n1").text
    '<untrusted-content-n1 source="web_fetch">\\nhi &lt;think&gt;\\n</untrusted-content-n1>'
    """
    if not isinstance(source, str) or not source:
        raise ConfigError("source must be a non-empty string such as 'web_fetch'")
    if budget is not None and (
        isinstance(budget, bool) or not isinstance(budget, int) or budget < 0
    ):
        raise ConfigError(f"budget must be a non-negative int or None, got {budget!r}")
    if nonce is None:
        nonce = secrets.token_hex(8)
    elif not nonce or not isinstance(nonce, str) or not set(nonce) <= _NONCE_CHARS:
        raise ConfigError(f"nonce must be non-empty ASCII letters/digits, got {nonce!r}")
    base = resolve_profile(profile)
    if WRAPPER_BASE not in base.tag_prefixes:
        base = base.with_tag_prefixes(WRAPPER_BASE)
    trimmed, truncated, omitted = (text, False, 0) if budget is None else _trim(text, budget)
    result = Neutralizer(profile=base).neutralize(trimmed)
    tag = f"{WRAPPER_BASE}-{nonce}"
    wrapped = f'<{tag} source="{_attribute(source)}">\n{result.text}\n</{tag}>'
    return Wrapped(
        text=wrapped,
        content=result.text,
        source=source,
        nonce=nonce,
        truncated=truncated,
        omitted=omitted,
        findings=result.findings,
    )
