"""Lists of every process's id, and the kills that take them (``shell.kill-all``).

``kill -9 $(ps -eo pid=)``, ``ps aux | awk '{print $2}' | xargs kill``, ``kill $(pgrep .)``
signal every process as ``kill -9 -1`` does. The output of a lister of all processes gets a
``"pids"`` source (:func:`pid_listing`):

* ``ps`` selecting every process (``-e``, ``-A``, BSD ``ax``/``aux``, ``--everyone``...) or
  every process of the current user (``-u "$USER"``, ``U "$(whoami)"``) and narrowed by
  nothing else (``-C NAME``, ``-p PID``, ``--ppid``, ``-t TTY``...);
* ``pgrep`` whose pattern matches every name (``.``, ``.*``, ``''``) or that selects only
  by the current user (``pgrep -u "$USER"``).

The source survives only stages that keep every line (:func:`keeps_pids`): ``awk`` printing a
field (``'{print $2}'``, ``'NR>1 {print $1}'``), ``cut``, ``tr``, ``sort``, ``uniq``,
``tail -n +2``, ``sed 1d``, ``grep -v "$$"``, ``xargs``, ``read``... A stage that selects
(``grep node``, ``awk '/node/ {print $2}'``, ``head -1``) drops it, so ``kill $(ps aux |
grep node | awk '{print $2}')`` passes. A ``kill`` whose operand carries the source kills
everything (:func:`pid_kill`). :func:`check_kill` holds all of ``shell.kill-all``: also
``kill -9 -1``, ``kill 1``, ``killall5``, ``pkill``/``killall`` of every name (``pkill .``)
or of every process of root or of the current user (``pkill -9 -u "$USER"``).

The process ids of secret-holding daemons (``pgrep ssh-agent``, ``pidof gpg-agent``,
``$SSH_AGENT_PID``) get an ``"agentpid"`` source instead: a debugger attaching to one
(``gcore $(pgrep ssh-agent)``, ``gdb -p "$SSH_AGENT_PID"``, ``lldb --attach-pid``) dumps
its memory, decrypted private keys included (``shell.sensitive-read``,
:func:`memory_read`). Debugging any other process passes.

The expander (``_lookup``) imports this module: it imports no expander module at run time.

Cost: one frozenset lookup per program; the rest runs only for ``ps``/``pgrep`` and for
stages fed by their output.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._digits import NUM
from ._values import DYN, Field, Source, Taint

if TYPE_CHECKING:
    from ._checks import Add
    from ._flow import Flow
    from ._resolve import Invocation

__all__ = ["AGENT_KIND", "AGENT_PID_VARS", "MEMORY_READERS", "PID_KIND", "PID_LISTERS",
           "check_kill", "keeps_pids", "matches_every_name", "memory_read", "pid_kill",
           "pid_listing", "pids_filtered", "self_user"]

PID_KIND = "pids"
AGENT_KIND = "agentpid"
PID_LISTERS = frozenset({"ps", "pgrep", "pidof"})
"""Programs whose output :func:`pid_listing` may mark as every process's id."""

_MAX_WORDS = 32
# Patterns (pgrep, pkill, killall -r) that every process name matches.
_EVERY_NAME = frozenset({"", ".", ".*", ".+", "^", "$", "^.*", ".*$", "^.*$", "^.+$", "^.",
                         "[a-z]*", "\\w*", "(.*)"})
# ps: letters selecting every process (UNIX -e/-A; BSD a + x together, see _ps_bsd).
_PS_ALL = frozenset("eA")
# UNIX-style ps letters whose value is a format or a sort key (no narrowing).
_PS_FORMAT = frozenset("oOk")
# UNIX-style ps letters that narrow the selection (their value follows).
_PS_NARROW = frozenset("pqgGtsC")
_PS_USER = frozenset("uU")
_PS_LONG_ALL = frozenset({"--everyone", "--all"})
_PS_LONG_FORMAT = frozenset({"--format", "--sort", "-o", "-O", "--cols", "--columns",
                             "--rows", "--lines", "--width"})
_PS_LONG_USER = frozenset({"--user", "--User", "--uid", "--Uid"})


def self_user(text: str) -> bool:
    """A user selection naming the current user: unknown at parse time (``"$USER"``,
    ``$(whoami)``, ``$UID``: DYN) or ``root``/``0``, which take the system with them."""
    return DYN in text or NUM in text or not {"root", "0"}.isdisjoint(text.split(","))


def matches_every_name(pattern: str) -> bool:
    """Whether a process-name regex (pgrep/pkill/killall -r) matches every name."""
    return pattern in _EVERY_NAME


def _ps_bsd(t: str) -> tuple[bool, bool]:
    """(every process, narrowed) for a BSD option cluster (``aux``, ``axo``)."""
    return "a" in t and "x" in t, any(c in "pqtU" for c in t)


def _ps_all(args: list[Field]) -> bool:
    every = user = narrowed = False
    take = ""
    for index, f in enumerate(args[:_MAX_WORDS]):
        t = f.text
        if take:
            user = user or (take == "u" and self_user(t))
            narrowed = narrowed or take == "n" or (take == "u" and not self_user(t))
            take = ""
            continue
        key, eq, value = t.partition("=")
        if t in _PS_LONG_ALL:
            every = True
        elif key in _PS_LONG_FORMAT or key in _PS_LONG_USER:
            kind = "u" if key in _PS_LONG_USER else "f"
            if eq:
                user = user or (kind == "u" and self_user(value))
                narrowed = narrowed or (kind == "u" and not self_user(value))
            else:
                take = kind
        elif t.startswith("--"):
            narrowed = narrowed or key in ("--pid", "--ppid", "--sid", "--tty", "--group",
                                           "--Group", "--quick-pid", "-C")
            take = "n" if not eq and key in ("--pid", "--ppid", "--sid", "--tty") else ""
        elif t.startswith("-") and len(t) > 1:
            for k, letter in enumerate(t[1:]):
                every = every or letter in _PS_ALL
                if letter in _PS_FORMAT or letter in _PS_NARROW or letter in _PS_USER:
                    kind = "f" if letter in _PS_FORMAT else "u" if letter in _PS_USER else "n"
                    rest = t[k + 2:]
                    if rest:
                        user = user or (kind == "u" and self_user(rest))
                        narrowed = narrowed or kind == "n" or (kind == "u" and
                                                               not self_user(rest))
                    else:
                        take = kind
                    break
        elif index == 0 or args[index - 1].text[:1] != "-":
            bsd_all, bsd_narrow = _ps_bsd(t)
            every = every or bsd_all
            narrowed = narrowed or bsd_narrow
            if "o" in t or "O" in t:
                take = "f"
        else:
            narrowed = True  # a stray operand: a pid list
    return (every or user) and not narrowed


def _pgrep_all(args: list[Field]) -> bool:
    """``pgrep .`` / ``pgrep -f '.*'`` / ``pgrep -u "$USER"`` (no pattern) / ``pgrep -v
    bash`` (every process but the matches); also ``pkill``'s selection."""
    patterns: list[str] = []
    user = narrowed = inverse = False
    take = ""
    for f in args[:_MAX_WORDS]:
        t = f.text
        if take:
            user = user or (take == "u" and self_user(t))
            narrowed = narrowed or take == "n" or (take == "u" and not self_user(t))
            take = ""
        elif t.startswith(("--euid=", "--uid=")) or (t[:2] in ("-u", "-U") and len(t) > 2):
            value = t.partition("=")[2] if t.startswith("--") else t[2:]
            user = user or self_user(value)
            narrowed = narrowed or not self_user(value)
        elif t in ("-u", "-U", "--euid", "--uid"):
            take = "u"
        elif t in ("-g", "-G", "-P", "-s", "-t", "-F", "--pgroup", "--group", "--parent",
                   "--session", "--terminal", "--pidfile", "--ns", "--runstates", "-r",
                   "--cgroup", "--older", "-O", "--signal", "-d", "--delimiter"):
            take = "n" if t not in ("--signal", "-d", "--delimiter") else "f"
        elif t.startswith("-") and len(t) > 1:
            # -f, -l, -a, -x...: flags; -v/--inverse selects the processes not matched
            inverse = inverse or t == "--inverse" or (t[1] != "-" and "v" in t[1:])
        else:
            patterns.append(t)
    if narrowed:
        return False
    if patterns:
        return inverse or all(matches_every_name(p) for p in patterns)
    return user


# Daemons whose memory holds decrypted keys or a password store.
_AGENTS = ("ssh-agent", "gpg-agent", "gnome-keyring-daemon", "kwalletd", "keepassxc",
           "1password", "bitwarden", "sshd", "vault")
AGENT_PID_VARS = frozenset({"SSH_AGENT_PID"})
"""Variables holding such a daemon's process id (``_lookup`` marks them)."""


def _agent(pattern: str) -> str | None:
    """The daemon a pgrep pattern or pidof name selects (``ssh-agent``, ``'^gpg-agent$'``,
    ``-f 'ssh-agent -s'``), or None."""
    text = pattern.replace("\\", "").strip("^$'\"").rsplit("/", 1)[-1].lower()
    if len(text) < 4:
        return None  # "ssh", "gpg": too short to name one daemon
    return next((a for a in _AGENTS if text in a or a in text), None)


def pid_listing(name: str, args: list[Field], span: tuple[int, int]) -> Taint:
    """The ``"pids"`` taint of ``ps``/``pgrep`` listing every process, or the
    ``"agentpid"`` taint of ``pgrep``/``pidof`` naming a key daemon (see the module doc)."""
    if (name == "ps" and _ps_all(args)) or (name == "pgrep" and _pgrep_all(args)):
        return frozenset({Source(PID_KIND, name, span)})
    if name != "ps":
        for f in args[:_MAX_WORDS]:
            agent = _agent(f.text) if f.text[:1] != "-" and DYN not in f.text else None
            if agent is not None:
                return frozenset({Source(AGENT_KIND, agent, span)})
    return frozenset()


MEMORY_READERS = frozenset({"gcore", "gdb", "lldb", "gdbserver"})
"""Debuggers that attach to a process by id (:func:`memory_read`)."""


def memory_read(inv: Invocation) -> tuple[Field, str] | None:
    """The argument of ``gcore``/``gdb``/``lldb`` that attaches to a key daemon (its pid
    from ``pgrep``/``pidof``/``$SSH_AGENT_PID``) and the daemon's name, or None."""
    for f in inv.args:
        for s in f.taint:
            if s.kind == AGENT_KIND:
                return f, s.program
    return None


# Programs that pass every input line on (a field of it, reordered, joined).
_KEEPERS = frozenset({"cut", "tr", "sort", "uniq", "xargs", "cat", "tee", "paste", "column",
                      "fmt", "tac", "stdbuf", "read", "mapfile", "readarray", "parallel"})
_GREPS = frozenset({"grep", "egrep", "fgrep", "rg"})
_AWKS = frozenset({"awk", "gawk", "mawk", "nawk"})
# awk '{print $2}', awk 'NR>1{print $1}', awk 'NR!=1 { print $1 }'
_AWK_PRINT = re.compile(r"\s*+(?:NR\s*+(?:>|!=)\s*+1\s*+)?\{\s*+print\s++\$\d+\s*+;?\s*+\}\s*+")


def keeps_pids(name: str, args: list[Field]) -> bool:
    """Whether ``name ARGS`` fed a pid list passes every id on (see the module doc)."""
    if name in _KEEPERS:
        return True
    texts = [f.text for f in args]
    if name in _AWKS:
        code = [t for t in texts if not t.startswith("-")]
        return len(code) == 1 and _AWK_PRINT.fullmatch(code[0]) is not None
    if name in _GREPS:  # grep -v "$$", grep -v PID: every process but those
        return any(t == "--invert-match" or (t[:1] == "-" and t[1:2] != "-" and "v" in t)
                   for t in texts)
    if name == "tail":  # tail -n +2: the header skipped
        return texts in (["-n", "+2"], ["-n+2"], ["+2"])
    if name == "sed":
        return texts in (["1d"], ["-e", "1d"])
    return False


def pids_filtered(name: str, args: list[Field], stdin: Flow) -> Flow:
    """``stdin`` as ``name ARGS`` passes it on: without its ``"pids"`` source unless the
    program keeps every line (:func:`keeps_pids`)."""
    if keeps_pids(name, args):
        return stdin
    return stdin._replace(taint=frozenset(s for s in stdin.taint if s.kind != PID_KIND))


def pid_kill(args: list[Field]) -> Field | None:
    """The operand of ``kill`` that carries every process's id, if any."""
    for f in args:
        if f.taint and any(s.kind == PID_KIND for s in f.taint):
            return f
    return None


def check_kill(add: Add, inv: Invocation) -> None:
    """``kill -9 -1`` (every process) or ``kill 1`` (init); ``killall5``-style mass kills."""
    args = inv.args
    i = 0
    if inv.name == "kill":
        while i < len(args) and args[i].text.startswith("-") and args[i].text != "-1" or (
                i < len(args) and i == 0 and args[i].text == "-1" and len(args) > 1):
            i += 2 if args[i].text in ("-s", "-n") else 1
        if i < len(args) and args[i].text == "--":
            i += 1
        for f in args[i:]:
            if f.text in ("-1", "1"):
                add("shell.kill-all", f.span, "kill " + ("-1 signals every process" if
                    f.text == "-1" else "1 signals init, which takes the system down"), None)
                return
        listed = pid_kill(args[i:])
        probe = any(f.text == "-0" or (k > 0 and f.text == "0" and args[k - 1].text in
                                       ("-s", "-n")) for k, f in enumerate(args[:i]))
        # kill -9 $(ps -eo pid=), ps aux | awk '{print $2}' | xargs kill (kill -0 only asks
        # whether they exist)
        if listed is not None and not probe:
            src = next(s for s in listed.taint if s.kind == PID_KIND)
            add("shell.kill-all", listed.span, f"kill signals every process listed by "
                f"{src.program}", None)
    elif inv.name in ("pkill", "killall") and any(
            f.text == "-1" or (f.text[:1] != "-" and matches_every_name(f.text)) for f in args):
        add("shell.kill-all", inv.word.span, f"{inv.name} matches every process", None)
    elif inv.name == "pkill" and any(f.text == "--inverse" or (
            f.text[:1] == "-" and f.text[1:2] != "-" and "v" in f.text) for f in args) and \
            _pgrep_all(args):
        add("shell.kill-all", inv.word.span, "pkill -v signals every process but the ones "
            "matched", None)
    elif inv.name in ("pkill", "killall") and _kills_all_of_user(args, inv.name == "pkill"):
        add("shell.kill-all", inv.word.span, f"{inv.name} signals every process of root or "
            "of the current user (init and sshd, or the user's session, editors and the "
            "agent itself)", None)
    elif inv.name == "killall5":
        add("shell.kill-all", inv.word.span, "killall5 signals every process", None)


_USER_OPTS = frozenset({"-u", "-U", "--euid", "--uid", "--user"})
_PGREP_NARROW = frozenset({"-P", "--parent", "-g", "--pgroup", "-G", "--group", "-s",
                           "--session", "-t", "--terminal", "-F", "--pidfile", "--cgroup",
                           "--ns"})
_PGREP_VALUE_OPTS = frozenset({"-g", "-G", "-P", "-s", "-t", "-F", "--pgroup", "--group",
                               "--parent", "--session", "--terminal", "--pidfile", "--signal",
                               "--ns", "--nslist", "-o", "-y", "--older-than", "--younger-than",
                               "-r", "--runstates", "-c", "--cgroup"})


def _kills_all_of_user(args: list[Field], pkill: bool) -> bool:
    """``pkill -u root`` / ``killall -u 0`` / ``pkill -9 -u "$USER"``: a selection of root
    or of the current user (a value known only at run time: ``$USER``, ``$(whoami)``) with
    no name pattern (for ``pkill``, nor a parent, group, session or terminal)."""
    root = False
    i = 0
    while i < len(args):
        t = args[i].text
        value: str | None = None
        if t in _USER_OPTS:
            value = args[i + 1].text if i + 1 < len(args) else ""
            i += 1
        elif t.startswith(("--euid=", "--uid=", "--user=")):
            value = t.partition("=")[2]
        elif t[:2] in ("-u", "-U") and len(t) > 2:
            value = t[2:]
        elif pkill and t in _PGREP_NARROW:
            return False  # pkill -u "$USER" -P $$: the children of one process
        elif t in _PGREP_VALUE_OPTS:
            i += 1
        elif not t.startswith("-") or t == "--":
            return False  # a name or pattern narrows the selection
        if value is not None and self_user(value):
            root = True
        i += 1
    return root
