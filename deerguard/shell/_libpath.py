"""Library search paths that name only the project's own build or the system's libraries.

``LD_LIBRARY_PATH=build/lib ./build/app`` and ``export
LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH`` are how C, C++ and CUDA developers
run what they just built: the libraries come from the project the agent already builds and
runs code from, or from root-owned system directories. The loader hijack the rule exists
for points the loader at a place anyone can plant a library (``/tmp/evil``, ``~/x``, a
directory named by an unknown variable): that keeps ``shell.loader-hijack`` (block).

Safe entries: the empty entry and relative paths without ``..`` while the working
directory is the one the agent started in (the project: no ``cd`` before, which sets
``$PWD``); root-owned library directories;
and the variable's own previous value (``$LD_LIBRARY_PATH``, ``${LD_LIBRARY_PATH:+:...}``)
when the assignment's text references no other variable than it and ``PWD``.
``LD_PRELOAD``, ``LD_AUDIT``, ``DYLD_INSERT_LIBRARIES`` and ``GCONV_PATH`` always block.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._values import DYN

if TYPE_CHECKING:
    from ._walk import Run
    from ._words import Field

__all__ = ["SEARCH_VARS", "project_libraries"]

SEARCH_VARS = frozenset({"LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH"})

# Root-owned library directories (a user cannot plant a library there without root).
_SYSTEM_LIBS = ("/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib64",
                "/usr/local/cuda", "/usr/local/cuda-", "/opt/cuda", "/opt/rocm",
                "/opt/intel", "/opt/nvidia")
# The only expansions the text may hold: the variable itself (``$V``, ``${V}``, ``${V:+``,
# not ``${V:-/tmp}``), ``$PWD`` and ``$(pwd)``; any other ``$`` or a backquote is unknown.
_ALLOWED = {v: re.compile(r"\$(?:\{(?:" + v + r"|PWD)(?:\}|:?\+)|(?:" + v +
                          r"|PWD)(?![A-Za-z0-9_])|\(pwd\))") for v in SEARCH_VARS}


def _system(entry: str) -> bool:
    if ".." in entry.split("/"):
        return False
    return any(entry == d or entry.startswith(d + "/") or (d.endswith("-") and
               entry.startswith(d)) for d in _SYSTEM_LIBS)


def _project(entry: str) -> bool:
    return entry[:1] not in ("/", "~") and DYN not in entry and ".." not in entry.split("/")


def _self_reference(name: str, raw: str) -> bool:
    """``raw`` (the assignment's text, ``NAME=...``) references ``name`` and nothing but
    ``PWD``."""
    if "`" in raw or "$" not in raw or not raw.startswith(name + "="):
        return False  # read NAME, printf -v NAME, mapfile NAME: a value from elsewhere
    found = [m.group(0) for m in _ALLOWED[name].finditer(raw)]
    return raw.count("$") == len(found) and any(name in m for m in found)


def project_libraries(run: Run, name: str, value: Field, span: tuple[int, int]) -> bool:
    """True when every entry of the search path ``value`` is safe (module doc). Linear in
    the value's length."""
    if len(value.text) > 4096:
        return False
    raw: str | None = None
    for entry in value.text.split(":"):
        if _system(entry):
            continue
        if entry == DYN:  # its old value, which is empty (the working directory) when unset
            if raw is None:
                raw = run.source[span[0]:span[1]]
            if _self_reference(name, raw) and run.env.get("PWD") is None:
                continue
            return False
        if run.env.get("PWD") is not None or not _project(entry):
            return False  # relative to a directory a cd chose (cd /tmp, cd "$D", cd ..)
    return True
