"""JSON-style escapes of brackets (``\\u003c``, ``\\x3e``, ``\\u{3c}``), read in linear time.

A run of backslashes is read once: the escape is decided by the last backslash of the run
and what follows it, and callers that walk the text skip the whole run. Matching
``\\\\+u003c`` at every backslash of a long run instead rescans the run from each position,
which is quadratic (``<think `` followed by thousands of backslashes took seconds).
"""

from __future__ import annotations

import re

from ._chars import IGNORABLE_SET

__all__ = [
    "GAP_OPENER",
    "backslash_run_end",
    "json_escape_at",
    "markup_gap_end",
    "strip_gaps",
    "written_in_capitals",
]

_RUN = re.compile(r"\\+")
# \uXXXX and \xXX (JSON, JavaScript, Python), \u{X...} (JavaScript, Rust, Swift) and
# \UXXXXXXXX (Python, C): each names one code point exactly (no octal: \074 reads as a
# regex back-reference or a printf octal too often).
_ONE = re.compile(
    r"\\(?:U([0-9a-fA-F]{8})|[uU]([0-9a-fA-F]{4})|[xX]([0-9a-fA-F]{2})|u\{0*([0-9a-fA-F]{1,6})\})"
)


def backslash_run_end(text: str, k: int, /) -> int:
    """Index after the run of backslashes starting at ``k`` (``k`` itself if none)."""
    m = _RUN.match(text, k)
    return k if m is None else m.end()


def json_escape_at(text: str, k: int, /) -> tuple[int, str | None]:
    """Read a backslash run at ``k`` and the escape after it.

    Returns ``(end, char)``: ``char`` is the escaped character and ``end`` the index after
    the escape when the run ends in a ``\\uXXXX``/``\\xXX`` escape; otherwise ``char`` is
    ``None`` and ``end`` is the index after the run (``k`` when ``text[k]`` is no backslash).
    """
    run_end = backslash_run_end(text, k)
    if run_end == k:
        return k, None
    m = _ONE.match(text, run_end - 1)
    if m is None:
        return run_end, None
    code = int(m.group(1) or m.group(2) or m.group(3) or m.group(4), 16)
    if code > 0x10FFFF:
        if m.group(1) is None:  # \u{1F6007}: out of range, no escape at all (JS rejects it)
            return run_end, None
        # \U0041abcd: not a code point; read the \uXXXX prefix instead
        code, end = int(text[run_end + 1 : run_end + 5], 16), run_end + 5
        return end, chr(code)
    return m.end(), chr(code)


# Markup a renderer or an HTML-to-text step drops without a trace, so a name split by it
# reads as one name: <sys<!-- -->tem-reminder>, <th<?x?>ink>, <sys<![CDATA[]]>tem-reminder>.
_GAPS = (("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"))
_MAX_GAP = 256  # characters of a comment read inside a name (bounded: linear time)


def markup_gap_end(text: str, k: int, /) -> int:
    """Index after an HTML comment, CDATA section or processing instruction at ``k``, or -1.

    Only short ones (up to 256 characters) count: a split name hides in an empty or tiny
    comment, and the bound keeps the scan linear.
    """
    for opener, closer in _GAPS:
        if text.startswith(opener, k):
            end = text.find(closer, k + len(opener), k + _MAX_GAP)
            if end != -1 and IGNORABLE_SET.isdisjoint(text[k:end]):
                return end + len(closer)  # the common case: nothing invisible inside
            return _gap_end_through_invisibles(text[k : k + _MAX_GAP], k)
    if text.startswith("<", k) and not IGNORABLE_SET.isdisjoint(text[k + 1 : k + 12]):
        # <\u200b!-- -->, <!-\u200b- -->: invisibles inside the opener
        return _gap_end_through_invisibles(text[k : k + _MAX_GAP], k)
    return -1


def _gap_end_through_invisibles(window: str, k: int) -> int:
    """:func:`markup_gap_end` of a ``window`` (at ``k``) that holds invisible characters,
    read without them, as a reader that drops them sees the markup: ``<!---\u034f->``
    closes a comment, and ``<\u200b!-- -->`` is one. The index is mapped back to the text."""
    kept = [i for i, ch in enumerate(window) if ch not in IGNORABLE_SET]
    seen = "".join(window[i] for i in kept)
    for opener, closer in _GAPS:
        if seen.startswith(opener):
            end = seen.find(closer, len(opener))
            return -1 if end == -1 else k + kept[end + len(closer) - 1] + 1
    return -1


# where a gap may start: found by one compiled search, so text without gaps costs one scan
GAP_OPENER = re.compile(r"<(?:!--|!\[CDATA\[|\?)")
_GAP_HINT = re.compile(r"<[!?]")  # a cheaper first search (faster than str.find here)


def strip_gaps(text: str, /) -> str:
    """``text`` without the short comments, CDATA sections and processing instructions in it.

    Used where the gaps a name is read through must not count (``[IN<!-- x -->ST`` is
    written in capitals) and for the marker prefilter. Linear: each gap opener is read once,
    with a bounded search for its closer.
    """
    if "<" not in text or ">" not in text:
        return text  # one-character searches first (memchr): a flood of `<` ends here
    first = _GAP_HINT.search(text)
    if first is None:
        return text
    parts: list[str] = []
    last = 0
    for m in GAP_OPENER.finditer(text, first.start()):
        k = m.start()
        if k < last:
            continue
        end = markup_gap_end(text, k)
        if end != -1:
            parts.append(text[last:k])
            last = end
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


def written_in_capitals(word: str, /) -> bool:
    """Whether a bracket token's name is written as the tokens are: in capitals, not ending in
    ``.`` or ``:``, judged outside the gaps it is read through (``IN<!-- x -->ST``)."""
    word = strip_gaps(word)
    return word == word.upper() and word[-1:] not in ".:"
