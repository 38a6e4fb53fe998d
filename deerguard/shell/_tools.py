"""Tools that run code through their own script languages, or edit the files they name.

``sed`` runs shell commands with ``e``/``s///e`` (the bare ``e`` runs each input line, so
``curl u | sed e`` is a pipe into a shell); ``make`` runs the recipes of ``./Makefile``,
``-f FILE`` or ``-E 'x:;cmd'``; ``parallel`` and ``script`` with no command run a shell
reading stdin; editors (``ed``, ``ex``, ``vim -c``) run ``!cmd`` and write the files they
edit; ``gdb -ex 'python ...'`` runs Python; ``strace -o '|cmd'`` pipes its log to a command.
Each handler only looks at its own program's arguments: ordinary runs cost one set lookup.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._checks import check_args, check_write
from ._embedded import _git_value as git_exec_value
from ._embedded import _split_unescaped as split_unescaped
from ._embedded import decode_escapes
from ._files import file_taint
from ._flow import Flow
from ._paths import norm_path
from ._resolve import Invocation
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["CHAIN_TOOLS", "TOOL_NAMES", "chain_tool", "tool"]

STDIN_PATHS = frozenset({"-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"})
_SEDS = frozenset({"sed", "gsed"})
_MAKES = frozenset({"make", "gmake", "bmake"})
_VIMS = frozenset({"vi", "vim", "nvim", "view", "ex", "vim.basic", "vim.tiny", "gvim"})
_EDS = frozenset({"ed", "red"})
TOOL_NAMES = _SEDS | _MAKES | _VIMS | _EDS | frozenset({"parallel", "script", "gdb",
                                                        "defaults", "sftp", "ztcp"}) | \
    frozenset({"dpkg", "rpm", "apt", "apt-get", "yum", "dnf", "zypper", "xterm", "git", "find"})
_PACKAGE_FILES = (".deb", ".rpm", ".apk", ".pkg.tar.zst", ".pkg.tar.xz")
CHAIN_TOOLS = frozenset({"strace", "ltrace"})


def tool(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """The code ``inv`` runs and the files it edits (``inv.name`` is in TOOL_NAMES)."""
    name = inv.name
    if name in _SEDS:
        _sed(run, inv, stdin)
    elif name in _MAKES:
        _make(run, inv, stdin)
    elif name in _VIMS:
        _vim(run, inv, stdin)
    elif name in _EDS:
        _ed(run, inv, stdin)
    elif name in ("parallel", "script"):
        # No command after the options (resolve found none): parallel runs each stdin line
        # as a command; script starts an interactive shell that reads stdin.
        if stdin is not None and name == "parallel" and not any(
                f.text in (":::", "::::", "-a", "--arg-file") for f in inv.args):
            run_stdin(run, stdin, inv)
        elif stdin is not None and name == "script":
            run_stdin(run, stdin, inv)
    elif name == "gdb":
        _gdb(run, inv)
    elif name == "defaults":
        _defaults(run, inv)
    elif name == "sftp":
        _sftp(run, inv, stdin)
    elif name == "xterm":
        _xterm(run, inv)
    elif name == "find":
        _find_writes(run, inv)
    elif name == "git":
        _git_config_file(run, inv)
    elif name in ("dpkg", "rpm", "apt", "apt-get", "yum", "dnf", "zypper") and run.files:
        # Installing a downloaded package runs its maintainer scripts (as root).
        from ._sinks import download_exec

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


def _sftp(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """sftp batch commands (stdin or ``-b FILE``): ``put LOCAL`` uploads a local file, so a
    secret file put is exfiltration."""
    batch: Field | None = None
    args = inv.args
    for index, f in enumerate(args[:-1]):
        if f.text == "-b":
            batch = _file_text(run, inv, args[index + 1], stdin)
    if batch is None and stdin is not None and stdin.text is not None:
        batch = Field(stdin.text, stdin.span, stdin.taint)
    if batch is None:
        return
    for line in batch.text.splitlines()[:256]:
        words = line.split()
        if not words or words[0].lstrip("-@") not in ("put", "mput", "reput"):
            continue
        local = [Field(w, batch.span) for w in words[1:] if not w.startswith("-")][:1]
        if local and check_args(run.add, run.cp.paths, inv.name, local, run.cwd):
            run.add("shell.exfiltration", batch.span, f"{inv.name} uploads the secret file "
                    f"{local[0].text}", None)


# macOS login/logout hooks: a script loginwindow runs as root at every login.
_LOGIN_HOOKS = frozenset({"loginhook", "logouthook"})


def _defaults(run: Run, inv: Invocation) -> None:
    """``defaults write com.apple.loginwindow LoginHook SCRIPT``."""
    texts = [f.text for f in inv.args]
    if "write" in texts and any(t.lower() in _LOGIN_HOOKS for t in texts) and any(
            "loginwindow" in t for t in texts):
        run.add("shell.persistence", inv.word.span, "defaults write sets a login hook, "
                "which runs a script at every login", None)


def run_stdin(run: Run, stdin: Flow, inv: Invocation) -> None:
    from ._sinks import stdin_sink  # late: _sinks imports this module's callers

    stdin_sink(run, stdin, inv, language="sh")


# --- sed ----------------------------------------------------------------------------------

_SED_VALUE = frozenset("efl")


def _sed(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args
    scripts: list[Field] = []
    operands: list[Field] = []
    named = False  # -e/-f given: every operand is an input file
    in_place = False
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        nxt = args[i + 1] if i + 1 < len(args) else None
        i += 1
        if t == "--":
            operands.extend(args[i:])
            break
        if t.startswith("--"):
            key, eq, value = t.partition("=")
            if key in ("--expression", "--file"):
                val = Field(value, f.span, f.taint) if eq else nxt
                i += 0 if eq else 1
                if val is not None:
                    named = True
                    _sed_script(run, inv, val, key == "--file", stdin, scripts)
            elif key == "--in-place":
                in_place = True
            elif key == "--line-length" and not eq:
                i += 1
            continue
        if t.startswith("-") and len(t) > 1 and f.static:
            k = 1
            while k < len(t):
                letter = t[k]
                if letter == "i":
                    in_place = True
                    break  # -i.bak: the rest is a suffix
                if letter in _SED_VALUE:
                    attached = t[k + 1:]
                    val = Field(attached, f.span, f.taint) if attached else nxt
                    if not attached:
                        i += 1
                    if val is not None and letter != "l":
                        named = True
                        _sed_script(run, inv, val, letter == "f", stdin, scripts)
                    break
                k += 1
            continue
        operands.append(f)
    if not named and operands:
        scripts.append(operands[0])
        operands = operands[1:]
    runs_input = False
    for script in scripts:
        codes, pattern = sed_exec(script.text)
        runs_input = runs_input or pattern
        for code in codes:
            run.run_code(Field(code, script.span, script.taint), f"{inv.name} e command",
                         inv.word.span, None, positional=[])
    if runs_input:
        # e / s///e run the pattern space: each input line is a shell command.
        for f in operands:
            taint = file_taint(run.files, norm_path(f.text, run.cwd))
            if taint:
                from ._sinks import download_exec

                download_exec(run, f, taint, inv.name)
        if not operands and stdin is not None:
            run_stdin(run, stdin, inv)
    if in_place:
        for f in operands:
            check_write(run.add, run.cp.paths, f, run.cwd, f"{inv.name} -i edits")


def _sed_script(run: Run, inv: Invocation, val: Field, is_file: bool, stdin: Flow | None,
                scripts: list[Field]) -> None:
    if not is_file:
        scripts.append(val)
        return
    text = _file_text(run, inv, val, stdin)
    if text is not None:
        scripts.append(text)


def _file_text(run: Run, inv: Invocation, f: Field, stdin: Flow | None, *,
               exact: bool = False) -> Field | None:
    """A script file's text: ``-f /dev/stdin <<< CODE``, or a file written earlier; a file
    written with fetched data is a download run. ``exact``: only a file written itself
    (``curl u > Makefile``), not one inside a fetched directory (``git clone u && make``:
    building a cloned project is everyday work)."""
    if f.text in STDIN_PATHS:
        if stdin is not None and (stdin.text is not None or stdin.taint):
            return Field(stdin.text if stdin.text is not None else DYN, stdin.span,
                         stdin.taint)
        return None
    path = norm_path(f.text, run.cwd)
    taint = run.files.get(path or "") if exact else file_taint(run.files, path)
    if taint:
        from ._sinks import download_exec

        download_exec(run, f, taint, inv.name)
    text = run.file_text.get(path or "")
    return Field(text, f.span) if text is not None else None


def _sed_address_end(cmd: str) -> int:
    """Skip a sed address (``1``, ``$``, ``/re/``, ``\\cREc``, ranges, ``!``)."""
    k = 0
    n = len(cmd)
    for _ in range(4):
        while k < n and cmd[k] in "0123456789$~+, \t!":
            k += 1
        if k < n and cmd[k] in "/\\":
            delim = cmd[k]
            if delim == "\\" and k + 1 < n:
                k += 1
                delim = cmd[k]
            k += 1
            while k < n and cmd[k] != delim:
                k += 2 if cmd[k] == "\\" else 1
            k += 1
            while k < n and cmd[k] in "IM":
                k += 1
            continue
        break
    return min(k, n)


def sed_exec(script: str) -> tuple[list[str], bool]:
    """GNU sed's shell commands in ``script``: ``e CMD`` strings, and whether a bare ``e``
    or the ``e`` flag of ``s///e`` runs the pattern space (the input lines) as a command."""
    out: list[str] = []
    pattern = False
    for part in script.replace(";", "\n").splitlines()[:256]:
        part = part.strip().lstrip("{}")
        cmd = part[_sed_address_end(part):].lstrip(" \t{")
        if cmd == "e":
            pattern = True
        elif cmd.startswith("e") and cmd[1:2] in (" ", "\t") and cmd[2:].strip():
            out.append(cmd[2:].strip())
        elif cmd.startswith("s") and len(cmd) > 3:
            pieces = split_unescaped(cmd[2:], cmd[1])
            if len(pieces) >= 3 and "e" in pieces[2] and pieces[2].isalnum():
                out.append(pieces[1])
                pattern = True
    return out, pattern


# --- make ---------------------------------------------------------------------------------

_MAKE_VALUE = frozenset("CfIjlowW")
_MAKE_VAR = re.compile(r"\$[({][A-Za-z_][A-Za-z0-9_.]*[)}]")


def _make(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args
    files: list[Field] = []
    evals: list[Field] = []
    where = "."
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        nxt = args[i + 1] if i + 1 < len(args) else None
        i += 1
        if t.startswith("--"):
            key, eq, value = t.partition("=")
            val = Field(value, f.span, f.taint) if eq else None
            if key in ("--file", "--makefile", "--eval", "--directory") and not eq:
                val = nxt
                i += 1
            if val is None:
                continue
            if key in ("--file", "--makefile"):
                files.append(val)
            elif key == "--eval":
                evals.append(val)
            elif key == "--directory":
                where = val.text
            continue
        if t.startswith("-") and len(t) > 1:
            k = 1
            while k < len(t):
                letter = t[k]
                if letter in _MAKE_VALUE or letter == "E":
                    attached = t[k + 1:]
                    val2 = Field(attached, f.span, f.taint) if attached else nxt
                    if not attached:
                        i += 1
                    if val2 is not None:
                        if letter == "f":
                            files.append(val2)
                        elif letter == "E":
                            evals.append(val2)
                        elif letter == "C":
                            where = val2.text
                    break
                k += 1
    texts: list[Field] = []
    if not files:
        base = where.rstrip("/") + "/" if where != "." else ""
        for default in ("GNUmakefile", "makefile", "Makefile"):
            files.append(Field(base + default, inv.word.span))
    for f in files:
        text = _file_text(run, inv, f, stdin, exact=True)
        if text is not None:
            texts.append(text)
    for text in [*evals, *texts]:
        for code in make_recipes(text.text):
            run.run_code(Field(code, text.span, text.taint), f"{inv.name} recipe",
                         inv.word.span, None, positional=[])


def make_recipes(text: str) -> list[str]:
    """The shell commands of a makefile: tab-indented recipe lines, ``target: ; cmd``, and
    ``$(shell cmd)``; make's own ``$(VAR)`` references become a plain word."""
    out: list[str] = []
    for line in text.splitlines()[:512]:
        at = line.find("$(shell ")
        if at != -1:
            end = line.find(")", at)
            out.append(line[at + 8:end if end != -1 else len(line)])
        if line.startswith("\t"):
            cmd = line[1:].lstrip("@-+ \t")
        elif ":" in line and ";" in line.split(":", 1)[1] and not line.startswith("#"):
            cmd = line.split(":", 1)[1].split(";", 1)[1].lstrip("@-+ \t")
        else:
            continue
        cmd = _MAKE_VAR.sub("x", cmd).replace("$$", "$")
        if cmd.strip():
            out.append(cmd)
    return out[:64]


# --- editors ------------------------------------------------------------------------------

_VIM_VALUE = frozenset({"-c", "--cmd", "-S", "-u", "-U", "-i", "-T", "-w", "-W", "-s", "-t",
                        "-q", "-r", "--servername", "--remote", "--startuptime"})
_WRITES = ("w", "wq", "x", "wq!", "w!", "x!", "wall", "wa", "xa", "xall", "wqa", "wqall",
           "update", "up", "exit", "exi", "sav", "saveas")


def _vim(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``vim -c CMD``/``+CMD``/``ex -sc CMD`` (clusters too): ``!cmd`` and ``system()`` run
    shell code; ``:wq`` writes the edited files."""
    args = inv.args
    cmds: list[Field] = []
    files: list[Field] = []
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        nxt = args[i + 1] if i + 1 < len(args) else None
        i += 1
        if t.startswith("+") and len(t) > 1:
            cmds.append(Field(t[1:], f.span, f.taint))
        elif t in _VIM_VALUE:
            if nxt is not None:
                if t in ("-c", "--cmd"):
                    cmds.append(nxt)
                i += 1
        elif t.startswith("-") and not t.startswith("--") and len(t) > 2 and t.endswith("c") \
                and t[1:].isalpha():
            if nxt is not None:  # ex -sc CMD
                cmds.append(nxt)
                i += 1
        elif t.startswith("-") and len(t) > 1:
            continue
        else:
            files.append(f)
    if inv.name == "ex" and stdin is not None and stdin.text is not None:
        cmds.extend(Field(line, stdin.span, stdin.taint) for line in stdin.text.splitlines())
    writes = _editor_commands(run, inv, cmds)
    if writes or (inv.name == "ex" and stdin is not None and stdin.via != "pipe"):
        for f in files:
            check_write(run.add, run.cp.paths, f, run.cwd, f"{inv.name} edits")


def _editor_commands(run: Run, inv: Invocation, cmds: list[Field]) -> bool:
    """Run the shell escapes of ex commands; True when one writes the file."""
    writes = False
    for c in cmds[:64]:
        for piece in c.text.split("|") if not c.text.lstrip(": ").startswith("!") else [c.text]:
            cmd = piece.strip().lstrip(":").strip()
            cmd = cmd[_sed_address_end(cmd):].strip() if cmd[:1] in "0123456789$%,." else cmd
            cmd = cmd.lstrip("%").strip()
            if cmd.startswith("!"):
                run.run_code(Field(cmd[1:], c.span, c.taint), f"{inv.name} command",
                             inv.word.span, None, positional=[])
            elif cmd.startswith(("r !", "r!", "w !", "w!", "read !", "write !")) and \
                    "!" in cmd:
                run.run_code(Field(cmd.split("!", 1)[1], c.span, c.taint),
                             f"{inv.name} command", inv.word.span, None, positional=[])
            elif "system(" in cmd or "systemlist(" in cmd or cmd.startswith(
                    ("exe", "execute", "call", "py", "lua", "perl", "ruby")):
                from ._sinks import interp_code  # late: _sinks imports _programs' callers

                language = "python" if cmd.startswith("py") else "vim"
                interp_code(run, Field(cmd.split(" ", 1)[-1] if language == "python" else cmd,
                                       c.span, c.taint), language, inv)
            if cmd.split(" ", 1)[0] in _WRITES or cmd.startswith("normal") and ":w" in cmd:
                writes = True
    return writes


def _ed(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``ed FILE`` reads commands from stdin: ``!cmd`` runs shell code, ``w`` writes FILE."""
    files = [f for f in inv.args if not f.text.startswith("-")]
    cmds: list[Field] = []
    if stdin is not None and stdin.text is not None:
        cmds = [Field(line, stdin.span, stdin.taint) for line in stdin.text.splitlines()]
    writes = _editor_commands(run, inv, cmds) or any(
        c.text.strip()[:1] == "w" or c.text.strip() in ("wq", "x") for c in cmds)
    if writes or (stdin is not None and stdin.text is None):
        for f in files:
            check_write(run.add, run.cp.paths, f, run.cwd, f"{inv.name} edits")


# --- debuggers and tracers ------------------------------------------------------------------

def _gdb(run: Run, inv: Invocation) -> None:
    """``gdb -ex 'python CODE'``: Python run inside gdb (``shell``/``!`` are in _embedded)."""
    args = inv.args
    for index, f in enumerate(args[:-1]):
        if f.text in ("-ex", "-iex", "--eval-command", "-eval-command"):
            value = args[index + 1]
            head, _, rest = value.text.strip().partition(" ")
            if head in ("python", "py", "pi", "python-interactive") and rest:
                from ._sinks import interp_code

                interp_code(run, Field(rest, value.span, value.taint), "python", inv)


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
