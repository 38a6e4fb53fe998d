"""Constant string expressions in interpreter code, folded into one literal.

Interpreter code builds a command out of pieces the literal scanner of ``_code`` reads one
at a time: ``"r" + "m -rf ~"`` (Python, Ruby, JavaScript), ``"r" . "m -rf ~"`` (Perl, PHP),
``"r" .. "m -rf ~"`` (Lua), ``"r" "m -rf ~"`` (awk, and adjacent literals in Python and
Ruby), ``chr(114)``, ``String.fromCharCode(114, 109)``, ``string.char(114, 109)``,
``sprintf("%c%c", 114, 109)``, ``pack("C*", 114, 109)``, ``[114, 109].pack("c*")``,
``"~ fr- mr"[::-1]``, ``"".join(reversed("mr"))``, ``"%s" % "rm"``, ``.format``.
:func:`fold_strings` evaluates such an expression (never with ``eval``: a small interpreter
over literals, numbers, pure string functions (``_strfuncs``) and names bound earlier to a
constant: in Python, JavaScript and Ruby the value every binding of the name gives it where
it is read, ``_names``) and writes it back as one literal: ``os.system("rm -rf ~")``. A blank
literal leading into a value that does not fold (``"" + input()``) is written as unknown.
This module finds where expressions start and writes the results back; the expression
reader itself is ``_strparser.Parser``.

Work is bounded: code longer than 20,000 characters is left alone, at most 6,000 tokens
are read, each expression attempt reads at most 400 tokens, every value is at most 4,096
characters, and the whole fold reads at most 40,000 tokens.
"""

from __future__ import annotations

import re

from ._edits import apply_edits
from ._names import SCOPED, Scope
from ._strfuncs import (
    Fail,
    Tok,
    bind,
    escaped,
    may_start,
    quote,
    ruby_interpolations,
    tokens,
)
from ._strparser import Parser
from ._strperl import unknown_head
from ._strskip import failing_name

__all__ = ["FOLDED", "Tok", "fold_strings", "scope_of", "tokens"]

FOLDED = frozenset({"python", "node", "deno", "bun", "ruby", "perl", "php", "lua", "awk"})
_MAX_CODE = 20000
_ATTEMPT = 400
_TOTAL = 2500
# Evidence of string building, sought before any token is read (one C-level search): a
# literal next to a joining operator, adjacent literals, a name bound to a literal and then
# joined, an escape, or a string function. Every alternative starts with a literal
# character, so the search skips ahead over a first-character set (``\blc\b`` is written
# ``lc\b(?<=\blc)``): about 4x faster than the same gate with a leading ``["'`]``.
_GATE = re.compile(r"""'[ \t]{0,8}[+.%]|"[ \t]{0,8}[+.%]|`[ \t]{0,8}[+.%]|'[ \t]{1,8}["']"""
                   r"""|"[ \t]{1,8}["']|\+[ \t]{0,8}["'`\w$]|\.\.?[ \t]{0,8}["'`]"""
                   r"|\$\w{1,32}[ \t]{0,8}\.[ \t]{0,8}\$"
                   r"|chr|Char|char|printf|pack|\[::|join|rev|replace|format|implode"
                   r"|lc\b(?<=\blc)|uc\b(?<=\buc)|upper|lower|rot13|\\[0-7xuU]|#\{|concat"
                   r"|map\b(?<=\bmap)|reversed")


# Calls that make strings from character codes without any literal (chr(114), pack("c*")
# has one): without a quote or one of these, code holds no string to fold.
_CHAR_CODES = re.compile(r"chr|[Cc]har|pack|\\[0-7xuU]")


def scope_of(toks: list[Tok], code: str, language: str) -> Scope:
    """The names of Python, JavaScript or Ruby ``code`` bound to constants (``_names``)."""
    def fold(k: int, scope: Scope) -> tuple[str | None, int]:
        p = Parser(toks, language, scope)
        p.code, p.escaped, p.i, p.limit = code, escaped(code, language), k, _ATTEMPT
        try:
            value = p.expr()
        except (Fail, ValueError, OverflowError, IndexError):
            return None, k
        return (value if isinstance(value, str) else None), p.i
    return Scope(toks, code, language, fold)


def fold_strings(code: str, language: str) -> str:
    """``code`` with each constant string expression written as one literal; ``code``
    itself when nothing folds (the common case: no gate substring, or no expression)."""
    if language not in FOLDED or len(code) > _MAX_CODE or _GATE.search(code) is None:
        return code
    if "'" not in code and '"' not in code and "`" not in code and \
            _CHAR_CODES.search(code) is None:
        return code  # no literal and no character-code call: nothing can fold (print(1+1))
    if language == "ruby" and "#{" in code:
        code = ruby_interpolations(code, fold_strings)
    toks = tokens(code, language)
    if toks is None:
        return code
    consts: dict[str, str] = {}
    dropped: set[str] = set()
    scope = scope_of(toks, code, language) if language in SCOPED else None
    parser = Parser(toks, language, scope if scope is not None else consts)
    parser.code = code
    parser.escaped = escaped(code, language)
    edits: list[tuple[int, int, str]] = []
    total = 0
    k = 0
    n = len(toks)
    while k < n and total < _TOTAL:
        if not may_start(toks, k, language):
            k += 1
            continue
        parser.i, parser.work, parser.limit, parser.depth, parser.nest = k, 0, _ATTEMPT, 0, 0
        parser.folded = False
        if scope is not None:
            scope.pos = k  # names read here hold what every binding before gave them
        if toks[k][0] == "name" and (skip := failing_name(toks, k, language,
                                                          parser.consts)) is not None:
            total, k = total + skip + 1, k + 1  # the attempt fails in call(): same count
            continue
        try:
            value = parser.expr()
            end = parser.i
        except (Fail, ValueError, OverflowError, IndexError):
            value, end = None, k
        total += parser.work + 1
        head = unknown_head(toks, k, end, value, parser.concat, language)
        if head is not None:  # "" + input(), "%s -rf /" % x: a command not known statically
            edits.append((toks[k][2], toks[k if value is None else end - 1][3], head))
            k = max(end, k + 1)
            continue
        if not isinstance(value, str) or end <= k:
            k += 1
            continue
        if scope is None:
            bind(toks, k, end, value, consts, dropped)
        if parser.folded:
            edits.append((toks[k][2], toks[end - 1][3], quote(value)))
            k = end
        else:
            k += 1
    return apply_edits(code, edits)  # in order, none overlapping: k only moves forward

