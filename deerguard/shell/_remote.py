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
escape from the other side. ``docker exec -u 0`` warns as a privilege change (like ``sudo``).

The other front ends (vagrant, gcloud, ansible, salt, pdsh, lxc, the low-level runtimes...)
are in ``_elsewhere``; :class:`Remote` and the option rules they share are in ``_container``.
"""

from __future__ import annotations

from ._cloudexec import CLOUD_EXEC, SHARED, parse_cloud_exec
from ._container import SSH_ARG_LETTERS, Remote, container_option
from ._elsewhere import ELSEWHERE, parse_elsewhere
from ._kubework import kube_remote
from ._words import Field

__all__ = ["CONTAINER_PROGRAMS", "SSH_ARG_LETTERS", "Remote", "parse_remote"]

CONTAINER_PROGRAMS = frozenset({"docker", "podman", "nerdctl", "docker-compose",
                                "podman-compose", "kubectl", "oc", "ssh", "nsenter"}) | ELSEWHERE \
    | CLOUD_EXEC
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
_SSH_NO_COMMAND = frozenset({"-N", "-V", "-G", "-W", "-O"})

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
    if name in CLOUD_EXEC:
        found = parse_cloud_exec(name, fields, i)
        if found is not None or name not in SHARED:
            return found  # az vm run-command invoke, gcloud compute ssh: asked below
    if name in ELSEWHERE:
        found = parse_elsewhere(name, fields, i)
        if found is not None or name != "oc":
            return found  # oc: only rsh here, its other commands are kubectl's
    if name == "ssh":
        return _ssh(fields, i)
    if name == "nsenter":
        return _nsenter(fields, i)
    if name in ("kubectl", "oc"):
        return kube_remote(fields, i)  # exec, run, debug, create job|cronjob|deployment
    if name in ("docker", "podman", "nerdctl", "docker-compose", "podman-compose"):
        return _docker(fields, i, compose=name.endswith("compose"))
    return None


def _ssh(fields: list[Field], j: int) -> Remote:
    n = len(fields)
    out = Remote()
    host_seen = False
    while j < n:
        t = fields[j].text
        if t.startswith("-") and len(t) > 1 and fields[j].static:
            # OpenSSH parses options after the host too (ssh host -t 'cmd'), up to the
            # first operand after it.
            if t in _SSH_NO_COMMAND or t[:2] in _SSH_NO_COMMAND:
                return out
            if t == "--":
                if host_seen:
                    break
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
        if _pid1(t, nxt) or t in ("-a", "--all"):
            out.escapes.append((fields[j], "nsenter enters the namespaces of PID 1 (the "
                                "host's init)"))
            break
        if t == "--":
            break
        j += 2 if t in ("-t", "--target", "-S", "-G", "-w", "-r", "--setuid", "--setgid",
                        "--wd", "--root") else 1
    return out


def _pid1(t: str, nxt: str) -> bool:
    """An nsenter option naming PID 1 (the host's init): ``-t 1``, ``-t1``, ``--target=1``,
    ``-at1`` (a cluster), or a namespace file of PID 1 given to an option (``--mount=/proc/1/
    ns/mnt``, ``-m/proc/1/ns/mnt``: those take their optional argument attached)."""
    if t.startswith("--"):
        opt, eq, val = t.partition("=")
        if opt == "--target":
            return (val if eq else nxt) == "1"
        return bool(eq) and val.startswith("/proc/1/")
    for k in range(1, len(t)):
        c = t[k]
        rest = t[k + 1:]
        if c == "t":
            return (rest or nxt) == "1"
        if c in "muinpUCTrw":
            return rest.startswith("/proc/1/")
        if c in "SG":
            return False
    return False


def _past_globals(fields: list[Field], j: int) -> int:
    """The index of the first word from ``j`` on that is not a docker global option (or
    its value)."""
    n = len(fields)
    while j < n and fields[j].text.startswith("-"):
        j += 2 if fields[j].text in _DOCKER_GLOBAL_ARG else 1
    return j


def _docker(fields: list[Field], j: int, *, compose: bool) -> Remote:
    out = Remote()
    n = len(fields)
    j = _past_globals(fields, j)
    if j >= n:
        return out
    sub = fields[j].text
    j += 1
    if sub in ("container", "compose") and j < n:
        compose = compose or sub == "compose"
        if sub == "compose":
            j = _past_globals(fields, j)
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
            container_option(out, f, opt, t, val)
            if sub == "exec" and opt in ("-u", "--user") and val is not None and \
                    val.text.partition(":")[0] in ("0", "root"):
                # like sudo: root in the container, whose image chose another user
                out.privilege.append((val, f"exec {t} {val.text} runs the command as root "
                                      "in the container"))
            j = nxt
            continue
        j += 1  # the image (container, service): the command follows it
        break
    if j < n:
        out.start = j
    return out
