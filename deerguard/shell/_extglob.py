"""bash's extended globs (``shopt -s extglob``) as the plain globs the path rules read.

``rm -rf ~/!(keep)`` deletes every entry of the home directory but one, ``rm -rf
/@(etc|usr)`` deletes ``/etc`` and ``/usr`` and ``cat /etc/sha@(dow)`` reads ``/etc/shadow``;
the parser keeps these groups as literal text, so without this step the path rules would see
a file name with parentheses in it. :func:`plain_glob` rewrites each group into the plain
glob that covers what it can match:

* ``@(x)`` with one alternative is ``x`` itself;
* a group with several alternatives (``@(etc|usr)``) becomes ``*``: it names more than one
  path, and ``*`` covers them all (``/*`` is the whole root, ``/etc/sha*`` covers the
  shadow file);
* ``?(...)``, ``*(...)``, ``+(...)`` and ``!(...)`` match optional or repeated
  alternatives, or anything but the listed names: ``*``.

The result covers at least everything the extended glob matches, so a rule that fires on a
path it covers fires here too (the over-approximation is the classifier's usual side of
caution: ``rm -rf /opt/@(a|b)`` is read as ``rm -rf /opt/*``). Extended globs are parsed
whether or not the command turned ``extglob`` on (bash's interactive default on most
systems turns it on through bash-completion). One pass over the text: linear, never raises.
"""

from __future__ import annotations

__all__ = ["plain_glob"]

_OPENERS = "?*+@!"


def plain_glob(text: str) -> str:
    """``text`` with every extended-glob group rewritten as a plain glob (see the module
    doc); ``text`` itself when it has none. An unbalanced group stays as it is."""
    if "(" not in text:
        return text
    closing = _matches(text)
    if not closing:
        return text
    return _rewrite(text, 0, len(text), closing, 0)


def _matches(text: str) -> dict[int, int]:
    """Index of the ``)`` closing each group's ``(`` (only for ``(`` after an opener
    character, with backslash escapes skipped); one pass with a stack."""
    closing: dict[int, int] = {}
    stack: list[int] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "(":
            # Only a group opener counts; a bare "(" is kept on the stack as -1 so that its
            # ")" does not close an enclosing group.
            stack.append(i if i > 0 and text[i - 1] in _OPENERS else -1)
        elif c == ")" and stack:
            start = stack.pop()
            if start >= 0:
                closing[start] = i
        i += 1
    return closing


_MAX_DEPTH = 16  # @(@(@(x))) nested deeper than this is read as "*"


def _rewrite(text: str, i: int, j: int, closing: dict[int, int], depth: int) -> str:
    """The plain glob for ``text[i:j]``: groups rewritten, other text kept."""
    out: list[str] = []
    start = i
    k = i
    while k < j:
        c = text[k]
        if c == "\\":
            k += 2
            continue
        end = closing.get(k + 1, -1) if c in _OPENERS else -1
        if end < 0 or end >= j:
            k += 1
            continue
        out.append(text[start:k])
        alts = _alternatives(text, k + 2, end, closing) if c == "@" else []
        if len(alts) == 1 and depth < _MAX_DEPTH:
            out.append(_rewrite(text, alts[0][0], alts[0][1], closing, depth + 1))
        else:
            out.append("*")
        k = end + 1
        start = k
    out.append(text[start:j])
    return "".join(out)


def _alternatives(text: str, i: int, j: int, closing: dict[int, int]) -> list[tuple[int, int]]:
    """The ``|``-separated alternatives of the group body ``text[i:j]`` as index pairs
    (nested groups are skipped over, so their ``|`` does not split)."""
    alts: list[tuple[int, int]] = []
    start = i
    k = i
    while k < j:
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c in _OPENERS and closing.get(k + 1, -1) >= 0:
            k = closing[k + 1] + 1
            continue
        if c == "|":
            alts.append((start, k))
            start = k + 1
        k += 1
    alts.append((start, j))
    return alts
