"""A glob in command position: ``/???/r? -rf /`` runs ``/bin/rm``.

Bash expands an unquoted ``*``, ``?`` or ``[...]`` in the program name like any word, so a
glob picks the program from the files that match it. The classifier cannot list the disk;
it matches the glob's last component against the programs it reasons about (shells,
interpreters, fetchers, decoders, destroyers, package managers and every name in the
policy's lists) and classifies the command once as each match, besides reporting the glob
itself as a program name not known statically (``shell.dynamic-command``). A policy's deny
list therefore blocks ``/???/r? f`` like ``rm f``.

Matching is ``fnmatchcase`` on short names against a pattern capped in length: bounded work
per command.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from . import _rules as R
from ._flow import EMPTY, Flow
from ._flow import union as _union
from ._resolve import Invocation
from ._words import Field

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._walk import Run

    ProgramFn = Callable[[Run, Invocation, Flow | None], Flow]

__all__ = ["glob_program", "is_glob"]

_MAX_PATTERN = 64
_MAX_MATCHES = 8

# Programs whose rules matter most, in the order a glob's matches are tried: what deletes,
# overwrites or changes permissions, then what runs or moves code and data. Matches are capped
# (bounded work), so a glob that also matches many package managers (``r*``: rbenv, rustup...)
# must still be classified as ``rm``.
_DESTRUCTIVE = frozenset({
    "rm", "rmdir", "unlink", "shred", "truncate", "dd", "mv", "cp", "tee", "ln", "chmod",
    "chown", "chgrp", "kill", "pkill", "killall", "mkfs", "shutdown", "reboot", "crontab",
    "systemctl", "find", "xargs", "eval", "exec", "source", "sudo", "su", "doas", "env"})
_RUNNERS = frozenset(
    R.SHELLS | R.FETCHERS | R.DECODERS | R.NETWORK_SENDERS
    | frozenset(R.INTERPRETER_CODE_FLAGS) | frozenset(R.INTERPRETER_ALIASES)
    | frozenset({"ssh", "scp", "rsync", "python3", "perl", "ruby", "node", "php", "git",
                 "docker", "kubectl", "cat", "less", "awk", "sed"}))
_CANDIDATES = _DESTRUCTIVE | _RUNNERS | frozenset(R.PACKAGE_MANAGERS)


def _rank(name: str, deny: frozenset[str]) -> tuple[int, str]:
    """Sort key of a glob's matches: denied names, destroyers, runners, the rest."""
    if name in deny:
        return 0, name
    if name in _DESTRUCTIVE:
        return 1, name
    return (2 if name in _RUNNERS else 3), name


def is_glob(name: str) -> bool:
    """True when a static program name holds a glob bash would expand (``[`` only with a
    closing ``]`` after it: ``[`` alone is the test builtin)."""
    if "*" in name or "?" in name:
        return True
    start = name.find("[")
    return start >= 0 and name.find("]", start + 2) > 0


def glob_program(run: Run, inv: Invocation, stdin: Flow | None, program: ProgramFn) -> Flow:
    """Classify a command whose program name is a glob, as each known program it matches."""
    word = inv.word
    pattern = inv.name.replace("[^", "[!")  # bash's [^x] is fnmatch's [!x]
    names: list[str] = []
    if len(pattern) <= _MAX_PATTERN:
        cp = run.cp
        pool = _CANDIDATES | cp.deny | cp.warn | cp.allow
        deny = frozenset(cp.deny)
        names = sorted((n for n in pool if fnmatchcase(n, pattern)),
                       key=lambda n: _rank(n, deny))[:_MAX_MATCHES]
    shown = ", ".join(names) if names else "no program the classifier knows"
    run.add("shell.dynamic-command", word.span, f"the program name {word.text} is a glob: it "
            f"runs whichever file matches (it can match {shown})", None)
    out = EMPTY
    for name in names:
        sub = Invocation(name, Field(name, word.span, word.taint), inv.args, (),
                         inv.assigns, inv.privileged, inv.from_stdin)
        run.policy_check(sub, record=True)
        out = _union(out, program(run, sub, stdin))
    return out

