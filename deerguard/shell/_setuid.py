"""Root backdoors (``shell.setuid-backdoor``, block): ``chmod u+s|4755``, ``install -m 4755``
or ``setcap cap_setuid|cap_sys_admin|...+ep`` on a shell, an interpreter, a program that runs
commands when setuid (``find``, ``vim``, ``env``... as GTFOBins lists them), or a copy of one
made earlier in the command (``cp /bin/bash /tmp/.b && chmod 4755 /tmp/.b``).

Severity: block. A setuid-root or root-capable interpreter lets any local user (or a later
prompt-injected command) become root; an agent has no everyday reason to make one. Setuid on
another file keeps the ``shell.chmod-world`` warn, and benign capabilities
(``setcap cap_net_bind_service=+ep ./server``) keep the policy's ``setcap`` warn. The
container engine's socket opened to other users is the same backdoor: ``_enginesock``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _rules as R
from ._checks import chmod_mode, interpreter_family
from ._deletes import opts_and_operands, plain_operands
from ._enginesock import SOCKET_TOOLS, engine_socket
from ._paths import norm_path
from ._resolve import Invocation
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["SETUID_PROGRAMS", "backdoor"]

SETUID_PROGRAMS = frozenset({"setcap", "chmod", "cp", "install"}) | SOCKET_TOOLS


# Programs that give a shell or run commands when setuid (besides shells and interpreters).
_RUNS_COMMANDS = frozenset({
    "env", "find", "vim", "vi", "nvim", "view", "rvim", "less", "more", "man", "awk", "gawk",
    "mawk", "nawk", "gdb", "tar", "zip", "rsync", "nmap", "busybox", "socat", "nc", "ncat",
    "cp", "mv", "tee", "dd", "sed", "ed", "emacs", "openssl", "strace", "taskset", "xargs",
    "nice", "timeout", "stdbuf", "flock", "ionice", "setarch", "script", "make", "docker",
    "git", "ssh", "scp", "node", "php", "ruby", "perl", "python", "lua", "expect", "tclsh",
    "wish", "ld.so", "ld-linux-x86-64.so.2", "capsh", "chroot", "nohup", "sudo", "su",
    "journalctl", "systemctl", "pkexec", "run-parts", "start-stop-daemon", "watch"})
_ROOT_CAPS = ("cap_setuid", "cap_setgid", "cap_sys_admin", "cap_dac_override",
              "cap_dac_read_search", "cap_sys_ptrace", "cap_sys_module", "cap_fowner",
              "cap_chown", "cap_sys_rawio")
_TEMP_DIRS = ("/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/")



def _runs_commands(run: Run, text: str) -> bool:
    path = norm_path(text, run.cwd) or text
    base = path.rpartition("/")[2]
    stem = base.partition(".")[0]  # vim.basic, vim.tiny, bash.static
    if base in R.SHELLS or stem in R.SHELLS or base in _RUNS_COMMANDS or \
            stem in _RUNS_COMMANDS or interpreter_family(base) is not None:
        return True
    return path in run.runner_copies


def _root_caps(text: str) -> bool:
    """``cap_setuid+ep``, ``cap_setgid,cap_sys_admin=eip``, ``all+ep``, ``=ep`` (every
    capability): capabilities that make a program root-equivalent, being added."""
    low = text.lower()
    cut = min((low.find(c) for c in "+=-" if c in low), default=-1)
    if cut < 0 or low[cut] == "-":
        return False
    names = low[:cut]
    return not names or names == "all" or any(c in names for c in _ROOT_CAPS)


def backdoor(run: Run, inv: Invocation) -> None:
    name = inv.name
    if name in SOCKET_TOOLS:  # chmod 666 /var/run/docker.sock (_enginesock)
        engine_socket(run, inv)
        if name != "chmod":
            return
    if name in ("cp", "install"):
        operands = opts_and_operands(inv.args)[1] if name == "cp" else \
            plain_operands(inv.args, "mogSt")
        if len(operands) == 2 and not operands[0].text.startswith(_TEMP_DIRS) and \
                _runs_commands(run, operands[0].text):
            dest = norm_path(operands[1].text, run.cwd)
            if dest is not None and len(run.runner_copies) < 32:
                run.runner_copies.add(dest)  # cp /bin/bash /tmp/.b: /tmp/.b is a shell
        if name == "cp":
            return
    if name in ("chmod", "install"):
        found = chmod_mode(inv.args) if name == "chmod" else _install_mode(inv.args)
        if found is None or not found[2]:
            return
        targets = opts_and_operands(inv.args)[1][1:] if name == "chmod" else \
            plain_operands(inv.args, "mogSt")[-1:]
        how = f"{name} {found[0].text}"
    else:  # setcap CAPS FILE [CAPS FILE...]; -r FILE removes
        if any(f.text == "-r" for f in inv.args):
            return
        operands = plain_operands(inv.args, "n")
        targets = [f for caps, f in zip(operands[::2], operands[1::2], strict=False)
                   if _root_caps(caps.text)]
        how = "setcap " + (operands[0].text if operands else "")
    for f in targets:
        if _runs_commands(run, f.text):
            run.add("shell.setuid-backdoor", f.span, f"{how} lets anyone run {f.text} "
                    "with root's powers: a root backdoor", None)
            return


def _install_mode(args: list[Field]) -> tuple[Field, bool, bool] | None:
    """``install -m 4755 SRC DEST``: the mode, as :func:`chmod_mode` reports it."""
    for index, f in enumerate(args):
        t = f.text
        value = args[index + 1] if t in ("-m", "--mode") and index + 1 < len(args) else \
            Field(t[len("--mode="):], f.span) if t.startswith("--mode=") else \
            Field(t[2:], f.span) if t.startswith("-m") and len(t) > 2 else None
        if value is not None:
            return chmod_mode([value])
    return None
