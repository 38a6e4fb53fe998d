"""The folder's most common failing attempt, read without running the reader.

:func:`._strfold.fold_strings` tries to read an expression at every token that may start
one; most such tokens are names (``os``, ``pathlib``, ``p.unlink``) that are neither bound
to a constant nor a pure string function, and the reader (``Parser``: ``expr`` → ``term``
→ ``primary`` → ``call`` → ``chain``) fails on them after reading the dotted name.
:func:`failing_name` reads the same tokens the same way and says how much work the
reader would have counted (the fold's total budget sums it), so the fold can skip the
attempt with the same result; it returns None whenever the attempt could do anything
else, and the reader then runs as before.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ._strfuncs import FUNCTIONS, Tok

__all__ = ["SEPARATORS", "failing_name"]

SEPARATORS = re.compile(r"\.|::|->")  # of a dotted, :: or -> name (Parser.call splits it)


def failing_name(toks: list[Tok], k: int, language: str, consts: Mapping[str, str]
                 ) -> int | None:
    """The work ``Parser.expr`` counts on the name token ``k`` (an attempt's start: depth
    0, so no newline token is skipped) before it fails, when it fails in ``call`` (the name
    not bound to a constant, or called, and its dotted form no pure string function);
    None otherwise. Looks up ``toks[k]`` in ``consts`` exactly as ``call`` does."""
    first = toks[k][1]
    n = len(toks)
    work = 1  # primary's take
    j = k + 1
    if first in consts:
        work += 1  # is_op("(")
        nxt = toks[j] if j < n else None
        if nxt is None or nxt[0] != "op" or nxt[1] != "(":
            return None  # the name's value: the attempt reads on
    seps = ("::", "->") if language in ("perl", "php") else (".", "::") \
        if language != "lua" else (".",)
    name = first
    for _ in range(8):  # Parser.chain
        tok = toks[j] if j < n else None
        work += 1  # is_op(seps[0])
        match = tok is not None and tok[0] == "op" and tok[1] == seps[0]
        if not match and len(seps) > 1:
            work += 2  # any(is_op(s) for s in seps): both looked at
            match = tok is not None and tok[0] == "op" and tok[1] in seps
        if not match or tok is None:
            break
        after = toks[j + 1] if j + 1 < n else None
        work += 1  # peek(1)
        if after is None or after[0] != "name":
            break
        work += 2  # two takes
        name += tok[1] + after[1]
        j += 2
    if SEPARATORS.split(name)[-1].lower() in FUNCTIONS:
        return None
    return work
