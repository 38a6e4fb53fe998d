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

_EVALS = ("include(", "evalfile(", "include_string(", "eval(meta.parse", "eval(parse")
_MAX = 8


def julia_snippets(run: Run, code: Field, text: str, inv: Invocation,
                   snippets: list[Snippet]) -> list[Snippet]:
    """``snippets`` with each ``pipeline(`a`, `b`)`` as ``a | b``; reports download+eval."""
    if "download(" in text:
        low = text.lower()
        if any(e in low for e in _EVALS):
            run.add("shell.tainted-exec", code.span, f"{inv.name} code downloads code and "
                    "evaluates it", None)
    if "pipeline(" not in text:
        return snippets
    out = list(snippets)
    at = text.find("pipeline(")
    while at >= 0 and len(out) < len(snippets) + _MAX:
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
