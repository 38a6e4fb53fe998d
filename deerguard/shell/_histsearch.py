"""Searches of shell and REPL histories for secrets (``shell.secret-display``, warn).

A shell history holds every password, token and key typed on a command line (``mysql
-pS3cret``, ``export GITHUB_TOKEN=...``, ``curl -H 'Authorization: ...'``). Reading one is
ordinary (``grep git ~/.bash_history``, ``history | grep docker``), but a search of one for a
secret word (``grep -i token ~/.zsh_history``, ``cat ~/.bash_history | grep pass``, ``history
| grep -i password``) prints the secrets it finds to the terminal, where they land in the
agent's transcript and logs: warn, as a printed login token does. Its output is secret data,
so sending it blocks (``shell.exfiltration``), and output a program consumes (``| wc -l``,
``-c``, ``-l``) is not shown.

A history is named by its file name (``.bash_history``, ``.zsh_history``, ``.python_history``,
``.psql_history``, ``.mysql_history``, ``.node_repl_history``...) or by ``$HISTFILE``; a
reader of one labels its secret output with :data:`HISTORY_MARK` so that a grep reading it
from a pipe knows what it searches. Only the grep family reaches :func:`history_search`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._grepargs import read_grep
from ._harvest import secret_regex
from ._values import NO_TAINT, Field, Source, Taint
from ._words import DYN

if TYPE_CHECKING:
    from ._flow import Flow
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["HISTORY_GREPS", "HISTORY_MARK", "history_label", "history_search",
           "history_var", "history_word"]

HISTORY_MARK = " (a shell history)"
"""Suffix of the program label of a secret read from a shell or REPL history."""

HISTORY_GREPS = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ack-grep",
                           "ugrep"})
"""Programs :func:`history_search` looks at."""

_FILES = frozenset({".bash_history", ".zsh_history", ".zhistory", ".history", ".sh_history",
                    ".histfile", ".python_history", ".psql_history", ".mysql_history",
                    ".node_repl_history", ".sqlite_history", ".rediscli_history",
                    ".irb_history", ".pry_history", ".Rhistory", ".dbshell",
                    ".mongosh_history", ".ash_history", ".fish_history", "fish_history"})
# Words of a search for secrets in a history, beside _harvest's credential regexes.
_WORDS = ("pass", "key", "auth", "cred", "secret", "token", "bearer", "login", "pwd")
_PRINTERS = ("history", "fc")  # the shell's own history printers (secret printers)


def history_word(run: Run, f: Field) -> bool:
    """``f`` names a history file: by its file name, or as ``$HISTFILE``."""
    text = f.text
    if text.rpartition("/")[2] in _FILES:
        return True
    if DYN not in text:
        return False
    start, end = f.span
    raw = run.text_stack[-1]
    return 0 <= start < end <= len(raw) and "HISTFILE" in raw[start:end]


def history_label(run: Run, name: str, args: list[Field]) -> str:
    """``name`` with :data:`HISTORY_MARK` when one of ``args`` names a history."""
    return name + HISTORY_MARK if any(history_word(run, f) for f in args[:32]) else name


def history_var(run: Run, args: list[Field]) -> bool:
    """One of ``args`` is ``$HISTFILE`` (the cheap test first: a word not known
    statically)."""
    return any(DYN in f.text and history_word(run, f) for f in args[:32])


def _secret_words(regexes: list[str]) -> bool:
    return any(secret_regex(r) or any(w in r.lower() for w in _WORDS) for r in regexes)


def _from_history(taint: Taint) -> bool:
    return any(s.kind == "secret" and (s.program.endswith(HISTORY_MARK) or
                                       s.program in _PRINTERS) for s in taint)


def history_search(run: Run, inv: Invocation, stdin: Flow | None) -> Taint:
    """A grep for secret words over a history (its file operands, or its stdin when it has
    none): its output is secret and, unless consumed, shown (``run.printed``)."""
    g = read_grep(inv.name, inv.args)
    if g.lists or g.no_lines or not _secret_words(g.regexes):
        return NO_TAINT
    files = [f for f in inv.args if f.text in g.operands]
    if files:
        hit = any(history_word(run, f) for f in files)
    else:
        hit = stdin is not None and _from_history(stdin.taint)
    if not hit:
        return NO_TAINT
    src = Source("secret", inv.name + HISTORY_MARK, run.map_span(inv.word.span))
    run.printed.add(src)
    return frozenset({src})
