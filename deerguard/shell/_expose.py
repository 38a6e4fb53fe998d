"""Commands that open this machine to other hosts: tunnels and file servers.

A reverse tunnel (``ssh -R``, ``ngrok tcp 22``, ``cloudflared tunnel --url``, ``lt --port``,
``bore local``, ``chisel client ... R:...``, ``tailscale funnel``) gives anyone at the other
end a way in to a local port: ``shell.network-expose`` warns (sharing a dev server is a real
use, but a human should know). So do a ``socat`` listener relaying a local-only service
(``TCP-LISTEN:2222,fork TCP:localhost:22``) and ``kubectl port-forward|proxy --address
0.0.0.0`` (``_relays``). A local forward (``ssh -L``) or a SOCKS proxy (``ssh -D``)
reaches out and passes.

A file server over ``/``, ``~`` or a secret directory (``python3 -m http.server --directory
~``, ``php -S 0.0.0.0:80 -t /``, ``npx http-server ~``, ``busybox httpd -h /``) makes every
key and credential under it downloadable: ``shell.exfiltration`` blocks. Serving the project
(the working directory, ``dist/``) passes. Option scans are single passes over the words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._paths import is_critical, norm_path
from ._relays import engine_listener, forward, relay
from ._remote import SSH_ARG_LETTERS
from ._sshagent import agent_forward, agent_relay
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["EXPOSERS", "expose", "python_server"]

_TUNNELS = frozenset({"ngrok", "cloudflared", "lt", "localtunnel", "bore", "chisel",
                      "tailscale", "frpc", "pgrok", "zrok"})
# File servers: program -> options naming the served directory ("" = first operand).
_SERVERS: dict[str, tuple[str, ...]] = {
    "http-server": ("",), "serve": ("",), "miniserve": ("",), "live-server": ("",),
    "updog": ("-d", "--directory"), "busybox-httpd": ("-h",), "httpd": ("-h",),
    "webfsd": ("-r",), "caddy": ("--root", "-r"), "darkhttpd": ("",),
}
EXPOSERS = frozenset({"ssh", "autossh", "php", "socat", "kubectl", "oc", "dockerd",
                      "podman", *_TUNNELS, *_SERVERS})
"""Programs that may open a local port or directory to other hosts."""


def expose(run: Run, name: str, args: list[Field], span: tuple[int, int]) -> None:
    """Report a tunnel into this machine or a file server over a secret directory."""
    texts = [f.text for f in args]
    if name in ("ssh", "autossh"):
        if _ssh_remote_forward(texts):
            run.add("shell.network-expose", span, f"{name} -R opens a port on the remote "
                    "host that leads into this machine", None)
        agent_forward(run, args, span)  # ssh -A to an unchecked host (_sshagent)
    elif name in _TUNNELS:
        what = _tunnel(name, texts)
        if what is not None:
            run.add("shell.network-expose", span, f"{what}: anyone with the address reaches "
                    "a port of this machine", None)
    elif name == "socat":
        relay(run, args, span)
        agent_relay(run, args, span)  # socat ... UNIX-CONNECT:$SSH_AUTH_SOCK
    elif name in ("kubectl", "oc"):
        forward(run, name, texts, span)
    elif name in ("dockerd", "podman"):
        engine_listener(run, name, texts, span)
    elif name == "php":
        if "-S" in texts or any(t.startswith("-S") for t in texts):
            _served(run, name, _option_value(texts, ("-t",)) or ".", span)
    elif name in _SERVERS:
        if name == "caddy" and texts[:1] != ["file-server"]:
            return
        if name == "httpd" and not any(t == "-h" for t in texts):
            return  # apache's httpd, not busybox's
        options = _SERVERS[name]
        folder = _option_value(texts, options) if options != ("",) else _operand(texts)
        _served(run, name, folder or ".", span)


def python_server(run: Run, module: str, args: list[Field], span: tuple[int, int]) -> None:
    """``python3 -m http.server [PORT] [--directory DIR]`` (``SimpleHTTPServer`` in 2)."""
    if module in ("http.server", "SimpleHTTPServer"):
        texts = [f.text for f in args]
        _served(run, "python -m " + module,
                _option_value(texts, ("--directory", "-d")) or ".", span)


def _ssh_remote_forward(texts: list[str]) -> bool:
    for index, t in enumerate(texts):
        if t.startswith("-o") and "remoteforward" in t.lower().replace(" ", ""):
            return True
        if t == "-o" and index + 1 < len(texts) and \
                texts[index + 1].lower().startswith("remoteforward"):
            return True
        if t.startswith("-") and not t.startswith("--") and len(t) > 1:
            # -R spec, -fNR spec, -R9000:localhost:22: R after flags without arguments.
            for ch in t[1:]:
                if ch == "R":
                    return True
                if ch in SSH_ARG_LETTERS:
                    break  # an option that takes the rest of the word as its value
        elif not t.startswith("-") and index > 0 and not texts[index - 1].startswith("-"):
            break  # past the host: the rest is the remote command
    return False


def _tunnel(name: str, texts: list[str]) -> str | None:
    words = [t for t in texts if not t.startswith("-")]
    first = words[0] if words else ""
    if name == "ngrok" and first in ("http", "tcp", "tls", "start", "tunnel"):
        return f"ngrok {first} publishes a local port on the internet"
    if name == "cloudflared" and first == "tunnel" and (
            any(t.startswith("--url") for t in texts) or "run" in words):
        return "cloudflared tunnel publishes a local service"
    if name in ("lt", "localtunnel") and any(t.startswith(("--port", "-p")) for t in texts):
        return f"{name} publishes a local port on the internet"
    if name == "bore" and first == "local":
        return "bore publishes a local port through a remote server"
    if name == "chisel" and first == "client" and any(t.startswith("R:") for t in words):
        return "chisel client opens a reverse port into this machine"
    if name == "tailscale" and first == "funnel":
        return "tailscale funnel publishes a local port on the internet"
    if name in ("frpc", "pgrok", "zrok") and (name == "frpc" or first in ("share", "http",
                                                                          "tcp")):
        return f"{name} publishes a local service through a remote server"
    return None


def _option_value(texts: list[str], options: tuple[str, ...]) -> str | None:
    for index, t in enumerate(texts):
        if t in options and index + 1 < len(texts):
            return texts[index + 1]
        for opt in options:
            if opt.startswith("--") and t.startswith(opt + "="):
                return t[len(opt) + 1:]
            if not opt.startswith("--") and t.startswith(opt) and len(t) > len(opt):
                return t[len(opt):]
    return None


def _operand(texts: list[str]) -> str | None:
    """The first operand that is not an option's value (ports are numbers, not folders)."""
    for t in texts:
        if not t.startswith("-") and not t.isdecimal():
            return t
    return None


_SECRET_DIRS = ("~/.ssh", "~/.aws", "~/.gnupg", "~/.kube", "~/.docker", "~/.config",
                "~/.azure", "/etc", "/root")


def _served(run: Run, who: str, folder: str, span: tuple[int, int]) -> None:
    path = norm_path(folder, run.cwd)
    if path is None:
        return
    if is_critical(path) or path == "~" or path.startswith(_SECRET_DIRS):
        run.add("shell.exfiltration", span, f"{who} serves {path} over the network: every "
                "key and credential under it becomes downloadable", None)
