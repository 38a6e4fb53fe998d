"""More copiers for the file model of ``_copies``: ``git mv``, ``ditto``, ``pv``, backups.

- ``git mv [-f] [-k] A B`` moves A to B in the work tree as ``mv`` does (``-n``/
  ``--dry-run`` moves nothing); read as ``mv``.
- ``ditto SRC... DST`` (macOS) copies files and directory trees as ``cp -R`` does (``-c``/
  ``-x`` make or unpack archives instead: not followed); read as ``cp -R``.
- ``pv [opts] FILE... > B`` prints its files (or stdin) like ``cat``; ``-o FILE`` writes
  them to FILE; ``-d``/``-R`` watch or drive another process and print nothing here.
- ``cp``/``mv``/``install``/``ln`` ``-b``/``--backup[=CONTROL]`` (and rsync's ``-b``)
  first move the old destination to ``DEST~`` (``-S SUF``/``--suffix=SUF``; a numbered
  backup is ``DEST.~1~``): its text and taint go with it, so ``echo CODE > b; cp -b c b;
  sh b~`` runs CODE.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import file_taint
from ._resolve import Invocation
from ._values import DYN
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["MORE_COPIERS", "backup_suffix", "move_to_backup", "more_copy", "pv_args"]

MORE_COPIERS = frozenset({"git", "ditto"})
# git's global options that take the next word (git -C DIR mv: another work tree).
_GIT_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace",
                         "--exec-path", "--config-env", "--super-prefix"})
# ditto's long options that take the next word.
_DITTO_VALUES = frozenset({"--bom", "--arch"})
# pv's short options that take a value, and its long ones.
_PV_LETTERS = "AFDimwHNLBsRPdoUx"
_PV_VALUES = frozenset({
    "--last-written", "--format", "--delay-start", "--interval", "--average-rate-window",
    "--width", "--height", "--name", "--rate-limit", "--buffer-size", "--size", "--remote",
    "--pidfile", "--watchfd", "--output", "--store-and-forward", "--extra-display"})
_MAX_WORDS = 64


def more_copy(inv: Invocation) -> Invocation | None:
    """``git mv``/``ditto`` as the ``mv``/``cp -R`` they do; None when not a copy."""
    args = inv.args[:_MAX_WORDS]
    if inv.name == "git":
        for index, f in enumerate(args):
            t = f.text
            if t in _GIT_VALUES or t.startswith(("-C", "--git-dir=", "--work-tree=")):
                return None  # another repository or work tree: paths not from here
            if t.startswith("-"):
                continue
            if t != "mv":
                return None
            rest = [a for a in args[index + 1:] if a.text not in ("-f", "--force", "-k",
                                                                   "-v", "--verbose")]
            if any(a.text in ("-n", "--dry-run") for a in rest):
                return None
            return Invocation("mv", inv.word, rest)
        return None
    out: list[Field] = [Field("-R", inv.word.span)]
    skip = False
    for f in args:
        t = f.text
        if skip:
            skip = False
        elif t in ("-c", "-x") or (t.startswith("-") and not t.startswith("--") and
                                   ("c" in t or "x" in t)):
            return None  # ditto -c/-x: archives (-X is --norsrc-like: stays a copy)
        elif t in _DITTO_VALUES:
            skip = True
        elif not t.startswith("-") or t == "-":
            out.append(f)
    return Invocation("cp", inv.word, out)


def pv_args(args: list[Field]) -> tuple[list[Field], str | None, bool]:
    """pv's file operands, its ``-o FILE`` and whether it prints them whole (``-d``/``-R``
    watch another process; ``-S`` stops at ``-s SIZE``)."""
    files: list[Field] = []
    output: str | None = None
    whole = True
    take: str | None = None
    ended = False
    for f in args[:_MAX_WORDS]:
        t = f.text
        if take is not None:
            if take in ("o", "--output"):
                output = t
            elif take in ("d", "R", "--watchfd", "--remote"):
                whole = False
            take = None
        elif ended or not t.startswith("-") or t == "-":
            files.append(f)
        elif t == "--":
            ended = True
        elif t.startswith("--"):
            key, eq, value = t.partition("=")
            if key == "--output" and eq:
                output = value
            elif key in ("--watchfd", "--remote", "--stop-at-size"):
                whole = False
            if key in _PV_VALUES and not eq:
                take = key
        else:
            for k, letter in enumerate(t[1:], 1):
                if letter == "S":
                    whole = False
                if letter in _PV_LETTERS:
                    value = t[k + 1:]
                    if value:
                        if letter == "o":
                            output = value
                        elif letter in "dR":
                            whole = False
                    else:
                        take = letter
                    break
    return files, output, whole


def backup_suffix(run: Run, args: list[Field], values: str, rsync: bool) -> str | None:
    """The suffix ``-b``/``--backup[=CONTROL]`` gives the old destination (None: no
    backup). ``values``: the tool's short options that take a value (``-S SUF`` is one,
    but rsync's ``-S`` is --sparse); ``control``/``env_suffix``: VERSION_CONTROL and
    SIMPLE_BACKUP_SUFFIX when set statically."""
    control = _static(run, "VERSION_CONTROL")
    env_suffix = _static(run, "SIMPLE_BACKUP_SUFFIX")
    backup = False
    suffix: str | None = None
    take = False
    for f in args[:_MAX_WORDS]:
        t = f.text
        if take:
            suffix = t
            take = False
        elif t == "--":
            break
        elif t.startswith("--"):
            key, eq, value = t.partition("=")
            if key == "--backup":
                backup = value not in ("none", "off")
                if eq:
                    control = value
            elif key == "--suffix":
                if eq:
                    suffix = value
                else:
                    take = True
        elif t.startswith("-") and len(t) > 1:
            for k, letter in enumerate(t[1:], 1):
                if letter == "b":
                    backup = True
                elif letter == "S" and not rsync:
                    suffix = t[k + 1:] or None
                    take = suffix is None
                    break
                elif letter in values:
                    break  # a value follows: the rest of the cluster is not options
    if not backup:
        return None
    if control in ("t", "numbered"):
        return ".~1~"  # the first numbered backup (earlier ones are not known)
    return suffix or env_suffix or "~"


def _static(run: Run, name: str) -> str | None:
    var = run.env.get(name)
    if var is None or len(var.alts) != 1 or DYN in var.alts[0]:
        return None
    return var.alts[0]


def move_to_backup(run: Run, path: str, suffix: str) -> None:
    """The file at ``path`` (about to be overwritten) is now ``path + suffix``."""
    backup = path + suffix
    text = run.file_text.get(path)
    if text is not None and (backup in run.file_text or len(run.file_text) < 64):
        run.file_text[backup] = text
    taint = file_taint(run.files, path)
    if taint and (backup in run.files or len(run.files) < 256):
        run.files[backup] = run.files.get(backup, frozenset()) | taint
