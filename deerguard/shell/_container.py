"""What a container or remote command line does (:class:`Remote`), and the container options
that give a container the host (shared by docker/podman, the low-level runtimes and API
requests).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ._paths import PathRules, candidate_paths, is_critical, norm_path
from ._words import DYN, Field

__all__ = ["CGROUP_ESCAPE_FILES", "SSH_ARG_LETTERS", "SOCKETS", "Remote", "check_mounts",
           "container_option", "rebind"]

CGROUP_ESCAPE_FILES = ("/release_agent", "/notify_on_release")
"""Path endings whose write is the cgroup v1 release_agent escape: the kernel runs the
program named in ``release_agent`` as root on the host (wherever the cgroup filesystem is
mounted, so any directory)."""

SSH_ARG_LETTERS = "bcDEeFIiJLlmOopQRSWwB"
"""ssh's short options that take an argument."""

_DANGEROUS_CAPS = frozenset({"ALL", "SYS_ADMIN", "SYS_MODULE", "SYS_PTRACE", "SYS_RAWIO",
                             "DAC_READ_SEARCH", "DAC_OVERRIDE", "SYS_BOOT", "BPF",
                             "PERFMON", "MKNOD"})
_HOST_NAMESPACES = frozenset({"--pid", "--ipc", "--uts", "--userns", "--cgroupns"})
SOCKETS = ("/var/run/docker.sock", "/run/docker.sock", "/run/containerd",
           "/var/run/containerd", "/run/podman", "/var/run/crio", "/run/crio")


@dataclass(slots=True)
class Remote:
    """What a container/remote command line does.

    ``start`` is the index of the command run in the container (an argument vector), or
    ``code`` the command string run by a remote shell; ``escapes`` are (word, reason) pairs
    that open the host; ``mounts`` are host paths given to the container; ``privilege`` are
    (word, reason) pairs that run the command as root where it would not be (``docker exec
    -u 0``, the low-level runtimes).
    """

    start: int | None = None
    code: Field | None = None
    entrypoint: Field | None = None
    escapes: list[tuple[Field, str]] = field(default_factory=list)
    mounts: list[Field] = field(default_factory=list)
    stdin_shell: bool = False  # ssh HOST with no command: the remote shell reads stdin
    privilege: list[tuple[Field, str]] = field(default_factory=list)
    binds: list[tuple[str, str]] = field(default_factory=list)  # (container path, host path)


def container_option(out: Remote, f: Field, opt: str, text: str, val: Field | None) -> None:
    """Record in ``out`` what the container option ``opt`` (written ``text`` at ``f``, with
    the value ``val``) gives the container of the host."""
    if opt == "--privileged" and text in ("--privileged", "--privileged=true"):
        out.escapes.append((f, "--privileged gives the container every device and "
                            "capability of the host"))
    elif opt in _HOST_NAMESPACES and val is not None and val.text == "host":
        out.escapes.append((f, f"{opt}=host shares the host's namespace with the container"))
    elif opt == "--cap-add" and val is not None and any(
            c.strip().upper().removeprefix("CAP_") in _DANGEROUS_CAPS
            for c in val.text.split(",")):
        out.escapes.append((val, f"--cap-add {val.text} lets the container reach the host"))
    elif opt == "--security-opt" and val is not None and (
            "unconfined" in val.text or val.text.replace(":", "=") == "label=disable"):
        out.escapes.append((val, f"--security-opt {val.text} lifts the container's "
                            "confinement"))
    elif opt == "--device" and val is not None and val.text.startswith("/dev/") and \
            not val.text.startswith(("/dev/null", "/dev/fuse", "/dev/net/tun", "/dev/dri",
                                     "/dev/nvidia", "/dev/snd", "/dev/video", "/dev/kvm")):
        out.escapes.append((val, f"--device {val.text} hands a host device to the container"))
    elif opt == "--entrypoint" and val is not None:
        out.entrypoint = val
    elif opt in ("-v", "--volume", "--mount") and val is not None:
        source = _mount_source(val.text, mount=opt == "--mount")
        if source is not None:
            host = Field(source, val.span, val.taint)
            out.mounts.append(host)
            target = _mount_target(val.text, mount=opt == "--mount")
            if target and DYN not in source and DYN not in target and len(out.binds) < 8:
                out.binds.append((target, source))
            path = norm_path(source, None)
            if path is not None and (is_critical(path) or path.startswith(SOCKETS)):
                out.escapes.append((val, f"mounts the host's {path} into the container"))


def check_mounts(add: Callable[[str, tuple[int, int], str, str | None], None],
                 rules: PathRules, name: str, mounts: list[Field], cwd: str | None) -> None:
    """Judge the host paths mounted into a container: a credential file or folder
    (``~/.aws``, ``~/.ssh``, ``~/.kube``, ``/etc/kubernetes``, a coding agent's folder, a
    whole ``~/.config``) warns as ``shell.secret-mount``, the same for every one of them:
    the image reads every key in it, yet ``-v ~/.aws:/root/.aws`` is how the AWS CLI's own
    image is run. What gives the container the host itself (``/``, ``~``, ``/etc``, the
    docker socket) is an escape and blocks (:func:`container_option`)."""
    from ._credpaths import store_home
    from ._secrets import AGENT_HOMES, SECRET_HOMES, home_form  # late: _secrets -> _remote

    for f in mounts:
        for path in candidate_paths(f.text, cwd)[:1]:
            if rules.protected and rules.match(path, "protected"):
                add("shell.protected-path", f.span, f"{name} mounts the protected path "
                    f"{path}", None)
            home = home_form(path)
            if rules.match(path, "sensitive") or home in AGENT_HOMES or store_home(home) or (
                    path in SECRET_HOMES and not is_critical(path)):
                add("shell.secret-mount", f.span, f"{name} mounts the credential path "
                    f"{path} into a container, whose image can read the keys in it", None)


def _mount_target(text: str, *, mount: bool) -> str | None:
    """The container path of ``-v SRC:DST[:opts]`` or ``--mount ...,target=DST``."""
    if mount:
        for part in text.split(","):
            key, eq, value = part.partition("=")
            if eq and key.strip() in ("target", "dst", "destination"):
                return value.rstrip("/") if value.startswith("/") else None
        return None
    parts = text.split(":")
    target = parts[1].rstrip("/") if len(parts) > 1 else ""
    return target if target.startswith("/") else None


_EDGES = frozenset(" \t\n'\"=@:;|&()<>`")


def rebind(binds: list[tuple[str, str]], fields: list[Field]) -> list[Field]:
    """The command run in a container with each mounted container path read as the host
    path it shows (``-v /etc/kubernetes:/k alpine cat /k/admin.conf`` reads the host's
    ``/etc/kubernetes/admin.conf``), in words and in code strings (``sh -c 'tar cz /k'``).
    Each word is scanned once per bind: linear."""
    out: list[Field] = []
    for f in fields:
        text = f.text
        for target, source in binds:
            if target in text:
                text = _swap(text, target, source)
        out.append(f if text == f.text else Field(text, f.span, f.taint))
    return out


def _swap(text: str, target: str, source: str) -> str:
    """``text`` with every ``target`` that is a whole path prefix replaced by ``source``."""
    pieces: list[str] = []
    at = 0
    k = text.find(target)
    while k != -1:
        end = k + len(target)
        if (k == 0 or text[k - 1] in _EDGES) and (end == len(text) or text[end] == "/" or
                                                  text[end] in _EDGES):
            pieces.append(text[at:k])
            pieces.append(source)
            at = end
        k = text.find(target, end)
    pieces.append(text[at:])
    return "".join(pieces)


def _mount_source(text: str, *, mount: bool) -> str | None:
    """The host path of ``-v SRC:DST[:opts]`` or ``--mount type=bind,source=SRC,...``."""
    if mount:
        for part in text.split(","):
            key, eq, value = part.partition("=")
            if eq and key.strip() in ("source", "src"):
                return value if value.startswith(("/", "~", ".")) else None
        return None
    source = text.split(":", 1)[0] if ":" in text else ""
    return source if source.startswith(("/", "~", ".")) else None
