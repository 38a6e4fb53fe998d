"""A shell binary's bytes streamed into a file: the file is a copy of the shell.

``cp /bin/bash /tmp/x`` is read by ``_shellcopy``; the same copy made by streaming the
bytes is read here: ``cat /bin/sh > /tmp/x``, ``cat < /bin/sh > /tmp/x``, ``dd if=/bin/sh
of=/tmp/x``, ``tee /tmp/x < /bin/sh``, ``cat /bin/sh | sponge /tmp/x``, ``pv /bin/sh >
/tmp/x``. After it, ``/tmp/x -c CODE`` runs the shell (its ``-c`` string is classified):
the destination's name is recorded like a ``cp`` copy (``note_copy``).

The bytes are followed as a marked flow: the output of a stream tool reading a shell binary
(or a ``< SHELL`` redirection) has the producer ``shell binary NAME``; a redirection or a
writer (``tee``, ``sponge``, ``dd of=``, ``pv -o``) putting that flow into a file records the
copy. Only :data:`IMAGE_TOOLS` and ``<``/``>`` redirections reach this, and each reads its
own words once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from . import _rules as R
from ._copymore import pv_args
from ._flow import Flow
from ._paths import norm_path
from ._shellcopy import INTERPRETERS, note_copy, runs_code
from ._words import DYN

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["IMAGE_TOOLS", "image_input", "image_of", "image_output", "image_written"]

IMAGE_TOOLS = frozenset({"cat", "tee", "sponge", "dd", "pv"})
"""Stream tools that copy a file's bytes whole."""

_MARK = "shell binary "
# The names (without version digits) of the shells and interpreters runs_code knows.
_STEMS = frozenset(n.rstrip("0123456789.") for n in (*R.SHELLS, *INTERPRETERS))
_MAX_WORDS = 64


def image_of(flow: Flow | None) -> str | None:
    """The shell whose binary ``flow`` carries, else None."""
    producer = flow.producer if flow is not None else None
    if producer is None or not producer.startswith(_MARK):
        return None
    return producer[len(_MARK):]


def image_input(path_text: str, flow: Flow) -> Flow:
    """``< PATH``: when PATH is a shell binary, the flow carries it."""
    if flow.producer is not None or flow.taint:
        return flow
    shell = _first_shell((path_text,))
    return flow if shell is None else flow._replace(producer=_MARK + shell)


def image_written(run: Run, dest: str, flow: Flow) -> None:
    """``> DEST`` written with ``flow``: a shell binary's bytes make DEST a copy."""
    shell = image_of(flow)
    if shell is not None:
        _record(run, dest, shell)


def image_output(run: Run, inv: Invocation, stdin: Flow | None, out: Flow) -> Flow:
    """An :data:`IMAGE_TOOLS` command: record the files it writes with a shell binary's
    bytes and mark its output when it prints them."""
    name = inv.name
    args = inv.args[:_MAX_WORDS]
    piped = image_of(stdin)
    dests: list[str] = []
    if name == "dd":
        source: str | None = None
        for f in args:
            key, eq, value = f.text.partition("=")
            if key == "if" and eq:
                source = value
            elif key == "of" and eq:
                dests.append(value)
            elif eq and key not in ("bs", "ibs", "obs", "status", "iflag", "oflag"):
                return out  # count=, skip=: part of the bytes
        shell = _first_shell((source,)) if source is not None else piped
    elif name == "pv":
        files, output, whole = pv_args(args)
        if not whole:
            return out
        shell = _first_shell(f.text for f in files) if files else piped
        if output is not None:
            dests.append(output)
    elif name == "cat":
        operands = [f.text for f in args if f.text == "-" or not f.text.startswith("-")]
        shell = _first_shell(operands) if operands else piped
    else:  # tee [-a] F..., sponge [-a] F: write their stdin
        shell = piped
        dests = [f.text for f in args if not f.text.startswith("-")]
    if shell is None:
        return out
    for dest in dests[:16]:
        _record(run, dest, shell)
    return out._replace(producer=_MARK + shell) if name != "sponge" else out


def _record(run: Run, dest: str, shell: str) -> None:
    """DEST is a copy of ``shell``: its name runs the shell (``note_copy``), and the file is
    a program that runs commands (``sudo DEST -c``, ``chmod u+s DEST``: ``_setuid``)."""
    note_copy(run, dest, shell)
    path = norm_path(dest, run.cwd)
    if path is not None and len(run.runner_copies) < 32:
        run.runner_copies.add(path)


def _first_shell(paths: Iterable[str]) -> str | None:
    for text in paths:
        base = text.rpartition("/")[2].removesuffix(".exe").rstrip("0123456789.")
        if DYN not in text and base not in _STEMS:
            continue  # cat README.md: one set lookup per operand
        shell = runs_code(text)
        if shell is not None:
            return shell
    return None
