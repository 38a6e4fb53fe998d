"""git's own searches of a repository for its secret files: ``git grep`` and ``git ls-files``.

They are ``grep -rl`` and ``find -name`` spelled through git (:mod:`._projsecrets` reads
those), so they give the same taint:

* ``git grep -l API_KEY`` (also ``--name-only``, ``--files-with-matches``, ``-L``,
  ``--files-without-match``) prints the *paths* of files that may hold secrets (kind
  ``"path"``): a reader of them (``| xargs cat``, ``cat $(git grep -l SECRET)``) prints their
  contents, secret data that blocks when it reaches a network tool.
* ``git grep API_KEY`` without a listing option prints the matching lines: secret data
  (``-c``, ``-q`` print none).
* A pathspec naming secret files (``git grep -l . -- '*.env'``, ``git ls-files '*.env'
  .npmrc``) lists them whatever the regex; ``git ls-files --ignored`` (``-i``, with ``-o
  --exclude-standard``) lists the ignored files, where a project keeps ``.env`` and keys.

A search for ``TODO`` or ``*.py`` gives no taint (``git grep -l TODO | xargs sed -i ...``
passes), nor does a bare ``git ls-files`` (the tracked files: sending them is
``shell.repo-export``'s business). One name test (``git``) and one subcommand test gate it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._embedded import git_sub_index
from ._grepargs import read_grep
from ._projsecrets import PATH_MARK, _secret_pattern, _secret_regex
from ._values import NO_TAINT, Field, Source, Taint

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["git_search"]

_LISTS_LONG = frozenset({"--name-only", "--files-with-matches", "--files-without-match",
                         "--ignored"})
_NO_LINES_LONG = frozenset({"--count", "--quiet"})
# git ls-files options whose value is the next word.
_LS_VALUE = frozenset({"-x", "-X", "--exclude", "--exclude-from", "--exclude-per-directory",
                       "--format", "--with-tree"})


def _short_has(t: str, letters: str) -> bool:
    return t[:1] == "-" and t[1:2] != "-" and any(c in letters for c in t[1:])


def _pathspec(text: str) -> str:
    """A pathspec without its magic prefix (``:(glob)**/.env`` -> ``**/.env``)."""
    if text.startswith(":("):
        return text.partition(")")[2]
    if text.startswith(":/"):
        return text[2:]
    return text


def _secret_spec(ops: list[str]) -> bool:
    return any(_secret_pattern(_pathspec(t)) for t in ops if t and len(t) < 200)


def _grep_kind(args: list[Field]) -> str | None:
    texts = [f.text for f in args]
    g = read_grep("git", args)
    listing = g.lists or any(t in _LISTS_LONG or _short_has(t, "lL") for t in texts
                             if t[:1] == "-" and not t.startswith(("-e", "-f")))
    quiet = any(t in _NO_LINES_LONG or _short_has(t, "cq") for t in texts
                if t[:1] == "-" and not t.startswith(("-e", "-f")))
    if not any(_secret_regex(r) for r in g.regexes) and not _secret_spec(g.operands):
        return None
    if listing:
        return "path"
    return None if quiet else "secret"


def _ls_kind(args: list[Field]) -> str | None:
    texts = [f.text for f in args]
    if any(t == "--ignored" or (t[:1] == "-" and t[1:2] != "-" and "i" in t[1:])
           for t in texts):
        return "path"  # git ls-files -o -i --exclude-standard: the ignored files
    ops: list[str] = []
    skip = False
    for t in texts:
        if skip:
            skip = False
        elif t in _LS_VALUE:
            skip = True  # -x .env excludes .env: no pathspec
        elif t[:1] != "-":
            ops.append(t)
    return "path" if _secret_spec(ops) else None


def git_search(run: Run, inv: Invocation) -> Taint:
    """The taint of ``git grep``/``git ls-files`` output (see the module doc)."""
    args = inv.args
    i = git_sub_index(args)
    if i >= len(args):
        return NO_TAINT
    sub = args[i].text
    if sub == "grep":
        kind = _grep_kind(args[i + 1:])
    elif sub == "ls-files":
        kind = _ls_kind(args[i + 1:])
    else:
        return NO_TAINT
    if kind is None:
        return NO_TAINT
    label = "git " + sub + (PATH_MARK if kind == "path" else "")
    return frozenset({Source(kind, label, run.map_span(inv.word.span))})
