"""awk's ``print ... | NAME``: output piped to a command held in a variable.

``print "id" | "sh"`` names its command as a literal (``_code``'s snippets); ``awk -v
c="$(printf '\\x73\\x68')" 'BEGIN{print "id" | c}'`` pipes into whatever ``c`` holds. A
variable bound to a constant (``-v c=sh``, ``c = "sh"``) is that command, fed by the
program's output like the literal; an unknown one, or one also written from anything but
a literal (``c = $0``: :mod:`._awkconst`), is a command built at run time. Only
awk code reaches this; the scan is one pass over it with bounded look-backs.
"""

from __future__ import annotations

from ._awkconst import awk_constants
from ._code import Snippet, literals
from ._interp import awk_assigns, string_constants
from ._words import Field

__all__ = ["awk_pipe_names", "awk_piped"]

_MAX = 16


def awk_pipe_names(code: str) -> list[str]:
    """The variables ``print``/``printf`` statements pipe into (``print x | cmd``)."""
    out: list[str] = []
    at = code.find("|")
    n = len(code)
    while 0 <= at < n and len(out) < _MAX:
        nxt = at + 1
        if (at > 0 and code[at - 1] == "|") or (nxt < n and code[nxt] in "|&"):
            at = code.find("|", nxt + 1)
            continue
        j = nxt
        while j < n and j < nxt + 64 and code[j] in " \t":
            j += 1
        k = j
        while k < n and k < j + 64 and (code[k].isalnum() or code[k] == "_"):
            k += 1
        name = code[j:k]
        spaced = j > nxt or (at > 0 and code[at - 1] in " \t\"')")
        if name and not name[0].isdecimal() and name != "getline" and spaced and \
                _in_print(code, at):
            out.append(name)
        at = code.find("|", nxt)
    return out


def _in_print(code: str, at: int) -> bool:
    """Whether the statement holding ``code[at]`` is a ``print``/``printf``."""
    floor = max(0, at - 512)
    start = max(code.rfind(";", floor, at), code.rfind("{", floor, at),
                code.rfind("\n", floor, at))
    return code[start + 1:at].lstrip().startswith("print")


def awk_piped(text: str, args: list[Field], snippets: list[Snippet], dynamic: bool
              ) -> tuple[list[Snippet], bool]:
    """Add the commands ``print | NAME`` pipes into (fed by the output, like a literal
    command); a NAME bound to no constant makes the code dynamic."""
    names = awk_pipe_names(text)
    if not names:
        return snippets, dynamic
    first = string_constants(text, literals(text, False))
    first.update(awk_assigns(args))
    verified, _ = awk_constants(text, args)
    out = list(snippets)
    for name in names:
        value = first.get(name)
        if name not in verified:
            dynamic = True  # c = "sort"; c = $0; print | c: whatever the input says
        if value is not None and all(value != s.text for s in out):
            out.append(Snippet(value, 0, 0, True))
    return out, dynamic
