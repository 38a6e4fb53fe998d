"""Literal text written back as bash text, for code rebuilt from another language's commands
(``_cmdcode``: cmd.exe; ``_nucode``: nushell) and classified as bash."""

from __future__ import annotations

import re

from ._values import DYN

__all__ = ["bash_literal"]


def bash_literal(text: str, safe: re.Pattern[str]) -> str:
    """``text`` as bash reads it literally: each piece between dynamic markers is bare when
    ``safe`` matches it whole, else single-quoted; a leading ``~`` (``~`` or ``~/...``)
    stays bare (the home directory), and so do the dynamic markers (values the outer
    command does not know). The empty text gives the empty string."""
    out: list[str] = []
    for k, part in enumerate(text.split(DYN)):
        if k:
            out.append(DYN)
        if k == 0 and part.startswith("~") and (len(part) == 1 or part[1] == "/"):
            out.append("~")
            part = part[1:]
        if part:
            out.append(part if safe.match(part) else "'" + part.replace("'", "'\\''") + "'")
    return "".join(out)
