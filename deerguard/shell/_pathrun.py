"""A command name found through ``PATH`` runs a file written earlier in the command.

``export PATH=/tmp/bin:$PATH; echo CODE > /tmp/bin/up; chmod +x /tmp/bin/up; up`` runs
CODE: bash looks a name without a slash up in each ``PATH`` entry in order and runs the
first executable file it finds. When ``PATH`` is known statically (an assignment in this
command, or a ``PATH=... up`` prefix), the first entry holding a file written in this
command (its known text in ``run.file_text``, its taint in ``run.files``) is what runs: its
text is classified as the code it is, and a fetched one is ``shell.download-exec``, as for
``./up``. Entries not known statically (``$PATH``) are skipped: only files written here are
known, and a system file of the same name is the only other candidate. An empty entry or
``.`` is the working directory. Builtins and keywords never go through ``PATH``; functions
are called before it (the walker never reaches a program for them).

Bash also hashes where it found a name (``hash -r`` forgets): a name run before ``PATH``
changed may keep running the old file. That is not modelled: the written file is assumed
to run, which is only stricter.
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING

from ._checks import interpreter_family
from ._files import file_taint
from ._flow import Flow
from ._paths import norm_path
from ._resolve import Invocation
from ._rules import USER_BIN_DIRS
from ._sinks import download_exec, interp_code
from ._values import DYN
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["path_run"]

# Names bash runs itself, whatever PATH holds (builtins and keywords).
_BUILTINS = frozenset({
    ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command",
    "compgen", "complete", "compopt", "continue", "declare", "dirs", "disown", "echo",
    "enable", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash",
    "help", "history", "jobs", "kill", "let", "local", "logout", "mapfile", "popd",
    "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set", "shift",
    "shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset",
    "ulimit", "umask", "unalias", "unset", "wait", "if", "then", "else", "elif", "fi",
    "case", "esac", "for", "while", "until", "do", "done", "in", "function", "select",
    "time", "coproc", "{", "}", "!", "[[", "]]"})
# The usual PATH has these ahead of the system directories (~/.profile adds the first two
# when they exist); a name is looked up there when the command does not set PATH itself.
_USER_BINS = tuple(sorted(d for d in USER_BIN_DIRS if d.startswith("~/")))
_NODE_RUNNERS = frozenset({"npx", "bunx", "pnpx", "pnpm", "yarn", "bun", "npm"})
_MAX_ALTS = 4
_MAX_ENTRIES = 32


def _found(run: Run, name: str, node: bool) -> list[str]:
    """The written files ``name`` may run: for each possible value of ``PATH`` (in order),
    the first entry holding a file written in this command; with ``PATH`` not set here, a
    file written into a user bin directory shells put on it (``~/.local/bin``)."""
    var = run.env.get("PATH")
    if node:  # npx X: the project's node_modules/.bin comes first on its PATH
        path = norm_path(f"node_modules/.bin/{name}", run.cwd)
        if path is not None and (path in run.file_text or file_taint(run.files, path)):
            return [path]
    if var is None:
        return [path for path in (f"{d}/{name}" for d in _USER_BINS)
                if path in run.file_text or path in run.files]
    suffix = "/" + name
    if name not in run.file_text and name not in run.files and not any(
            map(str.endswith, run.file_text, repeat(suffix))) and not any(
            map(str.endswith, run.files, repeat((suffix, "/*")))):
        return []  # no file of that name written (a directory fetched may hold one)
    found: list[str] = []
    for value in var.alts[:_MAX_ALTS]:
        for entry in value.split(":")[:_MAX_ENTRIES]:
            if DYN in entry:
                continue  # $PATH, $X: not known, holds no file written here
            entry = entry or "."
            path = norm_path(name if entry == "." else entry.rstrip("/") + "/" + name,
                             run.cwd)
            if path is None:
                continue
            if path in run.file_text or file_taint(run.files, path):
                if path not in found:
                    found.append(path)
                break
    return found


def path_run(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``up`` after ``PATH=/tmp/bin:...`` and a write to ``/tmp/bin/up``: what it runs."""
    word = inv.word
    name = inv.name
    if name in _BUILTINS or not word.static or "/" in word.text or DYN in name:
        return
    node = bool(inv.wrappers) and any(w in _NODE_RUNNERS for w in inv.wrappers)
    for path in _found(run, name, node):
        taint = file_taint(run.files, path)
        if taint:
            download_exec(run, Field(path, word.span), taint, name)
        text = run.file_text.get(path)
        if text is None:
            continue
        family = _shebang(text)
        if family is not None:  # #!/usr/bin/env node: the file is that language's code
            interp_code(run, Field(text, word.span), family, inv)
        else:
            run.run_code(Field(text, word.span), path, word.span, stdin, positional=[])


def _shebang(text: str) -> str | None:
    """The interpreter family a ``#!`` line names (None for a shell, or no ``#!`` line)."""
    if not text.startswith("#!"):
        return None
    words = text[2:].split("\n", 1)[0].split()
    if words and words[0].rsplit("/", 1)[-1] == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
    return interpreter_family(words[0].rsplit("/", 1)[-1]) if words else None
