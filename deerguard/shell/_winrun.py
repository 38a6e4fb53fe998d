"""Windows programs that run a file or a URL they are given (the "LOLBins").

``msiexec /i FILE`` runs an installer, ``rundll32 FILE,Entry``, ``regsvr32 [/i:URL] FILE``,
``mshta FILE|URL``, ``cscript``/``wscript FILE``, ``installutil FILE``, ``msbuild FILE`` and
``regasm``/``regsvcs FILE`` run the code in FILE. A FILE written with fetched or decoded data
earlier in the same command is a download then a run (``shell.download-exec``, like ``curl
-o x && ./x``); a URL given to ``mshta``, ``msiexec``, ``regsvr32 /i:`` or ``rundll32
...javascript:`` runs remote code directly (``shell.tainted-exec``, like ``bash <(curl u)``).
Running a local file that nothing fetched passes (installers and scripts are everyday).
Linear in the number of words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import file_taint
from ._paths import norm_path
from ._resolve import Invocation
from ._sinks import download_exec
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["WIN_RUNNERS", "win_runner"]

_NAMES = ("msiexec", "rundll32", "regsvr32", "mshta", "cscript", "wscript", "installutil",
          "msbuild", "regasm", "regsvcs", "cmstp", "msxsl")
WIN_RUNNERS = frozenset(_NAMES) | frozenset(n + ".exe" for n in _NAMES) \
    | frozenset(n.upper() + ".EXE" for n in _NAMES)
"""Programs :func:`win_runner` reads (with and without ``.exe``)."""

_URL_RUNNERS = frozenset({"mshta", "msiexec", "regsvr32", "rundll32", "msxsl", "cmstp"})


def _targets(name: str, args: list[Field]) -> list[tuple[Field, str]]:
    """The files or URLs ``name`` runs, as (word, text): options' values (``/i:URL``,
    ``/package FILE``) and operands; ``rundll32 FILE,Entry`` loses its entry point."""
    out: list[tuple[Field, str]] = []
    for f in args:
        t = f.text
        if t[:1] in "/-" and ":" in t[2:] and ("://" in t or t[1:3].lower() == "i:"):
            t = t.split(":", 1)[1]  # regsvr32 /i:http://u/x.sct, msiexec /package:x
        elif t[:1] in "/-" and not t.startswith(("/tmp", "/home", "/Users", "/var")) and \
                "/" not in t[1:]:
            continue  # /i /qn /s /n /u /nologo: switches
        if name == "rundll32" and "," in t and "://" not in t:
            t = t.split(",", 1)[0]
        out.append((f, t))
    return out


def win_runner(run: Run, inv: Invocation) -> None:
    """Report ``inv`` running a fetched file or a remote URL."""
    name = inv.name.lower().removesuffix(".exe")
    for f, text in _targets(name, inv.args):
        if DYN in text:
            continue
        low = text.lower()
        if name in _URL_RUNNERS and (low.startswith(("http://", "https://", "ftp://", "\\\\"))
                                     or "javascript:" in low or "vbscript:" in low):
            what = "an inline script" if ":" in low[:11] and "//" not in low[:11] else \
                "code fetched from a URL"
            run.add("shell.tainted-exec", f.span, f"{inv.name} runs {what} ({text[:80]})",
                    None)
            continue
        path = norm_path(text.replace("\\", "/"), run.cwd)
        taint = file_taint(run.files, path)
        if taint:
            download_exec(run, f, taint, inv.name)
