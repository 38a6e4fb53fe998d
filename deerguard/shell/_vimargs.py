"""vim's file arguments, apart from its ex commands (``-c``, ``--cmd``, ``+CMD``).

A substitute or global command's pattern (``%s/VERSION=.*/VERSION=2.0/``) is no path, but
a file an ex command reads is (``-c 'r ~/.aws/credentials'``); the path rules check what
:func:`vim_path_args` returns.
"""

from __future__ import annotations

import re

from ._words import Field

__all__ = ["vim_path_args"]


# An ex command that takes a pattern (``%s/RE/REPL/``, ``g/RE/CMD``, ``v/RE/d``), after an
# optional range: its pattern is not a path.
_EX_PATTERN = re.compile(r"[%.$'<>,0-9+-]*(?:s|g|v|global|vglobal|substitute|sm|sno)!?[^\w\s|]")


def vim_path_args(args: list[Field]) -> list[Field]:
    """vim's files and the words of its ex commands (``-c CMD``, ``--cmd CMD``, ``+CMD``)
    but the patterns of ``:s``, ``:g`` and ``:v`` (``%s/V=.*/V=2/`` names no file, while
    ``-c 'r ~/.aws/credentials'`` reads one)."""
    out: list[Field] = []
    command = False
    for f in args:
        text = f.text
        if command or (text.startswith("+") and len(text) > 1):
            command = False
            words = re.split(r"[\s|]+", text[1:] if text.startswith("+") else text)
            out.extend(Field(w, f.span, f.taint) for w in words[:64]
                       if w and not _EX_PATTERN.match(w))
        elif text in ("-c", "--cmd"):
            command = True
        else:
            out.append(f)
    return out
