"""Read-only forms of programs on the policy's warn list: they query and change nothing.

``systemctl``, ``service``, ``sysctl``, ``mount``, ``launchctl``, ``crontab`` and ``loginctl``
warn because they can stop services, change kernel settings, mount filesystems, install jobs
or keep a user's services running after logout (``loginctl enable-linger``); their status and
listing forms (``systemctl status x``, ``sysctl -n hw.ncpu``, ``mount | grep x``, ``crontab
-l``, ``loginctl list-sessions``) are everyday queries and do not. A user's deny list still
applies to them; only the warn-list finding is skipped.
"""

from __future__ import annotations

from ._resolve import Invocation

__all__ = ["read_only_query"]

_SYSTEMCTL_READ = frozenset({
    "status", "is-active", "is-enabled", "is-failed", "is-system-running", "list-units",
    "list-unit-files", "list-timers", "list-sockets", "list-jobs", "list-dependencies",
    "list-machines", "list-automounts", "list-paths", "show", "show-environment", "cat", "help",
    "get-default", "--version"})
_LAUNCHCTL_READ = frozenset({"list", "print", "print-disabled", "print-cache", "blame",
                             "dumpstate", "dumpjpcategory", "version", "help", "hostinfo"})
_LOGINCTL_READ = frozenset({
    "list-sessions", "session-status", "show-session", "list-users", "user-status",
    "show-user", "list-seats", "seat-status", "show-seat", "help", "--version"})
_SYSCTL_WRITES = ("-w", "--write", "-p", "--load", "--system", "-f")


def read_only_query(inv: Invocation) -> bool:
    """True when ``inv`` only reads the state of a warn-listed program's domain."""
    name = inv.name
    texts = [f.text for f in inv.args]
    operands = [t for t in texts if not t.startswith("-")]
    if name == "systemctl":
        return not operands or operands[0] in _SYSTEMCTL_READ
    if name == "service":
        return texts == ["--status-all"] or (len(texts) == 2 and texts[1] == "status")
    if name == "sysctl":
        return bool(texts) and not any(
            t.startswith(_SYSCTL_WRITES) or "=" in t for t in texts)
    if name == "mount":
        return all(t in ("-l", "--show-labels") for t in texts)  # lists mounts
    if name == "loginctl":  # loginctl alone lists the sessions
        return not operands or operands[0] in _LOGINCTL_READ
    if name == "launchctl":
        return bool(operands) and operands[0] in _LAUNCHCTL_READ
    if name == "crontab":
        return _crontab_lists(texts)
    return False


def _crontab_lists(texts: list[str]) -> bool:
    """``crontab -l`` (``-u USER -l``): prints a crontab. Installing one (``crontab FILE``,
    ``crontab -``), editing (``-e``) and removing (``-r``) keep the warning."""
    rest = list(texts)
    if len(rest) >= 2 and rest[0] == "-u":
        del rest[:2]
    elif len(rest) >= 2 and rest[-2] == "-u":
        del rest[-2:]
    elif rest and rest[0].startswith("-u") and len(rest[0]) > 2:
        del rest[0]
    return rest == ["-l"]
