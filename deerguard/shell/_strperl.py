"""The Perl and Python list forms of :mod:`._strfold`'s reader (the Perl named operators
without parentheses, ``map`` and Python's ``chr(c) for c in [..]``), as functions of the
reader ``p``: its token access (``take``, ``peek``, ``is_op``, ``expect``) and grammar
(``expr``, ``term``, ``args``) do the reading, so the work budget covers them too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ._strfuncs import Fail, Tok, Val, chr_of, flat, quote, req, text_of
from ._words import DYN

if TYPE_CHECKING:
    from ._strparser import Parser

__all__ = ["brace_pieces", "comprehension", "map_args", "perl_args", "perl_map", "unknown_fields",
           "unknown_head"]


def comprehension(p: Parser) -> Val | None:
    """``chr(c) for c in [114, 109]`` (Python): the list of characters."""
    first = p.peek() if p.lang == "python" else None
    if first is None or first[1] not in ("chr", "str"):
        return None
    t = [p.peek(k) for k in range(7)]
    if not (t[0] and t[0][1] in ("chr", "str") and t[1] and t[1][1] == "(" and t[2] and
            t[2][0] == "name" and t[3] and t[3][1] == ")" and t[4] and t[4][1] == "for"
            and t[5] and t[5][1] == t[2][1] and t[6] and t[6][1] == "in"):
        return None
    fn = t[0][1]
    for _ in range(7):
        p.take()
    items = p.term()
    if not isinstance(items, list):
        raise Fail
    p.folded = True
    if fn == "chr":
        return [req(chr_of(x)) for x in items]
    return [req(text_of(x, True)) for x in items]


def map_args(p: Parser) -> list[Val]:
    """``map(chr, [114, 109])`` (Python), ``map(chr, 114, 109)`` (Perl)."""
    fn = p.take()
    if fn[1] not in ("chr", "str") or not p.is_op(","):
        raise Fail
    p.take()
    rest = p.args()
    items = flat(rest)
    conv = [(chr_of(x) if fn[1] == "chr" else text_of(x, True)) for x in items]
    return ["\0map", [req(c) for c in conv]]

def perl_args(p: Parser, short: str) -> list[Val]:
    """A Perl named operator without parentheses: ``chr 114``, ``reverse "mr"``,
    ``join "", map chr, 114, 109``, ``map { chr } 114, 109``."""
    if short in ("chr", "lc", "uc", "scalar"):
        return [p.term()]
    out: list[Val] = []
    for _ in range(256):
        tok = p.peek()
        if tok is None or (tok[0] == "op" and tok[1] in (")", ";", "}", "]", "\n")):
            break
        if tok[0] == "name" and tok[1] == "map":
            p.take()
            out.extend(perl_map(p))
            break
        out.append(p.expr())
        if p.is_op(","):
            p.take()
            continue
        break
    return out

def perl_map(p: Parser) -> list[Val]:
    paren = p.is_op("(")
    if paren:
        p.take()
    if p.is_op("{"):
        p.take()
        body: list[str] = []
        while not p.is_op("}"):
            body.append(p.take()[1])
            if len(body) > 5:
                raise Fail
        p.take()
        if "".join(body) not in ("chr", "chr$_", "chr($_)", "chr(shift)"):
            raise Fail
        if p.is_op(","):
            p.take()
    else:
        fn = p.take()
        if fn[1] != "chr" or not p.is_op(","):
            raise Fail
        p.take()
    items: list[Val] = []
    for _ in range(256):
        tok = p.peek()
        if tok is None or (tok[0] == "op" and tok[1] in (")", ";", "}", "]", "\n")):
            break
        items.append(p.term())
        if p.is_op(","):
            p.take()
            continue
        break
    if paren:
        p.expect(")")
    p.folded = True
    return [req(chr_of(x)) for x in flat(items)]


# A printf field of Python's and Ruby's ``%``: ``%s``, ``%-5d``, ``%(name)s``, ``%%``.
_PERCENT = re.compile(r"%(?:\([^)]{0,64}\))?[-+ 0#]{0,4}(?:\*|\d{0,3})(?:\.\d{0,3})?[a-zA-Z%]")


def unknown_fields(fmt: str, brace: bool) -> str | None:
    """``fmt``, a format whose arguments are not known, as the string it makes with each
    field unknown (``DYN``): ``"rm -rf %s"`` and ``"rm -rf {b}"`` as ``rm -rf DYN``; None
    when it holds no field (``"{{x}}"``, ``"100%%"``). Linear: one pass."""
    out: list[str] = []
    fields = 0
    if not brace:
        last = 0
        for m in _PERCENT.finditer(fmt):
            out.append(fmt[last:m.start()])
            if m.group() == "%%":
                out.append("%")
            else:
                out.append(DYN)
                fields += 1
            last = m.end()
        out.append(fmt[last:])
        return "".join(out) if fields else None
    for kind, piece in brace_pieces(fmt):
        if kind == "field":
            out.append(DYN)
            fields += 1
        else:
            out.append(piece)  # text, a stray }, or the rest after a { nothing closes
    return "".join(out) if fields else None


_PLAIN = re.compile(r"[^{}]+")


def brace_pieces(fmt: str) -> Iterator[tuple[str, str]]:
    """The pieces of a ``str.format`` format in order, as ``(kind, text)``: ``"text"``
    literal text (``{{`` and ``}}`` are one brace each), ``"field"`` the text between a
    field's braces (``a:>5`` of ``{a:>5}``), ``"stray"`` a ``}`` that closes nothing, and
    ``"open"`` a ``{`` that no ``}`` closes, with the rest of the format (the last piece).
    Linear: one pass."""
    i, n = 0, len(fmt)
    while i < n:
        m = _PLAIN.match(fmt, i)
        if m is not None:
            yield "text", m.group()
            i = m.end()
            continue
        c = fmt[i]
        if fmt[i + 1:i + 2] == c:
            yield "text", c
            i += 2
        elif c == "}":
            yield "stray", c
            i += 1
        else:
            close = fmt.find("}", i)
            if close < 0:
                yield "open", fmt[i:]
                return
            yield "field", fmt[i + 1:close]
            i = close + 1


def unknown_head(toks: list[Tok], k: int, end: int, value: Val | None, concat: str,
                 lang: str = "") -> str | None:
    """The literal at ``k`` as the unknown value ``DYN`` when it only leads into a value
    not known statically, so the command it starts is read as built at run time:
    ``"" + input()``, ``" " . $c`` (a blank prefix joined to what did not fold), or
    ``"%s -rf /" % x``, ``"{} -rf /".format(x)`` (a format whose first field is unknown)."""
    if toks[k][0] != "str" or k + 1 >= len(toks) or toks[k + 1][0] != "op":
        return None
    if value is not None:
        if isinstance(value, str) and not value.strip() and end < len(toks) and \
                toks[end][0] == "op" and toks[end][1] == concat:
            return quote(DYN)
        return None
    text = toks[k][1].lstrip()
    nxt = toks[k + 1][1]
    if (nxt == "%" and text.startswith(("%s", "%c", "%("))) or (
            nxt == "." and k + 2 < len(toks) and toks[k + 2][1] in ("format", "format_map") and
            text.startswith("{") and not text.startswith("{{")):
        rest = text[text.find("}") + 1:] if text[0] == "{" else \
            text[text.find(")") + 2:] if text[1] == "(" else text[2:]
        return quote(DYN + rest)
    if lang in ("python", "ruby") and (nxt == "%" or nxt == "." and k + 2 < len(toks) and
                                       toks[k + 2][1] in ("format", "format_map")):
        blank = unknown_fields(toks[k][1], nxt != "%")  # "rm -rf %s" % x: rm -rf <unknown>
        return quote(blank) if blank is not None else None
    return None
