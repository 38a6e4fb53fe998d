"""``parse()``: bash source -> deerguard's own syntax tree, total and linear-time.

The parser is a hand-written scanner plus recursive descent (``_parse_words``,
``_parse_expand``, ``_parse_assign``, ``_parse_commands``, ``_parse_compound``). Nesting is
counted and capped so recursion stays far below Python's limit; any internal failure becomes a
``ParseIssue`` instead of an exception.

Tree shapes worth knowing (see :mod:`deerguard.shell.ast` for the node contract):

* ``SimpleCommand``: ``assignments`` only before the command name (``cmd X=1`` keeps ``X=1``
  as a word); ``words[0]`` is the command name. ``declare/local/export/readonly/typeset
  a=(x $(y))`` gives one argument word: ``Literal("a=(")``, the elements' parts, ``Literal(")")``.
* ``Pipeline`` only for ``|``/``|&`` or a ``!``/``time`` prefix (``! ! a`` cancels out; a bare
  ``time`` times an empty ``SimpleCommand``). ``AndOr`` only when there is an operator.
* ``TestCommand.words``: the operators ``&& || ! ( ) < >`` are single-``Literal`` words; the
  right side of ``=~`` is one word in which parens and ``|`` are literal.
* Heredocs: ``Redirect.target`` is the delimiter word; ``Redirect.heredoc.span`` is the body,
  which lies after the command's line (outside the statement's span, so it does not nest).
  Unquoted bodies have their expansions in ``parts``. Inside ``$( )`` a ``DELIM)`` line ends the
  body, as in bash.
* ``${ cmd; }`` (bash 5.3) is a ``CmdSubst``. Backtick bodies are re-parsed after unescaping;
  their spans still point into the source.
* Errors: a stray operator becomes a statement holding an empty ``SimpleCommand`` (so every
  character stays covered) plus an issue; a missing command after ``&&``/``|`` is an empty
  ``SimpleCommand``. Too deep nesting stops the parse with a (not incomplete) issue and the
  rest of the input is left inside the enclosing statement's span.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from deerguard.shell._parse_compound import CompoundParser
from deerguard.shell._parse_nodes import (
    new_script,
)
from deerguard.shell._parse_state import State
from deerguard.shell._parse_words import WordParser
from deerguard.shell.ast import ParseIssue, Script

__all__ = ["parse"]

_TOP: frozenset[str] = frozenset()

# CPython's cyclic GC rescans every live container on each full collection. A large parse
# allocates hundreds of thousands of small acyclic nodes, so the collections it triggers
# rescan the growing tree again and again: measured at 1 MB, 3.4 s of a 7 s parse. The tree
# holds no cycles, so pausing the collector while a large input is parsed frees nothing late.
# The pause is shared across threads (a counter under a lock): the collector is re-enabled
# by the last large parse to finish, and only if it was enabled when the first one began.
# From 4 KB on the pause pays: a 10 KB parse of dense syntax (``a | b && c; `` repeated)
# spent about a third of its time in collections (20.7 -> 12.9 ms with the pause); below
# that the young collections are few and cheap, and most commands skip the lock entirely.
_GC_PAUSE_MIN_CHARS = 4_096
_gc_lock = threading.Lock()
# CPython only (3.7+); other interpreters keep the plain pause. Switched off for good once
# the application is seen to freeze objects itself: ``get_freeze_count()`` walks the whole
# frozen set, which must not become a per-parse cost.
_promote_ok = all(hasattr(gc, name) for name in ("freeze", "unfreeze", "get_freeze_count"))
_gc_pausers = 0
_gc_was_enabled = False


@contextmanager
def _gc_paused(size: int) -> Iterator[None]:
    global _gc_pausers, _gc_was_enabled, _promote_ok
    if size < _GC_PAUSE_MIN_CHARS:
        yield
        return
    with _gc_lock:
        if _gc_pausers == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pausers += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pausers -= 1
            if _gc_pausers == 0:
                if _promote_ok:
                    if gc.get_freeze_count() == 0:
                        _promote_young_objects()
                    else:
                        _promote_ok = False
                if _gc_was_enabled:
                    gc.enable()


def _promote_young_objects() -> None:
    """Move every tracked object into the oldest generation without scanning it.

    Everything allocated during the pause sits in the youngest generation, so the first
    collection after it would traverse the whole new tree (measured at 1 MB: 0.5-0.7 s, a
    quarter of the parse), only to promote it; the next middle-generation collection would
    traverse it again. ``freeze()`` then ``unfreeze()`` splices all generations into the
    oldest in O(1) instead: the tree is scanned at most by a later full collection, and is
    usually freed by reference counting before one runs. Skipped when the application has
    frozen objects itself (``unfreeze`` would release those too). Cyclic garbage made just
    before the parse waits for the next full collection instead of the next young one.
    """
    gc.freeze()
    gc.unfreeze()


class Parser(CompoundParser):
    """The full parser over one string (the source, or a backtick body)."""

    def child(self, source: str, base: int) -> WordParser:
        return Parser(source, self.st, base)


def _parse_with(source: str, state: State) -> Script:
    parser = Parser(source, state)
    statements = parser.parse_list(_TOP)
    if parser.pending:
        parser.finish()
    return new_script((0, len(source)), statements, tuple(state.comments), tuple(state.issues))


def parse(source: str, /) -> Script:
    """Parse bash ``source`` into a :class:`~deerguard.shell.ast.Script`; never raises.

    Guarantees: total on every ``str`` (NUL, lone surrogates, garbage): problems are reported
    in ``Script.issues`` with an offset and an ``incomplete`` flag, and an internal failure is
    reported the same way (fail closed: callers treat any issue as "not fully understood").
    Linear time in ``len(source)``; nesting deeper than a fixed limit stops the parse with an
    issue. Every node's span is a ``(start, end)`` character range of ``source``.

    >>> parse("echo hi | grep h").statements[0].command.commands[1].words[0].literal_value()
    'grep'
    """
    if not isinstance(source, str):
        source = str(source)
    state = State()
    if "\0" in source:
        # A NUL cannot reach bash intact (argv and C strings end there): never a clean parse.
        state.issues.append(ParseIssue(source.find("\0"), "NUL character in input"))
    try:
        if len(source) < _GC_PAUSE_MIN_CHARS:
            # Most commands are short: skip the context manager (about 1 us per call).
            return _parse_with(source, state)
        with _gc_paused(len(source)):
            return _parse_with(source, state)
    except Exception as exc:  # noqa: BLE001 - the boundary: hostile input never raises
        issue = ParseIssue(
            0, f"internal parser error ({type(exc).__name__}); input not parsed", internal=True
        )
        return Script((0, len(source)), (), (), (*state.issues, issue))
