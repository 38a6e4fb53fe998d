"""``find ROOT TESTS -exec cp {} DEST \\;`` copies the written files it finds.

``echo CODE > /tmp/s/x.sh; find /tmp/s -name '*.sh' -exec cp {} /tmp/d/ \\;; sh /tmp/d/x.sh``
runs CODE. The files find visits are not known in general; those written earlier in the
command (``run.file_text``) are, and when find's expression is a plain conjunction of tests
this module can decide (``-name``, ``-iname``, ``-path``, ``-wholename``, ``-type``,
``-maxdepth``, ``-mindepth``, ``-print``), each written file that passes them is copied by
the ``-exec``/``-execdir`` copier with ``{}`` standing for it, through ``_copies``. Any
other expression (``-o``, ``!``, parentheses, ``-newer``...) leaves the copy unknown, as
before: the walker still runs the command with ``{}`` as ``ROOT/*`` (taint follows that).
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from ._findargs import find_roots
from ._paths import norm_path
from ._resolve import Invocation
from ._values import to_int
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["find_copies"]

_COPIERS = frozenset({"cp", "mv", "install", "ln", "gcp", "gmv", "ginstall", "gln", "rsync",
                      "ditto"})
_TESTS = frozenset({"-name", "-iname", "-path", "-wholename", "-ipath", "-iwholename",
                    "-type", "-xtype", "-maxdepth", "-mindepth"})
_MAX_FOUND = 8
_RESERVE = 16384  # of the run's work budget, left for nested code (as _copies)
_MAX_WORDS = 64


def find_copies(run: Run, inv: Invocation) -> list[Invocation]:
    """The copies ``find ... -exec COPIER ... {} ...`` makes of written files, one
    invocation per file found (empty when the expression is not one decided here)."""
    args = inv.args[:_MAX_WORDS]
    if not any(f.text in ("-exec", "-execdir") for f in args):
        return []
    roots, i = find_roots(args)
    tests: list[tuple[str, str]] = []
    execs: list[tuple[bool, list[Field]]] = []
    while i < len(args):
        t = args[i].text
        if t in ("-exec", "-execdir"):
            j = i + 1
            while j < len(args) and args[j].text not in (";", "+"):
                j += 1
            if j >= len(args):
                return []
            execs.append((t == "-execdir", args[i + 1:j]))
            i = j + 1
        elif t in _TESTS and i + 1 < len(args):
            tests.append((t, args[i + 1].text))
            i += 2
        elif t in ("-print", "-print0", "-depth", "-xdev", "-mount", "-follow"):
            i += 1
        else:
            return []  # -o, !, (, -newer...: not decided here
    names = [r.text for r in roots][:_MAX_FOUND] or ["."]
    cost = len(run.file_text) * len(names) + 16
    if run.budget <= cost + _RESERVE:
        return []  # a script of thousands of finds stays linear (as _copies)
    run.budget -= cost
    found = _found(run, names, tests)
    out: list[Invocation] = []
    for execdir, cmd in execs:
        if not cmd or cmd[0].text.rpartition("/")[2] not in _COPIERS:
            continue
        for printed in found:
            if execdir:  # -execdir: {} is ./NAME in the file's directory: the same file
                if any(not f.text.startswith(("/", "~", "{}")) for f in cmd[1:]
                       if f.text[:1] != "-"):
                    continue  # a destination relative to each file's directory
            args_for = [Field(f.text.replace("{}", printed), f.span, f.taint)
                        if "{}" in f.text else f for f in cmd[1:]]
            out.append(Invocation(cmd[0].text.rpartition("/")[2], cmd[0], args_for))
    return out


def _found(run: Run, roots: list[str], tests: list[tuple[str, str]]) -> list[str]:
    """The written files under ``roots`` that pass ``tests``, as find prints them."""
    out: list[str] = []
    for root in roots:
        if DYN in root:
            continue
        base = norm_path(root, run.cwd)
        if base is None:
            continue
        prefix = "" if base == "." else base.rstrip("/") + "/"
        for key in sorted(run.file_text):  # within the budget spent above
            if "\x00" in key or not (key.startswith(prefix) if prefix else
                                     not key.startswith(("/", "~"))):
                continue
            rest = key[len(prefix):]
            printed = root.rstrip("/") + "/" + rest if root != "/" else "/" + rest
            if _passes(printed, rest.count("/") + 1, tests) and printed not in out:
                out.append(printed)
                if len(out) >= _MAX_FOUND:
                    return out
    return out


def _passes(printed: str, depth: int, tests: list[tuple[str, str]]) -> bool:
    name = printed.rpartition("/")[2]
    for test, value in tests:
        if test == "-name" and not fnmatchcase(name, value):
            return False
        if test == "-iname" and not fnmatchcase(name.lower(), value.lower()):
            return False
        if test in ("-path", "-wholename") and not fnmatchcase(printed, value):
            return False
        if test in ("-ipath", "-iwholename") and not fnmatchcase(printed.lower(),
                                                                value.lower()):
            return False
        if test in ("-type", "-xtype") and "f" not in value.split(","):
            return False  # a written file is a regular file
        if test in ("-maxdepth", "-mindepth"):
            level = to_int(value)
            if level is None:
                return False
            if (test == "-maxdepth" and depth > level) or (test == "-mindepth" and
                                                            depth < level):
                return False
    return True
