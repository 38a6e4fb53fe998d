"""Windows' built-in downloaders: ``certutil -urlcache -f URL OUT`` and ``bitsadmin
/transfer JOB URL OUT`` write fetched files, like ``curl -o``.

Both are classic "living off the land" download steps (MITRE ATT&CK T1105): the file they
write is fetched data, so running it later in the same command is ``shell.download-exec``.
Options start with ``-`` or ``/`` and are case-insensitive. Only the downloading verbs
count: ``certutil -hashfile`` or ``bitsadmin /list`` write nothing fetched. ``cmd /c CODE``
runs CODE, whose simple commands, ``&&``, ``|`` and redirections read like sh's: it is
classified as shell code; ``start X`` runs X.
"""

from __future__ import annotations

from ._files import download_name
from ._words import Field

WIN_FETCHERS = frozenset({"certutil", "certutil.exe", "CertUtil", "CertUtil.exe", "CERTUTIL",
                          "CERTUTIL.EXE", "bitsadmin", "bitsadmin.exe", "BitsAdmin",
                          "BitsAdmin.exe", "BITSADMIN", "BITSADMIN.EXE"})
# Extensions cmd.exe runs from the current directory by bare name (``a.exe``, ``i.bat``).
WIN_RUNNABLE = (".exe", ".bat", ".cmd", ".com")

# certutil verbs that fetch a URL (-verifyctl -f -split URL also saves what it fetched).
_CERTUTIL_FETCH = frozenset({"urlcache", "verifyctl"})
# bitsadmin /transfer options that take a value (the job name is the first operand).
_BITS_VALUED = frozenset({"priority", "acl"})


def _option(text: str) -> str | None:
    """``-URLCache`` / ``/urlcache`` -> ``urlcache``; None for an operand."""
    if len(text) > 1 and text[0] in "-/" and text[1:2].isalpha() and "://" not in text \
            and text.count("/") <= 1:
        return text[1:].lower()
    return None


def _is_url(text: str) -> bool:
    return "://" in text


def win_download_targets(name: str, texts: list[str]) -> list[str]:
    """The local files a certutil/bitsadmin download writes (empty: not a download)."""
    program = name.lower().removesuffix(".exe")
    if program == "certutil":
        if not {_option(t) for t in texts} & _CERTUTIL_FETCH:
            return []
        plain = [t for t in texts if _option(t) is None]
        url = next((t for t in plain if _is_url(t)), None)
        if url is None:
            return []
        after = plain[plain.index(url) + 1:]
        return [after[0] if after else download_name(url) or "index.html"]
    if program == "bitsadmin":
        flags = [_option(t) for t in texts]
        if ("transfer" not in flags and "addfile" not in flags) or "upload" in flags:
            return []
        targets: list[str] = []
        skip = False
        operands: list[str] = []
        for t, option in zip(texts, flags, strict=True):
            if skip:
                skip = False
            elif option is not None:
                skip = option in _BITS_VALUED
            else:
                operands.append(t)
        # /transfer JOB URL LOCAL [URL LOCAL...], /addfile JOB URL LOCAL: pairs after a URL.
        for index, t in enumerate(operands[:-1]):
            if _is_url(t) and not _is_url(operands[index + 1]):
                targets.append(operands[index + 1])
        return targets
    return []


# cmd.exe and its start builtin: what they run first is a program or a file to open.
WIN_RUNNERS = frozenset({"cmd", "cmd.exe", "CMD", "CMD.EXE", "start", "START"})
# start's options that take a value (the rest are flags such as /b, /wait, /min).
_START_VALUED = frozenset({"d", "affinity", "node"})


def cmd_code(name: str, args: list[Field]) -> Field | None:
    """The command line ``cmd /c CODE`` (``/k``, ``/r``) runs: the rest of the words."""
    if name.lower().removesuffix(".exe") != "cmd":
        return None
    for index, f in enumerate(args[:-1]):
        if f.text.lower() in ("/c", "/k", "/r", "//c", "//k", "//r"):  # //c: Git Bash
            rest = args[index + 1:]
            text = " ".join(r.text[1:] if r.text.startswith("//") else r.text for r in rest)
            return Field(text, (rest[0].span[0], rest[-1].span[1]),
                         frozenset().union(*(r.taint for r in rest)))
    return None


def win_runner_target(name: str, texts: list[str]) -> str | None:
    """The program or file ``start X`` runs, or None."""
    skip = False
    for t in texts:
        option = _option(t)
        if skip:
            skip = False
        elif option is not None:
            skip = option in _START_VALUED
        elif t:  # start "" a.exe: an empty title first
            return t
    return None
