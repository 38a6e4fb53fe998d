"""Where ``find``'s start paths are: after its global options, before its expression.

GNU find (and bfs) take options before the start paths: ``-H``, ``-L``, ``-P`` (symlink
handling), ``-D DEBUGOPTS`` (one argument), ``-O<level>`` (``-O3``) and ``--``. They do not end
the root list: ``find -L ~ -delete`` deletes everything under ``~``. Every reader of find's
start paths goes through :func:`find_roots`, so none of them reads ``-L`` as the expression.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._words import Field

__all__ = ["find_roots", "root_start"]

_FLAGS = frozenset({"-H", "-L", "-P"})
_EXPRESSION_START = ("-", "(", "!")


def root_start(args: list[Field]) -> int:
    """Index of the first argument after find's global options."""
    i = 0
    n = len(args)
    while i < n:
        t = args[i].text
        if t in _FLAGS or (t.startswith("-O") and t[2:].isdecimal()):
            i += 1
        elif t == "-D":
            i += 2  # -D tree,search: the debug options are its argument
        elif t == "--":
            return i + 1  # ends the options; what follows are roots
        else:
            return i
    return n


def find_roots(args: list[Field]) -> tuple[list[Field], int]:
    """(start paths, index of the first expression argument) of a find argument list."""
    i = root_start(args)
    roots: list[Field] = []
    while i < len(args) and not args[i].text.startswith(_EXPRESSION_START):
        roots.append(args[i])
        i += 1
    return roots, i
