"""Wrap untrusted text in nonce-labelled markers, after trimming and neutralizing it."""

from __future__ import annotations

import secrets
import string
import unicodedata
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


_ZWJ = "\u200d"
_MAX_CLUSTER_BACKOFF = 256  # a "cluster" longer than this (Zalgo text) is cut anyway


def _extends(ch: str) -> bool:
    """Return whether ``ch`` continues the grapheme cluster before it."""
    cp = ord(ch)
    return (
        ch == _ZWJ
        or ch == "\u200c"  # zero-width non-joiner
        or 0xFE00 <= cp <= 0xFE0F  # variation selectors
        or 0x1F3FB <= cp <= 0x1F3FF  # emoji skin-tone modifiers
        or 0xE0020 <= cp <= 0xE007F  # emoji tag sequences (subdivision flags)
        or 0xE0100 <= cp <= 0xE01EF
        or unicodedata.category(ch) in ("Mn", "Me", "Mc")
    )


def _cluster_cut(text: str, keep: int) -> int:
    """Move the cut ``keep`` left so it does not split a grapheme cluster (emoji ZWJ
    sequences, flags, combining marks, Indic conjuncts, CR LF); bounded backoff, so linear."""
    if keep <= 0 or keep >= len(text):
        return keep
    limit = max(0, keep - _MAX_CLUSTER_BACKOFF)
    start = keep
    while keep > limit:
        before, after = text[keep - 1], text[keep]
        if (
            _extends(after)
            or before == _ZWJ
            or (before == "\r" and after == "\n")
            or (unicodedata.combining(before) == 9 and after.isalpha())  # virama conjunct
        ):
            keep -= 1
            continue
        if 0x1F1E6 <= ord(after) <= 0x1F1FF and 0x1F1E6 <= ord(before) <= 0x1F1FF:
            run = keep
            while run > limit and 0x1F1E6 <= ord(text[run - 1]) <= 0x1F1FF:
                run -= 1
            if (keep - run) % 2:  # odd count before the cut: it splits a flag pair
                keep -= 1
        break
    return keep if keep > limit or limit == 0 else start


def _trim(text: str, budget: int) -> tuple[str, bool, int]:
    """Trim raw ``text`` to ``budget`` characters, marker included when it fits; the cut
    never splits a grapheme cluster (an emoji sequence or a letter and its marks)."""
    if len(text) <= budget:
        return text, False, 0
    keep = _cluster_cut(text, budget)
    marker = ""
    for _ in range(4):  # the marker's length depends on the count it reports
        candidate = _marker(len(text) - keep)
        if len(candidate) >= budget:
            marker, keep = "", _cluster_cut(text, budget)
            break
        keep = _cluster_cut(text, budget - len(candidate))
        marker = _marker(len(text) - keep)
        if len(marker) == len(candidate):
            break
    if keep + len(marker) > budget:
        marker, keep = "", _cluster_cut(text, budget)
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
