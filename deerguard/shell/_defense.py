"""An agent turning off the host's defenses (``shell.defense-off``, ``shell.defense-weaken``,
``shell.setuid-backdoor``), and the dispatch to the anti-forensics and TLS rules.

What each tool does with its arguments decides:

* Services: ``systemctl stop|disable|mask|kill|freeze UNIT...``, ``service UNIT stop``,
  ``rc-service``/``update-rc.d``/``chkconfig``/``sv``/``initctl``, ``launchctl
  unload|bootout|disable|remove|stop`` of a plist or label, ``pkill``/``killall`` with a
  terminating signal: when the unit is a security control (audit, SELinux/AppArmor, host
  firewall, EDR and monitoring agents, the system logger). ``status``/``restart``/``reload``,
  ``killall -HUP rsyslogd`` and other units stay as they were.
* Modes: ``setenforce 0|permissive``, ``aa-teardown``, ``auditctl -D|-e 0|-d|-W`` and a
  rule that silences events (``-a never,exit``, ``-a always,exclude``),
  ``sysctl [-w] KEY=VALUE`` for kernel hardening keys (ASLR, module loading, kexec,
  mmap_min_addr), ``spctl --master-disable``, ``csrutil disable``, ``defaults write
  ...com.apple.alf globalstate 0``, ``socketfilterfw --setglobalstate off``, ``pfctl -d``,
  ``firewall-cmd --set-default-zone=trusted``, ``netsh advfirewall set ... state off``,
  ``fdesetup disable``, ``grubby --args selinux=0`` (or ``audit=0``, ``apparmor=0``...).
* Weakening for debugging or one program (warn): ``kernel.yama.ptrace_scope=0``,
  ``kptr_restrict``/``dmesg_restrict``/``fs.protected_*`` to 0, ``aa-complain``/
  ``aa-disable``/``apparmor_parser -R`` of a profile, ``semanage permissive -a``, removing the
  macOS quarantine flag (``xattr -d com.apple.quarantine``, ``xattr -c``).
* Root backdoors: ``chmod u+s|4755`` or ``setcap cap_setuid|cap_sys_admin|...+ep`` on a shell,
  an interpreter, a program that runs commands (``find``, ``vim``, ``env``...), or a copy of
  one made earlier in the command (``cp /bin/bash /tmp/.b && chmod 4755 /tmp/.b``). Setuid on
  another file keeps the ``shell.chmod-world`` warn.

Cloud accounts and clusters (``aws``, ``gcloud``, ``az``, ``kubectl``, ``oc``): audit and
threat detection off, guards weakened, access granted (``_cloudguard``, ``_cloudiam``).

Severities: switching off audit, SELinux, AppArmor, an EDR agent, the firewall or kernel
hardening, and setuid-root interpreters, have no everyday agent use and leave the host open
after the command (block). Some setup guides (kubeadm's) disable SELinux and firewalld: a
human should take that step. Debug-oriented knobs are routine for profilers and debuggers
(warn).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._cloudguard import CLOUD_CONTROL_PROGRAMS, cloud_controls
from ._deletes import plain_operands
from ._guardoff import guard_write
from ._resolve import Invocation
from ._setuid import SETUID_PROGRAMS, backdoor
from ._tamper import (
    HISTORY_VARS,
    TAMPER_PROGRAMS,
    history_variable,
    tamper_program,
    tamper_write,
)
from ._tlsoff import TLS_PROGRAMS, TLS_VARS, tls_program, tls_variable, tls_write
from ._windefense import WIN_DEFENSE_PROGRAMS, win_defense
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["DEFENSE_PROGRAMS", "DEFENSE_VARS", "defense_program", "defense_variable",
           "defense_write"]

_SERVICE_TOOLS = frozenset({"systemctl", "service", "rc-service", "rc-update", "update-rc.d",
                            "chkconfig", "sv", "initctl", "invoke-rc.d", "launchctl"})
_KILLERS = frozenset({"pkill", "killall", "kill"})
# Security agents' own control programs: (words that must all appear) -> what they do.
_AGENT_CTLS: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "falconctl": ((("unload",), "unloads CrowdStrike Falcon"),
                  (("uninstall",), "uninstalls CrowdStrike Falcon")),
    "mdatp": ((("real-time-protection", "disabled"), "turns off Defender real-time "
               "protection"),),
    "sentinelctl": ((("unload",), "unloads SentinelOne"), (("unprotect",), "turns off "
                    "SentinelOne's tamper protection"), (("stop",), "stops SentinelOne")),
    "wazuh-control": ((("stop",), "stops the Wazuh agent"),),
    "ossec-control": ((("stop",), "stops the OSSEC agent"),),
    "osqueryctl": ((("stop",), "stops osquery"),),
}
_CONTROLS = frozenset({"setenforce", "aa-teardown", "aa-complain", "aa-disable",
                       "apparmor_parser", "semanage", "auditctl", "sysctl", "spctl",
                       "csrutil", "defaults", "socketfilterfw", "pfctl", "firewall-cmd",
                       "netsh", "fdesetup", "xattr", "grubby"}) | SETUID_PROGRAMS
_OWN = _SERVICE_TOOLS | _KILLERS | _CONTROLS | frozenset(_AGENT_CTLS)
DEFENSE_PROGRAMS = _OWN | TAMPER_PROGRAMS | TLS_PROGRAMS | WIN_DEFENSE_PROGRAMS | \
    CLOUD_CONTROL_PROGRAMS
"""Programs :func:`defense_program` has rules for (any other name costs one lookup)."""
DEFENSE_VARS = HISTORY_VARS | TLS_VARS

# Words of a unit, plist or process name that name a security control (the name is split
# on non-alphanumerics: crowdstrike-falcon-sensor, com.crowdstrike.falcond, auditd.service).
_SECURITY_WORDS = frozenset({
    "auditd", "apparmor", "selinux", "firewalld", "ufw", "nftables", "iptables",
    "ip6tables", "netfilter", "shorewall", "falco", "falcond", "falconctl", "crowdstrike",
    "osqueryd", "osquery", "wazuh", "ossec", "sysmon", "sysmonforlinux", "clamd", "clamav",
    "freshclam", "fail2ban", "crowdsec", "auditbeat", "mdatp", "wdav", "sentinelone",
    "sentinelagent", "sentineld", "cbagentd", "carbonblack", "cbdaemon", "cylance",
    "cylancesvc", "taniumclient", "tanium", "qualys", "sophos", "aide", "suricata", "snort",
    "zeek", "tripwire", "samhain", "rsyslog", "rsyslogd", "syslog", "syslogd", "journald",
    "alf", "xprotect", "littlesnitch", "lulu", "blockblock", "santad", "rapid7", "guardduty",
    "auoms", "omiagent"})
_STOPS = frozenset({"stop", "disable", "mask", "kill", "freeze"})
_LAUNCH_STOPS = frozenset({"unload", "bootout", "disable", "remove", "stop", "kill"})
_SYSTEMCTL_ARG = "tspHMno"


_NON_WORD = re.compile(r"[^a-z0-9]+")


def _security(text: str) -> bool:
    """True when a unit, label, plist path or process pattern names a security control."""
    low = text.lower()
    if "falcon-sensor" in low or "elastic-endpoint" in low:
        return True
    return any(word in _SECURITY_WORDS for word in _NON_WORD.split(low))


def _off(run: Run, f: Field, what: str) -> None:
    run.add("shell.defense-off", f.span, f"{what}: turns off a host security control", None)


def _weaken(run: Run, f: Field, what: str) -> None:
    run.add("shell.defense-weaken", f.span, f"{what}: weakens a host security control", None)


def _services(run: Run, inv: Invocation) -> None:
    name = inv.name
    words = plain_operands(inv.args, _SYSTEMCTL_ARG if name == "systemctl" else "")
    texts = [f.text for f in words]
    units: list[Field] = []
    if name in ("systemctl", "initctl", "sv"):
        if texts and (texts[0] in _STOPS or (name == "sv" and texts[0] in ("down", "d"))):
            units = words[1:]
    elif name == "launchctl":
        if texts and texts[0] in _LAUNCH_STOPS:
            units = words[1:]
    elif name in ("service", "rc-service", "invoke-rc.d"):
        if len(texts) >= 2 and texts[1] in ("stop", "disable", "zap"):
            units = words[:1]
    elif name == "rc-update":
        if texts and texts[0] in ("del", "delete"):
            units = words[1:]
    elif name in ("update-rc.d", "chkconfig"):
        if len(texts) >= 2 and texts[1] in ("disable", "remove", "off"):
            units = words[:1]
    for f in units:
        if _security(f.text):
            _off(run, f, f"{name} {texts[0]} {f.text}")
            return


_NOT_KILLING = frozenset({"HUP", "USR1", "USR2", "CONT", "0", "WINCH", "1", "10", "12", "18",
                          "28"})


def _killers(run: Run, inv: Invocation) -> None:
    args = inv.args
    signal = ""
    values = "gGPstuUFn" if inv.name == "pkill" else "suoyn" if inv.name == "killall" else \
        "sn"
    operands: list[Field] = []
    skip = ""
    for f in args:
        t = f.text
        if skip:
            if skip == "s":
                signal = t
            skip = ""
        elif t in ("--signal", "-s"):
            skip = "s"
        elif t.startswith("--signal="):
            signal = t[len("--signal="):]
        elif t.startswith("-") and len(t) > 1:
            if t[1:].isdecimal() or t[1:].isupper():
                signal = t[1:]
            elif len(t) == 2 and t[1] in values:
                skip = t[1]
        else:
            operands.append(f)
    signal = signal.upper().removeprefix("SIG")
    if signal in _NOT_KILLING:
        return
    for f in operands:
        if inv.name == "kill":
            # kill $(pidof auditd), kill -9 `pgrep -f falco`: the process ids of an agent.
            what = _pid_lookup(run, f)
            if what is not None:
                _off(run, f, f"kill {what} stops a security agent")
                return
        elif _security(f.text):
            _off(run, f, f"{inv.name} {f.text} stops a security agent")
            return


def _pid_lookup(run: Run, f: Field) -> str | None:
    """The source of a kill operand that looks up a security agent's process ids."""
    if f.static:
        return None
    start, end = f.span
    text = run.text_stack[-1]
    source = text[start:end] if 0 <= start < end <= len(text) and end - start < 256 else ""
    if ("pidof" in source or "pgrep" in source) and _security(source):
        return source
    return None


# sysctl keys: (value that is safe or None, "off" | "weaken") -> any other value reports.
_SYSCTL = {
    "kernel.randomize_va_space": ("2", "off"),
    "kernel.modules_disabled": ("1", "off"),
    "kernel.kexec_load_disabled": ("1", "off"),
    "vm.mmap_min_addr": (None, "off"),
    "kernel.yama.ptrace_scope": (None, "weaken"),
    "kernel.kptr_restrict": (None, "weaken"),
    "kernel.dmesg_restrict": (None, "weaken"),
    "kernel.unprivileged_bpf_disabled": (None, "weaken"),
    "fs.protected_symlinks": (None, "weaken"),
    "fs.protected_hardlinks": (None, "weaken"),
    "fs.protected_regular": (None, "weaken"),
    "fs.protected_fifos": (None, "weaken"),
}
_ROOT_HOOKS = ("kernel.core_pattern", "kernel.modprobe", "kernel.hotplug")


def _sysctl(run: Run, inv: Invocation) -> None:
    for f in inv.args:
        key, eq, value = f.text.partition("=")
        if not eq or key.startswith("-"):
            continue
        key = key.strip().replace("/", ".")
        value = value.strip()
        rule = _SYSCTL.get(key)
        if rule is not None:
            safe, kind = rule
            bad = value != safe if safe is not None else value == "0"
            if bad and kind == "off":
                _off(run, f, f"sysctl sets {key}={value}")
            elif bad:
                _weaken(run, f, f"sysctl sets {key}={value}")
        elif key in _ROOT_HOOKS and (key != "kernel.core_pattern" or value.startswith("|")):
            run.add("shell.persistence", f.span, f"sysctl sets {key}={value}: the kernel "
                    "runs that program as root", None)


def _controls(run: Run, inv: Invocation) -> None:
    name = inv.name
    args = inv.args
    texts = [f.text for f in args]
    span = inv.word
    if name == "setenforce":
        if any(t.lower() in ("0", "permissive") for t in texts):
            _off(run, span, "setenforce puts SELinux in permissive mode")
    elif name == "aa-teardown":
        _off(run, span, "aa-teardown unloads every AppArmor profile")
    elif name in ("aa-complain", "aa-disable") and texts:
        _weaken(run, span, f"{name} stops enforcing AppArmor profiles")
    elif name == "apparmor_parser" and any(t in ("-R", "--remove") for t in texts):
        _weaken(run, span, "apparmor_parser -R unloads AppArmor profiles")
    elif name == "semanage" and texts[:1] == ["permissive"] and (
            "-a" in texts or "--add" in texts):
        _weaken(run, span, "semanage permissive makes an SELinux domain unconfined")
    elif name == "auditctl":
        for index, t in enumerate(texts):
            nxt = texts[index + 1] if index + 1 < len(texts) else ""
            if t in ("-D", "-d", "-W") or (t == "-e" and nxt == "0") or t == "-e0":
                _off(run, args[index], f"auditctl {t} removes audit rules or stops auditing")
                return
            if t in ("-a", "-A") and _suppresses(nxt):
                _off(run, args[index], f"auditctl {t} {nxt} stops auditing the events it "
                     "matches")
                return
    elif name == "sysctl":
        _sysctl(run, inv)
    elif name == "spctl":
        if any(t in ("--master-disable", "--global-disable") or t == "--disable" and len(
                texts) == 1 for t in texts):
            _off(run, span, "spctl turns off Gatekeeper")
    elif name == "csrutil":
        if "disable" in texts:
            _off(run, span, "csrutil disable turns off System Integrity Protection")
    elif name == "defaults":
        _defaults(run, inv, texts)
    elif name == "socketfilterfw":
        for index, t in enumerate(texts):
            if t.startswith("--setglobalstate") and (
                    t.endswith("=off") or texts[index + 1:index + 2] == ["off"]):
                _off(run, span, "socketfilterfw turns off the macOS application firewall")
    elif name == "pfctl":
        if "-d" in texts or any(t.startswith("-F") and t[2:] in ("", "a", "all", "rules")
                                for t in texts if t.startswith("-F")):
            _off(run, span, "pfctl disables or flushes the packet filter")
    elif name == "firewall-cmd":
        for index, t in enumerate(texts):
            zone = t.partition("=")[2] if t.startswith("--set-default-zone=") else \
                texts[index + 1] if t == "--set-default-zone" and index + 1 < len(texts) \
                else ""
            if zone in ("trusted", "drop-none"):
                _off(run, args[index], "firewall-cmd makes every connection trusted")
    elif name == "netsh":
        low = [t.lower() for t in texts]
        if "advfirewall" in low and "state" in low and "off" in low:
            _off(run, span, "netsh turns off the Windows firewall")
    elif name == "grubby":
        # grubby --update-kernel ALL --args selinux=0: every later boot runs without it.
        for f in args:
            for word in f.text.removeprefix("--args=").split():
                if word in _BOOT_OFF:
                    _off(run, f, f"grubby adds the kernel parameter {word}")
                    return
    elif name == "fdesetup":
        if "disable" in texts:
            _off(run, span, "fdesetup disable decrypts the disk (FileVault off)")
    elif name == "xattr":
        opts = "".join(t[1:] for t in texts if t.startswith("-"))
        if "c" in opts or ("d" in opts and any(t == "com.apple.quarantine" for t in texts)):
            _weaken(run, span, "xattr removes the macOS quarantine flag, so Gatekeeper "
                    "does not check the program")
    elif name in SETUID_PROGRAMS:
        backdoor(run, inv)


def _suppresses(rule: str) -> bool:
    """An audit rule ``LIST,ACTION`` (either order) that silences events: ``never`` on a
    syscall/task/user list, or ``always`` on the ``exclude`` list (records dropped)."""
    parts = {p.strip().lower() for p in rule.split(",")}
    return "never" in parts and "exclude" not in parts or parts == {"always", "exclude"}


_BOOT_OFF = frozenset({"selinux=0", "enforcing=0", "apparmor=0", "audit=0", "security=none",
                       "lsm=", "nokaslr", "module.sig_enforce=0", "lockdown=none"})


def _defaults(run: Run, inv: Invocation, texts: list[str]) -> None:
    if "write" not in texts:
        return
    low = [t.lower() for t in texts]
    index = low.index("write")
    domain = low[index + 1] if index + 1 < len(low) else ""
    key = low[index + 2] if index + 2 < len(low) else ""
    value = low[-1] if len(low) > index + 3 else ""
    if domain.endswith("com.apple.alf") and key == "globalstate" and value == "0":
        _off(run, inv.word, "defaults turns off the macOS application firewall")
    elif domain.endswith("com.apple.launchservices") and key == "lsquarantine" and \
            value in ("false", "no", "0"):
        _off(run, inv.word, "defaults turns off the macOS download quarantine")
    elif domain.endswith("com.apple.security.libraryvalidation") and \
            key == "disablelibraryvalidation" and value in ("true", "yes", "1"):
        _off(run, inv.word, "defaults turns off library validation")


def defense_program(run: Run, inv: Invocation, stdin_text: str | None) -> None:
    """Report a program that turns off, weakens or bypasses a defense, or hides tracks."""
    name = inv.name
    if name in _OWN:
        if name in _SERVICE_TOOLS:
            _services(run, inv)
        elif name in _KILLERS:
            _killers(run, inv)
        elif name in _AGENT_CTLS:
            texts = {f.text.lower() for f in inv.args}
            for words, what in _AGENT_CTLS[name]:
                if all(w in texts for w in words):
                    _off(run, inv.word, f"{name} {what}")
                    break
        else:
            _controls(run, inv)
    if name in CLOUD_CONTROL_PROGRAMS:
        cloud_controls(run, inv, stdin_text)  # cloud audit off, IAM grants, ingress from 0.0.0.0/0
    if name in WIN_DEFENSE_PROGRAMS:
        win_defense(run, inv)  # Set-MpPreference, reg add ...Defender, sc stop WinDefend
    if name in TAMPER_PROGRAMS:
        tamper_program(run, inv)
    if name in TLS_PROGRAMS:
        tls_program(run, inv)
    if name == "tee" and stdin_text is not None:
        for f in inv.args:
            if not f.text.startswith("-"):
                tls_write(run, f, stdin_text)


def defense_variable(run: Run, name: str, value: Field, span: tuple[int, int]) -> None:
    if name in HISTORY_VARS:
        history_variable(run, name, value, span)
    else:
        tls_variable(run, name, value, span)


def defense_write(run: Run, f: Field, op: str, text: str | None) -> None:
    """A redirection to ``f`` with ``op``, writing ``text`` when it is known."""
    tamper_write(run, f, op)
    if "deerguard" in f.text or DYN in f.text:
        guard_write(run, f)  # > $(which deerguard) (_guardoff)
    if text is not None and "rc" in f.text:
        tls_write(run, f, text)
