"""Julia code that pipes commands together or runs code it downloads.

* ``run(pipeline(`curl u`, `sh`))`` connects the commands like ``curl u | sh``; each
  backtick command alone looks harmless, so the pipeline is rebuilt as one shell line
  (``pipeline(`a`, stdout=`b`)`` too);
* ``download(u, f)`` (``Downloads.download``, ``Base.download``) followed by ``include(f)``,
  ``evalfile(f)`` or ``include_string(...)`` runs fetched code: ``shell.tainted-exec``, as
  the download cradles of the other languages (``_code.eval_sources``).

Only julia code reaches this, gated on the two call names; one pass over the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._code import Snippet
from ._resolve import Invocation
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["julia_snippets"]

_EVALS = ("include(", "evalfile(", "include_string(read(")
_MAX = 8


def _call_args(text: str, i: int) -> str:
    """The argument text of the call whose ``(`` ends at ``i`` (bounded, to its ``)``)."""
    depth = 0
    n = min(len(text), i + 1024)
    for j in range(i, n):
        c = text[j]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return text[i:j]
            depth -= 1
    return text[i:n]


def _downloads(text: str) -> set[str]:
    """What names a downloaded file: ``download(u, "f")``'s path, ``f = download(u)``'s f."""
    out: set[str] = set()
    at = text.find("download(")
    for _ in range(_MAX):
        if at < 0:
            break
        args = _call_args(text, at + len("download("))
        parts = [p.strip() for p in args.split(",")]
        if len(parts) > 1 and parts[1]:
            out.add(parts[1])
        head = text[max(0, at - 128):at].rstrip(". \t")
        for prefix in ("Downloads", "Base"):
            if head.endswith(prefix):
                head = head[:-len(prefix)].rstrip(". \t")
        if head.endswith("=") and not head.endswith("=="):
            name = head[:-1].rstrip().rpartition(" ")[2].rpartition(";")[2]
            if name:
                out.add(name)
        at = text.find("download(", at + 1)
    return out


def _runs_download(text: str) -> bool:
    """``include``/``evalfile`` of a file the code downloaded (by path or variable)."""
    names = _downloads(text)
    if not names:
        return False
    for call in _EVALS:
        at = text.find(call)
        for _ in range(_MAX):
            if at < 0:
                break
            arg = _call_args(text, at + len(call)).strip()
            if arg in names or (call.endswith("read(") and arg.split(",")[0] in names):
                return True
            at = text.find(call, at + 1)
    return False


def julia_snippets(run: Run, code: Field, text: str, inv: Invocation,
                   snippets: list[Snippet]) -> list[Snippet]:
    """``snippets`` with each ``pipeline(`a`, `b`)`` as ``a | b``; reports download+eval."""
    if "download(" in text and _runs_download(text):
        run.add("shell.tainted-exec", code.span, f"{inv.name} code downloads code and "
                "evaluates it", None)
    if "pipeline(" not in text:
        return snippets
    out = list(snippets)
    at = text.find("pipeline(")
    for _ in range(4 * _MAX):  # a bounded number of calls: each reads up to 4096 chars
        if at < 0 or len(out) >= len(snippets) + _MAX:
            break
        line = _pipeline(text, at + len("pipeline("))
        if line:
            out.append(Snippet(line, 0, 0))
        at = text.find("pipeline(", at + 1)
    return out


def _pipeline(text: str, i: int) -> str:
    """The backtick commands of the ``pipeline(`` call whose arguments start at ``i``,
    joined by ``|`` (up to its closing parenthesis, bounded)."""
    parts: list[str] = []
    depth = 0
    n = min(len(text), i + 4096)
    while i < n:
        c = text[i]
        if c == "`":
            j = text.find("`", i + 1, n)
            if j < 0:
                break
            parts.append(text[i + 1:j])
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
        i += 1
    return " | ".join(parts) if len(parts) > 1 else ""
