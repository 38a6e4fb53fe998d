"""Destruction through tools other than ``rm``: ``shred`` and archivers that delete.

* ``shred [-u] FILE...`` overwrites each file in place (``-u``/``--remove`` also unlinks it):
  over the files of the home directory, of every home or of a system directory
  (``shred -n3 -zu ~/*``, ``shred -u /etc/*``) it is ``rm -rf ~/*`` made unrecoverable.
  shred refuses directories, so only globs and plain files are its targets; one named file
  (``shred -u secret.txt``, ``shred -u ~/old-key.pem``) is its everyday use.
* ``tar --remove-files`` (GNU, any unambiguous prefix), ``zip -m``/``--move`` and
  ``7z a -sdel`` delete each operand after archiving it: ``tar czf /dev/null --remove-files ~``
  deletes the home directory. Archiving a project's own directory and removing it
  (``tar czf logs.tgz --remove-files old-logs/``) passes; ``tar -C DIR`` is followed for
  relative operands.

Both block with ``shell.recursive-delete`` when an operand is ``/``, ``~``, a home or a system
directory, or a glob over one: an agent has no everyday reason to wipe those through a
second tool, and the data does not come back (a tarball written to /dev/null, overwritten
blocks). Option arity is modelled (``shred -n N``, ``tar -f ARCHIVE -C DIR``, old-style
``tar czf ARCHIVE``, ``zip -b DIR``) so option values are never read as operands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._extglob import plain_glob
from ._paths import glob_critical, is_critical, norm_path
from ._resolve import Invocation
from ._words import Field

if TYPE_CHECKING:
    from ._checks import Add

__all__ = ["DESTROY_TOOLS", "check_destroy_tool"]

_TARS = frozenset({"tar", "gtar", "bsdtar"})
_ZIPS = frozenset({"zip"})
_SEVENZ = frozenset({"7z", "7za", "7zz", "7zr"})
DESTROY_TOOLS = frozenset({"shred"}) | _TARS | _ZIPS | _SEVENZ

# shred's options that take a value as the next word (or attached: -n3).
_SHRED_ARG = "ns"
# GNU tar: short options taking a value, and long options taking the next word when
# written without '='.
_TAR_SHORT_ARG = "fCbgHIKLNTVX"
_TAR_LONG_ARG = frozenset({
    "--file", "--directory", "--exclude", "--files-from", "--exclude-from",
    "--use-compress-program", "--to-command", "--transform", "--xform", "--owner",
    "--group", "--mode", "--mtime", "--newer", "--newer-mtime", "--after-date", "--label",
    "--format", "--blocking-factor", "--record-size", "--checkpoint-action", "--info-script",
    "--new-volume-script", "--rsh-command", "--index-file", "--listed-incremental",
    "--tape-length", "--suffix", "--volno-file", "--strip-components", "--exclude-tag",
    "--exclude-tag-all", "--exclude-tag-under", "--level", "--owner-map", "--group-map",
    "--quoting-style", "--sort", "--warning", "--occurrence", "--pax-option", "--hole-detection",
})
# zip: short options taking the next word.
_ZIP_ARG = frozenset({"-b", "-n", "-t", "-tt", "-P", "-O", "-Z", "-s", "-sp", "-x", "-i",
                      "--temp-path", "--suffixes", "--from-date", "--before-date",
                      "--password", "--output-file", "--compression-method", "--split-size",
                      "--exclude", "--include"})


def _critical(text: str, cwd: str | None) -> str | None:
    path = norm_path(text, cwd)
    if path is None:
        return None
    if is_critical(path) or glob_critical(path):
        return path
    return None


def _shred(add: Add, inv: Invocation, cwd: str | None) -> None:
    args = inv.args[:256]
    k = 0
    ended = False
    while k < len(args):
        f = args[k]
        t = f.text
        k += 1
        if not ended and t == "--":
            ended = True
            continue
        if not ended and t.startswith("--") and f.static:
            if t in ("--iterations", "--size", "--random-source"):
                k += 1
            continue
        if not ended and t.startswith("-") and len(t) > 1 and f.static:
            for pos, c in enumerate(t[1:]):
                if c in _SHRED_ARG:
                    if pos + 2 == len(t):
                        k += 1  # -n 3: the value is the next word
                    break
            continue
        # shred cannot overwrite a directory: a glob over every file of a directory
        # (~/*, /etc/.*, /home/*/*) is its destructive target, not one named file; an
        # extended glob is read as the plain glob covering it (~/!(keep) is ~/*).
        if "(" in t:
            t = plain_glob(t)
        parent, _, last = t.rstrip("/").rpartition("/")
        if not last or not parent and not t.startswith("/") or \
                any(c not in "*?[]!^.-" for c in last) or "*" not in last and "?" not in last:
            continue
        path = _critical(parent or "/", cwd)
        if path is not None:
            add("shell.recursive-delete", f.span, f"shred overwrites (and deletes) every file "
                f"in {path}, unrecoverably", None)


def _tar_operands(args: list[Field]) -> tuple[list[tuple[Field, str | None]], bool]:
    """(operands with the -C directory in force, whether --remove-files is given)."""
    out: list[tuple[Field, str | None]] = []
    remove = False
    directory: str | None = None
    k = 0
    n = len(args)
    ended = False
    while k < n:
        f = args[k]
        t = f.text
        k += 1
        if not ended and t == "--":
            ended = True
            continue
        if not ended and t.startswith("--") and len(t) > 2:
            opt, eq, value = t.partition("=")
            if len(opt) >= 5 and "--remove-files".startswith(opt):  # --rem is unambiguous
                remove = True
            elif opt in _TAR_LONG_ARG or (len(opt) > 5 and "--directory".startswith(opt)):
                if not eq and k < n:
                    value = args[k].text
                    k += 1
                if "--directory".startswith(opt) and len(opt) > 5:
                    directory = value
            continue
        if not ended and (t.startswith("-") and len(t) > 1 or k == 1 and f.static and
                          t.isalpha() and any(c in t for c in "cxtrudA")):
            # -czf X, or the old style first word `czf X` (its letters take the next words).
            letters = t[1:] if t.startswith("-") else t
            old = not t.startswith("-")
            for pos, c in enumerate(letters):
                if c not in _TAR_SHORT_ARG:
                    continue
                rest = letters[pos + 1:]
                if old:
                    value = args[k].text if k < n else ""
                    k += 1
                elif rest:
                    value = rest
                else:
                    value = args[k].text if k < n else ""
                    k += 1
                if c == "C":
                    directory = value
                if not old:
                    break
            continue
        out.append((f, directory))
    return out, remove


def _archive_deletes(add: Add, inv: Invocation, cwd: str | None) -> None:
    name = inv.name
    args = inv.args
    targets: list[tuple[Field, str | None]] = []
    if name in _TARS:
        if not any(f.text.startswith("--rem") for f in args):
            return
        targets, remove = _tar_operands(args)
        if not remove:
            return
        how = "tar --remove-files"
    elif name in _ZIPS:
        move = False
        operands: list[Field] = []
        k = 0
        while k < len(args):
            f = args[k]
            t = f.text
            k += 1
            if t == "--move":
                move = True
            elif t in _ZIP_ARG:
                k += 1
            elif t.startswith("-") and len(t) > 1 and not t.startswith("--"):
                if "m" in t[1:] and all(c.isdecimal() or c in "rRmqvjJDylkgfuodAFSe@"
                                        for c in t[1:]):
                    move = True
            elif not t.startswith("--"):
                operands.append(f)
        if not move:
            return
        targets = [(f, None) for f in operands[1:]]  # the first operand is the zip file
        how = "zip -m"
    else:
        texts = [f.text for f in args]
        if "-sdel" not in texts or not args or args[0].text not in ("a", "u"):
            return
        operands = [f for f in args[1:] if not f.text.startswith("-")]
        targets = [(f, None) for f in operands[1:]]
        how = f"{name} -sdel"
    for f, directory in targets[:64]:
        base = cwd
        if directory is not None and not f.text.startswith(("/", "~")):
            base = norm_path(directory, cwd)
            if base is None:
                continue
        path = _critical(f.text, base)
        if path is not None:
            add("shell.recursive-delete", f.span, f"{how} deletes {path} after archiving it",
                None)


def check_destroy_tool(add: Add, inv: Invocation, cwd: str | None) -> None:
    """``shred`` over critical globs; archivers that delete critical operands."""
    if inv.name == "shred":
        _shred(add, inv, cwd)
    else:
        _archive_deletes(add, inv, cwd)
