"""Programs that run code, write files or send data in ways of their own.

Dispatch for the tools with a script language (sed, make, editors: ``_scripts``), and:
``parallel``/``script`` with no command run a shell reading stdin; ``gdb -ex 'python ...'``
runs Python; ``strace -o '|cmd'`` pipes its log to a command; ``defaults write`` of a macOS
login hook, ``git config --file F`` of a key that runs programs, and ``find -fprintf F``
write files; sftp/ftp/lftp batch ``put`` uploads (``_filexfer``); ``xterm -display HOST:0``
and ``ztcp`` connect shells to other machines; ``dpkg -i``/``rpm -i`` of a downloaded
package runs it. Each handler only looks at its own program's arguments: ordinary runs
cost one set lookup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._checks import check_write
from ._confload import CONF_TOOLS, conf_tool
from ._dbconf import client_startup
from ._embedded import _git_value as git_exec_value
from ._embedded import decode_escapes
from ._fetchtools import FETCH_TOOLS, fetch_tool
from ._files import file_taint
from ._filexfer import XFER_CLIENTS, xfer_client
from ._flow import Flow
from ._githooks import note_hooks_path
from ._gitreads import git_reads
from ._loadfiles import LOADING_TOOLS, load_tool
from ._makefile import make_tool
from ._optexec import RUNNER_NAMES, TAR_NAMES, emacs_eval, tar_filters
from ._parallel import parallel_tool
from ._paths import norm_path
from ._resolve import Invocation
from ._scripts import ed_tool, run_stdin, sed_tool, vim_tool
from ._sinks import download_exec, interp_code
from ._sqlclients import SQL_CLIENTS, sql_client
from ._tfconsole import TF_NAMES, console_reads
from ._words import DYN, Field
from ._written import read_written

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["CHAIN_TOOLS", "TOOL_NAMES", "chain_tool", "tool"]

_SEDS = frozenset({"sed", "gsed"})
_MAKES = frozenset({"make", "gmake", "bmake"})
_VIMS = frozenset({"vi", "vim", "nvim", "view", "ex", "vim.basic", "vim.tiny", "gvim"})
_EDS = frozenset({"ed", "red"})
TOOL_NAMES = _SEDS | _MAKES | _VIMS | _EDS | frozenset({"parallel", "sem", "script", "gdb",
                                                        "defaults", "ztcp"}) | XFER_CLIENTS | \
    frozenset({"dpkg", "rpm", "apt", "apt-get", "yum", "dnf", "zypper", "xterm", "git", "find",
               "direnv"}) | TF_NAMES | TAR_NAMES | RUNNER_NAMES | LOADING_TOOLS | SQL_CLIENTS | \
    CONF_TOOLS | FETCH_TOOLS
_PACKAGE_FILES = (".deb", ".rpm", ".apk", ".pkg.tar.zst", ".pkg.tar.xz")
CHAIN_TOOLS = frozenset({"strace", "ltrace"})


def tool(run: Run, inv: Invocation, stdin: Flow | None) -> bool:
    """The code ``inv`` runs and the files it edits (``inv.name`` is in TOOL_NAMES); True
    when it reads a secret file its arguments do not name (``sed '1r /etc/shadow'``)."""
    name = inv.name
    if name in LOADING_TOOLS:
        load_tool(run, inv, stdin)  # gdb -x FILE, lldb -s FILE, vim -S FILE
    elif name in SQL_CLIENTS:
        sql_client(run, inv, stdin)  # | sqlite3, psql -f FILE, mysql < FILE: shell escapes
        client_startup(run, inv)  # mysql --pager=CMD, option files, ~/.psqlrc
    elif name in CONF_TOOLS:
        conf_tool(run, inv, stdin)  # emacs -l FILE, tmux -f FILE, ssh -F FILE
    if name in FETCH_TOOLS:
        fetch_tool(run, inv, stdin)  # cmake -P, ninja -f, ansible-pull, terraform init
    if name in _SEDS:
        return sed_tool(run, inv, stdin)
    elif name in _MAKES:
        make_tool(run, inv, stdin)
    elif name in _VIMS:
        vim_tool(run, inv, stdin)
    elif name in _EDS:
        ed_tool(run, inv, stdin)
    elif name in ("parallel", "sem"):
        parallel_tool(run, inv, stdin)  # its template and input sources (resolve stops)
    elif name == "script":
        # No command after the options (resolve found none): script starts an interactive
        # shell that reads stdin.
        if stdin is not None:
            run_stdin(run, stdin, inv)
    elif name == "gdb":
        _gdb(run, inv)
    elif name == "defaults":
        _defaults(run, inv)
    elif name in XFER_CLIENTS:
        xfer_client(run, inv, stdin)  # sftp/ftp/lftp batch put .env (_filexfer)
    elif name == "xterm":
        _xterm(run, inv)
    elif name == "find":
        _find_writes(run, inv)
    elif name == "git":
        _git_config_file(run, inv)
        note_hooks_path(run, inv)
        return git_reads(run, inv)  # git diff --no-index /dev/null ~/.ssh/id_rsa
    elif name == "direnv":
        _direnv_allow(run, inv)
    elif name in TF_NAMES:
        return console_reads(run, inv, stdin)  # terraform console <<< 'file("F")'
    elif name in TAR_NAMES:
        tar_filters(run, inv, stdin)
    elif name in RUNNER_NAMES:
        emacs_eval(run, inv)
    elif name in ("dpkg", "rpm", "apt", "apt-get", "yum", "dnf", "zypper") and run.files:
        # Installing a downloaded package runs its maintainer scripts (as root).
        for f in inv.args:
            if f.text.endswith(_PACKAGE_FILES):
                taint = file_taint(run.files, norm_path(f.text, run.cwd))
                if taint:
                    download_exec(run, f, taint, name)
    elif name == "ztcp" and not any(f.text in ("-l", "-a", "-c", "-L") for f in inv.args):
        # zsh's ztcp HOST PORT connects and leaves the descriptor in $REPLY: a shell whose
        # stdio is redirected to it is a reverse shell.
        text = run.text_stack[-1]
        if "&$REPLY" in text or "&${REPLY}" in text or "&\"$REPLY" in text:
            run.add("shell.reverse-shell", inv.word.span, "ztcp connects to a host and a "
                    "shell's input and output are redirected to that connection", None)
    return False


def _find_writes(run: Run, inv: Invocation) -> None:
    """``find -fprintf FILE FORMAT``/``-fprint FILE``/``-fls FILE``: find writes FILE (a
    static format is its text, so ``sh FILE`` later runs it)."""
    args = inv.args
    for index, f in enumerate(args[:-1]):
        if f.text in ("-fprintf", "-fprint", "-fprint0", "-fls"):
            target = args[index + 1]
            check_write(run.add, run.cp.paths, target, run.cwd, "find writes")
            path = norm_path(target.text, run.cwd)
            if f.text == "-fprintf" and index + 2 < len(args) and path is not None and \
                    args[index + 2].static and len(run.file_text) < 64:
                run.file_text[path] = decode_escapes(args[index + 2].text)


def _direnv_allow(run: Run, inv: Invocation) -> None:
    """``direnv allow [DIR|RC]`` (``permit``, ``grant``): bash runs the directory's ``.envrc``
    whenever a shell enters it, so an ``.envrc`` written earlier in the command is shell code
    run now (its known text), or a download run (written itself from fetched data)."""
    args = inv.args
    if not args or args[0].text not in ("allow", "permit", "grant"):
        return
    target = args[1] if len(args) > 1 else Field(".", args[0].span)
    if not target.static:
        return
    path = norm_path(target.text, run.cwd)
    if path is None:
        return
    if path not in run.file_text and path not in run.files:
        path = norm_path(target.text.rstrip("/") + "/.envrc", run.cwd)
        if path is None:
            return
    taint = run.files.get(path)
    if taint:
        download_exec(run, Field(path, target.span), taint, "direnv allow")
    text = read_written(run, path, inv.word.span)
    if text is not None:
        run.run_code(Field(text, target.span), "direnv allow", inv.word.span, None,
                     positional=[])


def _xterm(run: Run, inv: Invocation) -> None:
    """``xterm -display HOST:0``: a shell whose window is on another machine's X server."""
    args = inv.args
    for index, f in enumerate(args):
        value = args[index + 1].text if f.text in ("-display", "-d") and index + 1 < len(
            args) else (f.text.partition("=")[2] if f.text.startswith("-display=") else "")
        host = value.rpartition(":")[0]
        if host and host not in ("localhost", "127.0.0.1", "unix", "::1") and \
                not host.startswith("/"):
            run.add("shell.reverse-shell", f.span, f"xterm opens a shell on the X display "
                    f"{value} of another machine", None)
            return


def _git_config_file(run: Run, inv: Invocation) -> None:
    """``git config --file ~/.gitconfig core.pager CMD``: git writes a key that runs a
    program into that file (``git config --global`` alone is the everyday spelling)."""
    args = inv.args
    texts = [f.text for f in args]
    if "config" not in texts:
        return
    target: Field | None = None
    operands: list[str] = []
    skip = False
    for index, f in enumerate(args[texts.index("config") + 1:], texts.index("config") + 1):
        t = f.text
        if skip:
            skip = False
        elif t in ("--file", "-f") and index + 1 < len(args):
            target = args[index + 1]
            skip = True
        elif t.startswith("--file="):
            target = Field(t[7:], f.span, f.taint)
        elif not t.startswith("-"):
            operands.append(t)
    if target is not None and len(operands) >= 2 and \
            git_exec_value(f"{operands[0]}={operands[1]}") is not None:
        check_write(run.add, run.cp.paths, target, run.cwd, "git config writes")


# macOS login/logout hooks: a script loginwindow runs as root at every login.
_LOGIN_HOOKS = frozenset({"loginhook", "logouthook"})


def _defaults(run: Run, inv: Invocation) -> None:
    """``defaults write com.apple.loginwindow LoginHook SCRIPT``."""
    texts = [f.text for f in inv.args]
    if "write" in texts and any(t.lower() in _LOGIN_HOOKS for t in texts) and any(
            "loginwindow" in t for t in texts):
        run.add("shell.persistence", inv.word.span, "defaults write sets a login hook, "
                "which runs a script at every login", None)


# --- debuggers and tracers ------------------------------------------------------------------

_GDB_EVALS = frozenset({"call", "print", "p", "output", "call/x", "print/x", "p/x"})


def _gdb(run: Run, inv: Invocation) -> None:
    """``gdb -ex 'python CODE'``: Python run inside gdb (``shell``/``!`` are in _embedded).
    ``-ex 'call system("CMD")'`` makes the debugged process run CMD: it is classified as
    shell code, and attached to a running process (``-p PID``) it is code injection, which
    runs CMD as that process's user (``gdb -p 1``: root)."""
    args = inv.args
    attached = any(f.text in ("-p", "--pid") or f.text.startswith(("--pid=", "attach "))
                   for f in args)  # gdb -p PID, -ex 'attach PID'
    for index, f in enumerate(args):
        value: Field | None = None
        if f.text in ("-ex", "-iex", "--eval-command", "-eval-command", "--init-eval-command",
                      "-init-eval-command") and index + 1 < len(args):
            value = args[index + 1]
        elif f.text.startswith(("--eval-command=", "-eval-command=", "--init-eval-command=",
                                "-init-eval-command=")):
            value = Field(f.text.partition("=")[2], f.span, f.taint)
        if value is not None:
            head, _, rest = value.text.strip().partition(" ")
            if head in ("python", "py", "pi", "python-interactive") and rest:
                interp_code(run, Field(rest, value.span, value.taint), "python", inv)
            elif head in _GDB_EVALS and "system" in rest:
                for command in _c_system_calls(rest):
                    if attached:
                        run.add("shell.privilege", value.span, "gdb makes the process it is "
                                "attached to run a shell command (code injection: it runs "
                                "as that process's user)", None)
                    run.run_code(Field(command, value.span, value.taint), "gdb call system",
                                 inv.word.span, None, positional=[])


def _c_system_calls(expr: str) -> list[str]:
    """The string literals passed to ``system(...)`` in a C expression (``(int)system("id")``),
    with C escapes decoded; a call with another argument is run as a dynamic command."""
    out: list[str] = []
    pos = expr.find("system")
    while pos >= 0 and len(out) < 16:
        i = pos + 6
        while i < len(expr) and expr[i] in " \t(":
            i += 1
        if i < len(expr) and expr[i] == '"':
            end = i + 1
            while end < len(expr) and expr[end] != '"':
                end += 2 if expr[end] == "\\" else 1
            out.append(decode_escapes(expr[i + 1:end]))
        elif expr[pos + 6:].lstrip(" \t")[:1] == "(":
            out.append(DYN)  # system(buf): a command not known statically
        pos = expr.find("system", i)
    return out


_TRACER_VALUE = {"strace": "oepsuEIXbPS", "ltrace": "oepsuEnaAlLxS"}


def chain_tool(run: Run, inv: Invocation) -> None:
    """``strace -o '|cmd' prog``: strace pipes its log into a shell command."""
    args = inv.args
    letters = _TRACER_VALUE.get(inv.name, "")
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        i += 1
        if not t.startswith("-") or t == "--":
            return  # the traced command starts: its own -o is not strace's
        value: Field | None = None
        if t.startswith("--"):
            if t.startswith("--output="):
                value = Field(t.partition("=")[2], f.span, f.taint)
            elif t == "--output" and i < len(args):
                value = args[i]
                i += 1
        elif len(t) > 1 and t[1] in letters:
            if len(t) > 2:
                value = Field(t[2:], f.span, f.taint) if t[1] == "o" else None
            elif i < len(args):
                value = args[i] if t[1] == "o" else None
                i += 1
        if value is not None and value.text[:1] in ("|", "!"):
            run.run_code(Field(value.text[1:], value.span, value.taint), f"{inv.name} -o",
                         inv.word.span, None, positional=[])
