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

from typing import TYPE_CHECKING

from ._flow import Flow
from ._keep import keep_if_blocking
from ._values import Source
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["check_config_writes", "config_text_commands", "credential_stdin", "exec_value",
           "ext_argv", "is_config_file", "is_credential_helper"]

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


def check_config_writes(run: Run) -> None:
    """After the walk: a git config file written with known text (``echo '[core] sshCommand
    = CMD' >> .git/config``) holds commands git runs later: each is classified as shell code
    (a credential helper's with the credentials on stdin) and kept when it blocks; others
    stay the write's own warning."""
    for path, text in list(run.file_text.items())[:64]:
        if DYN in text or not is_config_file(path):
            continue
        k = run.source.find(path.rpartition("/")[2] or path)
        span = (k, k + len(path.rpartition("/")[2])) if k >= 0 else (0, len(run.source))
        for key, code in config_text_commands(text):
            stdin = credential_stdin(span) if is_credential_helper(key) else None
            keep_if_blocking(run, run.run_code, Field(code, span),
                             f"the git config {key} written to {path}", span, stdin,
                             positional=[])


def is_config_file(path: str) -> bool:
    """A git config file git reads: ``.git/config`` (a submodule's too), ``~/.gitconfig``,
    ``~/.config/git/config``, ``/etc/gitconfig``."""
    return path in (".git/config", ".gitconfig", "/etc/gitconfig") or path.endswith(
        ("/.git/config", "/.gitconfig", "/git/config")) or (
        path.endswith("/config") and ".git/modules/" in path)


def config_text_commands(text: str) -> list[tuple[str, str]]:
    """(key, command) for each setting in git config file ``text`` whose value runs a
    command (``[core] sshCommand = CMD``, ``[alias]`` ``x = !CMD``); linear, never raises."""
    out: list[tuple[str, str]] = []
    section = ""
    i, n = 0, len(text)
    while i < n and len(out) < 32:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c in "#;":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        elif c == "[":
            j = text.find("]", i)
            if j < 0:
                break
            head = text[i + 1:j].strip()
            name, _, sub = head.partition(" ")
            sub = sub.strip().strip('"')
            section = f"{name.lower()}.{sub}" if sub else head.lower()
            i = j + 1
        else:
            j = i
            while j < n and (text[j].isalnum() or text[j] == "-"):
                j += 1
            key = text[i:j]
            while j < n and text[j] in " \t":
                j += 1
            if not key or j >= n or text[j] != "=":
                k = text.find("\n", j)  # a boolean key with no value, or junk: skip the line
                i = n if k < 0 else k + 1
                continue
            value, i = _config_value(text, j + 1)
            if section:
                code = exec_value(f"{section}.{key}", value)
                if code is not None and code.strip():
                    out.append((f"{section}.{key}", code))
    return out


def _config_value(text: str, i: int) -> tuple[str, int]:
    """The value starting at ``i`` (quotes removed, escapes and continuation lines read,
    a ``#``/``;`` comment outside quotes ends it) and the index after its line."""
    chars: list[str] = []
    quoted = False
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            i += 1
            break
        if c == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt != "\n":
                chars.append({"n": "\n", "t": "\t", "b": "\b"}.get(nxt, nxt))
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c in "#;" and not quoted:
            k = text.find("\n", i)
            i = n if k < 0 else k + 1
            break
        else:
            chars.append(c)
        i += 1
    return "".join(chars).strip(), i
