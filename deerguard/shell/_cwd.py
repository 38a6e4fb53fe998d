"""The working directory as ``cd``, ``pushd`` and ``popd`` change it.

``Run.cwd`` is the directory relative paths resolve against (None: unknown, the project
directory the agent works in; a relative path after ``cd a/b`` from there: ``a/b``, so that
``cd .github/workflows && echo X >> ci.yml`` writes ``.github/workflows/ci.yml``; ``cd ..``,
``cd -`` and ``cd "$X"`` forget it). Bash's own rules:
``cd -`` goes to ``$OLDPWD`` (and every ``cd`` sets ``OLDPWD`` to the directory it leaves);
a relative operand that does not start with ``.`` or ``..`` is looked up in ``$CDPATH`` first
(``CDPATH=/; cd etc`` is ``/etc``: the classifier takes the first entry, the directory an
attacker who sets ``CDPATH`` means); ``pushd DIR`` saves the directory it leaves on the
directory stack and ``popd`` returns to it. ``$PWD`` follows the directory (``~+`` reads it) and
``$OLDPWD`` the previous one (``~-``). Unknown values stay unknown, never a default.

A ``cd`` to a directory computed at run time (``cd "$X"``, ``cd "$(dirname "$HOME")"``) is
remembered as the operand's text (``Run.cwd_text``): deleting everything there (``rm -rf *``,
``rm -rf .``) is then deleting ``$X/*``, judged like that path (a top-level directory
blocks, any other unknown directory warns as ``shell.dynamic-delete``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._deletes import check_rm, opts_and_operands
from ._files import dir_key
from ._paths import norm_path
from ._resolve import Invocation
from ._words import DYN, Field, Var

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["CWD_BUILTINS", "change_dir", "whole_dir_delete"]

CWD_BUILTINS = frozenset({"cd", "pushd", "popd"})
_MAX_STACK = 64


def _known(run: Run, name: str) -> str | None:
    """The single static value of variable ``name``, if the script set one."""
    var = run.env.get(name)
    if var is None or len(var.alts) != 1 or DYN in var.alts[0] or not var.alts[0]:
        return None
    return var.alts[0]


def _target(run: Run, operand: str) -> str | None:
    """Where ``cd OPERAND`` goes, normalized (None: unknown)."""
    if operand == "-":
        return _known(run, "OLDPWD")
    if operand.startswith("-"):
        return None
    head = operand.split("/", 1)[0]
    if not operand.startswith(("/", "~")) and head not in (".", ".."):
        cdpath = _known(run, "CDPATH")
        if cdpath is not None:
            first = cdpath.split(":", 1)[0]
            if first:
                return norm_path(first.rstrip("/") + "/" + operand, run.cwd)
    return norm_path(operand, run.cwd)


def change_dir(run: Run, inv: Invocation) -> None:
    """Apply ``cd``/``pushd``/``popd`` (``inv.name``) to the run's working directory."""
    name = inv.name
    operands = [f.text for f in inv.args if f.text == "-" or not f.text.startswith("-")]
    if name == "cd" and operands == [""]:
        return  # cd "" stays where it is (an unset $X's alternative: the other one counts)
    prev = run.cwd
    prev_text, run.cwd_text = run.cwd_text, None
    if name == "popd":
        if any(f.text[:1] in "+-" for f in inv.args):
            return  # popd +N / -N / -n: drops a stack entry, the directory stays
        new = run.dirstack.pop() if run.dirstack else None
    elif name == "pushd" and not operands:
        if not run.dirstack:
            return  # pushd with an empty stack fails: nothing changes
        new = run.dirstack.pop()
        run.dirstack.append(prev)  # the top two entries swap
    elif name == "pushd" and operands[-1][:1] in "+" and operands[-1][1:].isdecimal():
        new = None  # pushd +N rotates the stack: not followed
    else:
        operand = operands[-1] if operands else "~"
        new = _target(run, operand)
        if new is None and DYN in operand:
            run.cwd_text = operand  # cd "$X": a directory chosen at run time
        elif prev_text is not None and (new is None or not new.startswith(("/", "~"))) and \
                not operand.startswith(("/", "~", "-")):
            run.cwd_text = prev_text.rstrip("/") + "/" + operand  # cd "$X"; cd sub
        if name == "pushd" and len(run.dirstack) < _MAX_STACK:
            run.dirstack.append(prev)
    if new is not None and not new.startswith(("/", "~")):
        # Relative to an unknown directory ("*" is the unknown working directory, tainted
        # when it is a fetched directory). A move down (cd a/b) keeps the relative prefix:
        # later relative paths join it (x > c writes a/b/c); a climb (cd ..) forgets it.
        inside = run.files.get(dir_key(new))
        if inside:
            run.files["*"] = inside
        # (bounded: a prefix of 512 characters at most keeps every later join linear)
        new = new if len(new) < 512 and new != "." and _down(run, inv, name, prev) else None
    run.cwd = new
    # $PWD and $OLDPWD follow: known directories, or unknown (never the default ".", nor
    # a relative prefix: $PWD is absolute).
    run.env["OLDPWD"] = Var(alts=(prev,)) if prev is not None and _absolute(prev) else \
        Var(alts=(DYN,))
    run.env["PWD"] = Var(alts=(new,)) if new is not None and _absolute(new) else \
        Var(alts=(DYN,))
    run.env_version += 1


def _absolute(path: str) -> bool:
    return path[:1] in ("/", "~")


def _down(run: Run, inv: Invocation, name: str, prev: str | None) -> bool:
    """``cd a/b`` (``pushd a/b``) from the project directory or a relative prefix: a move
    down (no ``..``, no CDPATH lookup, no variable), so its relative prefix is known."""
    if name == "popd" or (prev is not None and prev[:1] in "/~") or "CDPATH" in run.env:
        return False
    args = inv.args
    if len(args) != 1:
        return False  # cd -P a, cd -- a: not followed
    f = args[0]
    text = f.text
    return f.static and DYN not in text and ".." not in text.split("/")


# Operands that name everything in the working directory.
_WHOLE_DIR = frozenset({"*", ".", "./", "./*", ".*", "./.*", "{*,.*}", "{.*,*}"})


def whole_dir_delete(run: Run, inv: Invocation) -> None:
    """``rm -r`` of everything in a directory that ``cd`` chose at run time: judged as a
    delete of ``DIR/*`` (``inv.name`` is ``rm``; ``run.cwd_text`` is set)."""
    opts, operands = opts_and_operands(inv.args)
    if run.cwd_text is None or not any(f.text in _WHOLE_DIR for f in operands):
        return
    span = next(f.span for f in operands if f.text in _WHOLE_DIR)
    target = Field(run.cwd_text.rstrip("/") + "/*", span)
    check_rm(run.add, Invocation(inv.name, inv.word, [*(Field(o, span) for o in opts), target],
                                 inv.wrappers, inv.assigns, inv.privileged, inv.from_stdin),
             None)
