"""Comments in interpreter code, blanked the way the language's own lexer skips them.

The literal readers of ``_code`` take a quote character in a comment for the start of a
string: in ``# don't\\nsystem("rm -rf /")`` the apostrophe opens a "string" that swallows
the call after it. :func:`blank_comments` finds the comments of Python, Perl, Ruby, PHP
and JavaScript code with a small lexer of each language (strings and their escapes,
Perl's ``$#array`` and quote-like operators ``q#..#``/``s#a#b#``/``m{..}``, regex literals
``/#/``, Ruby ``#{..}`` inside strings, PHP ``#[attributes]``, JavaScript template literals
with their ``${..}`` code, ``http://`` inside strings) and writes them as blanks of the same
length, so every offset stays where it was.

The blanked text is a second reading: the caller classifies it besides the original one,
so a comment this lexer gets wrong can only add a reading, never hide one. It is returned
only when a blanked comment holds a quote character (or Perl's ``q(``, Ruby's ``%q(``:
the only comments that change what the literal readers see). One pass, linear: each step
jumps (C-level search) to the next character that matters; template nesting is bounded.
"""

from __future__ import annotations

import re

__all__ = ["COMMENTED", "blank_comments"]

COMMENTED = frozenset({"python", "perl", "ruby", "php", "node", "deno", "bun"})
_MAX_CODE = 20000
_QUOTES = "'\"`"
# What can start a string, comment, regex or quote-like literal, by language.
_NEXT = {
    "python": re.compile(r"""['"#]"""),
    "perl": re.compile(r"""['"`#/]|(?<![\w$@%&>:\\{-])(?:qq|qw|qx|qr|q|m|s|tr|y)(?=[^\w\s=,;)}>])"""
                       r"|^=[a-zA-Z]|^__(?:END|DATA)__", re.M),
    "ruby": re.compile(r"""['"`#/]|(?<!\w)%[rsIiqQwWx]?(?=[({\[<|!/^])|^=begin\b"""
                       r"|^__END__", re.M),
    "php": re.compile(r"""['"`#/]"""),
    "js": re.compile(r"""['"`/]"""),
}
_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}
_FSTRING_CHARS = "\\'\"\n{}"  # the characters an f-string's end is read from
_FSTRING_NEXT = re.compile(r"""[\\'"\n{}]""")
# Quote-like operators that open text for the requoting reader (q(, %q( in a comment).
_OPENS = {"perl": re.compile(r"(?<![\w$@%])q[qwx]?(?=[^\w\s,;=)])"),
          "ruby": re.compile(r"(?<!\w)%[qQwWxiI]?(?=[^\w\s])")}
# After these characters (or these words) a ``/`` starts a regex literal, not a division.
_REGEX_AFTER = frozenset("(,=~!&|?:;{}[+-*%<>^")
_REGEX_WORDS = frozenset({"split", "grep", "if", "unless", "and", "or", "not", "return",
                          "when", "while", "until", "typeof", "case", "in", "of", "scan",
                          "match", "sub", "gsub", "index", "elsif", "do", "yield", "void"})


def _string_end(code: str, i: int, quote: str) -> int:
    """Offset just past the literal whose opening ``quote`` is at ``i`` (escapes skipped);
    the end of ``code`` when it is not closed."""
    n = len(code)
    j = i + 1
    while True:
        k = code.find(quote, j)
        if k < 0:
            return n
        b = k
        while b > j and code[b - 1] == "\\":
            b -= 1
        if (k - b) % 2 == 0:
            return k + 1
        j = k + 1


def _python_string(code: str, i: int, level: int = 0) -> int:
    """End of the Python literal at ``i``: triple quotes, and f-strings whose fields hold
    literals in the same quote (Python 3.12), nested at most 16 deep."""
    q = code[i]
    if code.startswith(q * 3, i):
        end = code.find(q * 3, i + 3)
        while end > 0 and code[end - 1] == "\\":
            end = code.find(q * 3, end + 1)
        return len(code) if end < 0 else end + 3
    p = i
    while p > 0 and code[p - 1] in "rRbBuUfF" and i - p < 2:
        p -= 1
    fstring = "f" in code[p:i].lower() and (p == 0 or not (code[p - 1].isalnum() or
                                                            code[p - 1] == "_"))
    if not fstring or level > 16:
        return _string_end(code, i, q)
    depth = 0
    j = i + 1
    n = len(code)
    while j < n:
        c = code[j]
        if c not in _FSTRING_CHARS:  # no character up to the next of these matters
            m = _FSTRING_NEXT.search(code, j)
            j = n if m is None else m.start()
            continue
        if c == "\\":
            j += 2
            continue
        if depth == 0 and c == q:
            return j + 1
        if c == "\n" and depth == 0:
            return j
        if c == "{":
            if depth == 0 and code.startswith("{{", j):
                j += 2
                continue
            depth += 1
        elif c == "}" and depth > 0:
            depth -= 1
        elif depth > 0 and c in "'\"":
            j = _python_string(code, j, level + 1)
            continue
        j += 1
    return n


def _delimited(code: str, k: int, parts: int) -> int:
    """End of a Perl/Ruby quote-like body (or two, for ``s``/``tr``/``y``) opened at
    ``k``; -1 when not closed."""
    for part in range(parts):
        if k >= len(code):
            return -1
        opener = code[k]
        closer = _CLOSE.get(opener, opener)
        depth = 0
        j = k + 1
        while j < len(code):
            c = code[j]
            if c == "\\":
                j += 2
                continue
            if c == closer and depth == 0:
                break
            if c == closer:
                depth -= 1
            elif c == opener and closer != opener:
                depth += 1
            j += 1
        else:
            return -1
        if part + 1 < parts:
            if closer != opener:  # s{a}{b}, s{a} {b}: a new pair opens the replacement
                k = j + 1
                while k < len(code) and code[k] in " \t\n":
                    k += 1
            else:
                k = j  # s#a#b#: the middle delimiter opens the replacement
            continue
        return j + 1
    return -1


def _regex_here(code: str, i: int) -> bool:
    """Whether the ``/`` at ``i`` opens a regex literal (after an operator, an opening
    bracket, the start or a keyword), not a division."""
    j = i
    while j > 0 and code[j - 1] in " \t\n":
        j -= 1
    if j == 0:
        return True
    prev = code[j - 1]
    if prev in _REGEX_AFTER:
        return not (prev in "+-" and j > 1 and code[j - 2] == prev)  # x++ / 2
    k = j
    while k > 0 and j - k < 16 and (code[k - 1].isalnum() or code[k - 1] == "_"):
        k -= 1
    return code[k:j] in _REGEX_WORDS


def _regex_end(code: str, i: int) -> int:
    """End of the regex literal opened at ``i`` (classes ``[/]`` and escapes skipped); the
    end of the line when it is not closed."""
    j = i + 1
    klass = False
    n = len(code)
    while j < n:
        c = code[j]
        if c == "\\":
            j += 2
            continue
        if c == "\n":
            return j
        if c == "[":
            klass = True
        elif c == "]":
            klass = False
        elif c == "/" and not klass:
            return j + 1
        j += 1
    return n


def _template_end(code: str, i: int, level: int) -> int:
    """End of the JavaScript template literal opened at ``i``; its ``${..}`` code is lexed
    as code (strings, nested templates); -1 past 16 nested levels."""
    if level > 16:
        return -1
    j = i + 1
    n = len(code)
    while j < n:
        c = code[j]
        if c == "\\":
            j += 2
            continue
        if c == "`":
            return j + 1
        if c == "$" and code.startswith("${", j):
            depth = 0
            j += 2
            while j < n:
                c = code[j]
                if c in "'\"":
                    j = _string_end(code, j, c)
                    continue
                if c == "`":
                    j = _template_end(code, j, level + 1)
                    if j < 0:
                        return -1
                    continue
                if c == "{":
                    depth += 1
                elif c == "}":
                    if depth == 0:
                        break
                    depth -= 1
                j += 1
        j += 1
    return n


def blank_comments(code: str, language: str) -> str:
    """``code`` with its comments written as blanks (newlines kept), when one of them holds
    a quote character; ``code`` itself otherwise (the common case)."""
    lang = "js" if language in ("node", "deno", "bun") else language
    finder = _NEXT.get(lang)
    if finder is None or len(code) > _MAX_CODE or (
            "'" not in code and '"' not in code and "`" not in code and
            lang not in ("perl", "ruby")):
        return code
    if "#" not in code and (lang == "python" or (lang == "js" or lang == "php") and
                            "/" not in code or lang in ("perl", "ruby") and
                            "\n=" not in code and "__END__" not in code and
                            "__DATA__" not in code and not code.startswith("=")):
        return code  # nothing can open a comment
    spans: list[tuple[int, int]] = []
    i = 0
    n = len(code)
    while len(spans) < 512:
        m = finder.search(code, i)
        if m is None:
            break
        i = m.start()
        c = code[i]
        if c in "'\"`" and not (lang == "perl" and c == "'" and i > 0 and
                               code[i - 1].isalnum()):  # Perl's old package separator
            if lang == "python":
                i = _python_string(code, i)
            elif lang == "js" and c == "`":
                end = _template_end(code, i, 0)
                if end < 0:
                    return code
                i = end
            else:
                i = _string_end(code, i, c)
            continue
        if c == "#":
            if (lang == "perl" and i > 0 and code[i - 1] == "$") or (
                    lang == "php" and code.startswith("#[", i)):
                i += 1  # $#array, $#{..}; PHP 8 attributes
                continue
            end = code.find("\n", i)
            spans.append((i, n if end < 0 else end))
            i = n if end < 0 else end
            continue
        if c == "/":
            if lang in ("js", "php") and code.startswith("//", i):
                end = code.find("\n", i)
                spans.append((i, n if end < 0 else end))
                i = n if end < 0 else end
                continue
            if lang in ("js", "php") and code.startswith("/*", i):
                end = code.find("*/", i + 2)
                end = n if end < 0 else end + 2
                spans.append((i, end))
                i = end
                continue
            if lang in ("js", "perl", "ruby") and _regex_here(code, i):
                i = _regex_end(code, i)
                continue
            i += 1
            continue
        if c == "=" or code.startswith("__", i):  # POD, =begin .. =end, __END__
            if code.startswith("__", i):
                spans.append((i, n))
                break
            stop = "\n=end" if lang == "ruby" else "\n=cut"
            end = code.find(stop, i)
            end = n if end < 0 else code.find("\n", end + len(stop))
            end = n if end < 0 else end
            spans.append((i, end))
            i = end
            continue
        # A quote-like operator: Perl q qq qw qx qr m s tr y, Ruby %r %s %i %w %q %x %( ).
        word = m.group()
        k = i + len(word)
        end = _delimited(code, k, 2 if word in ("s", "tr", "y") else 1)
        if end < 0:
            return code  # an unclosed literal: no reading of it is safer than the original
        i = end
    if not any(q in code[s:e] for s, e in spans for q in _QUOTES) and not (
            lang in _OPENS and any(_OPENS[lang].search(code, s, e) for s, e in spans)):
        return code
    out: list[str] = []
    last = 0
    for s, e in spans:
        out.append(code[last:s])
        out.append("".join(ch if ch == "\n" else " " for ch in code[s:e]))
        last = e
    out.append(code[last:])
    return "".join(out)
