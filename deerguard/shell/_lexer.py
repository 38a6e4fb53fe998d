"""Character-level helpers for the shell parser: tables, ANSI-C decoding, brace expansion.

Everything here is linear in its input: scanners use index arithmetic and simple character
class regexes (a single ``[...]+`` run cannot backtrack); the one repeated group
(PLAIN_ARGS_RE) has units that each match in one way only, so a failing unit gives back just
itself. The fast node constructors live in ``_parse_nodes``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from deerguard.shell._parse_nodes import new_literal, new_word
from deerguard.shell.ast import (
    BraceExp,
    Literal,
    Word,
    WordPart,
)

# Characters that end an unquoted word (bash "metacharacters" plus newline).
METACHARS: Final = frozenset(" \t\n;&|<>()")
BLANKS: Final = frozenset(" \t")

# Words that are reserved only in command position.
RESERVED: Final = frozenset(
    "if then elif else fi for while until do done case esac select function time coproc "
    "in { } [[ ! ((".split()
)

# A candidate reserved word at command position: letters or the bracket/brace/bang
# spellings, followed by a delimiter (or end of input).
RESERVED_RE: Final = re.compile(r"(?:[a-z]+|\{|\}|\[\[|!)(?=[ \t\n;&|<>()]|\Z)")
NAME_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# The characters NAME_RE can start with: where it is sure to match.
NAME_START: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
DIGITS_RE: Final = re.compile(r"[0-9]+")
# Function names in bash may contain more than identifier characters.
FUNC_NAME_RE: Final = re.compile(r"[^ \t\n;&|<>()'\"\\$`=]+")
# A plain argument after the command name, in one match: blanks, then either (group 1)
# characters needing no special handling or (group 2) one quoted string with nothing inside
# to expand or unescape, ending at a delimiter that is not a redirection or process
# substitution. The two branches start with disjoint characters, so nothing backtracks.
ANY_ARG_RE: Final = re.compile(
    r"""[ \t]*(?:(?!#)([^ \t\n;&|<>()\\'"$`{}~]+)|("[^"\\$`]*"|'[^']*'))(?=[ \t\n;&|)]|\Z)"""
)
# A run of ANY_ARG_RE group-1 arguments, each after its blanks: one match for many arguments.
# Each unit can match in one way only (the lookahead rejects any shorter run), so a unit that
# fails gives back just itself.
PLAIN_ARGS_RE: Final = re.compile(
    r"""(?:[ \t]+(?!#)[^ \t\n;&|<>()\\'"$`{}~]+(?=[ \t\n;&|)]|\Z))+"""
)
# A plain command name: like ANY_ARG_RE's group 1, minus ``=`` and ``[`` (so never an
# assignment) and digits or ``{`` that could start a redirection.
# It may also end at ``(`` (a ``name()`` definition) unless an extglob opens there (``@(``).
NAME_WORD_RE: Final = re.compile(
    r"(?![#0-9])[^ \t\n;&|<>()\\'\"$`{}~=\[]+(?=[ \t\n;&|)]|\Z|(?<![@!+*?])\()"
)
DECL_ARRAY_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\] \t\n]*\])?\+?=\(")
BLANK_RUN_RE: Final = re.compile(r"[ \t]+")

# Runs of plain characters per context (what needs no special handling there).
LIT_NORMAL_RE: Final = re.compile(r"[^ \t\n;&|<>()\\'\"$`~{},@!+*?]+")
# Brace marks mixed with LIT_NORMAL_RE runs, and that stretch split into its tokens.
BRACE_RUN_RE: Final = re.compile(r"[^ \t\n;&|<>()\\'\"$`~@!+*?]+")
BRACE_TOKEN_RE: Final = re.compile(r"[{},]|[^ \t\n;&|<>()\\'\"$`~{},@!+*?]+")
LIT_NOBRACE_RE: Final = re.compile(r"[^ \t\n;&|<>()\\'\"$`~@!+*?:=]+")
LIT_DQ_RE: Final = re.compile(r"[^\"\\$`]+")
LIT_HEREDOC_RE: Final = re.compile(r"[^\\$`]+")
HEREDOC_SPECIAL_RE: Final = re.compile(r"[\\$`]")
LIT_PARAM_RE: Final = re.compile(r"[^{}\\'\"$`/:~]+")
LIT_ARITH_RE: Final = re.compile(r"[^()\[\];\\'\"$`]+")
BACKTICK_SPECIAL_RE: Final = re.compile(r"[`\\]")
COMMENT_END_RE: Final = re.compile(r"[^\n]*")

_SIMPLE_ESCAPES: Final = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_OCT: Final = frozenset("01234567")


def _byte_char(value: int) -> str:
    """A raw byte as bash produces it: ASCII as itself, high bytes as surrogateescape."""
    value &= 0xFF
    return chr(value) if value < 0x80 else chr(0xDC00 + value)


def _code_point(value: int) -> str | None:
    if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
        return None
    return chr(value)


def decode_ansi_c(text: str) -> str:
    """Decode the body of ``$'...'`` the way bash does (linear, never raises).

    Supports the standard escapes, ``\\xHH``, ``\\uHHHH``, ``\\UHHHHHHHH``, octal ``\\nnn`` and
    ``\\cX``. Bytes >= 0x80 from ``\\x``/octal become surrogateescape characters, so encoding
    with ``errors="surrogateescape"`` gives bash's bytes. A NUL ends the string, as in bash
    (arguments are C strings). Unknown escapes keep their backslash.
    """
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        j = text.find("\\", i)
        if j < 0:
            out.append(text[i:])
            break
        out.append(text[i:j])
        if j + 1 >= n:
            out.append("\\")
            break
        c = text[j + 1]
        i = j + 2
        if c in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[c])
        elif c in _OCT:
            k = i
            while k < n and k < i + 2 and text[k] in _OCT:
                k += 1
            out.append(_byte_char(int(text[j + 1 : k], 8)))
            i = k
        elif c in "xuU":
            limit = {"x": 2, "u": 4, "U": 8}[c]
            k = i
            while k < n and k < i + limit and text[k] in _HEX:
                k += 1
            if k == i:
                out.append("\\" + c)
            elif c == "x":
                out.append(_byte_char(int(text[i:k], 16)))
            else:
                ch = _code_point(int(text[i:k], 16))
                out.append(ch if ch is not None else text[j:k])
            i = k
        elif c == "c":
            if i < n:
                ctl = text[i]
                i += 1
                if ctl == "\\" and i < n and text[i] == "\\":
                    i += 1
                out.append(chr(0x7F) if ctl == "?" else chr(ord(ctl) & 0x1F))
            else:
                out.append("\\c")
        else:
            out.append("\\" + c)
    value = "".join(out)
    nul = value.find("\0")
    return value if nul < 0 else value[:nul]


_DELIM_QUOTING_RE: Final = re.compile(r"[\\'\"$]")


def heredoc_delimiter(raw: str) -> tuple[str, bool]:
    """Quote-remove a heredoc delimiter word's source text; say whether any part was quoted.

    Bash performs no expansion on the delimiter: ``<<$x`` ends at a line ``$x``.
    """
    if _DELIM_QUOTING_RE.search(raw) is None:
        return raw, False  # nothing to remove (the common ``<<EOF``)
    out: list[str] = []
    quoted = False
    i = 0
    n = len(raw)
    while i < n:
        c = raw[i]
        if c == "\\" and i + 1 < n:
            quoted = True
            out.append(raw[i + 1])
            i += 2
        elif c == "'":
            quoted = True
            j = raw.find("'", i + 1)
            j = n if j < 0 else j
            out.append(raw[i + 1 : j])
            i = j + 1
        elif c == '"':
            quoted = True
            j = i + 1
            while j < n and raw[j] != '"':
                if raw[j] == "\\" and j + 1 < n and raw[j + 1] in '"\\$`':
                    j += 1
                out.append(raw[j])
                j += 1
            i = j + 1
        elif c == "$" and i + 1 < n and raw[i + 1] in "'\"":
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out), quoted


# --- brace expansion ---------------------------------------------------------------------

_SEQ_RE: Final = re.compile(
    r"(?:[+-]?[0-9]+\.\.[+-]?[0-9]+|[A-Za-z]\.\.[A-Za-z])(?:\.\.[+-]?[0-9]+)?\Z"
)


class BraceMark:
    """A ``{``, ``,`` or ``}`` seen unquoted in a command word (resolved by ``brace_pass``)."""

    __slots__ = ("char", "pos")

    def __init__(self, char: str, pos: int) -> None:
        self.char = char
        self.pos = pos


RawPart = WordPart | BraceMark
# A piece of a frame's content: a part, or a nested (already resolved) list of pieces.
_Piece = WordPart | list["_Piece"]


def _flatten(pieces: list[_Piece], out: list[WordPart]) -> None:
    stack: list[tuple[list[_Piece], int]] = [(pieces, 0)]
    push, pop, add = stack.append, stack.pop, out.append
    while stack:
        items, idx = pop()
        size = len(items)
        while idx < size:
            item = items[idx]
            idx += 1
            if type(item) is list:
                push((items, idx))
                push((item, 0))
                break
            add(item)  # type: ignore[arg-type]


def merge_literals(parts: list[WordPart]) -> tuple[WordPart, ...]:
    """Join adjacent ``Literal`` parts whose spans touch (linear)."""
    if len(parts) <= 1:
        return tuple(parts)
    out: list[WordPart] = []
    add = out.append
    run: list[Literal] = []
    last_end = -1  # end of the run's last literal
    for part in parts:
        if type(part) is Literal:
            if run and last_end != part.span[0]:
                _flush(run, add)
                run = []
            run.append(part)
            last_end = part.span[1]
            continue
        if run:
            _flush(run, add)
            run = []
        add(part)
    if run:
        _flush(run, add)
    return tuple(out)


def _flush(run: list[Literal], add: Callable[[WordPart], None]) -> None:
    if len(run) == 1:
        add(run[0])
    else:
        add(new_literal((run[0].span[0], run[-1].span[1]), "".join([p.value for p in run])))


class _Frame:
    __slots__ = ("start", "items", "current", "commas")

    def __init__(self, start: int) -> None:
        self.start = start
        self.items: list[list[_Piece]] = []
        self.current: list[_Piece] = []
        self.commas: list[int] = []


def _lit(char: str, pos: int) -> Literal:
    return new_literal((pos, pos + 1), char)


def _word_of(pieces: list[_Piece], start: int, end: int) -> Word:
    if len(pieces) == 1 and type(pieces[0]) is not list:
        # One part (``a`` in ``{a,b}``): flattening and merging would return it as is.
        return new_word((start, end), (pieces[0],))  # type: ignore[arg-type]
    flat: list[WordPart] = []
    _flatten(pieces, flat)
    return new_word((start, end), merge_literals(flat))


def brace_pass(raw: list[RawPart]) -> tuple[WordPart, ...]:
    """Resolve brace marks into ``BraceExp`` parts where bash would expand; linear time.

    ``{a,b}`` (a comma at the top level of the braces) and sequences ``{1..5}``, ``{a..e}``,
    ``{1..9..2}`` expand; anything else (``{}``, ``{x}``, unbalanced braces) stays literal.
    """
    root: list[_Piece] = []
    stack: list[_Frame] = []
    target = root  # the innermost open frame's current item (kept in step with ``stack``)
    for part in raw:
        if not isinstance(part, BraceMark):
            target.append(part)
            continue
        char = part.char
        if char == "{":
            frame = _Frame(part.pos)
            stack.append(frame)
            target = frame.current
        elif char == "," and stack:
            frame = stack[-1]
            frame.items.append(frame.current)
            frame.commas.append(part.pos)
            frame.current = target = []
        elif char == "}" and stack:
            frame = stack.pop()
            parent = stack[-1].current if stack else root
            end = part.pos + 1
            if frame.commas:
                bounds = [frame.start, *frame.commas, part.pos]
                words = [
                    _word_of(pieces, bounds[k] + 1, bounds[k + 1])
                    for k, pieces in enumerate([*frame.items, frame.current])
                ]
                parent.append(BraceExp((frame.start, end), tuple(words)))
            elif _is_sequence(frame.current):
                lit = frame.current[0]
                assert isinstance(lit, Literal)
                words = []
                pos = lit.span[0]
                for piece in lit.value.split(".."):
                    span = (pos, pos + len(piece))
                    words.append(Word(span, (Literal(span, piece),)))
                    pos += len(piece) + 2
                parent.append(BraceExp((frame.start, end), tuple(words), sequence=True))
            else:
                parent.append([_lit("{", frame.start), frame.current, _lit("}", part.pos)])
            target = parent
        else:
            target.append(_lit(char, part.pos))
    # Unclosed frames stay literal: emit each once, outermost first (no re-copying).
    for frame in stack:
        root.append(_lit("{", frame.start))
        for pieces, comma in zip(frame.items, frame.commas, strict=True):
            root.append(pieces)
            root.append(_lit(",", comma))
        root.append(frame.current)
    flat: list[WordPart] = []
    _flatten(root, flat)
    return merge_literals(flat)


def _is_sequence(pieces: list[_Piece]) -> bool:
    if len(pieces) != 1:
        return False
    only = pieces[0]
    return isinstance(only, Literal) and _SEQ_RE.match(only.value) is not None
