"""Word nodes of deerguard's bash syntax tree: a ``Word`` and the parts it is made of.

Split from :mod:`deerguard.shell.ast` (which re-exports every name here; import them from
there). Same conventions: frozen slotted dataclasses, each with a half-open ``span``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from deerguard.shell.ast import Statement

Span = tuple[int, int]


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
