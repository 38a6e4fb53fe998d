"""Checks that apply to every program of a resolved chain, wrappers included.

``sudo npm i x``: the wrapper ``sudo`` and the program ``npm`` both have rules. ``Run.invoke``
calls :func:`chain_checks` for each invocation of the chain whose name is in
:data:`CHAIN_CHECKED` (one set lookup skips every other program).
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

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["CHAIN_CHECKED", "chain_checks"]

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
