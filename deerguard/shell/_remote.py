"""Commands that run somewhere else: containers (docker/podman run/exec, kubectl exec) and ssh.

``docker run IMAGE CMD...``, ``docker exec C CMD...`` and ``kubectl exec POD -- CMD...`` run an
argument vector inside a container: resolution continues at ``CMD`` as if through a wrapper,
so ``docker exec c sh -c '...'`` classifies the code string. ``ssh HOST CMD...`` joins its
operands and hands them to the remote user's shell, so they are a shell *code string*, like
``sh -c``. Each program is described by its option arity, like the wrappers in ``_resolve``:
an unknown option is taken as a flag, which errs towards classifying more words as code.

Container options that give the container the host (``--privileged``, ``--pid=host``,
dangerous capabilities, unconfined security profiles, host devices, mounts of ``/``, system
directories or the Docker socket) are reported as ``shell.container-escape``; a mount of a
secret (``-v ~/.ssh:/k``) reads that secret. ``nsenter`` into PID 1's namespaces is the same
escape from the other side.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ._paths import is_critical, norm_path
from ._words import Field

__all__ = ["CONTAINER_PROGRAMS", "Remote", "parse_remote"]

CONTAINER_PROGRAMS = frozenset({"docker", "podman", "nerdctl", "docker-compose",
                                "podman-compose", "kubectl", "oc", "ssh", "nsenter"})
"""Programs whose arguments may run a command elsewhere or open the host to a container."""

_DOCKER_GLOBAL_ARG = frozenset({"-H", "--host", "-c", "--context", "--config", "-l",
                                "--log-level", "--tlscacert", "--tlscert", "--tlskey",
                                "--url", "--connection", "--identity", "--root", "--runroot",
                                "--storage-driver", "--cgroup-manager", "--events-backend",
                                "--namespace", "-n", "--address", "-a", "--file", "-f",
                                "--project-name", "-p", "--project-directory", "--profile",
                                "--env-file", "--ansi", "--progress", "--parallel"})
_RUN_SHORT_ARG = "acehlmpuvw"
_RUN_LONG_ARG = frozenset("""--add-host --annotation --attach --blkio-weight
    --blkio-weight-device --cap-add --cap-drop --cgroup-parent --cgroupns --cidfile
    --cpu-period --cpu-quota --cpu-rt-period --cpu-rt-runtime --cpu-shares --cpus
    --cpuset-cpus --cpuset-mems --device --device-cgroup-rule --device-read-bps
    --device-read-iops --device-write-bps --device-write-iops --dns --dns-option --dns-search
    --domainname --entrypoint --env --env-file --expose --gpus --group-add --health-cmd
    --health-interval --health-retries --health-start-period --health-timeout --hostname --ip
    --ip6 --ipc --isolation --kernel-memory --label --label-file --link --link-local-ip
    --log-driver --log-opt --mac-address --memory --memory-reservation --memory-swap
    --memory-swappiness --mount --name --network --net --network-alias --oom-score-adj --pid
    --pids-limit --platform --publish --pull --restart --runtime --security-opt --shm-size
    --stop-signal --stop-timeout --storage-opt --sysctl --tmpfs --ulimit --user --userns
    --uts --volume --volume-driver --volumes-from --workdir --detach-keys --index --pod
    --arch --os --variant --cgroups --hooks-dir --init-path --pidfile --requires --secret
    --systemd --timezone --umask --uidmap --gidmap --subuidname --subgidname --chrootdirs
    --label --service-ports --use-aliases --publish-all-ports --volume-from""".split())
_KUBE_GLOBAL_ARG = frozenset({"-n", "--namespace", "--context", "--kubeconfig", "--cluster",
                              "--user", "-s", "--server", "--token", "--as", "--as-group",
                              "-c", "--container", "-f", "--filename", "--image",
                              "--pod-running-timeout", "--request-timeout", "-l",
                              "--selector", "--overrides", "--restart", "--env",
                              "--labels", "--port", "--image-pull-policy",
                              "--serviceaccount", "--profile", "--target", "--copy-to"})
SSH_ARG_LETTERS = "bcDEeFIiJLlmOopQRSWwB"
"""ssh's short options that take an argument."""
_SSH_NO_COMMAND = frozenset({"-N", "-V", "-G", "-W", "-O"})

_DANGEROUS_CAPS = frozenset({"ALL", "SYS_ADMIN", "SYS_MODULE", "SYS_PTRACE", "SYS_RAWIO",
                             "DAC_READ_SEARCH", "DAC_OVERRIDE", "SYS_BOOT", "BPF",
                             "PERFMON", "MKNOD"})
_HOST_NAMESPACES = frozenset({"--pid", "--ipc", "--uts", "--userns", "--cgroupns"})
_SOCKETS = ("/var/run/docker.sock", "/run/docker.sock", "/run/containerd",
            "/var/run/containerd", "/run/podman", "/var/run/crio", "/run/crio")


@dataclass(slots=True)
class Remote:
    """What a container/remote command line does.

    ``start`` is the index of the command run in the container (an argument vector), or
    ``code`` the command string run by a remote shell; ``escapes`` are (word, reason) pairs
    that open the host; ``mounts`` are host paths given to the container.
    """

    start: int | None = None
    code: Field | None = None
    entrypoint: Field | None = None
    escapes: list[tuple[Field, str]] = field(default_factory=list)
    mounts: list[Field] = field(default_factory=list)
    stdin_shell: bool = False  # ssh HOST with no command: the remote shell reads stdin


def _value(fields: list[Field], j: int, text: str) -> tuple[str, Field | None, int]:
    """The option at ``j``: (option name, its argument field or None, next index)."""
    if text.startswith("--"):
        opt, eq, val = text.partition("=")
        if eq:
            f = fields[j]
            return opt, Field(val, f.span, f.taint), j + 1
        return opt, None, j + 1
    return text[:2], None, j + 1


def parse_remote(name: str, fields: list[Field], i: int) -> Remote | None:
    """Parse ``fields[i:]`` (the words after ``name``); None when ``name`` is not remote.

    Linear in the number of fields.
    """
    if name == "ssh":
        return _ssh(fields, i)
    if name == "nsenter":
        return _nsenter(fields, i)
    if name in ("kubectl", "oc"):
        return _kubectl(fields, i)
    if name in ("docker", "podman", "nerdctl", "docker-compose", "podman-compose"):
        return _docker(fields, i, compose=name.endswith("compose"))
    return None


def _ssh(fields: list[Field], j: int) -> Remote:
    n = len(fields)
    out = Remote()
    host_seen = False
    while j < n:
        t = fields[j].text
        if not host_seen and t.startswith("-") and len(t) > 1 and fields[j].static:
            if t in _SSH_NO_COMMAND or t[:2] in _SSH_NO_COMMAND:
                return out
            if t == "--":
                j += 1
                continue
            k = 1
            step = 1
            while k < len(t):
                if t[k] in SSH_ARG_LETTERS:
                    step = 2 if k + 1 == len(t) else 1
                    break
                k += 1
            j += step
            continue
        if not host_seen:
            host_seen = True
            j += 1
            continue
        break
    if not host_seen:
        return out
    if j >= n:
        out.stdin_shell = True
        return out
    if fields[j].text == "--":
        j += 1
        if j >= n:
            out.stdin_shell = True
            return out
    rest = fields[j:]
    text = " ".join(f.text for f in rest)
    out.code = Field(text, (rest[0].span[0], rest[-1].span[1]),
                     frozenset().union(*(f.taint for f in rest)))
    return out


def _nsenter(fields: list[Field], j: int) -> Remote:
    """nsenter's options (they precede its command): ``-t 1`` / ``--all`` is the host."""
    out = Remote()
    n = len(fields)
    while j < n and fields[j].text.startswith("-"):
        t = fields[j].text
        nxt = fields[j + 1].text if j + 1 < n else ""
        if (t in ("-t", "--target") and nxt == "1") or t in ("-t1", "--target=1") or (
                t in ("-a", "--all")):
            out.escapes.append((fields[j], "nsenter enters the namespaces of PID 1 (the "
                                "host's init)"))
            break
        if t == "--":
            break
        j += 2 if t in ("-t", "--target", "-S", "-G", "-w", "-r", "--setuid", "--setgid",
                        "--wd", "--root") else 1
    return out


def _kubectl(fields: list[Field], j: int) -> Remote:
    out = Remote()
    n = len(fields)
    sub = None
    while j < n:
        t = fields[j].text
        if t == "--":
            break
        if t.startswith("-"):
            opt = t.split("=", 1)[0]
            j += 2 if opt in _KUBE_GLOBAL_ARG and "=" not in t else 1
            if sub in ("run", "debug") and t in ("--privileged", "--privileged=true",
                                                 "--profile=sysadmin"):
                out.escapes.append((fields[j - 1], f"kubectl {sub} {t} gives the pod the "
                                    "host"))
            continue
        if sub is None:
            sub = t
            if sub not in ("exec", "run", "debug", "attach"):
                return out
        elif sub == "debug" and t.startswith(("node/", "nodes/")):
            out.escapes.append((fields[j], "kubectl debug on a node mounts the host's "
                                "filesystem"))
        j += 1
    if sub in ("exec", "run", "debug") and j < n and fields[j].text == "--" and j + 1 < n:
        out.start = j + 1
    return out


def _docker(fields: list[Field], j: int, *, compose: bool) -> Remote:
    out = Remote()
    n = len(fields)
    while j < n and fields[j].text.startswith("-"):
        t = fields[j].text
        j += 2 if t in _DOCKER_GLOBAL_ARG else 1
    if j >= n:
        return out
    sub = fields[j].text
    j += 1
    if sub in ("container", "compose") and j < n:
        compose = compose or sub == "compose"
        while sub == "compose" and j < n and fields[j].text.startswith("-"):
            t = fields[j].text
            j += 2 if t in _DOCKER_GLOBAL_ARG else 1
        if j >= n:
            return out
        sub = fields[j].text
        j += 1
    if sub not in ("run", "create", "exec"):
        return out
    while j < n:
        f = fields[j]
        t = f.text
        if t == "--":
            j += 1
            continue
        if t.startswith("-") and len(t) > 1 and f.static:
            opt, val, nxt = _value(fields, j, t)
            takes = opt in _RUN_LONG_ARG if opt.startswith("--") else False
            if not opt.startswith("--"):
                k = 1
                while k < len(t):
                    if t[k] in _RUN_SHORT_ARG:
                        opt = "-" + t[k]
                        takes = True
                        if k + 1 < len(t):
                            val = Field(t[k + 1:].lstrip("="), f.span, f.taint)
                        break
                    k += 1
            if takes and val is None:
                val = fields[nxt] if nxt < n else None
                nxt += 1
            _container_option(out, f, opt, t, val)
            j = nxt
            continue
        j += 1  # the image (container, service): the command follows it
        break
    if j < n:
        out.start = j
    return out


def _container_option(out: Remote, f: Field, opt: str, text: str, val: Field | None) -> None:
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
            path = norm_path(source, None)
            if path is not None and (is_critical(path) or path.startswith(_SOCKETS)):
                out.escapes.append((val, f"mounts the host's {path} into the container"))


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
