"""deerguard's own bash syntax tree: closed sets of frozen nodes, each with a span.

Every node carries ``span = (start, end)``: character offsets into the parsed source, half-open.
The classifier only ever sees these nodes, never a third-party parser's. Walk a tree with
:func:`walk`, which visits nodes depth-first in source order and lets the visitor prune.

Shapes, modelled on mvdan/sh ``syntax/nodes.go``:

* ``Script``: top-level ``statements``, ``comments`` and parse ``issues``.
* ``Statement``: one command with how it ended (``;``, ``&``, newline or nothing) and
  whether it runs in the background. Compound bodies are tuples of statements.
* Commands (``Command``): ``SimpleCommand``, ``Pipeline``, ``AndOr``, ``Subshell``,
  ``BraceGroup``, ``If``, ``For``, ``ArithFor``, ``While``, ``Case``, ``Select``,
  ``TestCommand`` (``[[ ]]``), ``ArithCommand`` (``(( ))``), ``FunctionDef``, ``Coproc``.
* Words are tuples of parts (``WordPart``): ``Literal``, ``Escaped``, ``SingleQuoted``,
  ``DoubleQuoted``, ``AnsiCQuoted``, ``ParamExp``, ``CmdSubst``, ``ArithExp``, ``ProcSubst``,
  ``BraceExp``, ``Tilde``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeAlias, cast

from deerguard.shell._ast_words import (
    AnsiCQuoted,
    ArithExp,
    BraceExp,
    CmdSubst,
    DoubleQuoted,
    Escaped,
    Literal,
    ParamExp,
    ProcSubst,
    SingleQuoted,
    Tilde,
    Word,
    WordPart,
)

__all__ = [
    "AndOr",
    "AnsiCQuoted",
    "ArithCommand",
    "ArithExp",
    "ArithFor",
    "Assignment",
    "BraceExp",
    "BraceGroup",
    "Case",
    "CaseItem",
    "CmdSubst",
    "Command",
    "Comment",
    "Coproc",
    "DoubleQuoted",
    "Escaped",
    "For",
    "FunctionDef",
    "Heredoc",
    "If",
    "IfClause",
    "Literal",
    "Node",
    "ParamExp",
    "ParseIssue",
    "Pipeline",
    "ProcSubst",
    "Redirect",
    "Script",
    "Select",
    "SimpleCommand",
    "SingleQuoted",
    "Statement",
    "Subshell",
    "TestCommand",
    "Tilde",
    "While",
    "Word",
    "WordPart",
    "iter_children",
    "walk",
]

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class ParseIssue:
    """A problem found while parsing: where, what, and whether more input could fix it.

    ``incomplete`` is true when the source simply ended too early (unclosed quote,
    unterminated heredoc or substitution, missing ``fi``/``done``), as in mvdan/sh's
    ``ParseError.Incomplete``. ``internal`` is true when the parser itself failed (a bug, not
    the input's fault): guards must treat such a parse as unknown and fail closed.
    """

    offset: int
    message: str
    incomplete: bool = False
    internal: bool = False


# --- redirections and assignments ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Heredoc:
    """A here-document body, kept as data with its own span (the body lines only).

    ``delimiter`` is the delimiter after quote removal; ``quoted`` is true when any part of
    the delimiter word was quoted (then the body is literal). ``strip_tabs`` is ``<<-``.
    ``parts`` is the body parsed for expansions when unquoted (``Literal`` runs and
    expansions), or a single ``Literal`` when quoted. ``terminated`` is false when the
    source ended before the delimiter line.
    """

    span: Span
    delimiter: str
    quoted: bool
    strip_tabs: bool
    text: str
    parts: tuple[WordPart, ...]
    terminated: bool = True


@dataclass(frozen=True, slots=True)
class Redirect:
    """A redirection: ``op`` is one of ``> >> < <> >| >& <& &> &>> << <<- <<<``.

    ``fd`` is the explicit descriptor text before the operator (``"2"``, or ``"{fd}"``
    for a variable descriptor), else None. ``target`` is the word after the operator (for
    heredocs the delimiter word). ``heredoc`` holds the body for ``<<`` and ``<<-``.
    """

    span: Span
    op: str
    target: Word | None
    fd: str | None = None
    heredoc: Heredoc | None = None


@dataclass(frozen=True, slots=True)
class Assignment:
    """``NAME=value``, ``NAME+=value``, ``a[i]=value`` or ``a=(x y z)``.

    ``value`` is None for an empty value (``X=``) and for arrays; ``array`` holds array
    elements (each a word; ``[k]=v`` elements are words whose text starts with ``[``).
    """

    span: Span
    name: str
    value: Word | None = None
    append: bool = False
    index: Word | None = None
    array: tuple[Word, ...] | None = None


# --- commands ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimpleCommand:
    """Assignments, words (``words[0]`` is the command name) and redirections.

    A command of only assignments and/or redirections has no words.
    """

    span: Span
    assignments: tuple[Assignment, ...] = ()
    words: tuple[Word, ...] = ()
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class Pipeline:
    """``a | b |& c``, optionally prefixed by ``time [-p]`` and/or ``!``.

    ``ops[i]`` joins ``commands[i]`` and ``commands[i + 1]`` (``"|"`` or ``"|&"``).
    A lone ``! cmd`` or ``time cmd`` is a Pipeline of one command.
    """

    span: Span
    commands: tuple[Command, ...]
    ops: tuple[str, ...] = ()
    negated: bool = False
    timed: bool = False


@dataclass(frozen=True, slots=True)
class AndOr:
    """``a && b || c``: ``ops[i]`` (``"&&"`` or ``"||"``) joins ``commands[i]`` and the next."""

    span: Span
    commands: tuple[Command, ...]
    ops: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Statement:
    """One command in a list, with its terminator (``";"``, ``"&"``, ``"\\n"`` or None)."""

    span: Span
    command: Command
    terminator: str | None = None

    @property
    def background(self) -> bool:
        """True when the statement ends with ``&``."""
        return self.terminator == "&"


@dataclass(frozen=True, slots=True)
class Subshell:
    """``( list )``."""

    span: Span
    body: tuple[Statement, ...]
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class BraceGroup:
    """``{ list; }``."""

    span: Span
    body: tuple[Statement, ...]
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class IfClause:
    """One ``if``/``elif`` condition with its ``then`` body."""

    span: Span
    condition: tuple[Statement, ...]
    body: tuple[Statement, ...]


@dataclass(frozen=True, slots=True)
class If:
    """``if ...; then ...; elif ...; then ...; else ...; fi``."""

    span: Span
    clauses: tuple[IfClause, ...]
    else_body: tuple[Statement, ...] | None = None
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class For:
    """``for name [in words]; do ...; done`` (``items`` is None without ``in``)."""

    span: Span
    name: str
    items: tuple[Word, ...] | None
    body: tuple[Statement, ...]
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class ArithFor:
    """``for (( init; cond; step )); do ...; done``; missing clauses are None."""

    span: Span
    init: ArithExp | None
    condition: ArithExp | None
    step: ArithExp | None
    body: tuple[Statement, ...]
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class While:
    """``while cond; do ...; done``, or ``until`` when ``until`` is true."""

    span: Span
    condition: tuple[Statement, ...]
    body: tuple[Statement, ...]
    until: bool = False
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class CaseItem:
    """``pat1 | pat2) body ;;`` with terminator ``";;"``, ``";&"``, ``";;&"`` or None."""

    span: Span
    patterns: tuple[Word, ...]
    body: tuple[Statement, ...]
    terminator: str | None = None


@dataclass(frozen=True, slots=True)
class Case:
    """``case word in items esac``."""

    span: Span
    word: Word
    items: tuple[CaseItem, ...]
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class Select:
    """``select name [in words]; do ...; done``."""

    span: Span
    name: str
    items: tuple[Word, ...] | None
    body: tuple[Statement, ...]
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class TestCommand:
    """``[[ expression ]]``: the words between the brackets, operators included as words."""

    span: Span
    words: tuple[Word, ...]
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class ArithCommand:
    """``(( expression ))``."""

    span: Span
    expr: ArithExp
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class FunctionDef:
    """``name() body``, ``function name body`` or ``function name() body``."""

    span: Span
    name: str
    body: Command
    keyword: bool = False
    redirects: tuple[Redirect, ...] = ()


@dataclass(frozen=True, slots=True)
class Coproc:
    """``coproc [NAME] command``."""

    span: Span
    name: str | None
    command: Command


@dataclass(frozen=True, slots=True)
class Comment:
    """``# text`` (``text`` excludes the ``#``)."""

    span: Span
    text: str


@dataclass(frozen=True, slots=True)
class Script:
    """A parsed source: statements, comments, and the problems met (``issues``).

    ``span`` covers the whole source. A script with no issues parsed cleanly.
    """

    span: Span
    statements: tuple[Statement, ...]
    comments: tuple[Comment, ...] = ()
    issues: tuple[ParseIssue, ...] = ()

    @property
    def incomplete(self) -> bool:
        """True when any issue says the source ended too early."""
        return any(issue.incomplete for issue in self.issues)


Command: TypeAlias = (
    SimpleCommand
    | Pipeline
    | AndOr
    | Subshell
    | BraceGroup
    | If
    | For
    | ArithFor
    | While
    | Case
    | Select
    | TestCommand
    | ArithCommand
    | FunctionDef
    | Coproc
)

Node: TypeAlias = (
    Script
    | Statement
    | Command
    | IfClause
    | CaseItem
    | Word
    | WordPart
    | Assignment
    | Redirect
    | Heredoc
    | Comment
)

_NODE_TYPES: tuple[type, ...] = (
    Script, Statement, SimpleCommand, Pipeline, AndOr, Subshell, BraceGroup, If, IfClause,
    For, ArithFor, While, Case, CaseItem, Select, TestCommand, ArithCommand, FunctionDef,
    Coproc, Word, Literal, Escaped, SingleQuoted, DoubleQuoted, AnsiCQuoted, ParamExp,
    CmdSubst, ArithExp, ProcSubst, BraceExp, Tilde, Assignment, Redirect, Heredoc, Comment,
)


def iter_children(node: Node) -> Iterator[Node]:
    """Yield the direct child nodes of ``node`` in field (source) order."""
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, _NODE_TYPES):
            yield cast(Node, value)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, _NODE_TYPES):
                    yield cast(Node, item)


def walk(node: Node, visit: Callable[[Node], bool | None]) -> None:
    """Visit ``node`` and its descendants depth-first; prune where ``visit`` returns False.

    Iterative (an explicit stack), so arbitrarily deep trees never hit the recursion limit.
    Children are visited in field order, which for every node kind is source order.

    >>> seen = []
    >>> walk(some_script, lambda n: seen.append(type(n).__name__))  # doctest: +SKIP
    """
    stack: list[Node] = [node]
    while stack:
        current = stack.pop()
        if visit(current) is False:
            continue
        children = list(iter_children(current))
        children.reverse()
        stack.extend(children)
