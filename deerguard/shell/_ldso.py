"""The dynamic loader run as a program: ``ld.so [OPTIONS] PROGRAM ARGS``.

glibc's and musl's loaders can be started directly (``/lib64/ld-linux-x86-64.so.2 /bin/ls``):
they load PROGRAM and run it, so the loader is a wrapper (``_wrappers`` lists it with its
option arity) and PROGRAM's own rules apply. Its options do what the loader variables do:
``--preload LIST`` is ``LD_PRELOAD``, ``--library-path PATH`` is ``LD_LIBRARY_PATH``,
``--audit LIST`` is ``LD_AUDIT`` (libraries whose code runs before PROGRAM's), so they get
the same ``shell.loader-hijack`` finding as the variables. ``--list``/``--verify`` only
inspect PROGRAM (``ldd``'s work): nothing runs, nothing is reported.

This module is data plus one check over the loader's own options (a set lookup gates it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["LOADER_ARG_OPTIONS", "LOADER_NAMES", "LOADER_NO_COMMAND", "loader_options"]

_ARCH = ("x86-64", "x32", "aarch64", "aarch64_be", "armhf", "riscv64-lp64d", "riscv64-lp64",
         "riscv32-ilp32d", "riscv32-ilp32", "loongarch-lp64d", "ia64", "mipsn8", "powerpc64le",
         "s390x", "i686", "x86_64", "arm", "armel")
_MUSL = ("x86_64", "i386", "aarch64", "aarch64_be", "armhf", "arm", "riscv64", "riscv32",
         "mips", "mipsel", "mips64", "mips64el", "powerpc", "powerpc64", "powerpc64le", "s390x",
         "loongarch64", "x32")

LOADER_NAMES = frozenset(
    {"ld.so", "ld.so.1", "ld.so.2", "ld64.so.1", "ld64.so.2", "ld-linux.so.2", "ld-linux.so.3",
     "ld-linux.so.1", "ld-elf.so.1"}
    | {f"ld-linux-{a}.so.{v}" for a in _ARCH for v in (1, 2, 3)}
    | {f"ld-musl-{a}.so.1" for a in _MUSL}
    # Older glibc installs the loader as ld-2.NN.so (the ld-linux name is a symlink to it).
    | {f"ld-2.{minor}.so" for minor in range(50)})
"""File names of the dynamic loader (glibc per architecture, musl, older versioned glibc)."""

LOADER_ARG_OPTIONS = ("--library-path --inhibit-rpath --audit --preload --argv0 "
                      "--glibc-hwcaps-prefix --glibc-hwcaps-mask")
"""The loader's options that take the next word as their value (``_wrappers`` arity)."""

LOADER_NO_COMMAND = "--list --verify --help --version --list-diagnostics --list-tunables"
"""Options after which the loader runs nothing (``--list`` is ldd's job)."""

# Option -> the environment variable it stands for.
_HIJACK = {"--preload": "LD_PRELOAD", "--library-path": "LD_LIBRARY_PATH",
           "--audit": "LD_AUDIT"}


def loader_options(run: Run, inv: Invocation) -> None:
    """``ld.so --preload LIB PROG``: the loader's own options (up to PROG) that load
    attacker-chosen libraries into PROG, reported like the variables they stand for."""
    args = inv.args
    i = 0
    while i < len(args) and i < 64:
        t = args[i].text
        if not t.startswith("--") or t == "--":
            return  # PROG: its own options are not the loader's
        opt, eq, _value = t.partition("=")
        if opt in _HIJACK:
            run.add("shell.loader-hijack", args[i].span, f"the dynamic loader's {opt} "
                    f"(like {_HIJACK[opt]}) makes the program load attacker-chosen "
                    "libraries", None)
        elif opt in LOADER_NO_COMMAND.split():
            return
        i += 1 if eq or opt not in LOADER_ARG_OPTIONS.split() else 2
