"""Another session's ssh agent: borrowed, relayed or forwarded to an unverified host.

An ssh agent signs with every key loaded into it for whoever reaches its socket. An agent
can use its own session's agent (``ssh-add -l``, ``eval "$(ssh-agent -s)"``, ``ssh -A
bastion``); these take someone else's keys or hand the agent's keys out:

* pointing ``SSH_AUTH_SOCK`` (or ``ssh -o IdentityAgent=``) at a socket found on the machine:
  ``/tmp/ssh-XXXX/agent.PID`` (where ``ssh-agent`` and ``sshd`` forwarding put other
  logins' sockets), a glob or search for one (``$(ls -t /tmp/ssh-*/agent.* | head -1)``, ``$(find
  /tmp -name 'agent.*')``) or another process's environment (``/proc/PID/environ``):
  ``shell.ssh-agent`` warns. The user's own sockets (``~/.1password/agent.sock``,
  ``$XDG_RUNTIME_DIR/ssh-agent.socket``, ``$(gpgconf --list-dirs agent-ssh-socket)``) pass;
* ``socat`` relaying the agent's socket: to a Unix listener it warns (another user or
  sandbox gets the keys); to a network listener (``TCP-LISTEN:2222,fork
  UNIX-CONNECT:$SSH_AUTH_SOCK``) anyone who connects signs with them: ``shell.exfiltration``
  blocks;
* ``ssh -A`` / ``-o ForwardAgent=yes`` to a host whose key is not checked
  (``StrictHostKeyChecking=no``, ``UserKnownHostsFile=/dev/null``): whoever answers at that
  address gets the agent, so it warns. Forwarding to a known host (``ssh -A bastion``) is
  the everyday jump-host use and passes.

The words are read as written (``run.source`` at the word's span) so that ``$SSH_AUTH_SOCK``
and a ``$(...)`` search are seen before expansion. Each check reads only its own command's
words (the callers gate on the variable or program name).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._remote import SSH_ARG_LETTERS
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["agent_forward", "agent_relay", "agent_socket"]

# Where other sessions' agent sockets are (ssh-agent's and sshd's /tmp/ssh-XXXX/agent.PID,
# launchd's), and the ways of searching for one. A socket an agent makes for itself at a
# path of its choosing (ssh-agent -a /tmp/ci-agent.sock, as CI setups do) passes.
_FOUND = ("/tmp/ssh-", "/proc/", "launchd.", "*", "find ", "ls ", "lsof", "fuser", "ss -",
          "netstat", "environ", "pgrep")
_AGENT_PID = re.compile(r"agent\.[0-9]")
_MAX_RAW = 4096  # a longer value is only read up to here (a search is at its start)


def _raw(run: Run, f: Field) -> str:
    """The word as written (``$SSH_AUTH_SOCK``, ``$(ls /tmp/ssh-*)``), else its text."""
    start, end = run.map_span(f.span)
    source = run.source
    if 0 <= start < end <= len(source):
        return source[start:min(end, start + _MAX_RAW)]
    return f.text[:_MAX_RAW]


def _found_socket(text: str) -> bool:
    low = text.lower()
    return any(marker in low for marker in _FOUND) or _AGENT_PID.search(low) is not None


def agent_socket(run: Run, value: Field, span: tuple[int, int]) -> None:
    """``SSH_AUTH_SOCK=VALUE``: an agent socket found on the machine is someone else's."""
    raw = _raw(run, value)
    if _found_socket(raw) or _found_socket(value.text):
        run.add("shell.ssh-agent", span, "points SSH_AUTH_SOCK at an agent socket found on "
                "the machine: ssh signs with another session's keys", None)


def _agent_word(run: Run, f: Field) -> bool:
    """Whether a socat address names the ssh agent's socket."""
    raw = _raw(run, f)
    return "SSH_AUTH_SOCK" in raw or "/ssh-" in raw or "agent." in raw or \
        "agent.sock" in f.text or "/ssh-" in f.text


_NET_LISTEN = ("tcp-listen:", "tcp4-listen:", "tcp6-listen:", "openssl-listen:",
               "ssl-l:", "tcp-l:", "tcp4-l:", "tcp6-l:", "sctp-listen:", "udp-listen:")


def agent_relay(run: Run, args: list[Field], span: tuple[int, int]) -> None:
    """``socat LISTENER UNIX-CONNECT:$SSH_AUTH_SOCK``: the agent handed to others."""
    if not any(_agent_word(run, f) for f in args if f.text[:1] != "-"):
        return
    words = [f.text.lower() for f in args if f.text[:1] != "-"]
    if any(w.startswith(_NET_LISTEN) for w in words):
        run.add("shell.exfiltration", span, "socat relays the ssh agent's socket to a "
                "network listener: anyone who connects signs with its keys", None)
    else:
        run.add("shell.ssh-agent", span, "socat relays the ssh agent's socket: whoever "
                "reaches the other end signs with its keys", None)


_NO_HOST_CHECK = ("stricthostkeychecking=no", "stricthostkeychecking=off",
                  "stricthostkeychecking=false", "userknownhostsfile=/dev/null")


def agent_forward(run: Run, args: list[Field], span: tuple[int, int]) -> None:
    """``ssh -A -o StrictHostKeyChecking=no HOST``; ``-o IdentityAgent=/tmp/ssh-X/agent.1``."""
    forward = unchecked = host = False
    texts = [f.text for f in args]
    for index, t in enumerate(texts):
        if not t.startswith("-") or t == "--":
            prev = texts[index - 1] if index else ""
            if t == "--" or host:
                break  # the remote command (options may still follow the host: ssh H -A)
            if not (prev == "-o" or (len(prev) == 2 and prev[0] == "-" and
                                     prev[1] in SSH_ARG_LETTERS)):
                host = True
            continue  # the host, or an option's value (-i KEY, -o OPT)
        if t.startswith("-o"):
            opt = t[2:] if len(t) > 2 else (texts[index + 1] if index + 1 < len(texts)
                                             else "")
            key = opt.replace(" ", "=").replace("\t", "=").lower()
            forward = forward or key in ("forwardagent=yes", "forwardagent=true") or \
                (key.startswith("forwardagent=") and key[13:14] in ("/", "$", "~"))
            unchecked = unchecked or key.startswith(_NO_HOST_CHECK)
            if key.startswith("identityagent=") and _found_socket(key):
                run.add("shell.ssh-agent", span, "ssh -o IdentityAgent uses an agent "
                        "socket found on the machine: another session's keys", None)
            continue
        for ch in t[1:]:
            if ch == "A":
                forward = True
            if ch in SSH_ARG_LETTERS:
                break  # the rest of the word is that option's value
    if forward and unchecked:
        run.add("shell.ssh-agent", span, "ssh forwards the agent to a host whose key is not "
                "checked: whoever answers at that address can sign with every loaded key",
                None)
