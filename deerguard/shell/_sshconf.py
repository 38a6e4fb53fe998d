"""What a write to a user's ssh client config (``~/.ssh/config``) holds.

Most of that file is everyday setup an agent is asked for: a ``Host`` alias, its
``HostName``, ``User``, ``Port``, ``IdentityFile``. Such text still decides where every later
ssh and git-over-ssh connection goes and with which key (``Host github.com`` with another
``HostName`` sends the next ``git push`` elsewhere), so it warns (``shell.ssh-config``). Some
directives run a program or load native code at every connection: ``ProxyCommand``,
``LocalCommand`` (with ``PermitLocalCommand``), ``KnownHostsCommand``, ``Match exec``,
``PKCS11Provider`` and ``SecurityKeyProvider`` (a shared library), ``Include`` (another
file, which may hold any of these). Text with one of them, or text not known statically
(``$VAR``, a copied file, an escape sequence the writer may expand), stays a persistence
write and blocks, as every write to that file did before.

Keywords are case-insensitive and take their value after blanks or ``=`` (``ssh_config(5)``).
"""

from __future__ import annotations

from ._words import DYN

__all__ = ["ssh_client_config", "ssh_config_code"]

# Directives that run a program or load code when ssh reads the file.
_CODE_KEYWORDS = frozenset({"proxycommand", "localcommand", "permitlocalcommand",
                            "knownhostscommand", "pkcs11provider", "securitykeyprovider",
                            "include"})
_MAX_LINES = 512


def ssh_client_config(path: str) -> bool:
    """A user's ssh client config: ``~/.ssh/config``, ``/root/.ssh/config``,
    ``/home/USER/.ssh/config``, ``/Users/USER/.ssh/config``."""
    if not path.endswith("/.ssh/config"):
        return False
    home = path[:-len("/.ssh/config")]
    return home in ("~", "/root") or (home.startswith(("/home/", "/Users/")) and
                                      home.count("/") == 2)


def ssh_config_code(text: str) -> str | None:
    """The first line of ``text`` that makes ssh run a program or load code (``"?"`` when
    the text is not known statically), or None when it holds none."""
    if DYN in text or "\\" in text or "\r" in text:
        return "?"  # unknown, or escapes the writer may turn into new lines
    lines = text.split("\n")
    if len(lines) > _MAX_LINES:
        return "?"
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, value = _split(line)
        if keyword in _CODE_KEYWORDS:
            return line
        if keyword == "match" and "exec" in value.lower().replace("=", " ").split():
            return line
    return None


def _split(line: str) -> tuple[str, str]:
    """(lowercased keyword, value) of a config line: ``Key value`` or ``Key=value``."""
    end = 0
    while end < len(line) and line[end] not in " \t=":
        end += 1
    return line[:end].lower(), line[end:].lstrip(" \t=")
