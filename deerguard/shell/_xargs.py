"""xargs options: the replacement string of ``-I R`` and the file of ``-a FILE``.

Both are read from xargs' own options only (up to its command), in every spelling GNU xargs
accepts: separate (``-a F``, ``--arg-file F``), attached (``-aF``, ``-0aF``,
``--arg-file=F``) and optional-value forms (``-i[R]``, ``--replace[=R]``).
"""

from __future__ import annotations

from ._words import Field
from ._wrappers import WRAPPERS

__all__ = ["xargs_arg_file", "xargs_replace"]


def xargs_replace(fields: list[Field], start: int, end: int) -> str | None:
    """The replacement string of ``xargs -I R`` / ``-IR`` / ``-i[R]`` / ``--replace[=R]``."""
    repl: str | None = None
    k = start
    while k < end:
        t = fields[k].text
        if t == "-I" and k + 1 < end:
            repl = fields[k + 1].text
            k += 1
        elif t.startswith("-I"):
            repl = t[2:]
        elif t.startswith("-i"):
            repl = t[2:] or "{}"
        elif t == "--replace" or t.startswith("--replace="):
            repl = t.partition("=")[2] or "{}"
        k += 1
    return repl


def xargs_arg_file(args: list[Field]) -> Field | None:
    """The FILE of ``xargs -a FILE`` / ``-aFILE`` / ``-0a FILE`` / ``--arg-file[=]FILE``,
    read from xargs' own options only (``xargs grep -a x`` has none)."""
    spec = WRAPPERS["xargs"]
    n = len(args)
    k = 0
    while k < n:
        f = args[k]
        text = f.text
        if not text.startswith("-") or text in ("-", "--"):
            return None
        if text.startswith("--"):
            opt, eq, value = text.partition("=")
            if opt == "--arg-file":
                if eq:
                    return Field(value, f.span, f.taint, f.proc)
                return args[k + 1] if k + 1 < n else None
            k += 2 if opt in spec.long_arg and not eq else 1
            continue
        step = 1
        for pos in range(1, len(text)):
            letter = text[pos]
            if letter not in spec.short_arg:
                continue
            if letter == "a":
                if pos + 1 < len(text):
                    return Field(text[pos + 1:], f.span, f.taint, f.proc)
                return args[k + 1] if k + 1 < n else None
            if pos + 1 == len(text):
                step = 2
            break
        k += step
    return None
