"""The expression reader of the constant string folder (``_strfold``).

:class:`Parser` reads one constant string expression from the folder's tokens: literals,
numbers, names bound to constants, joins (``+``, ``.``, ``..``, adjacent terms), subscripts
and slices, methods and pure string functions (``_strfuncs``, the Perl and Python list
forms of ``_strperl``, ``str.format`` of ``_strformat``). Any construct it does not model
raises :class:`Fail` and the expression is left as written. Every token it reads counts
against the attempt's limit (``limit``), and every value is at most 4,096 characters (a
list at most 1,024 items).
"""

from __future__ import annotations

from collections.abc import Mapping

from ._strformat import format_call
from ._strfuncs import (
    FUNCTIONS,
    Fail,
    Tok,
    Val,
    chr_of,
    function,
    method,
    num,
    printf,
    req,
    text_of,
)
from ._strperl import comprehension, map_args, perl_args, perl_map
from ._strskip import SEPARATORS
from ._words import DYN

__all__ = ["Parser"]

_MAX_STR = 4096
_MAX_LIST = 1024

# Operators joining strings, by language; ``adjacent`` languages also join juxtaposed terms.
_CONCAT = {"python": "+", "node": "+", "deno": "+", "bun": "+", "ruby": "+", "perl": ".",
           "php": ".", "lua": "..", "awk": ""}
_ADJACENT_ANY = frozenset({"awk"})
_ADJACENT_STR = frozenset({"python", "ruby"})
_LOOSE = frozenset({"perl", "php", "awk", "lua"})  # numbers are strings when joined


def _bounded(v: Val) -> None:
    """Values stay small: a longer string or list ends the attempt."""
    if isinstance(v, str | list) and len(v) > (_MAX_STR if isinstance(v, str) else _MAX_LIST):
        raise Fail


class Parser:
    def __init__(self, toks: list[Tok], language: str, consts: Mapping[str, str]) -> None:
        self.toks = toks
        self.lang = language
        self.consts = consts
        self.i = 0
        self.work = 0
        self.limit = 0
        self.depth = 0
        self.folded = False
        self.concat = _CONCAT.get(language, "+")
        self.loose = language in _LOOSE
        self.code = ""
        self.escaped: frozenset[int] = frozenset()
        self.nest = 0

    # -- token access -------------------------------------------------------------------
    def peek(self, ahead: int = 0) -> Tok | None:
        self.work += 1
        k = self.i
        skipped = 0
        while k < len(self.toks):
            tok = self.toks[k]
            if tok[1] == "\n" and tok[0] == "op" and self.depth > 0:
                k += 1
                continue
            if skipped == ahead:
                return tok
            skipped += 1
            k += 1
        return None

    def take(self) -> Tok:
        self.work += 1
        if self.work > self.limit:
            raise Fail
        while self.i < len(self.toks):
            tok = self.toks[self.i]
            self.i += 1
            if not (tok[1] == "\n" and tok[0] == "op" and self.depth > 0):
                return tok
        raise Fail

    def is_op(self, text: str, ahead: int = 0) -> bool:
        tok = self.peek(ahead)
        return tok is not None and tok[0] == "op" and tok[1] == text

    def expect(self, text: str) -> None:
        tok = self.take()
        if tok[0] != "op" or tok[1] != text:
            raise Fail

    # -- grammar ------------------------------------------------------------------------
    def expr(self) -> Val:
        """term (CONCAT term)*; a failing right operand ends the expression before it (string
        joining is associative, so a folded prefix means the same)."""
        v = self.term()
        while True:
            save, work, folded = self.i, self.work, self.folded
            nxt = self.peek()
            if nxt is None:
                return v
            joined = False
            if self.concat and nxt[0] == "op" and nxt[1] == self.concat:
                self.take()
                joined = True
            elif self.lang in _ADJACENT_ANY and (nxt[0] in ("str", "num") or (
                    nxt[0] == "name" and nxt[1] not in ("in", "if", "else")) or
                    (nxt[0] == "op" and nxt[1] == "(")):
                joined = True
            elif self.lang in _ADJACENT_STR and nxt[0] == "str" and isinstance(v, str):
                joined = True
            if not joined:
                return v
            if self.work * 2 > self.limit:
                return v  # a long chain folds in pieces: each attempt stays bounded
            try:
                w = self.term()
            except Fail:
                self.i, self.work, self.folded = save, work, folded
                return v
            if isinstance(v, int) and isinstance(w, int) and self.concat == "+":
                v = v + w
            else:
                a = text_of(v, self.loose or self.lang in ("node", "deno", "bun"))
                b = text_of(w, self.loose or self.lang in ("node", "deno", "bun"))
                if a is None or b is None:
                    self.i, self.work, self.folded = save, work, folded
                    return v
                v = a + b
                if len(v) > _MAX_STR:
                    raise Fail
            self.folded = True

    def args(self) -> list[Val]:
        """``( expr, expr, ... )`` (the ``(`` already taken)."""
        return self.seq(")")

    def seq(self, close: str) -> list[Val]:
        """Elements up to ``close`` (the opener already taken)."""
        self.depth += 1
        if self.depth > 16:
            raise Fail  # nesting this deep is no string building: keep the stack shallow
        out: list[Val] = []
        while not self.is_op(close):
            gen = comprehension(self)
            out.append(gen if gen is not None else self.expr())
            if self.is_op(","):
                self.take()
                continue
            break
        self.expect(close)
        self.depth -= 1
        return out

    def term(self) -> Val:
        self.nest += 1  # every nested expression passes here: the stack stays shallow
        if self.nest > 24:
            raise Fail
        try:
            return self._term()
        finally:
            self.nest -= 1

    def _term(self) -> Val:
        v = self.primary()
        for _ in range(32):
            nxt = self.peek()
            if nxt is None or nxt[0] != "op":
                break
            if nxt[1] == "[" and self.lang in ("python", "ruby") and isinstance(v, str | list):
                v = self.subscript(v)
            elif nxt[1] == "." and self.lang in ("python", "node", "deno", "bun", "ruby"):
                v = self.method(v)
            elif nxt[1] == ":" and self.lang == "lua":
                v = self.method(v)
            elif nxt[1] == "%" and self.lang in ("python", "ruby") and isinstance(v, str):
                self.take()
                arg = self.primary()
                s = printf(v, arg if isinstance(arg, list) else [arg])
                v = req(s)
                self.folded = True
            else:
                break
            _bounded(v)
        return v

    def subscript(self, v: Val) -> Val:
        """``[::-1]``, ``[1:]``, ``[0]`` (Python); ``[0, 2]``/``[1..]`` are not read."""
        assert isinstance(v, str | list)
        self.take()
        parts: list[int | None] = [None, None, None]
        k = 0
        while True:
            tok = self.peek()
            if tok is None:
                raise Fail
            if tok[1] == "]":
                break
            if tok[1] in (":", "::"):
                self.take()
                k += len(tok[1])
                if k > 2:
                    raise Fail
                continue
            sign = 1
            if tok[1] == "-":
                self.take()
                sign = -1
            n = self.take()
            if n[0] != "num" or parts[k] is not None:
                raise Fail
            parts[k] = sign * num(n[1])
        self.take()
        self.folded = True
        if k == 0:
            if parts[0] is None or not isinstance(v, str):
                raise Fail
            try:
                return v[parts[0]]
            except IndexError:
                raise Fail from None
        if parts[2] == 0:
            raise Fail
        return v[parts[0]:parts[1]:parts[2]]

    def method(self, v: Val) -> Val:
        self.take()  # . or :
        name = self.take()
        if name[0] != "name":
            raise Fail
        m = name[1]
        argv: list[Val] = []
        if self.is_op("("):
            self.take()
            if m == "map" and self.lang == "ruby" and self.is_op("&"):
                self.take()
                self.expect(":")
                fn = self.take()
                self.expect(")")
                if fn[1] != "chr" or not isinstance(v, list):
                    raise Fail
                self.folded = True
                return [req(chr_of(x)) for x in v]
            if m in ("format", "format_map") and self.lang == "python":
                return format_call(self, v, m)  # keywords too: .format(a="rm")
            argv = self.args()
        out = method(v, m, argv, self.lang)
        if out is None:
            raise Fail
        self.folded = True
        return out

    def primary(self) -> Val:
        tok = self.take()
        kind, text = tok[0], tok[1]
        if kind == "str":
            if tok[2] in self.escaped:
                self.folded = True  # "\x72\x6d": a value spelled by escapes
            quote = self.code[tok[2]] if tok[2] < len(self.code) else '"'
            if DYN in text or (quote == '"' and (
                    (self.lang in ("perl", "php") and ("$" in text or "@" in text)) or
                    (self.lang == "ruby" and "#{" in text))):
                raise Fail  # an interpolating string: not constant
            return text
        if kind == "num":
            return num(text)
        if kind == "op":
            if text == "(":
                items = self.seq(")")
                return items[0] if len(items) == 1 and not isinstance(items[0], list) \
                    else items
            if text == "[":
                return self.seq("]")
            if text == "{" and self.lang == "lua":
                return self.seq("}")  # a table constructor: {"rm", "-rf", "~"}
            nxt = self.peek()
            if text == "-" and nxt is not None and nxt[0] == "num":
                return -num(self.take()[1])
            raise Fail
        if kind != "name":
            raise Fail
        return self.call(text)

    def chain(self, first: str) -> str:
        """A dotted (``String.fromCharCode``), ``::`` or ``->`` name; Perl and PHP join with
        ``::``/``->`` only (their ``.`` is concatenation)."""
        seps = ("::", "->") if self.lang in ("perl", "php") else (".", "::") \
            if self.lang != "lua" else (".",)
        name = first
        for _ in range(8):
            if self.is_op(seps[0]) or (len(seps) > 1 and any(self.is_op(s) for s in seps)):
                nxt = self.peek(1)
                if nxt is None or nxt[0] != "name":
                    break
                sep = self.take()[1]
                name += sep + self.take()[1]
            else:
                break
        return name

    def call(self, first: str) -> Val:
        if first in self.consts and not self.is_op("("):
            return self.consts[first]
        name = self.chain(first)
        short = SEPARATORS.split(name)[-1].lower()
        if short not in FUNCTIONS:
            raise Fail  # not a pure string function: its arguments are not read
        perl_list = self.lang == "perl" and not self.is_op("(")
        if perl_list and short == "map":
            return perl_map(self)
        if perl_list and short in ("chr", "lc", "uc", "reverse", "scalar", "join", "sprintf",
                                   "pack"):
            argv = perl_args(self, short)
        elif self.is_op("("):
            self.take()
            if short == "map" and self.lang in ("python", "perl"):
                argv = map_args(self)
            else:
                argv = self.args()
        elif self.lang == "ruby" and short in ("format", "sprintf"):
            argv = perl_args(self, short)
        else:
            raise Fail
        out = function(short, name, argv, self.lang)
        if out is None:
            raise Fail
        _bounded(out)
        self.folded = True
        return out
