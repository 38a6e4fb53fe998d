"""A systemd unit written in the command runs its ``Exec*=`` lines when systemctl uses it.

``printf '[Service]\\nExecStart=/bin/sh -c "rm -rf ~"\\n' > /tmp/x.service; systemctl --user
link /tmp/x.service; systemctl --user start x`` runs ``rm -rf ~``. Writing a unit into a
systemd directory is already ``shell.persistence``; a unit written anywhere else only runs
once systemctl links, enables or starts it. When ``systemctl`` ``start``/``restart``/
``enable``/``reenable``/``link`` (or ``try-restart``, ``reload-or-restart``) names a unit
whose text was written in this command (by path, or by name in a systemd unit directory,
a ``.timer`` standing for its ``.service``), its ``ExecStart=``, ``ExecStartPre=``,
``ExecStartPost=``, ``ExecStop=``, ``ExecStopPost=``, ``ExecReload=`` and
``ExecCondition=`` command lines are classified as the code they are (systemd splits them
much as a shell does; the ``@-:+!`` prefixes are dropped), and a fetched unit file is
``shell.download-exec``. A unit that runs ``/usr/bin/python3 -m http.server`` adds nothing
to systemctl's own verdict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import file_taint
from ._paths import norm_path
from ._resolve import Invocation
from ._sinks import download_exec
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["unit_code"]

_VERBS = frozenset({"start", "restart", "try-restart", "reload-or-restart", "enable",
                    "reenable", "link"})
_EXEC_KEYS = frozenset({"ExecStart", "ExecStartPre", "ExecStartPost", "ExecStop",
                        "ExecStopPost", "ExecReload", "ExecCondition"})
_USER_DIRS = ("~/.config/systemd/user", "~/.local/share/systemd/user", "/etc/systemd/user",
              "/run/systemd/user", "/usr/lib/systemd/user", "/lib/systemd/user")
_SYSTEM_DIRS = ("/etc/systemd/system", "/run/systemd/system", "/usr/lib/systemd/system",
                "/lib/systemd/system", "/usr/local/lib/systemd/system")
_SUFFIXES = (".service", ".timer", ".socket", ".path", ".target", ".mount")
# systemctl options that take the next word.
_VALUE_OPTIONS = frozenset({"-H", "--host", "-M", "--machine", "-t", "--type", "-p",
                            "--property", "-s", "--signal", "--kill-whom", "--root",
                            "-n", "--lines", "-o", "--output", "--job-mode", "--state",
                            "--what", "--timestamp", "--preset-mode", "--message",
                            "--boot-loader-entry", "--boot-loader-menu", "--reboot-argument",
                            "--image", "--drop-in", "--when"})
_MAX_UNITS = 8
_MAX_LINES = 256


def unit_code(run: Run, inv: Invocation) -> None:
    """``systemctl [--user] VERB UNIT...`` with a unit written here: classify its commands."""
    user = False
    words: list[Field] = []
    skip = False
    for f in inv.args[:64]:
        t = f.text
        if skip:
            skip = False
        elif t in _VALUE_OPTIONS:
            skip = True
        elif t == "--user":
            user = True
        elif not t.startswith("-"):
            words.append(f)
    if not words or words[0].text not in _VERBS:
        return
    for unit in words[1:_MAX_UNITS + 1]:
        for path in _unit_paths(run, unit.text, user):
            taint = file_taint(run.files, path)
            if taint:
                download_exec(run, Field(path, unit.span), taint, "systemctl")
            text = run.file_text.get(path)
            if text is not None:
                for line in _exec_lines(text):
                    run.run_code(Field(line, unit.span), f"systemd unit {path}",
                                 unit.span, None, positional=[])


def _unit_paths(run: Run, unit: str, user: bool) -> list[str]:
    """Paths written in this command that ``unit`` may name (a path, or a name in a unit
    directory; a timer's service too)."""
    if DYN in unit or not unit:
        return []
    if "/" in unit:
        path = norm_path(unit, run.cwd)
        return [path] if path is not None and _known(run, path) else []
    names = [unit if unit.endswith(_SUFFIXES) else unit + ".service"]
    if unit.endswith(".timer"):
        names.append(unit[:-len(".timer")] + ".service")
    out: list[str] = []
    for directory in _USER_DIRS if user else _SYSTEM_DIRS:
        for name in names:
            path = norm_path(directory + "/" + name, run.cwd)
            if path is not None and _known(run, path) and path not in out:
                out.append(path)
    return out


def _known(run: Run, path: str) -> bool:
    return path in run.file_text or bool(file_taint(run.files, path))


def _exec_lines(text: str) -> list[str]:
    """The command lines of a unit's ``Exec*=`` settings (continuation lines joined)."""
    out: list[str] = []
    pending = ""
    for raw in text.splitlines()[:_MAX_LINES]:
        line = pending + raw.strip()
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        key, eq, value = line.partition("=")
        if eq and key.strip() in _EXEC_KEYS:
            value = value.strip().lstrip("@-:+!")
            if value:
                out.append(value)
    return out
