"""Anti-forensics: wiping system logs and shell history, and turning history recording off.

* ``shell.log-wipe`` (block): a truncating redirection (``> /var/log/auth.log``, ``: >``,
  ``cat /dev/null >``), ``truncate``, ``shred``, ``rm``/``unlink``, ``tee`` (without ``-a``),
  ``cp``/``mv``/``ln -sf``/``dd of=`` over, ``sed -i`` of, or ``find ... -delete`` under a
  *system* log (syslog, auth.log, secure, messages, kern.log, audit/, wtmp, btmp, lastlog,
  the journal, macOS's system.log/asl/audit; a glob over ``/var/log/*`` covers them), and
  ``journalctl --vacuum-time|size|files`` that keeps (almost) nothing; or the same
  destruction of a shell history file (``~/.bash_history``, ``~/.zsh_history``...).
  Severity: erasing the record of what ran has no everyday agent use and cannot be undone;
  an application's own logs (``/var/log/nginx/*.gz``), appends (``>>``) and routine
  journal trimming (``--vacuum-size=500M``, ``--vacuum-time=2weeks``) stay quiet.
* ``shell.history-off`` (warn): ``history -c``/``-d``, ``unset HISTFILE``,
  ``HISTFILE=/dev/null``, ``HISTSIZE=0``, ``SAVEHIST=0``, ``HISTIGNORE='*'``,
  ``set +o history``. Severity: an agent's non-interactive shell keeps no history anyway,
  so these change little by themselves; they show an intent to hide, which a human should see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._deletes import opts_and_operands
from ._findargs import find_roots
from ._paths import norm_path
from ._resolve import Invocation
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["HISTORY_VARS", "TAMPER_PROGRAMS", "history_variable", "tamper_program",
           "tamper_write"]

_HISTORY_FILES = frozenset({
    ".bash_history", ".zsh_history", ".zhistory", ".history", ".sh_history", ".ksh_history",
    "fish_history", ".python_history", ".mysql_history", ".psql_history", ".sqlite_history",
    ".node_repl_history", ".irb_history", ".rediscli_history", ".lesshst"})

# First component under /var/log whose files are the system's own record (a rotation suffix
# may follow: auth.log.1, secure-20260101, wtmp.1, messages.gz).
_SYSTEM_LOGS = ("syslog", "messages", "auth.log", "secure", "kern.log", "audit", "wtmp",
                "btmp", "lastlog", "faillog", "tallylog", "journal", "sudo.log", "daemon.log",
                "user.log", "system.log", "install.log", "asl", "cron", "debug", "boot.log",
                "dmesg", "utmp", "sssd")
_OTHER_LOGS = frozenset({"/var/run/utmp", "/run/utmp", "/var/account/pacct", "/var/audit",
                         "/var/db/diagnostics", "/var/db/uuidtext"})
_HOMES = ("/home/", "/Users/")

_DELETERS = frozenset({"rm", "unlink", "shred", "srm", "wipe", "truncate"})
TAMPER_PROGRAMS = _DELETERS | frozenset({"tee", "cp", "mv", "ln", "dd", "sed", "find",
                                         "journalctl", "history", "set", "unset", "shopt"})
"""Programs :func:`tamper_program` looks at."""

HISTORY_VARS = frozenset({"HISTFILE", "HISTSIZE", "HISTFILESIZE", "SAVEHIST", "HISTIGNORE"})


def _record(path: str) -> str | None:
    """What kind of record ``path`` is ("the system log X", "the shell history X") or None."""
    if path.startswith("/private/"):
        path = path[len("/private"):]  # macOS: /var is /private/var
    if path == "/var/log":
        return "the system logs /var/log"
    if path.startswith("/var/log/"):
        first = path[len("/var/log/"):].partition("/")[0]
        if any(c in first for c in "*?["):
            return f"the system logs {path}"
        for name in _SYSTEM_LOGS:
            if first.startswith(name) and first[len(name):len(name) + 1] in ("", ".", "-", "_"):
                return f"the system log {path}"
        return None
    if path in _OTHER_LOGS or path.startswith(tuple(p + "/" for p in _OTHER_LOGS)):
        return f"the system record {path}"
    parent, _, base = path.rpartition("/")
    if base in _HISTORY_FILES and (
            parent in ("~", "/root") or path.endswith("/.local/share/fish/fish_history") or
            (parent.startswith(_HOMES) and parent.count("/") == 2)):
        return f"the shell history {path}"  # in a home directory (a project's .history
    return None  # folder, from an editor's local-history extension, is not)


def _maybe_record(text: str) -> bool:
    """A cheap test before normalizing: could ``text`` name a log or a history file?"""
    return "log" in text or "hist" in text or "/var/" in text or "utmp" in text or \
        "/audit" in text or "diagnostics" in text or "pacct" in text or "uuidtext" in text


def _check(run: Run, f: Field, how: str) -> bool:
    text = f.text
    if not text or DYN in text or not _maybe_record(text):
        return False  # rm /var/log/$APP/x.log: which log is not known (dynamic-delete)
    path = norm_path(text, run.cwd)
    what = _record(path) if path is not None else None
    if what is None:
        return False
    run.add("shell.log-wipe", f.span, f"{how} {what}, erasing the record of what ran", None)
    return True


def tamper_write(run: Run, f: Field, op: str) -> None:
    """A redirection to ``f``: truncating ones (``>``, ``>|``, ``&>``) erase a record."""
    if op in (">", ">|", "&>"):
        _check(run, f, "the redirection empties")


def tamper_program(run: Run, inv: Invocation) -> None:
    name = inv.name
    args = inv.args
    if name == "history":
        _history_builtin(run, inv)
    elif name == "set":
        for index, f in enumerate(args):
            if f.text == "+o" and index + 1 < len(args) and args[index + 1].text == "history":
                run.add("shell.history-off", f.span, "set +o history stops recording "
                        "commands in the shell history", None)
    elif name == "shopt":
        texts = [f.text for f in args]
        if "-u" in texts and "-o" in texts and "history" in texts:
            run.add("shell.history-off", inv.word.span, "shopt -u -o history stops "
                    "recording commands in the shell history", None)
    elif name == "unset":
        for f in args:
            if f.text == "HISTFILE":
                run.add("shell.history-off", f.span, "unset HISTFILE: the shell history "
                        "is not saved", None)
    elif name == "journalctl":
        _journal(run, inv)
    elif name == "find":
        _find(run, inv)
    else:
        _destroyers(run, inv)


def _history_builtin(run: Run, inv: Invocation) -> None:
    for f in inv.args:
        t = f.text
        if t.startswith("-") and not t.startswith("--") and ("c" in t or "d" in t):
            run.add("shell.history-off", f.span, f"history {t} erases commands from the "
                    "shell history", None)
            return


def _destroyers(run: Run, inv: Invocation) -> None:
    name = inv.name
    args = inv.args
    if not any(_maybe_record(f.text) for f in args):
        return  # the common case: no argument could name a log or history file
    opts, operands = opts_and_operands(args)
    if name in _DELETERS:
        if name == "truncate" and _grows(args):
            return
        any(_check(run, f, f"{name} destroys") for f in operands)  # the first one
    elif name == "tee":
        if not any(o == "--append" or (o[1:2] != "-" and "a" in o) for o in opts):
            any(_check(run, f, "tee overwrites") for f in operands)
    elif name in ("cp", "ln", "dd") or (name == "mv" and len(operands) >= 2):
        if name == "dd":
            for f in args:
                if f.text.startswith("of="):
                    _check(run, Field(f.text[3:], f.span), "dd overwrites")
        elif operands:
            _check(run, operands[-1], f"{name} replaces")
            if name == "mv":
                any(_check(run, f, "mv moves away") for f in operands[:-1])
    elif name == "sed" and any(o.startswith(("-i", "--in-place")) or (
            o[1:2] != "-" and "i" in o) for o in opts):
        any(_check(run, f, "sed -i edits") for f in operands[1:])


def _grows(args: list[Field]) -> bool:
    """``truncate -s +1M f``: only extends the file."""
    for index, f in enumerate(args):
        t = f.text
        if t in ("-s", "--size") and index + 1 < len(args):
            return args[index + 1].text.startswith("+")
        if t.startswith("--size="):
            return t[len("--size="):].startswith("+")
        if t.startswith("-s") and len(t) > 2:
            return t[2:].startswith("+")
    return False


def _find(run: Run, inv: Invocation) -> None:
    """``find /var/log -type f -delete`` (or ``-exec truncate|rm|shred ...``)."""
    args = inv.args
    texts = [f.text for f in args]
    if "-delete" not in texts and not any(t in ("rm", "truncate", "shred", "unlink", "srm")
                                          for t in texts):
        return
    for f in find_roots(args)[0]:
        if _check(run, f, "find deletes"):
            break


_UNITS = {"": 1, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400,
          "w": 604800, "month": 2592000, "months": 2592000, "y": 31536000,
          "weeks": 604800, "week": 604800, "days": 86400, "day": 86400, "hours": 3600,
          "hour": 3600, "minutes": 60, "minute": 60, "seconds": 1, "second": 1, "ms": 0,
          "us": 0, "years": 31536000, "year": 31536000}
_SIZES = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def _journal(run: Run, inv: Invocation) -> None:
    """``journalctl --vacuum-time=1s``: removes every archived journal file older than 1s."""
    args = inv.args
    for index, f in enumerate(args):
        key, eq, value = f.text.partition("=")
        if key not in ("--vacuum-time", "--vacuum-size", "--vacuum-files"):
            continue
        if not eq:
            value = args[index + 1].text if index + 1 < len(args) else ""
        number = value.lstrip("0123456789")
        digits = value[:len(value) - len(number)]
        if not digits:
            continue
        amount = int(digits[:12])
        unit = number.strip().lower()
        if key == "--vacuum-files":
            wipes = amount <= 1
        elif key == "--vacuum-time":
            wipes = unit in _UNITS and amount * _UNITS[unit] < 86400
        else:
            wipes = unit[:1] in _SIZES and amount * _SIZES[unit[:1]] < (1 << 20)
        if wipes:
            run.add("shell.log-wipe", f.span, f"journalctl {f.text} deletes the system "
                    "journal, erasing the record of what ran", None)
            return


def history_variable(run: Run, name: str, value: Field, span: tuple[int, int]) -> None:
    """``HISTFILE=/dev/null``, ``HISTSIZE=0``, ``HISTIGNORE='*'``: nothing is recorded."""
    text = value.text
    if name == "HISTFILE":
        off = text in ("", "/dev/null")
    elif name == "HISTIGNORE":
        off = text in ("*", "*:*", "?*", "*:")
    else:
        off = text == "0"
    if off:
        run.add("shell.history-off", span, f"{name}={text or chr(39) * 2} keeps commands out "
                "of the shell history", None)
