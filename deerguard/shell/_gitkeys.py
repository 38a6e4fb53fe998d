"""git config keys whose value git runs as a command, ``ext::`` URLs, credential helpers.

git runs these values through ``sh -c`` (git-config(1)): ``core.sshCommand``, ``core.pager``,
``core.editor``, ``core.askpass``, ``core.gitProxy``, ``core.fsmonitor`` (unless it is a
boolean, which selects git's built-in daemon), ``sequence.editor``, ``diff.external``,
``gpg.program`` and ``gpg.<format>.program``, ``pager.<cmd>``, ``diff.<driver>.textconv``
and ``.command``, ``filter.<driver>.clean``/``.smudge``/``.process``, ``merge.<driver>.driver``,
``difftool.<tool>.cmd``, ``mergetool.<tool>.cmd``, ``man.<tool>.cmd``, ``browser.<tool>.cmd``,
``remote.<name>.uploadpack``/``.receivepack``, ``sendemail.*cmd``,
``uploadpack.packObjectsHook``; ``alias.<name>`` and ``submodule.<name>.update`` only when
the value starts with ``!``. ``credential.helper`` (also ``credential.<url>.helper``) is a
shell snippet when it starts with ``!`` and a program when it is an absolute path; otherwise
it names ``git credential-<name>`` (``store --file F``: not code). A credential helper reads
the user's credentials on stdin, so its code runs with secret data on stdin.

``git clone 'ext::sh -c CMD' dir`` runs ``sh -c CMD`` as the transport (git-remote-ext(1):
words split at spaces, ``% `` is a space, ``%%`` a percent sign, ``%s``/``%S`` the service).
"""

from __future__ import annotations

from ._flow import Flow
from ._values import Source
from ._words import Field

__all__ = ["credential_stdin", "exec_value", "ext_argv", "is_credential_helper"]

# Two-part keys (section.key) and three-part keys by (section, last part).
_EXEC_KEYS = frozenset({"core.sshcommand", "core.pager", "core.editor", "core.askpass",
                        "core.gitproxy", "core.fsmonitor", "core.alternaterefscommand",
                        "sequence.editor", "diff.external", "gpg.program",
                        "uploadpack.packobjectshook", "sendemail.sendmailcmd",
                        "sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd",
                        "gpg.ssh.defaultkeycommand"})
_EXEC_SUBKEYS = frozenset({("diff", "textconv"), ("diff", "command"), ("filter", "clean"),
                           ("filter", "smudge"), ("filter", "process"), ("merge", "driver"),
                           ("difftool", "cmd"), ("mergetool", "cmd"), ("man", "cmd"),
                           ("browser", "cmd"), ("remote", "uploadpack"),
                           ("remote", "receivepack"), ("gpg", "program")})
# Values git reads as booleans (core.fsmonitor=true selects the built-in daemon).
_BOOLEANS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0", ""})


def is_credential_helper(key: str) -> bool:
    """``credential.helper`` or ``credential.<url>.helper``."""
    k = key.strip().lower()
    return k.startswith("credential.") and k.endswith(".helper")


def exec_value(key: str, value: str) -> str | None:
    """The command line git runs for config ``key`` set to ``value``, else None."""
    k = key.strip().lower()
    section, _, rest = k.partition(".")
    last = rest.rpartition(".")[2]
    if section == "alias" or (section == "submodule" and last == "update"):
        return value[1:] if value.startswith("!") and rest else None
    if section == "credential" and last == "helper":
        if value.startswith("!"):
            return value[1:]
        return value if value.startswith("/") else None
    if k == "core.fsmonitor" or section == "pager":
        return None if value.strip().lower() in _BOOLEANS else value
    if k in _EXEC_KEYS or (rest != last and (section, last) in _EXEC_SUBKEYS):
        return value
    return None


def credential_stdin(span: tuple[int, int]) -> Flow:
    """What a credential helper reads: the user's credentials (secret data)."""
    return Flow(frozenset({Source("secret", "git credentials", span)}), "git credential",
                span)


def ext_argv(f: Field) -> list[Field] | None:
    """The argument vector of an ``ext::`` URL (``ext::sh -c cmd% arg``), else None."""
    t = f.text
    if not t.startswith("ext::"):
        return None
    words: list[str] = []
    cur: list[str] = []
    i = 5
    while i < len(t):
        c = t[i]
        if c == "%" and i + 1 < len(t):
            n = t[i + 1]
            cur.append({" ": " ", "%": "%", "s": "upload-pack", "S": "git-upload-pack"}.get(
                n, "%" + n))
            i += 2
            continue
        if c == " ":
            if cur:
                words.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        words.append("".join(cur))
    argv = [Field(w, f.span, f.taint) for w in words if not w.startswith(("%G", "%V"))]
    return argv or None
