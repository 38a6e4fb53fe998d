"""Windows Defender and other Windows defenses switched off (``shell.defense-off`` /
``shell.defense-weaken``), the Windows side of ``_defense``.

PowerShell cmdlets reach here through ``_pwshcmd``, which writes them as the bash-like command
lines this module reads (``set-mppreference -disablerealtimemonitoring True``); native
programs (``reg``, ``sc``, ``MpCmdRun``) are read as they are:

* ``Set-MpPreference``/``Add-MpPreference``: ``-DisableRealtimeMonitoring``,
  ``-DisableBehaviorMonitoring``, ``-DisableIOAVProtection``, ``-DisableScriptScanning``,
  ``-DisableIntrusionPreventionSystem``, ``-DisableBlockAtFirstSeen`` set to true, or
  ``-Severe|HighThreatDefaultAction Allow|NoAction`` turn protection off (block, like
  ``setenforce 0``); an exclusion (``-ExclusionPath``, ``-ExclusionExtension``,
  ``-ExclusionProcess``) of a drive root, a system or user-profile directory, temp folders, an
  executable file type or a shell or interpreter is protection off for everything there
  (block); any other exclusion (a build directory, a common dev tweak), cloud protection off
  (``-MAPSReporting 0``, ``-SubmitSamplesConsent 2``), PUA, network protection, controlled
  folder access or ASR rules disabled weaken it (warn). ``-Disable... $false`` and
  ``Remove-MpPreference`` pass;
* ``reg add ...\\Windows Defender... /v DisableAntiSpyware|DisableRealtimeMonitoring|...
  /d 1`` (also ``Set-ItemProperty -Path HKLM:\\...``): the same switches through policy;
* ``MpCmdRun -RemoveDefinitions`` removes the signatures;
* ``sc stop|delete|config ... start= disabled`` of a security service (WinDefend, WdNisSvc,
  MpsSvc, wscsvc, Sysmon, EventLog...).

Every reader is linear in the number of words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._resolve import Invocation
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["WIN_DEFENSE_PROGRAMS", "WIN_SERVICES", "win_defense"]

WIN_DEFENSE_PROGRAMS = frozenset({"set-mppreference", "reg", "reg.exe", "sc", "sc.exe",
                                  "mpcmdrun", "MpCmdRun", "mpcmdrun.exe", "MpCmdRun.exe"})
"""Programs :func:`win_defense` reads (``set-mppreference`` is ``_pwshcmd``'s spelling)."""
WIN_SERVICES = frozenset({"windefend", "wdnissvc", "wdfilter", "wdboot", "mpssvc", "wscsvc",
                          "securityhealthservice", "mdcoresvc", "sysmon64", "eventlog",
                          "bfe"})
"""Windows security services (words of ``_defense``'s security controls)."""

_OFF_SWITCHES = frozenset({"disablerealtimemonitoring", "disablebehaviormonitoring",
                           "disableioavprotection", "disablescriptscanning",
                           "disableintrusionpreventionsystem", "disableblockatfirstseen",
                           "disableantispyware", "disableantivirus", "disableonaccessprotection",
                           "disablescanonrealtimeenable"})
_WEAK_SWITCHES = frozenset({"disablearchivescanning", "disableremovabledrivescanning",
                            "disableemailscanning", "disablescanningnetworkfiles"})
_THREAT_ACTIONS = frozenset({"severethreatdefaultaction", "highthreatdefaultaction",
                             "moderatethreatdefaultaction", "lowthreatdefaultaction",
                             "unknownthreatdefaultaction"})
_ALLOW = frozenset({"allow", "noaction", "6", "9"})
_OFF_VALUES = frozenset({"0", "disabled", "false", "$false", "neversend", "2"})
_WEAK_OFF = {"mapsreporting": frozenset({"0", "disabled"}),
             "submitsamplesconsent": frozenset({"2", "neversend"}),
             "puaprotection": frozenset({"0", "disabled"}),
             "enablenetworkprotection": frozenset({"0", "disabled", "auditmode", "2"}),
             "enablecontrolledfolderaccess": frozenset({"0", "disabled", "auditmode", "2"}),
             "attacksurfacereductionrules_actions": frozenset({"0", "disabled"})}
_BROAD_DIRS = frozenset({"", "/", "~", "/users", "/windows", "/windows/system32",
                         "/windows/temp", "/tmp", "/programdata", "/program files",
                         "/program files (x86)", "~/appdata", "~/appdata/local",
                         "~/appdata/local/temp", "~/appdata/roaming", "~/downloads",
                         "~/desktop", "~/documents", "*", "/*"})
_RUNNABLE = frozenset({"exe", "dll", "ps1", "psm1", "bat", "cmd", "vbs", "vbe", "js", "jse",
                       "wsf", "hta", "scr", "msi", "com", "lnk", "sys", "*"})
_SHELLS = frozenset({"powershell", "pwsh", "cmd", "wscript", "cscript", "mshta", "rundll32",
                     "regsvr32", "python", "python3", "node", "bash", "wsl", "msbuild",
                     "installutil", "*"})


def _true(text: str) -> bool:
    return text.lower().lstrip("$") in ("true", "1")


def _off(run: Run, f: Field, what: str) -> None:
    run.add("shell.defense-off", f.span, f"{what}: turns off a host security control", None)


def _weaken(run: Run, f: Field, what: str) -> None:
    run.add("shell.defense-weaken", f.span, f"{what}: weakens a host security control", None)


def win_defense(run: Run, inv: Invocation) -> None:
    """Report ``inv`` (its name in :data:`WIN_DEFENSE_PROGRAMS`) turning a defense off."""
    name = inv.name.lower().removesuffix(".exe")
    if name == "set-mppreference":
        _mp(run, inv.args)
    elif name == "reg":
        _reg(run, inv)
    elif name == "sc":
        _sc(run, inv)
    elif any(f.text.lower() in ("-removedefinitions", "/removedefinitions") for f in inv.args):
        _off(run, inv.word, "MpCmdRun -RemoveDefinitions removes Defender's signatures")


def _mp(run: Run, args: list[Field]) -> None:
    for k in range(len(args) - 1):
        opt = args[k].text.lower()
        if not opt.startswith("-"):
            continue
        opt = opt[1:]
        f = args[k + 1]
        value = f.text.strip().lower()
        what = f"Defender -{opt} {f.text}"
        if opt in _OFF_SWITCHES and _true(value):
            _off(run, f, what)
        elif opt in _WEAK_SWITCHES and _true(value):
            _weaken(run, f, what)
        elif opt in _THREAT_ACTIONS and value in _ALLOW:
            _off(run, f, what + " lets detected threats run")
        elif opt in _WEAK_OFF and value in _WEAK_OFF[opt]:
            _weaken(run, f, what)
        elif opt.startswith("exclusion"):
            _exclusion(run, opt, f)


def _exclusion(run: Run, opt: str, f: Field) -> None:
    what = f"Defender -{opt} {f.text} stops scanning it"
    broad = any(_broad(opt, item.strip().lower().replace("\\", "/"))
                for item in f.text.split(","))  # "a","b": one quoted word with commas
    (_off if broad else _weaken)(run, f, what)


def _broad(opt: str, value: str) -> bool:
    """Whether excluding ``value`` from scanning leaves everything that matters unscanned."""
    if opt == "exclusionpath":
        path = value.rstrip("/")
        if len(path) == 2 and path[1] == ":":
            path = ""  # D: (a drive root)
        return path in _BROAD_DIRS or (path.startswith("/users/") and path.count("/") == 2) \
            or path.endswith(("/*", ":"))
    if opt == "exclusionextension":
        return value.lstrip("*.") in _RUNNABLE
    if opt == "exclusionprocess":
        return value.rsplit("/", 1)[-1].removesuffix(".exe") in _SHELLS
    return False


def _reg(run: Run, inv: Invocation) -> None:
    texts = [f.text for f in inv.args]
    if not texts or texts[0].lower() != "add":
        return
    key = " ".join(texts[1:2]).lower()
    if "defender" not in key:
        return
    value_name = data = ""
    for k in range(len(texts) - 1):
        opt = texts[k].lower()
        if opt in ("/v", "-v"):
            value_name = texts[k + 1].lower()
        elif opt in ("/d", "-d"):
            data = texts[k + 1]
    if value_name in _OFF_SWITCHES and _true(data.lower().removeprefix("0x")):
        _off(run, inv.word, f"reg add {value_name}={data} in Defender's policy")


def _sc(run: Run, inv: Invocation) -> None:
    texts = [f.text.lower() for f in inv.args]
    ops = [t for t in texts if not t.startswith("\\\\")]  # sc \\HOST stop X
    if len(ops) < 2 or ops[1] not in WIN_SERVICES:
        return
    if ops[0] in ("stop", "delete") or (ops[0] == "config" and "disabled" in ops[2:]):
        _off(run, inv.word, f"sc {ops[0]} {ops[1]}")
