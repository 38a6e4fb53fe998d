"""A shell or interpreter binary copied or linked under another name, then run by it.

``ln -s "$(which sh)" /tmp/ls && curl URL | /tmp/ls`` and ``cp /bin/bash ~/bin/ls; ls -c
CODE`` hide a shell behind a harmless name: every later check keyed on the program name
(pipe-to-shell, ``-c`` code, script files) would see ``ls``. When ``cp``/``ln``/``install``
put a shell or interpreter (a static path, or the static output of ``$(which sh)``) at a
path, that path's name is recorded as an alias of the shell (``run.aliases``, as bash's
``alias`` and ``hash -p``): a later command of that name is classified as the shell itself,
with its arguments and stdin. A copy under its own family's name (a venv's ``python`` ->
``python3``) is not recorded. Only the three copiers reach this (a set lookup in
``_copies``); the work is linear in their arguments.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from . import _rules as R
from ._resolve import Invocation, program_name
from ._words import DYN

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["INTERPRETERS", "SHELL_COPIERS", "note_copy", "runs_code", "shell_copy"]

SHELL_COPIERS = frozenset({"cp", "ln", "install", "gcp", "gln", "ginstall"})
"""Copiers whose copies of a shell binary are tracked."""

# Interpreters whose stdin or first operand is code, like a shell's.
INTERPRETERS = frozenset({"python", "python2", "python3", "perl", "ruby", "node", "php",
                           "lua", "tclsh", "wish", "osascript", "pwsh", "powershell"})
# Options of cp/ln/install that take a separate value.
_VALUE_OPTS = frozenset({"-S", "-t", "-m", "-o", "-g", "--suffix", "--target-directory",
                         "--mode", "--owner", "--group"})
_MAX_ALIASES = 64  # as _extras' hash -p


def runs_code(path: str) -> str | None:
    """The shell or interpreter a binary path names (``/usr/bin/bash`` -> bash), else None."""
    base = program_name(path.strip())  # "$(which sh)" is DYN/sh: sh, wherever it is
    if not base or DYN in base:
        return None
    if base in R.SHELLS or base in INTERPRETERS:
        return base
    stem = base.rstrip("0123456789.")  # python3.12, perl5.36
    return stem if stem in INTERPRETERS else None


def _family(name: str) -> str:
    """``python3.12`` and ``python`` are one program (a venv's link), as are ``perl5.36``
    and ``perl``."""
    return name.rstrip("0123456789.")


def shell_copy(run: Run, inv: Invocation) -> None:
    """``cp|ln|install SHELL DEST`` (``-t DIR SHELL``): DEST's name runs SHELL from now on."""
    operands: list[str] = []
    target: str | None = None
    args = inv.args
    skip = False
    for k, f in enumerate(args):
        text = f.text
        if skip:
            skip = False
            continue
        if text[:1] == "-" and len(text) > 1 and not operands:
            opt = text.partition("=")[0]
            if opt in ("-t", "--target-directory"):
                if "=" in text:
                    target = text.partition("=")[2]
                elif k + 1 < len(args):
                    target = args[k + 1].text
            skip = opt in _VALUE_OPTS and "=" not in text
            continue
        operands.append(text)
    if target is None and len(operands) < 2:
        return
    sources = operands if target is not None else operands[:-1]
    for src in sources:
        shell = runs_code(src)
        if shell is None:
            continue
        dest = target + "/" + program_name(src) if target is not None else operands[-1]
        if dest.endswith("/") or dest in (".", "..", "~"):
            continue  # cp /bin/sh d/: the copy keeps its name
        note_copy(run, dest, shell)


def note_copy(run: Run, dest: str, shell: str) -> None:
    """A copy of ``shell`` now sits at ``dest``: its name runs the shell from now on."""
    name = program_name(dest)
    if name and DYN not in name and _family(name) != _family(shell) and \
            len(run.aliases) < _MAX_ALIASES:
        run.aliases[name] = shlex.quote(shell)
