"""Tokens and pure string functions for :mod:`._strfold` (the constant string folder).

:func:`tokens` splits interpreter code into literals (read by ``_code.literals``), numbers,
names and operators, in one pass (at most 6,000 tokens). The helpers evaluate the pure
string functions and methods of Python, Perl, Ruby, JavaScript, PHP, Lua and awk on constant
values: ``chr``, ``String.fromCharCode``, ``string.char``, ``sprintf``/``%``/``format``,
``pack``, ``join``/``implode``, ``reverse``/``strrev``/``reversed``, ``replace``/
``str_replace``, case changes. Values are strings, integers and lists; nothing is executed.
"""

from __future__ import annotations

import codecs
import functools
import re
from collections.abc import Callable

from ._code import literals
from ._edits import apply_edits

__all__ = ["FUNCTIONS", "Fail", "Tok", "Val", "chr_of", "flat", "function", "method", "num", "req",
           "bind", "bind_name", "may_start", "printf", "quote", "ruby_interpolations", "text_of",
           "tokens", "unescape", "escaped"]

Tok = tuple[str, str, int, int]  # (kind, text or value, start, end)
Val = str | int | list["Val"]

_MAX_TOKENS = 6000

# One token between literals: a comment (after a blank, ``;`` or the start), a number, a
# name, an operator, or any other single character. Blanks are skipped by the search.
# (Common kinds first: only ``other`` shares first characters with another kind; it is last.)
_LEX = re.compile(r"(?P<name>[A-Za-z_$@][\w$]*)"
                  r"|(?P<op>\.\.|::|->|=>|==|!=|<<|[-+*/%.,()\[\]{}:;=|&!<>?^~\\\n])"
                  r"|(?P<num>0[xX][0-9a-fA-F]+|\d+)(?!\w|\.\d)"
                  r"|(?P<comment>(?<![^\s;])#[^\n]*)|(?P<other>[^ \t\r])")
_PREFIXES = frozenset({"b", "r", "u", "f", "br", "rb", "B", "R", "U", "F", "Br", "bR", "BR"})


def tokens(code: str, language: str) -> list[Tok] | None:
    """The tokens of ``code``: literals (``str``, opening quote kept only for backticks as
    kind ``bt``; escapes such as ``\\x72`` decoded), numbers, names, operators and ``other``
    characters; None when too many. The scans between literals are C-level searches; cached
    (the readers share them)."""
    scanned = _scan(code, language)
    return scanned[0] if scanned is not None else None


def escaped(code: str, language: str) -> frozenset[int]:
    """Start offsets of the literals of ``code`` whose escapes (``\\x72``, ``\\u006d``,
    ``\\162``) spell other characters than the plain reading: their values are built."""
    scanned = _scan(code, language)
    return scanned[1] if scanned is not None else frozenset()


@functools.lru_cache(maxsize=8)
def _scan(code: str, language: str) -> tuple[list[Tok], frozenset[int]] | None:
    out: list[tuple[str, str, int, int]] = []
    built: list[int] = []
    pos = 0
    node = language in ("node", "deno", "bun")
    for start, end, value in (*literals(code, language in ("perl", "ruby", "php")),
                              (len(code), len(code), "")):
        out += [(m.lastgroup or "other", m.group(), m.start(), m.end())
                for m in _LEX.finditer(code, pos, start)]
        if len(out) >= _MAX_TOKENS:
            return None
        if not value:
            break
        if not node and out and out[-1][0] == "comment":
            out.pop()  # a comment ends at a newline, so it ends the segment before a literal
        raw = False
        if out and out[-1][0] == "name" and out[-1][3] == start and out[-1][1] in _PREFIXES:
            raw = "r" in out.pop()[1].lower()  # b"..", r'..': a prefixed literal
        text = value[1:]
        if not raw and value[0] != "`" and "\\" in code[start:end]:
            decoded = unescape(code[start + 1:end - 1], language, value[0])
            if decoded is not None and decoded != text:
                text = decoded
                built.append(start)
        out.append(("bt" if value[0] == "`" else "str", text, start, end))
        pos = end
    toks = [t for t in out if t[0] != "comment"] if not node else \
        [("op", t[1], t[2], t[3]) if t[0] == "comment" else t for t in out]
    return toks, frozenset(built)


_ESCAPE = re.compile(r"\\(x\{[0-9a-fA-F]{1,6}\}|u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{1,2}|"
                     r"u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.)", re.S)
_ESCAPE_LUA = re.compile(r"\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|[0-9]{1,3}|.)", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
           "e": "\x1b"}


def unescape(raw: str, language: str, quote: str) -> str | None:
    """The value of a literal's source text ``raw`` with its escapes decoded, by the rules of
    ``language``; None for literals whose escapes are only ``\\\\`` and the quote (Perl,
    Ruby and PHP single quotes)."""
    if quote == "'" and language in ("perl", "ruby", "php"):
        return None
    lua = language == "lua"

    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if e[0] in "xuU" and len(e) > 1:
            digits = e[2:-1] if e[1] == "{" else e[1:]
            code = int(digits, 16)
        elif e[0].isdecimal() and (lua or e[0] < "8"):  # \8, \9: not octal, the digit
            code = int(e, 10 if lua else 8)
        else:
            return _SIMPLE.get(e, e)
        return chr(code) if code < 0x110000 else ""

    return (_ESCAPE_LUA if lua else _ESCAPE).sub(one, raw)


def num(text: str) -> int:
    return int(text, 16) if text[:2] in ("0x", "0X") else int(text)


def chr_of(v: Val) -> str | None:
    if isinstance(v, int) and 0 < v < 0x110000:
        return chr(v)
    return None


def _chars(vals: list[Val]) -> str | None:
    out: list[str] = []
    for v in flat(vals):
        c = chr_of(v)
        if c is None:
            return None
        out.append(c)
    return "".join(out)


def flat(vals: list[Val]) -> list[Val]:
    out: list[Val] = []
    for v in vals:
        if isinstance(v, list):
            out.extend(v)
        else:
            out.append(v)
    return out


def text_of(v: Val | None, loose: bool) -> str | None:
    """``v`` as a string: a string itself; a number too when ``loose`` (Perl, awk, PHP)."""
    if isinstance(v, str):
        return v
    if loose and isinstance(v, int):
        return str(v)
    return None


_PRINTF = re.compile(r"%([-+ 0#]{0,4})(\d{0,3})(?:\.\d{1,3})?([%csdiux])")


def printf(fmt: str, args: list[Val]) -> str | None:
    out: list[str] = []
    last = 0
    k = 0
    for m in _PRINTF.finditer(fmt):
        out.append(fmt[last:m.start()])
        last = m.end()
        conv = m.group(3)
        if conv == "%":
            out.append("%")
            continue
        if k >= len(args):
            return None
        v = args[k]
        k += 1
        if conv == "c":
            c = chr_of(v) if isinstance(v, int) else v[:1] if isinstance(v, str) else None
            if c is None:
                return None
            out.append(c)
        elif conv == "s":
            s = text_of(v, True)
            if s is None:
                return None
            out.append(s)
        elif isinstance(v, int):
            out.append(format(v, "x") if conv == "x" else str(v))
        else:
            return None
    if "%" in fmt[last:]:
        return None
    out.append(fmt[last:])
    return "".join(out)


def _replace(s: Val, a: Val, b: Val) -> str | None:
    if isinstance(s, str) and isinstance(a, str) and isinstance(b, str) and a and \
            len(s) + s.count(a) * len(b) <= 4096:
        return s.replace(a, b)
    return None



class Fail(Exception):
    """The expression is not a constant (or the attempt ran out of work)."""



def req(v: Val | None) -> Val:
    if v is None:
        raise Fail
    return v



def method(v: Val, m: str, argv: list[Val], lang: str) -> Val | None:
    """``v.m(argv)`` for the pure string and list methods of the folded languages."""
    if isinstance(v, str):
        if m == "join" and lang == "python" and len(argv) == 1 and isinstance(argv[0], list):
            parts = [text_of(x, False) for x in _mapped(argv[0])]
            return None if any(p is None for p in parts) else v.join(p or "" for p in parts)
        if m in ("replace", "replaceAll", "gsub") and len(argv) == 2:
            return _replace(v, argv[0], argv[1])
        if m == "sub" and len(argv) == 2 and isinstance(argv[0], str) and \
                isinstance(argv[1], str):
            return v.replace(argv[0], argv[1], 1)
        if m in ("upper", "toUpperCase", "upcase") and not argv:
            return v.upper()
        if m in ("lower", "toLowerCase", "downcase") and not argv:
            return v.lower()
        if m in ("strip", "trim") and not argv:
            return v.strip()
        if m == "rstrip" and not argv:
            return v.rstrip()
        if m == "chomp" and not argv:
            return v.removesuffix("\n")
        if m in ("decode", "encode", "toString", "to_s", "freeze") and len(argv) <= 1:
            return v
        if m == "reverse" and not argv:
            return v[::-1]
        if m == "chars" and not argv:
            return list(v)
        if m == "split" and len(argv) == 1 and argv[0] == "" and lang != "python":
            return list(v)
        if m == "concat" and all(isinstance(a, str) for a in argv):
            return v + "".join(a for a in argv if isinstance(a, str))
        if m == "format" and lang == "python":
            from ._strformat import format_fields  # late: _strformat imports this module

            return format_fields(v, argv, {})
        return None
    if isinstance(v, list):
        if m == "join" and len(argv) <= 1 and lang != "python":
            sep = argv[0] if argv else ("," if lang in ("node", "deno", "bun") else "")
            parts = [text_of(x, True) for x in v]
            if not isinstance(sep, str) or any(p is None for p in parts):
                return None
            return sep.join(p or "" for p in parts)
        if m == "reverse" and not argv:
            return v[::-1]
        if m == "pack" and lang == "ruby" and len(argv) == 1 and argv[0] in (
                "c*", "C*", "U*"):
            return _chars(v)
        return None
    if isinstance(v, int) and m == "chr" and not argv and lang == "ruby":
        return chr_of(v)
    if isinstance(v, int) and m == "toString" and not argv:
        return str(v)
    return None


def _mapped(v: list[Val]) -> list[Val]:
    if len(v) == 2 and v[0] == "\0map" and isinstance(v[1], list):
        return v[1]
    return v


# The (lowercased last names of the) functions :func:`function` evaluates.
FUNCTIONS = frozenset({"chr", "fromcharcode", "char", "sprintf", "format", "pack", "join",
                       "implode", "reverse", "strrev", "scalar", "lc", "uc", "strtolower",
                       "strtoupper", "lower", "upper", "str_replace", "str_rot13", "reversed",
                       "list", "tuple", "str", "bytes", "bytearray", "from", "frombytes",
                       "concat", "map"})


def function(short: str, name: str, argv: list[Val], lang: str) -> Val | None:
    """A pure string function of the folded languages on constant arguments."""
    if len(argv) == 1 and isinstance(argv[0], list) and argv[0][:1] == ["\0map"]:
        argv = _mapped(argv[0])
    elif argv[:1] == ["\0map"] and len(argv) == 2 and isinstance(argv[1], list):
        return argv[1]  # map(chr, [...]) itself: a list
    if short == "chr" and len(argv) == 1:
        return chr_of(argv[0])
    if short == "fromcharcode" or (short == "char" and lang == "lua"):
        return _chars(argv)
    if short in ("sprintf", "format") and argv and isinstance(argv[0], str) and (
            lang != "python"):
        return printf(argv[0], flat(argv[1:]))
    if short == "pack" and argv and argv[0] in ("C*", "c*", "U*", "W*", "A*", "a*"):
        if argv[0] in ("A*", "a*"):
            parts = [text_of(x, True) for x in flat(argv[1:])]
            return None if any(p is None for p in parts) else "".join(p or "" for p in parts)
        return _chars(argv[1:])
    if short == "concat" and lang == "lua" and argv and isinstance(argv[0], list):
        argv = [argv[1] if len(argv) > 1 else "", *argv[0]]  # table.concat(t, sep)
        short = "join"
    if short in ("join", "implode") and lang in ("perl", "php", "lua") and argv:
        if short == "implode" and len(argv) == 1:
            argv = ["", *argv]
        sep = argv[0]
        parts = [text_of(x, True) for x in flat(argv[1:])]
        if not isinstance(sep, str) or any(p is None for p in parts):
            return None
        return sep.join(p or "" for p in parts)
    if short in ("reverse", "strrev", "scalar") and lang in ("perl", "php", "lua"):
        parts = [text_of(x, True) for x in flat(argv)]
        if any(p is None for p in parts):
            return None
        return "".join(p or "" for p in parts)[::-1] if short != "scalar" else \
            "".join(p or "" for p in parts)
    if short in ("lc", "strtolower", "lower") and len(argv) == 1 and isinstance(argv[0], str):
        return argv[0].lower()
    if short in ("uc", "strtoupper", "upper") and len(argv) == 1 and isinstance(argv[0], str):
        return argv[0].upper()
    if short == "str_replace" and len(argv) == 3:
        return _replace(argv[2], argv[0], argv[1])
    if short == "str_rot13" and len(argv) == 1 and isinstance(argv[0], str):
        return codecs.encode(argv[0], "rot13")
    if lang == "python":
        if short == "reversed" and len(argv) == 1 and isinstance(argv[0], str | list):
            return list(argv[0])[::-1]
        if short in ("list", "tuple") and len(argv) == 1 and isinstance(argv[0], str | list):
            return list(argv[0])
        if short == "str" and len(argv) == 1:
            return text_of(argv[0], True)
        if short in ("bytes", "bytearray") and len(argv) == 1 and isinstance(argv[0], list):
            return _chars(argv[0])
    if short in ("from", "frombytes") and name.endswith(("Buffer.from", "Array.from")) and \
            len(argv) == 1 and isinstance(argv[0], list | str):
        return _chars(argv[0]) if name.endswith("Buffer.from") and isinstance(argv[0], list) \
            else list(argv[0]) if isinstance(argv[0], str) else None
    return None


def may_start(toks: list[Tok], k: int, language: str) -> bool:
    """Whether an expression worth folding may start at token ``k``."""
    kind, text = toks[k][0], toks[k][1]
    if kind == "str":
        return True
    prev = toks[k - 1] if k > 0 else None
    if kind == "name":
        return not (prev is not None and prev[0] == "op" and prev[1] in (".", "->", "::"))
    if kind == "num":
        return language == "ruby" or language == "awk"
    if kind == "op" and text == "(":
        return prev is None or (prev[0] == "op" and prev[1] in ("(", ",", "=", "[", "+", ".."))
    if kind == "op" and text == "[":
        if prev is not None and prev[0] == "name" and prev[3] < toks[k][2]:
            return language in ("ruby", "perl")  # exec [114, 109].pack("c*")
        return prev is None or prev[0] == "op" and prev[1] not in (")", "]")
    return False


def bind(toks: list[Tok], k: int, end: int, value: str, consts: dict[str, str],
          dropped: set[str]) -> None:
    """``NAME = <expr>`` ending a statement: NAME holds the constant ``value`` (a name
    assigned twice holds none)."""
    if k < 2 or toks[k - 1][1] != "=" or toks[k - 2][0] != "name":
        return
    if end < len(toks) and toks[end][1] not in (";", "\n", ")", "}", ","):
        return
    bind_name(toks[k - 2][1], value, consts, dropped)


def bind_name(name: str, value: str, consts: dict[str, str], dropped: set[str]) -> None:
    """``name`` holds ``value`` in ``consts``; a name bound to two different values holds
    none from then on (it joins ``dropped``)."""
    if name in dropped:
        return
    if name in consts and consts[name] != value:
        del consts[name]
        dropped.add(name)
        return
    consts[name] = value


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ruby_interpolations(code: str, fold: Callable[[str, str], str]) -> str:
    """Ruby ``"#{'r' + 'm'} -rf ~"`` and backticks: a constant interpolation as its text."""
    edits: list[tuple[int, int, str]] = []  # (body start, body end, body as folded)
    for start, end, value in literals(code, True)[:256]:
        if value[:1] not in ('"', "`") or "#{" not in value:
            continue
        body = code[start + 1:end - 1]
        pieces: list[str] = []
        k = 0
        while k < len(body):
            at = body.find("#{", k)
            close = body.find("}", at + 2) if at >= 0 else -1
            if close < 0:
                pieces.append(body[k:])
                break
            pieces.append(body[k:at])
            inner = body[at + 2:close]
            folded = fold(inner, "ruby") if '"' not in inner and len(inner) < 400 \
                else inner
            lits = literals(folded, True)
            if len(lits) == 1 and lits[0][0] == 0 and lits[0][1] == len(folded) and \
                    lits[0][2][:1] in ("'", '"'):
                text = lits[0][2][1:].replace("\\", "\\\\")
                pieces.append(text.replace(value[0], "\\" + value[0]))
            else:
                pieces.append(body[at:close + 1])
            k = close + 1
        edits.append((start + 1, end - 1, "".join(pieces)))
    return apply_edits(code, edits)
