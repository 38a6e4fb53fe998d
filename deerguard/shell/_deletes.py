"""Recursive deletes: ``rm``/``rmdir``, ``rimraf``/``del`` and ``find -delete``/``-exec rm``.

Deleting ``/``, ``~``, ``$HOME`` or a system directory blocks in any flag order or spelling
(``-r -f``, ``--recursive --force``, GNU abbreviations such as ``--r``, ``--``,
``--no-preserve-root``); a path not known statically warns (``shell.dynamic-delete``), as
does a delete of or above a working directory whose location is unknown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._datadirs import data_dir_delete
from ._defaultpath import default_path
from ._digits import top_level_num
from ._findargs import find_roots
from ._harvest import found_taint
from ._optwalk import operand_fields
from ._paths import glob_critical, is_critical, norm_path
from ._resolve import Invocation, program_name
from ._values import Taint
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._checks import Add

__all__ = ["NODE_DELETERS", "TRASHERS", "check_find", "check_node_delete", "check_rm",
           "opts_and_operands", "plain_operands"]


def opts_and_operands(args: list[Field]) -> tuple[list[str], list[Field]]:
    """(static options, operands) of an argument list; ``--`` ends the options."""
    opts: list[str] = []
    operands: list[Field] = []
    ended = False
    for f in args:
        if not ended and f.text == "--":
            ended = True
        elif not ended and f.text.startswith("-") and len(f.text) > 1 and f.static:
            opts.append(f.text)
        else:
            operands.append(f)
    return opts, operands


def plain_operands(args: list[Field], letters: str) -> list[Field]:
    """Non-option words (single-letter options in ``letters`` take the next word)."""
    return operand_fields(args, frozenset(f"-{c}" for c in letters))


def check_rm(add: Add, inv: Invocation, cwd: str | None) -> None:
    """Recursive delete of ``/``, ``~``, ``$HOME`` or a system directory, in any spelling."""
    cwd = _known_dir(cwd)
    opts, targets = opts_and_operands(inv.args)
    # GNU getopt takes any unambiguous prefix of a long option: --r is --recursive,
    # --no is --no-preserve-root (rm's other long options start with other letters).
    recursive = any(o == "-R" or (o.startswith("--") and len(o) > 2 and
                                  "--recursive".startswith(o)) or
                    (not o.startswith("--") and ("r" in o or "R" in o))
                    for o in opts) or inv.name == "rmdir"
    no_preserve = any(len(o) > 3 and "--no-preserve-root".startswith(o) for o in opts)
    for t in targets:
        if not t.text:
            continue  # rm "" removes nothing
        text = t.text
        if text.startswith("~/../") and text.count("/") == 2:
            text = "/home/" + text[5:]  # ~/../$USER: a directory beside the home, a home
        elif text.startswith("~" + DYN) and "/" not in text.rstrip("/"):
            text = "/home/" + text[1:].rstrip("/")  # eval echo ~$USER: a user's home
        path = norm_path(text, cwd)
        if path is None and recursive and t.taint:
            resolved = default_path(t)  # "${TMPDIR:-/tmp}/build" is judged as /tmp/build
            if resolved is not None:
                text = resolved
                path = norm_path(text, cwd)
        if path is None and recursive and text.startswith(("/home/", "/Users/", "/root/")) \
                and text.count("/") == 2 and text.endswith(DYN):
            add("shell.recursive-delete", t.span, "recursive delete of a home directory",
                None)
            continue
        if path is None and recursive and text.rstrip("/*") == "/" + DYN:
            # /$NAME, ${HOME%/*}, $(dirname ~): a top-level directory (/etc, /usr, /home)
            # chosen at run time; every one of them but /tmp is a system directory.
            add("shell.recursive-delete", t.span, "recursive delete of a top-level "
                "directory that is not known statically", None)
            continue
        if path is None:
            if recursive and no_preserve:
                add("shell.recursive-delete", t.span,
                    "recursive delete with --no-preserve-root", None)
            elif recursive:
                add("shell.dynamic-delete", t.span,
                    "recursive delete of a path that is not known statically", None)
            continue
        if recursive and top_level_num(path):
            add("shell.recursive-delete", t.span, "recursive delete of a top-level "
                "directory that is not known statically", None)  # rm -rf /$RANDOM
        elif recursive and (is_critical(path) or no_preserve or glob_critical(path)):
            add("shell.recursive-delete", t.span, f"recursive delete of {path}", None)
        elif recursive and (data := data_dir_delete(path)) is not None:
            add(data[0], t.span, data[1], None)  # /var/lib/postgresql, /srv/data
        elif recursive and (path == ".git" or path.endswith("/.git")):
            add("shell.git-destructive", t.span, _GIT_LOSS.format(path), None)
        elif recursive and cwd is None and path == ".":
            # rm -rf "$PWD", rm -rf "$(pwd)", rm -rf .: the working directory itself, whose
            # location is not known (it may be ~).
            add("shell.dynamic-delete", t.span, "recursive delete of the working directory, "
                "whose location is not known statically", None)
        elif recursive and cwd is None and _ancestor(t.text):
            # rm -rf ../..: above a working directory that is not known (it may be / or ~).
            add("shell.dynamic-delete", t.span, "recursive delete above the working "
                "directory, whose location is not known statically", None)
        elif path.startswith("/") and not path.startswith(("/tmp", "/var/tmp")) and (
                path.startswith(("/etc/", "/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/",
                                 "/boot/", "/lib/", "/usr/lib/"))):
            add("shell.system-write", t.span, f"deletes the system file {path}", None)


_GIT_LOSS = ("recursive delete of {}: the repository's history, branches and stashes go "
             "with it (commits not pushed are lost)")


TRASHERS = frozenset({"trash-put", "trash", "gomi", "rmtrash", "trash-cli"})
"""Programs that move their operands (folders included) to the desktop trash."""

NODE_DELETERS = frozenset({"rimraf", "del", "del-cli"})
"""npm's delete tools: ``rimraf PATH...`` and ``del PATTERN...`` (the ``del-cli`` package)
remove each operand recursively and without asking, like ``rm -rf``."""


def check_node_delete(add: Add, inv: Invocation, cwd: str | None) -> None:
    """``rimraf [opts] PATH...``, ``del [opts] PATTERN...``: a recursive force delete of each
    operand, so ``npx rimraf /`` is ``rm -rf /``. rimraf's options are flags or take their
    value after ``=`` (``--impl=native``); ``--no-preserve-root`` lifts v4's refusal of ``/``
    (an attempt on ``/`` still blocks, as for ``rm``). ``del --dry-run`` only lists."""
    texts = [f.text for f in inv.args]
    if "-h" in texts or "--help" in texts or "--version" in texts:
        return
    if inv.name != "rimraf" and ("-d" in texts or "--dry-run" in texts):
        return
    forced = Field("-rf", inv.word.span)
    check_rm(add, Invocation(inv.name, inv.word, [forced, *inv.args]), cwd)


def _known_dir(cwd: str | None) -> str | None:
    """``cwd`` when it is a known directory; None for a relative prefix (``cd a/b`` from the
    unknown project directory: ``rm -rf .`` and ``rm -rf ../..`` there are judged as from an
    unknown working directory, whose location may be ``~``)."""
    return cwd if cwd is None or cwd[:1] in ("/", "~") else None


def _ancestor(text: str) -> bool:
    """A relative path naming a directory above its start (``..``, ``../..``, ``a/../..``):
    deleting it deletes the working directory's parents, which may be ``/`` or ``~``."""
    if text.startswith(("/", "~")):
        return False
    names: list[str] = []
    ups = 0
    for part in text.split("/"):
        if part == "..":
            if names:
                names.pop()
            else:
                ups += 1
        elif part not in ("", "."):
            names.append(part)
    return ups > 0 and not names


_FILE_DESTROYERS = frozenset({"rm", "unlink", "shred", "truncate", "wipe", "srm"})
_SYSTEM_ROOTS = frozenset({"/", "/usr", "/etc", "/bin", "/sbin", "/lib", "/boot", "/var"})


_NARROWING = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-regex",
                        "-iregex", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin",
                        "-newer", "-size", "-user", "-group", "-empty", "-links", "-perm",
                        "-inum", "-samefile", "-uid", "-gid", "-newermt"})


def check_find(add: Add, inv: Invocation, cwd: str | None) -> list[list[Field]]:
    """``find ROOTS -delete`` on a critical root; return the ``-exec`` commands with ``{}``."""
    cwd = _known_dir(cwd)
    args = inv.args
    roots, i = find_roots(args)
    root_paths = [norm_path(r.text, cwd) if not r.taint or not r.text.startswith(DYN) else
                  norm_path(default_path(r) or r.text, cwd)  # "${TMPDIR:-/tmp}/b": /tmp/b
                  for r in roots] or [norm_path(".", cwd)]
    critical = next((p for p in root_paths if p is not None and is_critical(p)), None)
    subs: list[list[Field]] = []
    narrowed = False  # a test before the action (-name '*.log', -mtime +7): not every file
    found: Taint | None = None
    git_named = False  # -name .git: the folders found are repositories' histories
    while i < len(args):
        t = args[i].text
        if t == "-delete" and critical is not None:
            add("shell.recursive-delete", args[i].span, f"find deletes everything under "
                f"{critical}", None)
        elif t == "-delete" and any(p is None for p in root_paths):
            add("shell.dynamic-delete", args[i].span, "find deletes under a path that is not "
                "known statically", None)
        elif t == "-delete" and not narrowed and cwd is None and "." in root_paths:
            # find . -delete: everything under a working directory whose location is not
            # known (it may be ~), like rm -rf . (find . -name '*.pyc' -delete passes).
            add("shell.dynamic-delete", args[i].span, "find deletes everything under the "
                "working directory, whose location is not known statically", None)
        if critical is None and not narrowed and (t == "-delete" or (
                t in ("-exec", "-execdir") and i + 1 < len(args) and
                program_name(args[i + 1].text) in _FILE_DESTROYERS)):
            # find /var/lib/mysql -delete, -exec rm -f {} +: every file of a data directory
            data = next((d for p in root_paths if p is not None and (
                d := data_dir_delete(p)) is not None), None)
            if data is not None:
                add(data[0], args[i].span, f"find deletes every file: {data[1]}", None)
        narrowed = narrowed or t in _NARROWING
        if t in ("-name", "-iname") and i + 1 < len(args) and args[i + 1].text == ".git":
            git_named = True
        if t in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            cmd: list[Field] = []
            base = critical or (roots[0].text if roots else ".")
            fill = base.rstrip("/") + "/*"  # {} stands for everything found under the root
            if found is None:
                found = found_taint(inv, cwd)  # {} is secret when find searches for secrets
            while j < len(args) and args[j].text not in (";", "+"):
                f = args[j]
                cmd.append(Field(f.text.replace("{}", fill), f.span, f.taint | found)
                           if "{}" in f.text else f)
                j += 1
            tool = program_name(cmd[0].text) if cmd else ""
            if git_named and tool == "rm":  # find ~/src -name .git -exec rm -rf {} +
                add("shell.git-destructive", cmd[0].span, _GIT_LOSS.format(
                    "every .git folder find finds"), None)
            if critical is not None and tool in _FILE_DESTROYERS:
                # find walks the whole tree: rm -f (or shred) on each file it finds is a
                # recursive delete of the root even without -r.
                add("shell.recursive-delete", cmd[0].span, f"find runs {cmd[0].text} on "
                    f"everything under {critical}", None)
            elif critical in _SYSTEM_ROOTS and tool in ("chmod", "chown", "chgrp"):
                add("shell.system-write", cmd[0].span, f"find runs {tool} on every file under "
                    f"{critical}", None)
            if cmd:
                subs.append(cmd)
            i = j
        i += 1
    return subs
