"""Local VMs, WSL, cluster nodes and fleet tools that run a command elsewhere.

Like ``_cloudexec`` (whose word helpers live here), each tool is described by what it does
with its arguments, so the command it runs is classified as ssh's command string is:

* *code strings* (a shell on the other side reads them): ``wsl [-d D] [-u U] [--] CMD...``
  (the default shell runs the words), ``minikube ssh [--] CMD...``, ``docker-machine ssh
  NAME CMD...``, ``podman machine ssh [NAME] CMD...``, ``tailscale ssh HOST CMD...``, ``cf ssh
  APP -c CMD``, ``fab -H HOST -- CMD...`` (Fabric), ``pyinfra INVENTORY exec -- CMD...``,
  ``dsh [-a|-m M] [-c] -- CMD...``;
* *argument vectors*: ``wsl -e|--exec CMD...``, ``limactl shell INSTANCE CMD...``, ``colima
  ssh -- CMD...``, ``orb|orbctl run [-m M] CMD...``, ``VBoxManage guestcontrol VM run|start
  ... -- PROG ARGS...``, ``kubectl node-shell NODE -- CMD...``.

``kubectl node-shell`` starts a privileged pod in the node's namespaces: root on the host,
like ``kubectl debug node/...`` (``shell.container-escape``). Every parser is linear in the
number of words.
"""

from __future__ import annotations

from ._container import SSH_ARG_LETTERS, Remote
from ._words import Field

__all__ = ["VM_PARSERS", "joined", "operands", "option_value"]


def option_value(fields: list[Field], j: int, names: frozenset[str]) -> Field | None:
    """The value of the last of ``names`` (``--opt V``, ``--opt=V``, ``-cV``) from ``j`` on,
    before any ``--``."""
    n = len(fields)
    found = None
    while j < n:
        f = fields[j]
        t = f.text
        if t == "--":
            break
        if t in names and j + 1 < n:
            found = fields[j + 1]
            j += 2
            continue
        if t.startswith("-"):
            opt, eq, val = t.partition("=")
            if eq and opt in names:
                found = Field(val, f.span, f.taint)
            elif not t.startswith("--") and len(t) > 2 and t[:2] in names:
                found = Field(t[2:], f.span, f.taint)  # -Ccmd
        j += 1
    return found


def operands(fields: list[Field], j: int, takes: frozenset[str]) -> list[Field]:
    """The operands from ``j`` on when options may come anywhere (oclif, cobra): options in
    ``takes`` consume the next word unless written ``--opt=V``; everything after ``--`` is
    an operand."""
    out: list[Field] = []
    n = len(fields)
    while j < n:
        f = fields[j]
        t = f.text
        if t == "--":
            out.extend(fields[j + 1:])
            break
        if t.startswith("-") and len(t) > 1:
            j += 2 if t in takes else 1
            continue
        out.append(f)
        j += 1
    return out


def joined(words: list[Field], sep: str = " ") -> Field | None:
    """``words`` as one command string (None when there are none)."""
    if not words:
        return None
    return Field(sep.join(f.text for f in words), (words[0].span[0], words[-1].span[1]),
                 frozenset().union(*(f.taint for f in words)))


def _leading(fields: list[Field], j: int, takes: frozenset[str]) -> int:
    """Skip options from ``j`` (those in ``takes`` consume the next word unless written with
    ``=``); stop at the first operand, or after ``--``."""
    n = len(fields)
    while j < n:
        t = fields[j].text
        if t == "--":
            return j + 1
        if not t.startswith("-") or len(t) < 2:
            return j
        j += 2 if t in takes else 1
    return j


_WSL_ARG = frozenset({"-d", "--distribution", "-u", "--user", "--cd", "--shell-type",
                      "--distribution-id"})
_WSL_CONTROL = frozenset({"--install", "--list", "-l", "--shutdown", "--terminate", "-t",
                          "--unregister", "--set-default", "-s", "--set-version",
                          "--set-default-version", "--status", "--update", "--export",
                          "--import", "--import-in-place", "--mount", "--unmount", "--help",
                          "--version", "-v", "--manage", "--debug-shell", "--uninstall"})


def _wsl(fields: list[Field], j: int) -> Remote | None:
    n = len(fields)
    while j < n:
        t = fields[j].text
        low = t.lower()
        if low in _WSL_CONTROL:
            return None
        if low in ("-e", "--exec"):
            return Remote(start=j + 1) if j + 1 < n else None
        if t == "--":
            return Remote(code=joined(fields[j + 1:]))
        if not t.startswith("-") or len(t) < 2:
            return Remote(code=joined(fields[j:]))  # the default shell runs the words
        j += 2 if low in _WSL_ARG else 1
    return Remote()


def _limactl(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields) or fields[j].text != "shell":
        return None
    j = _leading(fields, j + 1, frozenset({"--workdir", "--shell", "--tty"}))
    return Remote(start=j + 1) if j + 1 < len(fields) else Remote()  # shell INSTANCE CMD


def _colima(fields: list[Field], j: int) -> Remote | None:
    j = _leading(fields, j, frozenset({"-p", "--profile"}))
    if j >= len(fields) or fields[j].text != "ssh":
        return None
    j = _leading(fields, j + 1, frozenset({"-p", "--profile"}))
    return Remote(start=j) if j < len(fields) else Remote()


def _orb(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields) or fields[j].text not in ("run", "exec"):
        return None
    j = _leading(fields, j + 1, frozenset({"-m", "--machine", "-u", "--user", "-w",
                                          "--workdir"}))
    return Remote(start=j) if j < len(fields) else Remote()


def _minikube(fields: list[Field], j: int) -> Remote | None:
    j = _leading(fields, j, frozenset({"-p", "--profile"}))
    if j >= len(fields) or fields[j].text != "ssh":
        return None
    words = operands(fields, j + 1, frozenset({"-n", "--node", "-p", "--profile"}))
    return Remote(code=joined(words))


def _docker_machine(fields: list[Field], j: int) -> Remote | None:
    j = _leading(fields, j, frozenset({"-s", "--storage-path", "--tls-ca-cert"}))
    if j >= len(fields) or fields[j].text != "ssh":
        return None
    j = _leading(fields, j + 1, frozenset())
    return Remote(code=joined(fields[j + 1:]))  # ssh NAME CMD...


def _podman(fields: list[Field], j: int) -> Remote | None:
    j = _leading(fields, j, frozenset({"--connection", "-c", "--url", "--identity", "--root",
                                       "--runroot"}))
    if [f.text for f in fields[j:j + 2]] != ["machine", "ssh"]:
        return None
    j = _leading(fields, j + 2, frozenset({"--username"}))
    rest = fields[j:]
    if len(rest) > 1 and " " not in rest[0].text:
        rest = rest[1:]  # ssh NAME CMD...: the machine's name first
    return Remote(code=joined(rest))


def _tailscale(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields) or fields[j].text != "ssh":
        return None
    j += 1
    n = len(fields)
    host = False
    while j < n:
        t = fields[j].text
        if t.startswith("-") and len(t) > 1 and t != "--":
            j += 2 if len(t) == 2 and t[1] in SSH_ARG_LETTERS else 1
            continue
        if t == "--" and not host:
            j += 1
            continue
        if not host:
            host = True
            j += 1
            continue
        break
    return Remote(code=joined(fields[j:]))


def _cf(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields) or fields[j].text != "ssh":
        return None
    return Remote(code=option_value(fields, j + 1, frozenset({"-c", "--command"})))


def _fab(fields: list[Field], j: int) -> Remote | None:
    for k in range(j, len(fields)):
        if fields[k].text == "--":
            return Remote(code=joined(fields[k + 1:]))
    return None


_PYINFRA_ARG = frozenset({"--user", "--port", "--key", "--key-password", "--password",
                          "--sudo-user", "--su-user", "--parallel", "--shell-executable",
                          "--limit", "--data", "--group-data", "--config", "--chdir",
                          "--retry", "--retry-delay"})


def _pyinfra(fields: list[Field], j: int) -> Remote | None:
    words = operands(fields, j, _PYINFRA_ARG)
    if len(words) < 2 or words[1].text != "exec":
        return None  # pyinfra INVENTORY exec -- CMD...
    return Remote(code=joined(words[2:]))


def _dsh(fields: list[Field], j: int) -> Remote | None:
    j = _leading(fields, j, frozenset({"-m", "-g", "-f", "-r", "-o", "-F", "--machine",
                                       "--group", "--file", "--remoteshell",
                                       "--remoteshellopt", "--forklimit"}))
    return Remote(code=joined(fields[j:]))


def _vbox(fields: list[Field], j: int) -> Remote | None:
    texts = [f.text.lower() for f in fields[j:j + 3]]
    if len(texts) < 3 or texts[0] != "guestcontrol" or texts[2] not in ("run", "start"):
        return None
    for k in range(j + 3, len(fields)):
        if fields[k].text == "--":
            return Remote(start=k + 1) if k + 1 < len(fields) else Remote()
    return Remote()


_KUBE_ARG = frozenset({"-n", "--namespace", "--context", "--kubeconfig", "--cluster",
                       "--user", "-s", "--server", "--token", "--as", "--as-group", "-x",
                       "--image", "-i"})


def _kubectl(fields: list[Field], j: int) -> Remote | None:
    j = _leading(fields, j, _KUBE_ARG)
    if j >= len(fields) or fields[j].text not in ("node-shell", "node_shell"):
        return None
    out = Remote(escapes=[(fields[j], "kubectl node-shell starts a privileged pod in the "
                           "node's namespaces: root on the host")])
    for k in range(j + 1, len(fields)):
        if fields[k].text == "--":
            out.start = k + 1 if k + 1 < len(fields) else None
            break
    return out


VM_PARSERS = {"wsl": _wsl, "wsl.exe": _wsl, "limactl": _limactl, "colima": _colima,
              "orb": _orb, "orbctl": _orb, "minikube": _minikube,
              "docker-machine": _docker_machine, "podman": _podman, "tailscale": _tailscale,
              "cf": _cf, "fab": _fab, "pyinfra": _pyinfra, "dsh": _dsh, "VBoxManage": _vbox,
              "vboxmanage": _vbox, "kubectl": _kubectl}
"""More remote front ends (``_cloudexec`` dispatches to them)."""
