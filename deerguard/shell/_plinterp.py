"""Perl and PHP strings that interpolate scalars bound to constant strings.

``$c = "rm -rf /"; system("$c")``, ``my $d = "/"; system("rm -rf $d")``, PHP
``$d = "/"; system("rm -rf {$d}")``: a double-quoted (or backtick) literal reads the value
its ``$name``, ``${name}`` (and PHP ``{$name}``) fields hold, so :func:`interpolate`
writes such a literal with those values, as the plain literal the language makes of it.

Sound by construction: a scalar holds a constant only when the code names it exactly once
outside string literals, in a plain top-level statement ``[my] $name = <literal>;`` before
the string that reads it (any other use could change it: ``chomp $d``, ``$d =~ s/..//``,
``$d = <STDIN>``, ``f(\\$d)``, a loop variable; a binding inside a block may not run), and
the code has none of the ways to write a variable by another name or to run code out of
order (``eval``, symbolic references ``${"d"}``/``$$n``, globs, ``sub``/``function``
bodies, ``BEGIN``, ``goto``, ``require``/``do``/``include`` of other files, PHP
``extract``/``parse_str``/``$GLOBALS``/``global``/references). A string with any other
interpolation (arrays, elements, methods, special variables) is left as it is: read as
built at run time, as before. Linear: one pass over the literals and one over the names.
"""

from __future__ import annotations

import re

from ._code import literals
from ._strfuncs import unescape

__all__ = ["interpolate"]

_MAX_CODE = 20000
_MAX_LITERALS = 256  # code with more literals is left alone
_MAX_FIELDS = 32  # per string; a string with more is left alone
_NAME = re.compile(r"[A-Za-z_]\w{0,63}")
# Writes of a variable by another name than its own, or code run out of order: code that
# has one is left alone. (substring that must be present, pattern), by language: each
# pattern runs only when its substring is in the code (a C-level search first).
_ALIASING: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {
    "perl": (("${", re.compile(r"\$\{\s*[^A-Za-z_\s]")), ("$$", re.compile(r"\$\$[\w{]")),
             ("*", re.compile(r"\*\s*\{?[A-Za-z_]")), ("::", re.compile(r"\$::|::\$|\bmain::")),
             ("@{[", re.compile(r"@\{\[")),
             ("", re.compile(r"\b(?:eval|local|our|sub|goto|require|do|BEGIN|INIT|CHECK|"
                             r"UNITCHECK)\b"))),
    "php": (("$$", re.compile(r"\$\$")), ("${", re.compile(r"\$\{\s*[^A-Za-z_\s]")),
            ("&", re.compile(r"&\s*\$")), ("$GLOBALS", re.compile(r"\$GLOBALS")),
            ("", re.compile(r"\b(?:eval|extract|parse_str|global|static|function|fn|goto)\b|"
                            r"\b(?:include|require)"))),
}
_WORDS = {"perl": ("eval", "local", "our", "sub", "goto", "require", "do", "BEGIN", "INIT",
                   "CHECK"),
          "php": ("eval", "extract", "parse_str", "global", "static", "function", "fn",
                  "goto", "include", "require")}


def _aliases(code: str, language: str) -> bool:
    """Whether ``code`` may write a scalar by another name or run code out of order."""
    words = any(w in code for w in _WORDS[language])
    return any((sub in code if sub else words) and pattern.search(code) is not None
               for sub, pattern in _ALIASING[language])
# A scalar ($d, ${d}) or a brace outside literals: a binding counts only at the top level
# (one inside a block may not run, and code before it may run later).
_SCALAR = re.compile(r"\$(?:\{\s*([A-Za-z_]\w{0,63})\s*\}|([A-Za-z_]\w{0,63}))|([{}])")
# Scalars the language sets by itself (sort's $a/$b, $_ of loops, PHP's $this, $argv...).
_IMPLICIT = frozenset({"a", "b", "ARGV", "ENV", "INC", "SIG", "STDIN", "STDOUT", "STDERR",
                       "this", "argv", "argc", "http_response_header", "php_errormsg"})
_STATEMENT_START = frozenset(";{}\n")


def _binding(code: str, at: int, end: int, lits: dict[int, tuple[int, str]],
             language: str) -> str | None:
    """The constant a name bound at ``at..end`` (the ``$name``) gets, when the statement is
    ``[my] $name = <literal>;`` starting a statement; else None."""
    head = code[max(0, at - 64):at].rstrip(" \t")
    if language == "perl" and head.endswith("my") and (
            len(head) == 2 or not (head[-3].isalnum() or head[-3] in "_$@%")):
        head = head[:-2].rstrip(" \t")
    if head and head[-1] not in _STATEMENT_START:
        return None
    j = end
    while j < len(code) and code[j] in " \t":
        j += 1
    if not code.startswith("=", j) or code[j + 1:j + 2] in ("=", "~", ">"):
        return None
    j += 1
    while j < len(code) and code[j] in " \t":
        j += 1
    lit = lits.get(j)
    if lit is None:
        return None
    lit_end, quote = lit
    if lit_end - j < 2 or code[lit_end - 1] != quote:
        return None  # not closed
    k = lit_end
    while k < len(code) and code[k] in " \t":
        k += 1
    if k < len(code) and code[k] not in ";\n}":
        return None  # $d = "/" . $x: more than the literal
    raw = code[j + 1:lit_end - 1]
    if quote == "'":
        return raw.replace("\\\\", "\x00").replace("\\'", "'").replace("\x00", "\\")
    if quote != '"' or "$" in raw or (language == "perl" and "@" in raw):
        return None  # a string that interpolates itself, or a command's output
    value = unescape(raw, language, '"')
    return raw if value is None else value


def _fields(body: str, language: str, consts: dict[str, tuple[str, int]], at: int
            ) -> list[tuple[int, int, str]] | None:
    """(start, end, value) of each scalar field of a double-quoted body at ``at``; None
    when one is not a plain scalar bound to a constant before ``at`` (or the body
    interpolates something else)."""
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if language == "perl" and c == "@" and i + 1 < n and (
                body[i + 1].isalnum() or body[i + 1] in "_{$:"):
            return None  # an array interpolates
        brace = language == "php" and c == "{" and body.startswith("{$", i)
        if c != "$" and not brace:
            i += 1
            continue
        start = i
        i += 2 if brace else 1
        wrapped = not brace and body.startswith("{", i)
        if wrapped:
            i += 1
        m = _NAME.match(body, i)
        if m is None:
            if language == "php" and not brace and not wrapped:
                continue  # a PHP "$" before no name is itself
            return None
        i = m.end()
        if brace or wrapped:
            if not body.startswith("}", i):
                return None  # ${d[0]}, {$o->m()}
            i += 1
        elif body.startswith(("[", "->", "::"), i) or (language == "perl" and (
                body.startswith("{", i) or (body.startswith("'", i) and i + 1 < n and
                                            (body[i + 1].isalpha() or body[i + 1] == "_")))):
            return None  # an element, a method or a package name ("$d's" is $d::s)
        bound = consts.get(m.group())
        if bound is None or bound[1] > at or len(out) >= _MAX_FIELDS:
            return None
        out.append((start, i, bound[0]))
    return out


def _escape(value: str, language: str) -> str:
    out = value.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$")
    return out.replace("@", "\\@") if language == "perl" else out


def interpolate(code: str, language: str) -> str:
    """``code`` (Perl or PHP) with each double-quoted or backtick literal whose fields are
    all scalars bound to constants written with their values; ``code`` itself otherwise."""
    if language not in _ALIASING or "$" not in code or len(code) > _MAX_CODE:
        return code
    found = literals(code, True)  # the folder's scan of this code (cached)
    if len(found) > _MAX_LITERALS or _aliases(code, language) or \
            not any(v[0] in '"`' and "$" in code[s:e] for s, e, v in found):
        return code  # no string reads a scalar (the common case), or names may alias
    lits = {start: (end, value[0]) for start, end, value in found}
    # Each name's uses outside literals: (start of $, end of name, brace depth there).
    uses: dict[str, list[tuple[int, int, int]]] = {}
    last = 0
    depth = 0
    for start, end, _value in (*found, (len(code), len(code), "")):
        for m in _SCALAR.finditer(code, last, start):
            if m.group(3) is not None:
                depth += 1 if m.group(3) == "{" else -1
                continue
            name = m.group(1) or m.group(2)
            uses.setdefault(name, []).append((m.start(), m.end(), depth))
        last = end
    consts: dict[str, tuple[str, int]] = {}  # name: (value, where its binding ends)
    for name, at in uses.items():
        if name in _IMPLICIT or name.startswith("_") or len(at) != 1 or at[0][2] != 0:
            continue
        if (value := _binding(code, at[0][0], at[0][1], lits, language)) is not None:
            consts[name] = (value, at[0][1])
    if not consts:
        return code
    out: list[str] = []
    last = 0
    for start, end, value in found:
        if value[0] not in '"`' or end - start < 2 or code[end - 1] != value[0]:
            continue
        body = code[start + 1:end - 1]
        fields = _fields(body, language, consts, start)
        if not fields:
            continue
        pieces: list[str] = []
        k = 0
        for a, b, text in fields:
            pieces.append(body[k:a])
            pieces.append(_escape(text, language) if value[0] == '"' else
                          text.replace("`", "\\`"))
            k = b
        pieces.append(body[k:])
        out.append(code[last:start + 1])
        out.append("".join(pieces))
        last = end - 1
    if not out:
        return code
    out.append(code[last:])
    return "".join(out)
