"""Python ``str.format`` with keyword fields, for the constant folder (``_strfold``).

``"{a} -rf {b}".format(a="rm", b="/")``, ``"{x}".format(x=c)`` (``c`` bound to a constant),
``"{a}".format(**{"a": "rm"})`` and ``"{a} {b}".format_map({"a": "rm", "b": "/"})`` make
the same string as ``"{} {}".format("rm", "/")``: each field is its value's text. A field
that names an attribute or an index (``{a.b}``, ``{a[0]}``), converts (``{a!r}``) or names
a keyword the call does not give leaves the call unfolded, as does a keyword given twice
(Python raises). Arguments are read by the folder's own grammar, so values are constant
string expressions (literals, folded calls, names bound to constants) and work stays
bounded by the folder's limits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._strfuncs import Fail, Val, chr_of, method, text_of
from ._strperl import brace_pieces, comprehension

if TYPE_CHECKING:
    from ._strparser import Parser

__all__ = ["format_call", "format_fields"]


def _ahead(p: Parser, skip: int) -> tuple[str, str] | None:
    """(kind, text) of the token ``skip`` tokens ahead, newlines inside brackets skipped,
    without counting work (a look that changes nothing the folder bounds)."""
    k = p.i
    seen = 0
    while k < len(p.toks):
        tok = p.toks[k]
        k += 1
        if tok[1] == "\n" and tok[0] == "op" and p.depth > 0:
            continue
        if seen == skip:
            return tok[0], tok[1]
        seen += 1
    return None


def _mapping(p: Parser, kwargs: dict[str, Val]) -> None:
    """A dict display of constant string keys, ``{"a": "rm", ...}`` (at its ``{``)."""
    p.expect("{")
    while not p.is_op("}"):
        key = p.take()
        if key[0] != "str" or key[1] in kwargs:
            raise Fail
        p.expect(":")
        kwargs[key[1]] = p.expr()
        if not p.is_op(","):
            break
        p.take()
    p.expect("}")


def format_call(p: Parser, v: Val, m: str) -> Val:
    """``v.format(..)`` or ``v.format_map(..)`` (Python; the ``(`` taken). Positional
    arguments are read exactly as the folder's own argument list reads them."""
    p.depth += 1
    if p.depth > 16:
        raise Fail
    args: list[Val] = []
    kwargs: dict[str, Val] = {}
    mappings = 0
    while not p.is_op(")"):
        head, nxt = _ahead(p, 0), _ahead(p, 1)
        if m == "format_map":
            mappings += 1  # its one argument: a dict display
            if mappings > 1:
                raise Fail
            _mapping(p, kwargs)
        elif head is not None and head[0] == "name" and nxt == ("op", "="):
            name = p.take()[1]
            p.take()
            if name in kwargs:
                raise Fail  # a keyword given twice: Python raises
            kwargs[name] = p.expr()
        elif head == ("op", "*") and nxt == ("op", "*"):
            p.take()
            p.take()
            _mapping(p, kwargs)
        elif kwargs:
            raise Fail  # a positional argument after a keyword: not Python
        else:
            gen = comprehension(p)
            args.append(gen if gen is not None else p.expr())
        if p.is_op(","):
            p.take()
            continue
        break
    p.expect(")")
    p.depth -= 1
    if m == "format" and not kwargs:
        out = method(v, m, args, p.lang)  # the positional reading
    elif isinstance(v, str) and (m == "format" or mappings == 1):
        out = format_fields(v, args, kwargs)
    else:
        out = None
    if out is None:
        raise Fail
    p.folded = True
    return out


def format_fields(fmt: str, args: list[Val], kwargs: dict[str, Val]) -> str | None:
    """``fmt.format(*args, **kwargs)`` with plain fields (auto, numbered or named)."""
    out: list[str] = []
    auto = 0
    numbered = False
    for kind, piece in brace_pieces(fmt):
        if kind == "text":
            out.append(piece)
            continue
        if kind != "field":
            return None  # a stray } or a { nothing closes: Python raises
        field, _, spec = piece.partition(":")
        if field == "":
            value = args[auto] if auto < len(args) and not numbered else None
            auto += 1
        elif field.isascii() and field.isdecimal():
            numbered = True  # with automatic fields too, Python raises
            value = args[int(field)] if int(field) < len(args) and not auto else None
        elif field.isidentifier():
            value = kwargs.get(field)
        else:
            return None  # {a.b}, {a[0]}, {a!r}
        if value is None:
            return None
        s = chr_of(value) if spec == "c" else text_of(value, True)
        if s is None:
            return None
        out.append(s)
    return "".join(out)
