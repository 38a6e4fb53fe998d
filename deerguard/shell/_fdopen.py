"""Descriptors opened for reading: ``exec 3< FILE``, ``exec 3<<< TEXT``, ``exec 3<<EOF``,
``exec 3< <(cmd)`` and ``exec {fd}< ...`` (bash picks a number >= 10 and stores it in ``fd``).

What the descriptor reads is remembered (``Run.fds``), so a later ``bash <&3`` or ``sh
<&$fd`` reads it as its stdin, and so is the descriptor's path: ``/dev/fd/N`` and
``/proc/self/fd/N`` name the same open file, so ``source /dev/fd/3`` or ``bash
/proc/self/fd/3`` runs its text (or its download). A here-string or heredoc on a descriptor
is not the command's stdin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import ast
from ._flow import Flow
from ._values import Var

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["FD_OPENS", "name_fd", "open_fd", "open_out_fd", "out_fd_target"]

FD_OPENS = frozenset({"<", "<>", "<<<", "<<", "<<-"})
_MAX_FDS = 16


def open_fd(run: Run, r: ast.Redirect,
            read: Callable[[Run, tuple[ast.Redirect, ...], Flow | None], Flow | None]) -> None:
    """Remember what ``N<``/``{name}<`` (``r``, its fd neither None nor 0) opens for reading;
    ``read`` is the redirect reader (it checks the target path as for ``<``)."""
    fd = r.fd or ""
    opened = read(run, (ast.Redirect(r.span, r.op, r.target, None, r.heredoc),), None)
    if opened is None or len(run.fds) >= _MAX_FDS:
        return
    if fd.startswith("{"):
        named = name_fd(run, fd)
        if named is None:
            return
        fd = named
    elif not fd.isdecimal():
        return
    run.fds[fd] = opened
    for path in ("/dev/fd/" + fd, "/proc/self/fd/" + fd):
        if opened.taint:
            run.files[path] = opened.taint
        if opened.text is not None and len(run.file_text) < 64:
            run.file_text[path] = opened.text


def name_fd(run: Run, fd: str) -> str | None:
    """``{name}`` before a redirection (``exec {lock}>f``): bash opens a descriptor >= 10 and
    stores its number in ``name``; return that number (None for another ``fd`` text)."""
    name = fd[1:-1] if fd.startswith("{") and fd.endswith("}") else ""
    if not name.isidentifier():
        return None
    number = 10 + len(run.fds)
    while str(number) in run.fds:
        number += 1
    run.env[name] = Var(alts=(str(number),))
    return str(number)


def open_out_fd(run: Run, fd: str | None, path: str) -> None:
    """``exec 3> FILE`` (or ``{name}>``): descriptor 3 writes ``path``. It is kept as a link
    from ``/dev/fd/3`` to the file (``Run.links``), so what a later ``>&3`` writes lands in
    the file (``exec 3>/tmp/x.sh; curl u >&3; sh /tmp/x.sh`` runs the download)."""
    if fd is None or fd in ("0", "1", "2") or len(run.links) >= _MAX_FDS * 4:
        return
    if fd.startswith("{"):
        value = run.env.get(fd[1:-1])
        fd = value.alts[0] if value is not None and len(value.alts) == 1 else ""
    if fd.isdecimal():
        run.links["/dev/fd/" + fd] = path


def out_fd_target(run: Run, target: str) -> str | None:
    """``>&3``: the ``/dev/fd/3`` path when descriptor 3 was opened for writing a file."""
    path = "/dev/fd/" + target
    return path if target.isdecimal() and path in run.links else None
