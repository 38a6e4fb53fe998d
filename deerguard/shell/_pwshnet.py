""".NET calls in PowerShell expression statements, as the bash commands they amount to.

``_pwshcode`` reads cmdlets; an expression statement (``$wc.DownloadFile(u, p)``,
``[IO.File]::WriteAllText(p, t)``) runs no cmdlet, but these .NET methods fetch or write a
file the way ``curl -o`` and ``tee`` do, so a later ``Start-Process p`` / ``& p`` / ``.\\p``
is a download then a run, and a write to ``$PROFILE`` is persistence:

* ``(New-Object Net.WebClient).DownloadFile(URL, PATH)``, ``[Net.WebClient]::new()
  .DownloadFile(...)``, ``DownloadFileAsync``/``DownloadFileTaskAsync``: ``curl URL -o PATH``;
* ``[IO.File]::WriteAllText|WriteAllBytes|WriteAllLines(PATH, ...)``: ``tee PATH``;
  ``AppendAllText|AppendAllLines``: ``tee -a PATH``.

Arguments are read when they are string literals (``'..'``, ``".."`` with ``$env:TEMP``-style
variables of known meaning); a path that is not known makes no command. One pass over the
statement: linear, never raises.
"""

from __future__ import annotations

from ._pwshcmd import UNKNOWN, q
from ._pwshcmd import path_form as _path

__all__ = ["dotnet_command"]

_DOWNLOADS = (".downloadfile(", ".downloadfileasync(", ".downloadfiletaskasync(")
_WRITES = {"]::writealltext(": "", "]::writeallbytes(": "", "]::writealllines(": "",
           "]::appendalltext(": "-a", "]::appendalllines(": "-a"}


def dotnet_command(text: str, variables: dict[str, str]) -> str | None:
    """The bash command the .NET call in the statement ``text`` amounts to, or None."""
    low = text.lower()
    for name in _DOWNLOADS:
        at = low.find(name)
        if at >= 0:
            url, k = _literal(text, at + len(name), variables)
            path, _ = _literal(text, _comma(text, k), variables)
            if path is None:
                return None
            return f"curl {q(url) if url is not None else UNKNOWN} -o {q(_path(path))}"
    for name, flag in _WRITES.items():
        at = low.find(name)
        if at >= 0:
            path, _ = _literal(text, at + len(name), variables)
            if path is None:
                return None
            return " ".join(["printf", "%s", UNKNOWN, "|", "tee", *([flag] if flag else []),
                             "--", q(_path(path))])
    return None


def _comma(text: str, k: int) -> int:
    """The index after the next ``,`` from ``k`` (or ``len(text)``)."""
    at = text.find(",", k)
    return len(text) if at < 0 else at + 1


def _literal(text: str, k: int, variables: dict[str, str]) -> tuple[str | None, int]:
    """A string literal at ``k`` (after spaces, an optional ``[uri]`` cast): its value
    (None when it is not a literal or holds an unknown variable) and the index after it."""
    n = len(text)
    while k < n and text[k] in " \t":
        k += 1
    if text.startswith("[", k):
        close = text.find("]", k)
        if close > 0:
            k = close + 1
    if text.startswith("$", k):  # a variable of known meaning: $PROFILE, $env:TEMP
        j = k + 1
        while j < n and (text[j].isalnum() or text[j] in "_:"):
            j += 1
        return variables.get(text[k + 1:j].lower()), j
    if k >= n or text[k] not in "'\"":
        return None, k
    quote = text[k]
    k += 1
    parts: list[str] = []
    while k < n:
        c = text[k]
        if c == quote:
            if text.startswith(quote * 2, k):
                parts.append(quote)
                k += 2
                continue
            return "".join(parts), k + 1
        if c == "$" and quote == '"':
            j = k + 1
            while j < n and (text[j].isalnum() or text[j] in "_:"):
                j += 1
            value = variables.get(text[k + 1:j].lower())
            if value is None:
                return None, j
            parts.append(value)
            k = j
            continue
        if c == "`" and quote == '"' and k + 1 < n:
            parts.append(text[k + 1])
            k += 2
            continue
        parts.append(c)
        k += 1
    return None, n
