"""Constant folding of bash arithmetic: ``$((1+1))``, ``${a[i-1]}``, ``${s:n*2}``.

:func:`evaluate` computes an integer expression the way bash does (64-bit wrap-around,
C precedence, ``**``, ``?:``, ``,``, ``0x1f``/``017``/``2#101`` literals) when every value in
it is known; a variable's text is itself evaluated as an expression (bash does the same).
Anything not known statically (an unknown variable, ``$(cmd)``, an assignment or ``++``,
whose effect the classifier tracks elsewhere, division by zero) gives None, never a guess.

One pass of a hand-written tokenizer and a precedence-climbing parser: linear in the text,
with nesting capped (deeper expressions are not folded).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._values import Var

__all__ = ["evaluate"]

_MASK = (1 << 64) - 1
_MAX_DEPTH = 48
_MAX_VAR_DEPTH = 4
_MAX_TEXT = 4096

# Binary operators by precedence (low to high), as in bash's expr.c.
_BINARY: dict[str, int] = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9,
    "*": 10, "/": 10, "%": 10, "**": 12,
}
_OPERATORS = ("<<=", ">>=", "**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--",
              "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "+", "-", "*", "/", "%", "<",
              ">", "&", "^", "|", "!", "~", "?", ":", "(", ")", ",", "=")
_ASSIGNING = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "<<=", ">>=",
                        "++", "--"})


class _Unknown(Exception):
    """The expression has a part that is not known statically (internal control flow)."""


def _signed(value: int) -> int:
    value &= _MASK
    return value - (1 << 64) if value >> 63 else value


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\n":
            i += 1
            continue
        if c.isascii() and (c.isalnum() or c == "_"):
            start = i
            while i < n and text[i].isascii() and (text[i].isalnum() or text[i] in "_#@"):
                i += 1
            out.append(text[start:i])
            continue
        for op in _OPERATORS:
            if text.startswith(op, i):
                if op in _ASSIGNING:
                    raise _Unknown  # side effects are tracked by the caller, not folded
                out.append(op)
                i += len(op)
                break
        else:
            raise _Unknown  # $, quotes, subscripts, anything else
    return out


def _number(word: str) -> int:
    try:
        if "#" in word:
            base_text, _, digits = word.partition("#")
            base = int(base_text)
            if not 2 <= base <= 36 or not digits:
                raise _Unknown  # bases above 36 use @ and _ digits: not folded
            return int(digits, base)
        if word[:2] in ("0x", "0X"):
            return int(word[2:], 16)
        if len(word) > 1 and word[0] == "0":
            return int(word, 8)
        return int(word)
    except ValueError:
        raise _Unknown from None


class _Parser:
    __slots__ = ("tokens", "pos", "env", "var_depth")

    def __init__(self, tokens: list[str], env: Mapping[str, Var], var_depth: int) -> None:
        self.tokens = tokens
        self.pos = 0
        self.env = env
        self.var_depth = var_depth

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise _Unknown
        self.pos += 1
        return token

    def comma(self, depth: int) -> int:
        value = self.ternary(depth)
        while self.peek() == ",":
            self.pos += 1
            value = self.ternary(depth)
        return value

    def ternary(self, depth: int) -> int:
        if depth > _MAX_DEPTH:
            raise _Unknown
        cond = self.binary(1, depth)
        if self.peek() != "?":
            return cond
        self.pos += 1
        yes = self.comma(depth + 1)
        if self.take() != ":":
            raise _Unknown
        no = self.ternary(depth + 1)
        return yes if cond else no

    def binary(self, level: int, depth: int) -> int:
        left = self.unary(depth)
        while True:
            op = self.peek()
            prec = _BINARY.get(op) if op is not None else None
            if prec is None or prec < level:
                return left
            self.pos += 1
            # ** is right-associative; the others bind left to right.
            right = self.binary(prec if op == "**" else prec + 1, depth + 1)
            left = _apply(op, left, right)  # type: ignore[arg-type]

    def unary(self, depth: int) -> int:
        if depth > _MAX_DEPTH:
            raise _Unknown
        token = self.take()
        if token == "(":
            value = self.comma(depth + 1)
            if self.take() != ")":
                raise _Unknown
            return value
        if token in ("-", "+", "!", "~"):
            value = self.unary(depth + 1)
            if token == "-":
                return _signed(-value)
            if token == "!":
                return int(not value)
            return _signed(~value) if token == "~" else value
        if token[0].isdecimal():
            return _signed(_number(token))
        if token[0].isalpha() or token[0] == "_":
            return self.variable(token)
        raise _Unknown

    def variable(self, name: str) -> int:
        if not name.replace("_", "a").isalnum():
            raise _Unknown
        var = self.env.get(name)
        if var is None or var.items is not None or len(var.alts) != 1 or var.ref is not None:
            raise _Unknown  # unset, an array, or several possible values
        text = var.alts[0]
        if not text.strip():
            return 0  # an empty variable is 0 in arithmetic
        if self.var_depth >= _MAX_VAR_DEPTH:
            raise _Unknown
        return _fold(text, self.env, self.var_depth + 1)


def _apply(op: str, a: int, b: int) -> int:
    if op in ("/", "%"):
        if b == 0:
            raise _Unknown  # bash reports an error
        q = abs(a) // abs(b)
        q = q if (a >= 0) == (b >= 0) else -q  # C truncation toward zero
        return _signed(q) if op == "/" else _signed(a - q * b)
    if op == "**":
        if b < 0:
            raise _Unknown
        return _signed(pow(a, b, 1 << 64))
    if op in ("<<", ">>"):
        b &= 63
        return _signed(a << b) if op == "<<" else a >> b
    results = {
        "+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b,
        "==": int(a == b), "!=": int(a != b), "<": int(a < b), ">": int(a > b),
        "<=": int(a <= b), ">=": int(a >= b), "&&": int(bool(a) and bool(b)),
        "||": int(bool(a) or bool(b)),
    }
    return _signed(results[op])


def _fold(text: str, env: Mapping[str, Var], var_depth: int) -> int:
    if len(text) > _MAX_TEXT:
        raise _Unknown
    parser = _Parser(_tokens(text), env, var_depth)
    if not parser.tokens:
        return 0
    value = parser.comma(0)
    if parser.pos != len(parser.tokens):
        raise _Unknown
    return value


def evaluate(text: str, env: Mapping[str, Var]) -> int | None:
    """The value of arithmetic ``text`` when every part is known statically, else None.

    Never raises; linear in ``text``.

    >>> evaluate("2 ** 3 + (7 % 4) * 0x10", {})
    56
    """
    try:
        return _fold(text, env, 0)
    except (_Unknown, RecursionError):
        return None
