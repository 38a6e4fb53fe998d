"""Risky markers in raw text: paths and shapes that are risky wherever they appear.

Read over interpreter code and over command text that does not parse cleanly (the raw-text
fallback, :mod:`._raw`): ``/etc/shadow``, private keys, ``/proc/*/environ``, ``/dev/tcp/``,
``LD_PRELOAD``, unbounded fork loops, and a socket wired to a shell. Linear in the text.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Marker", "scan_markers"]


@dataclass(frozen=True, slots=True)
class Marker:
    """A risky marker found in raw text: which rule, where, and what."""

    rule_id: str
    start: int
    end: int
    what: str


_MARKERS: tuple[tuple[str, str, str], ...] = (
    ("/etc/shadow", "shell.sensitive-read", "reads /etc/shadow"),
    ("/etc/gshadow", "shell.sensitive-read", "reads /etc/gshadow"),
    ("/etc/sudoers", "shell.sensitive-read", "reads /etc/sudoers"),
    ("/environ", "shell.sensitive-read", "reads a process environment (/proc/*/environ)"),
    (".ssh/id_", "shell.sensitive-read", "reads an ssh private key"),
    (".aws/credentials", "shell.sensitive-read", "reads AWS credentials"),
    (".git-credentials", "shell.sensitive-read", "reads git credentials"),
    (".kube/config", "shell.sensitive-read", "reads kubernetes credentials"),
    ("/dev/tcp/", "shell.reverse-shell", "opens a raw network socket through /dev/tcp"),
    ("/dev/udp/", "shell.reverse-shell", "opens a raw network socket through /dev/udp"),
    ("/inet/tcp/", "shell.reverse-shell", "opens a network socket through gawk /inet/tcp"),
    ("/inet/udp/", "shell.reverse-shell", "opens a network socket through gawk /inet/udp"),
    ("ld_preload", "shell.loader-hijack", "sets LD_PRELOAD"),
)
# The markers with whether each is searched in the lowered text (an all-lowercase needle).
_MARKER_TABLE = tuple((needle, needle.islower(), rule_id, what)
                      for needle, rule_id, what in _MARKERS)
# Unbounded fork loops, with their spaces squeezed out like the text they are sought in.
_FORK_LOOPS = tuple(n.replace(" ", "") for n in (
    "fork while fork", "fork until 0", "while(1){fork", "while 1: os.fork",
    "while true: os.fork", "while(true){fork"))


def _public_key(text: str, k: int) -> bool:
    """Whether the key file name starting at ``k`` (after ``.ssh/id_``) ends in ``.pub``."""
    while k < len(text) and (text[k].isalnum() or text[k] in "_-"):
        k += 1
    return text.startswith(".pub", k)


def scan_markers(text: str, /) -> list[Marker]:
    """Find risky path markers in ``text`` (case-insensitive for ``LD_PRELOAD``); linear.

    >>> [m.rule_id for m in scan_markers("open('/etc/shadow')")]
    ['shell.sensitive-read']
    """
    found: list[Marker] = []
    lowered = text.lower()
    for needle, lower, rule_id, what in _MARKER_TABLE:
        at = (lowered if lower else text).find(needle)
        while at != -1 and needle == ".ssh/id_" and _public_key(text, at + len(needle)):
            at = text.find(needle, at + 1)  # ~/.ssh/id_rsa.pub is the public half
        if at == -1:
            continue
        if needle == "/environ" and "/proc/" not in text[max(0, at - 40):at + 1]:
            continue
        found.append(Marker(rule_id, at, at + len(needle), what))
    squeezed = "".join(lowered.split())  # while True:\n    os.fork() is one loop
    for needle in _FORK_LOOPS:
        at = squeezed.find(needle)
        if at != -1:
            found.append(Marker("shell.fork-bomb", 0, len(text), "forks without bound"))
            break
    # An interpreter wiring a socket to a shell is a reverse shell.
    if ("socket" in lowered or "fsockopen" in lowered) and any(k in lowered for k in (
            "dup2", "pty.spawn", "/bin/sh", "/bin/bash", "cmd.exe", "fsockopen")):
        at = max(lowered.find("socket"), lowered.find("fsockopen"))
        found.append(Marker("shell.reverse-shell", at, at + 6,
                            "connects a socket to a shell (reverse shell)"))
    return found
