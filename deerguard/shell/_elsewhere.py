"""More front ends that run a command somewhere else: other hosts, VMs, containers, fleets.

``_remote`` follows ssh, docker/podman and kubectl; these are the other ways an agent runs a
command on another machine or inside a container. Each is described by what it does with its
arguments, so the command it runs is classified like a local one (a recursive delete of ``/``
or a pipe into a shell blocks there too):

* a *code string* for a remote shell (a :class:`Remote` ``code``): ``vagrant ssh -c CMD``,
  ``gcloud ... ssh --command CMD`` (and the ssh arguments after ``--``), ``tsh ssh HOST
  CMD...``, ``autossh [-M P] HOST CMD...``, ``ansible HOSTS -a CMD`` (modules command, shell,
  raw), ``salt TGT cmd.run CMD``, ``pdsh``/``pssh``/``clush ... CMD...``, ``az vm run-command
  invoke --scripts CMD...``;
* an *argument vector* (``start``): ``sshpass [-p PW] CMD...``, ``mosh HOST [--] CMD...``,
  ``oc rsh POD CMD...``, ``lxc``/``incus exec NAME [--] CMD...``, ``multipass exec VM [--]
  CMD...``, ``toolbox run CMD...``, ``distrobox enter NAME -- CMD...``, ``systemd-nspawn
  [opts] CMD...``, ``crictl exec C CMD...``, ``runc exec ID CMD...``, ``ctr run IMAGE ID
  CMD...``, ``ctr task exec --exec-id X C CMD...``.

Container escapes through the low-level runtimes share ``_remote``'s option rules
(``ctr run --privileged``, ``--mount type=bind,src=/...``, ``--with-ns pid:/proc/1/ns/pid``,
``runc exec --cap CAP_SYS_ADMIN``). Running a command through the runtime itself (``runc
exec``, ``ctr run``/``task exec``, ``crictl exec``) bypasses the engine's and the cluster's
authorization and audit and runs as root in the container: it warns (``privilege``), as
``sudo`` does. Every parser is linear in the number of words.
"""

from __future__ import annotations

from ._container import SSH_ARG_LETTERS, Remote, container_option
from ._words import Field

__all__ = ["ELSEWHERE", "parse_elsewhere"]

ELSEWHERE = frozenset({"vagrant", "gcloud", "tsh", "autossh", "ansible", "salt", "salt-ssh",
                       "pdsh", "pssh", "parallel-ssh", "clush", "az", "sshpass", "mosh", "oc",
                       "lxc", "incus", "multipass", "toolbox", "distrobox", "distrobox-enter",
                       "systemd-nspawn", "crictl", "runc", "crun", "ctr"})
"""Programs :func:`parse_elsewhere` knows (``oc`` only for ``rsh``)."""

_RUNTIME_WARN = "runs a command in a container through the low-level runtime, as root by " \
    "default and past the engine's or the cluster's authorization and audit"


def _code(rest: list[Field]) -> Field | None:
    """The words ``rest`` joined with spaces: a command string for a remote shell."""
    if not rest:
        return None
    return Field(" ".join(f.text for f in rest), (rest[0].span[0], rest[-1].span[1]),
                 frozenset().union(*(f.taint for f in rest)))


def _skip(fields: list[Field], j: int, takes: frozenset[str], short: str = "") -> int:
    """Skip options from ``j``: ``takes`` (long or short) consume the next word unless
    written ``--opt=V``; a short cluster ending in a letter of ``short`` consumes it too.
    Stops at ``--`` (not skipped) or the first operand."""
    n = len(fields)
    while j < n:
        t = fields[j].text
        if t == "--" or not t.startswith("-") or len(t) < 2:
            return j
        if t in takes:
            j += 2
        elif not t.startswith("--") and short and len(t) > 1 and any(
                c in short for c in t[1:]):
            k = next(i for i, c in enumerate(t[1:], 1) if c in short)
            j += 2 if k + 1 == len(t) else 1
        else:
            j += 1
    return j


def _ssh_tail(fields: list[Field], j: int) -> Field | None:
    """ssh arguments after a host (``gcloud compute ssh vm -- -t CMD``): options, then the
    remote command string."""
    return _code(fields[_skip(fields, j, frozenset(), SSH_ARG_LETTERS):])


def _after_dashes(fields: list[Field], j: int) -> int | None:
    """The index after the first ``--`` at or after ``j``; None when there is none."""
    for k in range(j, len(fields)):
        if fields[k].text == "--":
            return k + 1
    return None


def _option_value(fields: list[Field], j: int, names: tuple[str, ...]) -> Field | None:
    """The value of the first of ``names`` (``--opt V`` or ``--opt=V``) from ``j`` on, before
    any ``--``."""
    n = len(fields)
    while j < n:
        f = fields[j]
        t = f.text
        if t == "--":
            return None
        if t in names and j + 1 < n:
            return fields[j + 1]
        for name in names:
            if t.startswith(name + "=") and name.startswith("--"):
                return Field(t[len(name) + 1:], f.span, f.taint)
            if not name.startswith("--") and t.startswith(name) and len(t) > len(name):
                return Field(t[len(name):], f.span, f.taint)  # -cCMD, -aARGS
        j += 1
    return None


def parse_elsewhere(name: str, fields: list[Field], i: int) -> Remote | None:
    """What ``name fields[i:]`` runs elsewhere; None when it runs nothing (or ``name`` is
    not one of :data:`ELSEWHERE`)."""
    parser = _PARSERS.get(name)
    return parser(fields, i) if parser is not None else None


def _vagrant(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields) or fields[j].text != "ssh":
        return None
    code = _option_value(fields, j + 1, ("-c", "--command"))
    if code is None:
        tail = _after_dashes(fields, j + 1)
        code = _ssh_tail(fields, tail) if tail is not None else None
    return Remote(code=code)


def _gcloud(fields: list[Field], j: int) -> Remote | None:
    # gcloud [flags] compute ssh VM, compute tpus tpu-vm ssh, cloud-shell ssh, ...
    end = _after_dashes(fields, j)
    head = fields[j:end - 1 if end is not None else len(fields)]
    if not any(f.text == "ssh" for f in head[:5]):
        return None
    code = _option_value(fields, j, ("--command",))
    if code is None and end is not None:
        code = _ssh_tail(fields, end)
    return Remote(code=code)


_TSH_ARG = frozenset({"-l", "--login", "-p", "--port", "-L", "--forward", "--cluster",
                      "--proxy", "--user", "-i", "--identity", "-o", "--option",
                      "--request-reason", "--request-id", "--auth"})


def _tsh(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields) or fields[j].text != "ssh":
        return None
    j = _skip(fields, j + 1, _TSH_ARG)
    if j < len(fields) and fields[j].text == "--":
        j += 1
    j = _skip(fields, j + 1, _TSH_ARG)  # the host, then options after it
    if j < len(fields) and fields[j].text == "--":
        j += 1
    return Remote(code=_code(fields[j:]))


def _autossh(fields: list[Field], j: int) -> Remote | None:
    j = _skip(fields, j, frozenset({"-M"}), SSH_ARG_LETTERS)
    if j < len(fields) and fields[j].text == "--":
        j += 1
    return Remote(code=_ssh_tail(fields, j + 1)) if j < len(fields) else None


_ANSIBLE_ARG = frozenset({"-i", "--inventory", "-l", "--limit", "-u", "--user", "-f",
                          "--forks", "-e", "--extra-vars", "-T", "--timeout", "-B",
                          "--background", "-P", "--poll", "-M", "--module-path", "-c",
                          "--connection", "--private-key", "--key-file", "--become-user",
                          "--become-method", "-t", "--tree", "--vault-id",
                          "--vault-password-file", "--ssh-common-args", "--ssh-extra-args",
                          "--scp-extra-args", "--sftp-extra-args", "-m", "--module-name",
                          "-a", "--args", "--playbook-dir", "-o", "--one-line"})
_ANSIBLE_CODE_MODULES = frozenset({"command", "shell", "raw", "ansible.builtin.command",
                                   "ansible.builtin.shell", "ansible.builtin.raw",
                                   "ansible.legacy.command", "ansible.legacy.shell"})


def _ansible(fields: list[Field], j: int) -> Remote | None:
    module = _option_value(fields, j, ("-m", "--module-name"))
    if module is not None and module.text not in _ANSIBLE_CODE_MODULES:
        return None
    args = _option_value(fields, j, ("-a", "--args"))
    if args is None:
        return None
    # command/shell take free-form CMD plus key=value options (chdir=, creates=): the
    # command words are what a shell (shell, raw) or an exec (command) runs.
    return Remote(code=args)


_SALT_RUN = frozenset({"cmd.run", "cmd.run_all", "cmd.run_stdout", "cmd.run_stderr",
                       "cmd.run_bg", "cmd.shell", "cmd.exec_code_all", "cmd.powershell"})


def _salt(fields: list[Field], j: int) -> Remote | None:
    for k in range(j, len(fields) - 1):
        if fields[k].text in _SALT_RUN:
            if fields[k].text == "cmd.powershell":
                return None
            return Remote(code=fields[k + 1])
    return None


_PDSH_ARG = frozenset({"-w", "-x", "-g", "-X", "-l", "-t", "-u", "-f", "-R", "-h", "-H",
                       "-p", "-o", "-e", "-O", "-m"})


def _pdsh(fields: list[Field], j: int) -> Remote | None:
    j = _skip(fields, j, _PDSH_ARG)
    if j < len(fields) and fields[j].text == "--":
        j += 1
    return Remote(code=_code(fields[j:]))


def _az(fields: list[Field], j: int) -> Remote | None:
    texts = [f.text for f in fields[j:j + 3]]
    if texts[:2] not in (["vm", "run-command"], ["vmss", "run-command"]):
        return None
    cid = _option_value(fields, j, ("--command-id",))
    if cid is not None and "PowerShell" in cid.text:
        return None
    for k in range(j, len(fields)):
        if fields[k].text == "--scripts":
            words = []
            for f in fields[k + 1:]:
                if f.text.startswith("--"):
                    break
                words.append(f)
            return Remote(code=Field("\n".join(f.text for f in words),
                                     (words[0].span[0], words[-1].span[1]),
                                     frozenset().union(*(f.taint for f in words)))
                          if words else None)
        if fields[k].text.startswith("--scripts="):
            f = fields[k]
            return Remote(code=Field(f.text[10:], f.span, f.taint))
    return None


def _argv(start: int, n: int) -> Remote | None:
    return Remote(start=start) if start < n else None


def _sshpass(fields: list[Field], j: int) -> Remote | None:
    return _argv(_skip(fields, j, frozenset(), "pfdP"), len(fields))


_MOSH_ARG = frozenset({"-p", "--port", "--client", "--server", "--ssh", "--predict",
                       "--family", "--bind-server", "--experimental-remote-ip"})


def _mosh(fields: list[Field], j: int) -> Remote | None:
    j = _skip(fields, j, _MOSH_ARG)
    if j < len(fields) and fields[j].text == "--":
        j += 1
    j += 1  # the host
    if j < len(fields) and fields[j].text == "--":
        j += 1
    return _argv(j, len(fields))


def _oc(fields: list[Field], j: int) -> Remote | None:
    j = _skip(fields, j, frozenset({"-n", "--namespace", "--context", "--kubeconfig",
                                    "--server", "--token", "--as"}))
    if j >= len(fields) or fields[j].text != "rsh":
        return None
    j = _skip(fields, j + 1, frozenset({"-c", "--container", "--shell", "--timeout", "-n",
                                        "--namespace", "-f", "--filename"}))
    if j < len(fields) and fields[j].text == "--":
        j += 1
    return _argv(j + 1, len(fields))  # rsh POD CMD...: without CMD, an interactive shell


_LXC_ARG = frozenset({"--cwd", "--env", "--group", "--user", "--mode", "--project",
                      "-n", "--env-file"})


def _lxc(fields: list[Field], j: int) -> Remote | None:
    j = _skip(fields, j, frozenset({"--project"}))
    if j >= len(fields) or fields[j].text != "exec":
        return None
    j = _skip(fields, j + 1, _LXC_ARG)
    j = _skip(fields, j + 1, _LXC_ARG)  # the instance, then options after it
    if j < len(fields) and fields[j].text == "--":
        j += 1
    return _argv(j, len(fields))


def _multipass(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields) or fields[j].text != "exec":
        return None
    j = _skip(fields, j + 1, frozenset({"-d", "--working-directory"}))
    j = _skip(fields, j + 1, frozenset({"-d", "--working-directory"}))
    if j < len(fields) and fields[j].text == "--":
        j += 1
    return _argv(j, len(fields))


def _toolbox(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields) or fields[j].text != "run":
        return None
    j = _skip(fields, j + 1, frozenset({"-c", "--container", "-d", "--distro", "-r",
                                        "--release", "--preserve-fds"}))
    if j < len(fields) and fields[j].text == "--":
        j += 1
    return _argv(j, len(fields))


def _distrobox(fields: list[Field], j: int) -> Remote | None:
    if j < len(fields) and fields[j].text == "enter":
        j += 1
    after = _after_dashes(fields, j)
    return _argv(after, len(fields)) if after is not None else None


_NSPAWN_ARG = frozenset({"-D", "--directory", "-i", "--image", "-M", "--machine", "-u",
                         "--user", "-E", "--setenv", "-S", "--slice", "--template",
                         "--bind", "--bind-ro", "--tmpfs", "--overlay", "--overlay-ro",
                         "--network-interface", "--network-bridge", "--network-zone",
                         "--network-veth-extra", "-p", "--port", "--capability",
                         "--drop-capability", "--chdir", "--private-users",
                         "--property", "-L", "--selinux-apifs-context", "-Z",
                         "--selinux-context", "--kill-signal", "--link-journal",
                         "--resolv-conf", "--timezone", "--console", "--pivot-root",
                         "--register", "--uuid", "--oci-bundle", "--root-hash",
                         "--hostname", "--rlimit", "--oom-score-adjust", "--cpu-affinity",
                         "--personality", "--volatile", "--notify-ready",
                         "--suppress-sync", "--load-credential", "--set-credential",
                         "--system-call-filter", "--no-new-privileges"})


def _nspawn(fields: list[Field], j: int) -> Remote | None:
    j = _skip(fields, j, _NSPAWN_ARG)
    if j < len(fields) and fields[j].text == "--":
        j += 1
    return _argv(j, len(fields))


_CRICTL_ARG = frozenset({"--timeout", "--transport", "--label", "--name", "--namespace",
                         "--pod", "--state", "--image", "-r", "--runtime-endpoint", "-i",
                         "--image-endpoint", "-c", "--config"})


def _crictl(fields: list[Field], j: int) -> Remote | None:
    j = _skip(fields, j, _CRICTL_ARG)
    if j >= len(fields) or fields[j].text != "exec":
        return None
    out = Remote(privilege=[(fields[j], f"crictl exec {_RUNTIME_WARN}")])
    j = _skip(fields, j + 1, _CRICTL_ARG)
    if j < len(fields) and fields[j].text == "--":
        j += 1
    j = _skip(fields, j + 1, _CRICTL_ARG)  # the container
    if j < len(fields) and fields[j].text == "--":
        j += 1
    out.start = j if j < len(fields) else None
    return out


_RUNC_GLOBAL = frozenset({"--root", "--log", "--log-format", "--criu", "--rootless"})
_RUNC_ARG = frozenset({"--console-socket", "--cwd", "--env", "-e", "--user", "-u",
                       "--additional-gids", "-g", "--process", "-p", "--pid-file",
                       "--process-label", "--apparmor", "--cap", "-c", "--preserve-fds",
                       "--cgroup", "--bundle", "-b"})


def _runc(fields: list[Field], j: int) -> Remote | None:
    j = _skip(fields, j, _RUNC_GLOBAL)
    if j >= len(fields) or fields[j].text not in ("exec", "run"):
        return None
    sub = fields[j]
    out = Remote(privilege=[(sub, f"runc {sub.text} {_RUNTIME_WARN}")])
    j += 1
    n = len(fields)
    while j < n and fields[j].text.startswith("-") and fields[j].text != "--":
        f = fields[j]
        opt, eq, val = f.text.partition("=")
        value = Field(val, f.span, f.taint) if eq else (fields[j + 1] if j + 1 < n else None)
        if opt in ("--cap", "-c") and value is not None:
            container_option(out, f, "--cap-add", opt, value)
        j += 1 if eq or opt not in _RUNC_ARG else 2
    if j < n and fields[j].text == "--":
        j += 1
    if sub.text == "run":
        return out  # runc run ID: the command is in the bundle's config.json
    out.start = j + 1 if j + 1 < n else None
    return out


_CTR_GLOBAL = frozenset({"-a", "--address", "-n", "--namespace", "--timeout",
                         "--connect-timeout"})
_CTR_ARG = frozenset("""--mount --env --env-file --label --snapshotter --config --cwd
    --runtime --runtime-config-path --with-ns --pid-file --fifo-dir --cgroup --platform
    --cpus --cpu-shares --cpu-quota --cpu-period --memory-limit --device --seccomp-profile
    --apparmor-profile --apparmor-default-profile --user -u --gpus --hostname --annotation
    --uidmap --gidmap --cap-add --cap-drop --rdt-class --blockio-class --sandbox
    --snapshotter-label --log-uri --exec-id --ulimit --cpuset-cpus --cpuset-mems
    --rootfs-propagation --cni-config --net-host-ip""".split())


def _ctr(fields: list[Field], j: int) -> Remote | None:
    j = _skip(fields, j, _CTR_GLOBAL)
    n = len(fields)
    if j >= n:
        return None
    sub = fields[j].text
    operands = 2  # run IMAGE ID CMD...
    if sub in ("task", "tasks", "t") and j + 1 < n and fields[j + 1].text == "exec":
        j += 1
        operands = 1  # task exec --exec-id X CONTAINER CMD...
    elif sub not in ("run", "r"):
        return None
    out = Remote(privilege=[(fields[j], f"ctr {fields[j].text} {_RUNTIME_WARN}")])
    j += 1
    while j < n:
        f = fields[j]
        t = f.text
        if t == "--":
            j += 1
            break
        if not t.startswith("-") or len(t) < 2:
            if operands == 0:
                break
            operands -= 1
            j += 1
            continue
        opt, eq, val = t.partition("=")
        takes = opt in _CTR_ARG and not eq
        value = Field(val, f.span, f.taint) if eq else (
            fields[j + 1] if takes and j + 1 < n else None)
        if opt in ("--privileged", "--privileged-without-host-devices") and (
                not eq or val == "true"):
            container_option(out, f, "--privileged", "--privileged", value)
        elif opt == "--with-ns" and value is not None and "/proc/1/" in value.text:
            out.escapes.append((value, f"--with-ns {value.text} joins the host's (PID 1's) "
                                "namespace"))
        elif opt in ("--mount", "--device", "--cap-add") and value is not None:
            container_option(out, f, opt, t, value)
        j += 2 if takes else 1
    out.start = j if j < n and operands == 0 else None
    return out


_PARSERS = {
    "vagrant": _vagrant, "gcloud": _gcloud, "tsh": _tsh, "autossh": _autossh,
    "ansible": _ansible, "salt": _salt, "salt-ssh": _salt, "pdsh": _pdsh, "pssh": _pdsh,
    "parallel-ssh": _pdsh, "clush": _pdsh, "az": _az, "sshpass": _sshpass, "mosh": _mosh,
    "oc": _oc, "lxc": _lxc, "incus": _lxc, "multipass": _multipass, "toolbox": _toolbox,
    "distrobox": _distrobox, "distrobox-enter": _distrobox, "systemd-nspawn": _nspawn,
    "crictl": _crictl, "runc": _runc, "crun": _runc, "ctr": _ctr,
}
