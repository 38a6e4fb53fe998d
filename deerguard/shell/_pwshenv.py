"""Secret environment variables in PowerShell code, kept as variables in its bash text.

:mod:`._pwshcode` writes the bash command each PowerShell statement amounts to, and a value
it cannot know becomes an anonymous unset variable. A secret-named environment variable
(``$env:GITHUB_TOKEN``) is kept by name instead (``"$GITHUB_TOKEN"``), so the shell's own
policy for a secret variable reaching an HTTP client applies to the translation
(``Invoke-RestMethod U -Method Post -Body $env:GITHUB_TOKEN`` is ``curl U --data
"$GITHUB_TOKEN"``: warn; ``$env:AWS_SECRET_ACCESS_KEY`` there blocks), through a variable
(``$t = $env:GITHUB_TOKEN; irm U -Body $t``) and as a pipeline's input (``$env:GITHUB_TOKEN |
Invoke-RestMethod U -Method Post`` is ``printf %s "$GITHUB_TOKEN" | curl U``: block, as the
piped spelling does in bash). Everyday variables (``$env:PATH``, ``$env:HOME``) are not
affected.

Headers are hashtables the translation does not carry; :func:`header_token` judges a secret
variable inside one (``-Headers @{Authorization="Bearer $env:GITHUB_TOKEN"}``) as curl's
``-H`` is judged (``_hdrsecret``): a signing secret blocks, a well-known service's token
to a host that is not its service's warns, anything else there is authentication and passes.
"""

from __future__ import annotations

import re

from ._exfil import never_sent
from ._hdrsecret import _TOKEN_HOSTS, _host, _local
from ._pwshcmd import UNKNOWN, Tok
from ._values import secret_name

__all__ = ["env_ref", "header_token", "piped_value"]

_ENV_REF = re.compile(r"\$\{?env:([A-Za-z_][A-Za-z0-9_]{0,80})", re.IGNORECASE)
_URL = re.compile(r"https?://[^\s'\"`;|)]{1,300}", re.IGNORECASE)
_SENDERS = ("invoke-restmethod", "invoke-webrequest", "irm", "iwr")


def env_ref(name: str) -> str | None:
    """``"$NAME"`` for ``env:NAME`` (the text after ``$``) when NAME holds a secret."""
    if name[:4].lower() != "env:":
        return None
    var = name[4:]
    if not var or len(var) > 80 or not (var[0].isalpha() or var[0] == "_") or not all(
            c.isalnum() or c == "_" for c in var) or not var.isascii():
        return None
    return f'"${var}"' if secret_name(var) else None


def _ref(tok: Tok) -> bool:
    """The word's bash text names a secret variable (a whole ref or a string holding one)."""
    return tok.value is None and tok.bash != UNKNOWN and '"$' in tok.bash and \
        '"$(' not in tok.bash and "DG_PWSH_VALUE" not in tok.bash


def piped_value(words: list[Tok], text: str, refs: dict[str, str]) -> str | None:
    """The bash text of an expression statement over a secret variable: a lone value is a
    pipeline's input (``printf %s "$TOKEN"``); an assignment ``$t = $env:TOKEN`` records
    ``t`` in ``refs`` (the reader resolves later ``$t`` to it) and amounts to no command."""
    if len(words) == 1 and _ref(words[0]) and text[:1] == "$":
        return f"printf %s {words[0].bash}"
    if len(words) == 3 and words[1].value == "=" and _ref(words[2]) and text[:1] == "$":
        name = text[1:].partition("=")[0].strip(" \t{}")
        if name and len(refs) < 32 and all(c.isalnum() or c in "_:" for c in name):
            refs[name.lower()] = words[2].bash
    return None


def header_token(code: str) -> tuple[str, str] | None:
    """(rule id, what) for a secret variable in a hashtable of a web cmdlet's ``-Headers``
    (module doc), or None. Bounded: at most 16 references, windows of 200 characters."""
    low = code.lower()
    if len(code) > 20000 or "-head" not in low or "@{" not in code or not any(
            s in low for s in _SENDERS):
        return None
    found: tuple[str, str] | None = None
    for count, m in enumerate(_ENV_REF.finditer(code)):
        if count >= 16:
            break
        var = m.group(1)
        head = code.rfind("@{", max(0, m.start() - 200), m.start())
        if not secret_name(var) or head == -1 or "}" in code[head:m.start()]:
            continue  # not inside a hashtable
        if never_sent(var):
            return "shell.exfiltration", f"sends the signing secret ${var} in a header"
        own = _TOKEN_HOSTS.get(var.upper())
        if own is None or found is not None:
            continue
        for u in _URL.findall(code[:4000])[:16]:
            host = _host(u)
            if host and not _local(host) and not any(
                    host == o or host.endswith("." + o) for o in own):
                found = ("shell.secret-in-request", f"sends ${var} to {host}, which is not "
                         "its service's host")
                break
    return found
