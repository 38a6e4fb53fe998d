"""Checks that apply to every program of a resolved chain, wrappers included.

``sudo npm i x``: the wrapper ``sudo`` and the program ``npm`` both have rules. ``Run.invoke``
calls :func:`chain_checks` for each invocation of the chain whose name is in
:data:`CHAIN_CHECKED` (one set lookup skips every other program).

``sudo -u#-1 CMD`` (``#4294967295``, ``--user=#-1``) is the CVE-2019-14287 bypass: a
sudoers rule ``(ALL, !root)`` still runs CMD as root. It is an attack in itself, so its
``shell.privilege`` finding blocks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _extras as X
from . import _rules as R
from ._checks import check_package, check_remote
from ._ldso import LOADER_NAMES, loader_options
from ._remote import CONTAINER_PROGRAMS
from ._resolve import Invocation
from ._tools import CHAIN_TOOLS, chain_tool
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["CHAIN_CHECKED", "chain_checks"]

_SUDO_VALUES = frozenset("gpCDhRTrtUu")  # sudo's short options that take a value
_SUDO_LONG_VALUES = frozenset({"--group", "--prompt", "--close-from", "--chdir", "--host",
                               "--chroot", "--command-timeout", "--role", "--type",
                               "--other-user", "--user"})

_PRIVILEGED = frozenset({"sudo", "sudo-rs", "doas", "su", "run0", "pkexec", "runuser",
                         "please"})
# Every name a check below looks for.
CHAIN_CHECKED = frozenset(X.CHAIN_EXTRAS) | frozenset(R.PACKAGE_MANAGERS) | \
    frozenset(CONTAINER_PROGRAMS) | frozenset(CHAIN_TOOLS) | _PRIVILEGED | LOADER_NAMES


def chain_checks(run: Run, inv: Invocation, *, wrapper: bool) -> None:
    """The rules of ``inv``, one program of a chain (``wrapper``: not the last one)."""
    name = inv.name
    if name in X.CHAIN_EXTRAS:
        X.chain_extras(run, inv, wrapper)
    if name in R.PACKAGE_MANAGERS:
        # Also runners (pnpm dlx x, uvx x) and interpreters (bun i): a finding reported
        # again by the program's own rules is kept once.
        check_package(run.add, inv)
    if name in CONTAINER_PROGRAMS:
        check_remote(run.add, run.cp.paths, inv, run.cwd)
    elif name in CHAIN_TOOLS:
        chain_tool(run, inv)  # strace -o "|cmd" runs a command
    elif name in LOADER_NAMES:
        loader_options(run, inv)  # ld.so --preload LIB PROG is LD_PRELOAD=LIB PROG
    if name in _PRIVILEGED:
        run.add("shell.privilege", inv.word.span, f"{name} runs commands with elevated "
                "privileges", None)
        user = _minus_one_user(inv) if name in ("sudo", "sudo-rs") else None
        if user is not None:
            run.add("shell.privilege-bypass", user.span, f"sudo -u {user.text} runs as root "
                    "past a rule that forbids root (CVE-2019-14287: user id -1 is read as 0)",
                    None)


def _minus_one_user(inv: Invocation) -> Field | None:
    """The ``-u``/``--user`` value of ``sudo`` that names user id -1 (``#-1``,
    ``#4294967295``): sudo before 1.8.28 runs the command as root even where the sudoers
    rule says ``!root``. None for any other user. Reads only sudo's own options."""
    want = skip = False  # the next word is -u's value / another option's value
    for f in inv.iter_args():
        t = f.text
        if want:
            return f if _minus_one(t) else None
        if skip:
            skip = False
            continue
        if t == "--" or not t.startswith("-") or len(t) < 2:
            return None
        if t.startswith("--"):
            opt, eq, rest = t.partition("=")
            if opt == "--user":
                if eq:
                    return Field(rest, f.span) if _minus_one(rest) else None
                want = True
            else:
                skip = not eq and opt in _SUDO_LONG_VALUES
            continue
        for j in range(1, len(t)):
            if t[j] in _SUDO_VALUES:
                if t[j] == "u" and j + 1 < len(t):
                    return Field(t[j + 1:], f.span) if _minus_one(t[j + 1:]) else None
                want = t[j] == "u"
                skip = j + 1 == len(t) and not want
                break
    return None


def _minus_one(text: str) -> bool:
    """``#-1``, ``#4294967295`` (-1 as an unsigned 32-bit id), with any quoting removed."""
    if not text.startswith("#"):
        return False
    digits = text[1:]
    negative = digits.startswith("-")
    digits = digits.removeprefix("-")
    if not digits.isascii() or not digits.isdigit() or len(digits) > 20:
        return False
    n = -int(digits) if negative else int(digits)
    return n % (1 << 32) == (1 << 32) - 1
