"""The container engine's socket opened to other users (``shell.setuid-backdoor``, block).

Whoever can write to ``/var/run/docker.sock`` (or podman's, containerd's) can start a
container that mounts the host's ``/`` and runs as root: the socket is root. ``chmod 666
/var/run/docker.sock`` (any mode that lets others write), ``chown $USER ...``, ``chgrp
users ...`` and ``setfacl -m u:NAME:rw ...`` each hand that root to an account or to every
local user, and the grant outlives the command: a root backdoor, as a setuid shell is.

The documented setup, ``usermod -aG docker $USER`` (the socket's own group), is judged
elsewhere (the policy); ``chown root:docker`` and ``chgrp docker`` restore the defaults and
pass, as does reading the socket's mode (``ls -l``, ``stat``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._checks import chmod_mode
from ._deletes import opts_and_operands
from ._paths import norm_path
from ._words import Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["SOCKET_TOOLS", "engine_socket"]

SOCKET_TOOLS = frozenset({"chmod", "chown", "chgrp", "setfacl"})
"""Programs :func:`engine_socket` looks at."""

_SOCKETS = frozenset({"docker.sock", "podman.sock", "containerd.sock", "dockershim.sock"})
_RUN_DIRS = ("/run/", "/var/run/")
_DEFAULT_OWNERS = frozenset({"root", "root:docker", "root:root", "root.docker", "0", "0:0",
                             ":docker", "docker", "root:podman", "podman"})


def _socket(f: Field, cwd: str | None) -> bool:
    path = norm_path(f.text, cwd)
    return path is not None and path.startswith(_RUN_DIRS) and \
        path.rpartition("/")[2] in _SOCKETS


def _acl_grants(spec: str) -> bool:
    """``u:alice:rw``, ``o::rw``, ``g:users:rwx``: an ACL entry that gives write access."""
    return any(entry.rpartition(":")[2].find("w") >= 0 for entry in spec.split(","))


def engine_socket(run: Run, inv: Invocation) -> None:
    """Report a command that lets other accounts write to a container engine's socket."""
    name = inv.name
    args = inv.args
    operands = opts_and_operands(args)[1]
    if not any(_socket(f, run.cwd) for f in operands):
        return
    how: str | None = None
    if name == "chmod":
        found = chmod_mode(args)
        if found is not None and found[1]:
            how = f"chmod {found[0].text} lets every local user"
    elif name in ("chown", "chgrp"):
        owner = operands[0].text if len(operands) > 1 else ""
        if owner and owner not in _DEFAULT_OWNERS and not (
                name == "chgrp" and owner in ("root", "docker", "podman")):
            how = f"{name} {owner} lets that account"
    else:  # setfacl -m SPEC / --modify=SPEC
        for k, f in enumerate(args):
            t = f.text
            spec = args[k + 1].text if (t in ("-m", "--modify") or (
                t[:1] == "-" and t[1:2] != "-" and t.endswith("m"))) and k + 1 < len(args) \
                else t.partition("=")[2] if t.startswith("--modify=") else ""
            if spec and _acl_grants(spec):
                how = f"setfacl {spec} lets that account"
                break
    if how is not None:
        run.add("shell.setuid-backdoor", inv.word.span, f"{how} use the container engine's "
                "socket, which starts root containers: a root backdoor", None)
