"""Fallback for text that does not parse cleanly: risky-pattern rules over the raw text.

When a command (or a nested code string) is incomplete or nested deeper than the classifier
follows, its parse tree may hide commands. The raw text is then checked three more ways, all
linear: risky path markers (``/etc/shadow``, ``/dev/tcp/``...); the text with quotes and
backslashes dropped, parsed and classified again (an unclosed quote no longer hides
``; rm -rf /``); and the same text *flattened* (grouping characters ``( ) { } `` ` `` made
line breaks, the ``$`` opening a substitution and compound-command keywords blanked), which
undoes any nesting depth. Findings keep spans into the original text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._parse import parse
from ._rawmarkers import scan_markers

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["RAW_DETAIL", "raw_scan"]

RAW_DETAIL = "found in the raw text of a command that does not parse cleanly"

_DROP_TABLE = str.maketrans("", "", "'\"\\")
# Grouping characters become line breaks: each nested body reads as its own command.
_BLANK_TABLE = str.maketrans("(){}`", "\n\n\n\n\n")
_KEPT = re.compile(r"[^'\"\\]+")  # runs of kept characters (one class: linear)


# When flattening: a `$` opening a substitution ($( ${ $(( ) and the compound-command
# keywords are blanked too, so `$( $( rm -rf ~ ) )` reads `rm -rf ~` and 300 nested
# `if true; then` read as plain commands. The `$` goes by two C-level replaces; the keywords
# by one alternation without nesting (linear), behind a lookahead on their first letters so
# the engine skips every other position at once (3-5x faster than trying each keyword and
# the lookbehind everywhere). Blanking `$` first cannot change a keyword match: `$` and a
# space are both outside the lookbehind's class, and no keyword holds `$`.
_KEYWORDS = re.compile(
    r"(?=[icdefwtsu])(?<![\w./-])(?:if|then|elif|else|fi|do|done|while|until|case|esac|for"
    r"|select|function|in)(?![\w./-])"
)


def _blank(m: re.Match[str]) -> str:
    return " " * (m.end() - m.start())


def _dropped(text: str) -> tuple[str, list[int]]:
    """Drop quotes and backslashes; keep origins: ``index[i]`` is the offset in ``text`` of
    the variant's character ``i``. C-level translate and one pass over the runs of kept
    characters (no per-character Python loop)."""
    index: list[int] = []
    extend = index.extend
    for m in _KEPT.finditer(text):
        extend(range(m.start(), m.end()))
    return text.translate(_DROP_TABLE), index


def _flattened(dropped: str) -> str:
    """Blank out grouping in a dropped variant. Blanking keeps lengths, so the dropped
    variant's index stays valid (it is computed once and serves both variants)."""
    out = dropped.replace("$(", " (").replace("${", " {")
    return _KEYWORDS.sub(_blank, out).translate(_BLANK_TABLE)


def raw_scan(run: Run, text: str) -> None:
    """Run the risky-pattern rules over ``text`` (in the run's current coordinates)."""
    if run.raw_mode:
        return
    for marker in scan_markers(text):
        run.add(marker.rule_id, (marker.start, marker.end), marker.what, RAW_DETAIL)
    run.raw_mode = True
    saved_depth = run.node_depth
    try:
        dropped, index = _dropped(text)
        for flatten in (False, True):
            variant = _flattened(dropped) if flatten else dropped
            if not variant.strip() or variant == (dropped if flatten else text):
                continue  # nothing to read, or the text already read: same tree, same findings
            run.push_frame(None, (0, len(text)), index, variant)
            run.node_depth = 0
            try:
                script = parse(variant)
                run.keep.append(script)  # node ids key the run's caches: keep them alive
                run.body(script.statements, None)
            finally:
                run.pop_frame()
    finally:
        run.raw_mode = False
        run.node_depth = saved_depth
