"""Program rules that need the walk: git subcommands that run code, ``hash -p``, shutdown
through ``systemctl``/``loginctl``, storage destruction, and modes given to ``install``/``mkdir``.

* ``git rebase --exec CMD``, ``difftool -x CMD``, ``submodule foreach CMD``,
  ``filter-branch --tree-filter CMD`` run command strings (classified like ``sh -c``);
  ``git bisect run CMD ARGS`` runs a program (classified like a wrapper's command).
* ``hash -p /bin/rm x`` binds the name ``x`` to ``/bin/rm``: later ``x f`` runs rm.
* ``systemctl poweroff`` (``reboot``, ``halt``, ``kexec``, ``rescue``, ``isolate
  rescue.target``...) and ``loginctl poweroff`` do what the programs ``poweroff``...
  do: the policy's lists apply to those names, so denying ``poweroff`` denies them all.
* ``zpool destroy``, ``zfs destroy``, ``lvremove``, ``vgremove``, ``pvremove``,
  ``cryptsetup luksErase|erase|luksFormat``, ``btrfs subvolume delete /``,
  ``hdparm --security-erase``, ``nvme format|sanitize``, ``sg_format``,
  ``mdadm --zero-superblock`` destroy storage (``shell.disk-write``).
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from ._checks import chmod_mode
from ._deletes import plain_operands
from ._embedded import embedded_code
from ._git import config_codes, git_commands
from ._gitkeys import credential_stdin
from ._paths import is_critical, norm_path
from ._resolve import Invocation
from ._sysdrun import systemd_run
from ._units import unit_code
from ._vcsopt import VCS_PROGRAMS, vcs_option_codes
from ._winrun import WIN_RUNNERS, win_runner
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["CHAIN_EXTRAS", "PLAIN_EXTRAS", "chain_extras", "plain_extras"]

CHAIN_EXTRAS = frozenset({"machinectl", "gdb", "systemd-run"})
"""Programs with rules that apply also when they wrap another command."""

_STORAGE = frozenset({"zpool", "zfs", "lvremove", "vgremove", "pvremove", "cryptsetup",
                      "btrfs", "hdparm", "nvme", "sg_format", "sg_sanitize", "mdadm"})
_POWER_TOOLS = frozenset({"systemctl", "loginctl", "busctl", "dbus-send", "gdbus"})
PLAIN_EXTRAS = frozenset({"hash", "git", "mkdir", "install"}) | _STORAGE | _POWER_TOOLS \
    | VCS_PROGRAMS | WIN_RUNNERS
"""Programs :func:`plain_extras` has rules for."""


def chain_extras(run: Run, inv: Invocation, wrapper: bool) -> None:
    """``machinectl shell`` is a privilege change; ``gdb -ex CMD --args PROG`` still runs
    its ``-ex`` commands; ``systemd-run`` may start its command later or detached."""
    if inv.name == "machinectl":
        if [f.text for f in plain_operands(inv.args, "EMHp")[:1]] in (["shell"], ["login"]):
            run.add("shell.privilege", inv.word.span, "machinectl shell runs a shell as "
                    "another user (root by default)", None)
    elif inv.name == "systemd-run":
        systemd_run(run, inv)  # --on-calendar=..., a background service: _sysdrun
    elif wrapper:
        for code in embedded_code(Invocation(inv.name, inv.word, inv.args_until("--args"))):
            run.run_code(code, f"{inv.name} option", inv.word.span, None, positional=[])


def plain_extras(run: Run, inv: Invocation) -> None:
    name = inv.name
    if name == "git":
        codes, argvs = git_commands(inv)
        for owner, code in codes:
            run.run_code(code, owner, inv.word.span, None, positional=[])
        for code, secret in config_codes(inv):
            run.run_code(code, "git credential helper" if secret else "git config",
                         inv.word.span, credential_stdin(code.span) if secret else None,
                         positional=[])
        for argv in argvs:
            run.invoke(argv, None, [])
    elif name == "hash":
        _hash(run, inv)
    elif name in WIN_RUNNERS:  # msiexec /i fetched.msi, mshta http://...
        win_runner(run, inv)
    elif name in VCS_PROGRAMS:  # hg --config ui.ssh=CMD, svn --config-option ...tunnels
        for code, why in vcs_option_codes(name, inv.args):
            if why is not None:
                run.add("shell.vcs-config-exec", code.span, why, None)
            if code.text:
                run.run_code(code, f"{name} option", inv.word.span, None, positional=[])
    elif name in _POWER_TOOLS:
        if name == "systemctl" and (run.file_text or run.files):
            unit_code(run, inv)  # a unit written here: its Exec*= lines (_units)
        for target, sub in _power_targets(inv):
            for denied in target:
                run.policy_check(Invocation(denied, Field(denied, sub.span), [],
                                            (*inv.wrappers, name)), record=False)
    elif name in ("mkdir", "install"):
        mode = _mode_option(inv.args, "gotS" if name == "install" else "Z")
        if mode is not None:
            found = chmod_mode([mode])
            if found is not None and (found[1] or found[2]):
                run.add("shell.chmod-world", mode.span, f"{name} -m {mode.text} makes files "
                        "world-writable or setuid", None)
    else:
        reason = _storage(inv, run.cwd)
        if reason is not None:
            run.add("shell.disk-write", inv.word.span, reason, None)


def _hash(run: Run, inv: Invocation) -> None:
    """``hash -p PATH NAME...``: NAME runs PATH from now on (bash's command hash table)."""
    args = inv.args
    for index, f in enumerate(args):
        if f.text == "-p" and index + 2 < len(args):
            path = args[index + 1]
            run.add("shell.path-change", f.span, f"hash -p makes a command name run "
                    f"{path.text}, whatever PATH finds", None)
            for name in args[index + 2:]:
                if not name.text.startswith("-") and len(run.aliases) < 64:
                    run.aliases[name.text] = shlex.quote(path.text)
            return


_POWER_SUBS = {"poweroff": ("poweroff", "shutdown"), "reboot": ("reboot", "shutdown"),
               "halt": ("halt", "shutdown"), "kexec": ("kexec", "reboot"),
               "soft-reboot": ("reboot",), "emergency": ("init", "telinit"),
               "rescue": ("init", "telinit")}
_POWER_TARGETS = {"poweroff": "poweroff", "reboot": "reboot", "halt": "halt",
                  "kexec": "kexec", "soft-reboot": "soft-reboot", "ctrl-alt-del": "reboot",
                  "rescue": "rescue", "emergency": "emergency", "runlevel0": "poweroff",
                  "runlevel6": "reboot", "runlevel1": "rescue"}
_SYSTEMCTL_ARG = "tspHMno"


def _power_targets(inv: Invocation) -> list[tuple[tuple[str, ...], Field]]:
    """Program names whose effect ``systemctl SUB ...`` has, with the word that says so."""
    args = inv.args
    if inv.name in ("busctl", "dbus-send", "gdbus"):
        return _dbus_power(args)
    words = plain_operands(args, _SYSTEMCTL_ARG)
    if not words:
        return []
    sub = words[0].text
    if sub in _POWER_SUBS:
        return [(_POWER_SUBS[sub], words[0])]
    out: list[tuple[tuple[str, ...], Field]] = []
    if inv.name == "systemctl" and sub in ("isolate", "start", "restart", "reload-or-restart",
                                           "try-restart"):
        for f in words[1:]:
            unit = f.text
            if unit.endswith(".target"):
                unit = unit[:-len(".target")]
            elif sub != "isolate":
                continue  # start NAME: a service unless the suffix says otherwise
            what = _POWER_TARGETS.get(unit)
            if what is not None:
                out.append((_POWER_SUBS.get(what, (what,)), f))
    return out


_DBUS_POWER = {"PowerOff": "poweroff", "Reboot": "reboot", "Halt": "halt", "KExec": "kexec",
               "SoftReboot": "soft-reboot"}


def _dbus_power(args: list[Field]) -> list[tuple[tuple[str, ...], Field]]:
    """``busctl call org.freedesktop.login1 ... PowerOff b false``, ``dbus-send ...
    org.freedesktop.login1.Manager.Reboot``: logind's or systemd's power methods."""
    if not any("login1" in f.text or "systemd1" in f.text for f in args):
        return []
    for f in args:
        what = _DBUS_POWER.get(f.text.rsplit(".", 1)[-1])
        if what is not None:
            return [(_POWER_SUBS[what], f)]
    return []


def _mode_option(args: list[Field], arg_letters: str) -> Field | None:
    """The value of ``-m MODE``/``-mMODE``/``-pm MODE``/``--mode=MODE``."""
    for index, f in enumerate(args):
        t = f.text
        if t == "--":
            return None
        if t.startswith("--mode="):
            return Field(t[len("--mode="):], f.span, f.taint)
        if t == "--mode":
            return args[index + 1] if index + 1 < len(args) else None
        if t.startswith("-") and not t.startswith("--"):
            for pos in range(1, len(t)):
                if t[pos] == "m":
                    if pos + 1 < len(t):
                        return Field(t[pos + 1:], f.span, f.taint)
                    return args[index + 1] if index + 1 < len(args) else None
                if t[pos] in arg_letters:
                    break
    return None


_HDPARM_ERASE = ("--security-erase", "--trim-sector-ranges", "--write-sector",
                 "--make-bad-sector", "--fwdownload", "--dco-restore")


def _storage(inv: Invocation, cwd: str | None) -> str | None:
    """Why ``inv`` destroys a pool, volume, encrypted container or drive, or None."""
    name = inv.name
    texts = [f.text for f in inv.args]
    words = [t for t in texts if not t.startswith("-")]
    sub = words[0] if words else ""
    if name == "zpool" and sub in ("destroy", "labelclear"):
        return f"zpool {sub} destroys a storage pool"
    if name == "zfs" and sub == "destroy":
        flags = "".join(t[1:] for t in texts if t.startswith("-") and not t.startswith("--"))
        # A snapshot (@) or bookmark (#) alone is history, not data; -n is a dry run.
        if "n" not in flags and ("r" in flags or "R" in flags or any(
                "@" not in t and "#" not in t for t in words[1:])):
            return "zfs destroy destroys a dataset and its data"
    if name in ("lvremove", "vgremove", "pvremove") and words:
        return f"{name} destroys LVM volumes and their data"
    if name == "cryptsetup" and sub.lower() in ("lukserase", "erase", "luksformat"):
        return f"cryptsetup {sub} destroys the keys of an encrypted volume"
    if name == "btrfs" and len(words) >= 3 and "subvolume".startswith(sub) and len(sub) >= 2 \
            and "delete".startswith(words[1]):
        for t in words[2:]:
            path = norm_path(t, cwd)
            if path is not None and is_critical(path):
                return f"btrfs subvolume delete removes {path}"
    if name == "hdparm" and any(t.startswith(_HDPARM_ERASE) for t in texts):
        return "hdparm erases or overwrites the drive"
    if name == "nvme" and sub in ("format", "sanitize"):
        return f"nvme {sub} erases the drive"
    if name in ("sg_format", "sg_sanitize") and words:
        return f"{name} erases the drive"
    if name == "mdadm" and "--zero-superblock" in texts:
        return "mdadm --zero-superblock erases RAID metadata"
    return None
