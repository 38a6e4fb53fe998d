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


# --- word parts -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Literal:
    """Unquoted literal text, exactly as written (glob characters included)."""

    span: Span
    value: str


@dataclass(frozen=True, slots=True)
class Escaped:
    """A backslash-escaped character outside single quotes: ``\\x`` has ``char == "x"``.

    Line continuations (backslash-newline) are removed by the parser and produce no part.
    Inside double quotes, only ``\\$ \\` \\" \\\\`` are escapes; other backslashes are literal.
    """

    span: Span
    char: str


@dataclass(frozen=True, slots=True)
class SingleQuoted:
    """``'...'``: ``value`` is the text between the quotes."""

    span: Span
    value: str


@dataclass(frozen=True, slots=True)
class DoubleQuoted:
    """``"..."`` (or ``$"..."`` when ``locale``), with its nested parts."""

    span: Span
    parts: tuple[WordPart, ...]
    locale: bool = False


@dataclass(frozen=True, slots=True)
class AnsiCQuoted:
    """``$'...'``: ``value`` is the decoded string (``$'\\x72m'`` gives ``"rm"``)."""

    span: Span
    value: str


@dataclass(frozen=True, slots=True)
class ParamExp:
    """A parameter expansion: ``$x``, ``${x}``, ``${x:-word}``, ``${!x}``, ``${#x}``, ``${a[i]}``.

    ``name`` is the parameter (``x``, ``1``, ``@``, ``?``...). ``short`` is true for ``$x``.
    ``prefix`` is ``"!"`` (indirection / name listing), ``"#"`` (length) or ``""``.
    ``index`` is the subscript word of ``${a[i]}`` (``@`` and ``*`` included).
    ``op`` is the operator after the name: ``:-  -  :=  =  :?  ?  :+  +  #  ##  %  %%  /  //
    /#  /%  ^  ^^  ,  ,,  :`` (substring) or ``@`` (transformation, e.g. ``${x@P}``), or None.
    ``args`` are the operator's words (default word; pattern and replacement; offset and
    length; for ``@`` a single literal word holding the operator letter).
    """

    span: Span
    name: str
    short: bool = False
    prefix: str = ""
    index: Word | None = None
    op: str | None = None
    args: tuple[Word, ...] = ()


@dataclass(frozen=True, slots=True)
class CmdSubst:
    """``$( ... )`` or a backtick substitution, with its parsed body."""

    span: Span
    body: tuple[Statement, ...]
    backtick: bool = False


@dataclass(frozen=True, slots=True)
class ArithExp:
    """Arithmetic text: ``$(( ... ))``, the body of ``(( ))``, ``for ((;;))`` clauses, indices.

    ``text`` is the raw expression; ``parts`` are the expansions found inside it (``ParamExp``,
    ``CmdSubst``...) interleaved with ``Literal`` runs, so nothing executable is hidden. Inside
    arithmetic ``<<`` is a shift, never a heredoc.
    """

    span: Span
    text: str
    parts: tuple[WordPart, ...] = ()


@dataclass(frozen=True, slots=True)
class ProcSubst:
    """``<( ... )`` (``op == "<"``) or ``>( ... )`` (``op == ">"``), with its parsed body."""

    span: Span
    op: str
    body: tuple[Statement, ...]


@dataclass(frozen=True, slots=True)
class BraceExp:
    """Brace expansion: ``{a,b,c}`` (``items`` are the alternatives) or ``{1..5}`` (sequence)."""

    span: Span
    items: tuple[Word, ...]
    sequence: bool = False


@dataclass(frozen=True, slots=True)
class Tilde:
    """Tilde prefix: ``~`` (``user == ""``) or ``~name``."""

    span: Span
    user: str = ""


WordPart: TypeAlias = (
    Literal
    | Escaped
    | SingleQuoted
    | DoubleQuoted
    | AnsiCQuoted
    | ParamExp
    | CmdSubst
    | ArithExp
    | ProcSubst
    | BraceExp
    | Tilde
)


@dataclass(frozen=True, slots=True)
class Word:
    """One shell word: adjacent parts with no unquoted blank between them."""

    span: Span
    parts: tuple[WordPart, ...]

    def literal_value(self) -> str | None:
        """Return the word after quote removal when it is fully static, else ``None``.

        Static means: only literals, escapes and quotes whose contents are static. Any
        expansion, substitution, brace expansion, tilde or unquoted glob makes it dynamic.
        ``r''m`` gives ``"rm"``; ``$'\\x72m'`` gives ``"rm"``; ``$x`` and ``*.py`` give None.
        """
        out: list[str] = []
        for part in self.parts:
            if not _static_part(part, out, quoted=False):
                return None
        return "".join(out)


# An unquoted ``(`` inside a literal only comes from an extglob pattern (``@(a|b)``), a
# ``[[ x =~ (re) ]]`` regex word or a ``declare a=(...)`` argument: never a fixed string.
_GLOB_CHARS = frozenset("*?[(")


def _static_part(part: WordPart, out: list[str], *, quoted: bool) -> bool:
    if isinstance(part, Literal):
        if not quoted and any(c in _GLOB_CHARS for c in part.value):
            return False
        out.append(part.value)
        return True
    if isinstance(part, Escaped):
        out.append(part.char)
        return True
    if isinstance(part, SingleQuoted | AnsiCQuoted):
        out.append(part.value)
        return True
    if isinstance(part, DoubleQuoted):
        return all(_static_part(p, out, quoted=True) for p in part.parts)
    return False


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
