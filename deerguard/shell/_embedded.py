"""Shell code hidden in other programs' options and operands, and printf/echo decoding.

Many programs run a shell command given as an option or operand: ``tmux new 'CMD'``,
``git -c core.sshCommand=CMD``, ``ssh -o ProxyCommand=CMD``,
``tar --checkpoint-action=exec=CMD``, ``zip -TT CMD``, ``rsync -e CMD``, ``man -P CMD``,
``psql -c '\\! CMD'`` (sed, vim and make scripts are read in ``_tools``).
:func:`embedded_code` returns those strings so the classifier parses them like ``sh -c``.
:func:`decode_escapes` gives the output of ``printf FORMAT`` / ``echo -e`` for a static
format without conversions.
"""

from __future__ import annotations

from ._gitkeys import exec_value, is_credential_helper
from ._optexec import tar_exec_values
from ._resolve import Invocation
from ._words import Field

__all__ = ["GIT_GLOBAL_ARG", "decode_escapes", "embedded_code", "git_exec_key", "git_sub_index",
           "is_hooks_path"]

_SSH_EXEC_OPTS = ("proxycommand", "localcommand", "knownhostscommand", "remotecommand")


OPTION_CODE_PROGRAMS = frozenset({"tmux", "byobu", "byobu-tmux", "git", "ssh", "scp", "sftp",
                                   "tar", "gtar", "bsdtar", "zip", "rsync", "man", "less", "make",
                                   "gmake", "npx", "bunx", "pnpx", "psql", "mysql", "mariadb",
                                   "sqlite3", "gdb", "lldb", "complete", "compgen"})


def _git_value(setting: str) -> str | None:
    key, eq, value = setting.partition("=")
    return exec_value(key, value) if eq else None


def _git_code(setting: str) -> str | None:
    """Like :func:`_git_value`, but not for credential helpers (those run with the
    credentials on stdin: ``_extras`` classifies them)."""
    key = setting.partition("=")[0]
    return None if is_credential_helper(key) else _git_value(setting)


def is_hooks_path(key: str) -> bool:
    """``core.hooksPath``: its value is the directory git runs hook scripts from (a
    directory, not a command line: it is reported as a hook, not classified as code)."""
    return key.strip().lower() == "core.hookspath"


def git_exec_key(key: str, value: str) -> str | None:
    """The command line of git config ``key=value`` when the key runs one, else None."""
    return _git_value(f"{key}={value}")


def embedded_code(inv: Invocation) -> list[Field]:
    """Return the shell command strings that ``inv``'s options make it run."""
    name = inv.name
    if name not in OPTION_CODE_PROGRAMS:
        return []
    args = inv.args
    out: list[Field] = []

    def take(f: Field, text: str) -> None:
        if text:
            out.append(Field(text, f.span, f.taint))

    if name in _TMUX_NAMES:
        return _tmux(args)
    git_sub = git_sub_index(args) if name == "git" else 0
    for index, f in enumerate(args):
        t = f.text
        nxt = args[index + 1] if index + 1 < len(args) else None
        if name == "git":
            if t == "-c" and nxt is not None:
                value = _git_code(nxt.text)
                if value is not None:
                    take(nxt, value)
            elif t.startswith("-c") and len(t) > 2 and index < git_sub:
                value = _git_code(t[2:])  # git -ccore.pager=CMD: the value attached
                if value is not None:
                    take(f, value)
            # (git config KEY VALUE: _git.config_codes, which knows its options.)
        elif name in ("scp", "sftp") and t == "-S" and nxt is not None:
            take(nxt, nxt.text)  # scp -S PROGRAM: the program that makes the connection
        elif name in ("ssh", "scp", "sftp"):
            opt = t[2:] if t.startswith("-o") and len(t) > 2 else (
                nxt.text if t == "-o" and nxt is not None else "")
            key, sep, value = opt.partition("=")
            if not sep:
                key, _, value = opt.partition(" ")
            if key.strip().lower() in _SSH_EXEC_OPTS:
                take(f if t != "-o" or nxt is None else nxt, value.strip())
        elif name in ("tar", "gtar", "bsdtar"):
            # (--to-command and -I/--use-compress-program read the archive: _optexec.)
            return tar_exec_values(args)
        elif name == "zip" and t in ("-TT", "--unzip-command") and nxt is not None:
            take(nxt, nxt.text)
        elif name == "rsync" and (t == "-e" or t == "--rsh") and nxt is not None:
            take(nxt, nxt.text)
        elif name == "rsync" and t.startswith(("--rsh=", "--rsync-path=")):
            take(f, t.split("=", 1)[1])
        elif name == "man" and t == "-P" and nxt is not None:
            take(nxt, nxt.text)
        elif name == "man" and t.startswith("--pager="):
            take(f, t.split("=", 1)[1])
        elif name == "less" and t.startswith("+") and "!" in t:
            take(f, t.split("!", 1)[1])
        elif name in ("make", "gmake") and t.startswith("SHELL="):
            take(f, t.split("=", 1)[1])
        elif name in ("complete", "compgen") and t == "-C" and nxt is not None:
            take(nxt, nxt.text)  # complete -C CMD: run to produce completions
        elif name in _CLIENT_ESCAPES and t in _CLIENT_ESCAPES[name] and nxt is not None:
            for line in nxt.text.replace(";", "\n").splitlines():
                line = line.strip()
                for prefix in ("\\!", "\\! ", "system ", "!", "shell ", ".shell ", ".system "):
                    if line.startswith(prefix):
                        take(nxt, line[len(prefix):])  # psql -c '\! cmd', gdb -ex '!cmd'
                        break
        elif name in ("npx", "bunx", "pnpx") and t in ("-c", "--call") and nxt is not None:
            take(nxt, nxt.text)  # npx -c 'CMD': a command string run by a shell
        elif name in ("npx", "bunx", "pnpx") and t.startswith("--call="):
            take(f, t.split("=", 1)[1])
    return out


# git's global options that take the next word as their value.
GIT_GLOBAL_ARG = frozenset({"-c", "-C", "--git-dir", "--work-tree", "--namespace",
                             "--config-env"})


def git_sub_index(args: list[Field]) -> int:
    """Index of git's subcommand (after its global options), or len(args)."""
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        i += 2 if args[i].text in GIT_GLOBAL_ARG else 1
    return i


# Database and debugger clients whose command option runs shell escapes (\! cmd, !cmd).
_CLIENT_ESCAPES = {"psql": ("-c", "--command"), "mysql": ("-e", "--execute"),
                   "mariadb": ("-e", "--execute"), "sqlite3": ("-cmd",),
                   "gdb": ("-ex", "-iex", "--eval-command"), "lldb": ("-o", "--one-line"),
                   "complete": ("-C",), "compgen": ("-C",)}


def _split_unescaped(text: str, delim: str) -> list[str]:
    """Split a sed ``s`` body on ``delim``; ``\\delim`` stands for the delimiter itself."""
    pieces: list[str] = []
    cur: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            cur.append(text[i + 1] if text[i + 1] == delim else text[i:i + 2])
            i += 2
            continue
        if ch == delim:
            pieces.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    pieces.append("".join(cur))
    return pieces


# byobu passes its tmux commands on to tmux (byobu new-window CMD).
_TMUX_NAMES = frozenset({"tmux", "byobu", "byobu-tmux"})
_TMUX_RUN = frozenset({"new", "new-session", "new-window", "neww", "split-window", "splitw",
                       "run-shell", "run", "respawn-pane", "respawn-window", "send-keys",
                       "send", "if-shell", "if"})
_TMUX_ARG = frozenset("stncFeTxyclLbpS")


def _tmux(args: list[Field]) -> list[Field]:
    """``tmux new -d 'cmd'``, ``tmux send-keys 'cmd' Enter``: the command strings."""
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        i += 2 if args[i].text in ("-L", "-S", "-f", "-c") else 1
    if i >= len(args) or args[i].text not in _TMUX_RUN:
        return []
    sub = args[i].text
    rest = args[i + 1:]
    operands: list[Field] = []
    j = 0
    while j < len(rest):
        t = rest[j].text
        if t.startswith("-") and len(t) == 2 and t[1] in _TMUX_ARG:
            j += 2
            continue
        if t.startswith("-") and len(t) > 1 and not operands:
            j += 1
            continue
        operands.append(rest[j])
        j += 1
    if sub in ("send-keys", "send"):
        words = [f for f in operands if f.text not in ("Enter", "C-m", "KPEnter")]
        if not words:
            return []
        text = " ".join(f.text for f in words)
        return [Field(text, (words[0].span[0], words[-1].span[1]))]
    if not operands:
        return []
    text = " ".join(f.text for f in operands)
    return [Field(text, (operands[0].span[0], operands[-1].span[1]))]


_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f",
                   "v": "\v", "\\": "\\", "e": "\x1b", "E": "\x1b", "'": "'", '"': '"'}


def decode_escapes(text: str) -> str:
    """Decode printf/echo -e backslash escapes (``\\x72``, ``\\162``, ``\\n``...); linear."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "x":
            j = i + 2
            while j < n and j < i + 4 and text[j] in "0123456789abcdefABCDEF":
                j += 1
            if j > i + 2:
                out.append(chr(int(text[i + 2:j], 16)))
                i = j
                continue
        elif nxt in "01234567":
            j = i + 1
            if nxt == "0":
                j += 1
            start = j
            while j < n and j < start + 3 and text[j] in "01234567":
                j += 1
            if j > start:
                out.append(chr(int(text[start:j], 8) & 0xFF))
                i = j
                continue
            if nxt == "0":
                out.append("\0")  # \0 alone is a NUL byte (printf '%s\0' a b)
                i += 2
                continue
        elif nxt in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)
