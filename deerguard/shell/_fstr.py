"""Python f-strings and JavaScript template literals, read as the plain literals they make.

``c = "rm -rf /"; os.system(f"{c}")``, ``f"{"rm"} -rf /"`` (Python 3.12 reuses the
enclosing quote inside a field), ``const c = "rm -rf ~"; execSync(`${c}`)`` and
``String.raw`rm -rf ~` ``: :func:`read_templates` finds each template with a lexer of the
language (strings, comments, nested fields and templates), evaluates each field as a
constant string expression (``_strfold``) whose names hold what their bindings give them
where the template is read (``_names``: a name rebound to anything not constant holds
nothing), and writes the template as one plain literal. A field that is not constant is
written by the caller's ``field`` reading (``~`` for the home directory, or the unknown
value ``DYN``), so ``os.system(f"{input()}")`` stays a command built at run time.

Linear and bounded: code longer than 20,000 characters is left alone, at most 256
templates and 400 characters of field expression are read, and folding is bounded by
``_strfold``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._comments import _python_string, _regex_end, _regex_here, _string_end, _template_end
from ._names import Scope
from ._strfold import scope_of
from ._strfuncs import Fail, escaped, text_of, tokens
from ._strparser import Parser
from ._words import DYN

__all__ = ["PY_GATE", "read_templates"]

_MAX_CODE = 20000
_MAX_TEMPLATES = 256
_MAX_FIELD = 400
_JS = frozenset({"node", "deno", "bun"})
_PY_NEXT = re.compile(r"""['"#]""")
# A Python literal other than a plain one: prefixed (f, r, b, rf..) or triple-quoted.
PY_GATE = re.compile(r"(?<!\w)[rRbBuUfF]{1,2}[\"']|'''|\"\"\"")
_JS_NEXT = re.compile(r"""['"`/]""")
_PY_FIELD_CHARS = re.compile(r"[\\{}]")  # what an f-string's body does not keep as it is
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # one name token in every language's lexer

# A field: (expression text, whether its value prints as itself: no !r, no format spec).
Field = tuple[str, bool]


class _Template:
    __slots__ = ("start", "end", "head", "quote", "raw", "parts")

    def __init__(self, start: int, end: int, head: str, quote: str, raw: bool) -> None:
        self.start = start  # of the prefix (f, rf) or the String.raw tag
        self.end = end
        self.head = head  # what the plain literal opens with: ", ', r", """
        self.quote = quote  # what closes it
        self.raw = raw
        self.parts: list[str | Field] = []


def _field_end(code: str, j: int, python: bool) -> int:
    """Offset of the ``}`` closing the field whose code starts at ``j``: brackets nest,
    strings (any quote, also the enclosing one) and nested templates are skipped; -1."""
    depth = 0
    n = len(code)
    stop = min(n, j + _MAX_FIELD * 4)
    while j < stop:
        c = code[j]
        if c in "'\"":
            j = _python_string(code, j) if python else _string_end(code, j, c)
            continue
        if c == "`" and not python:
            j = _template_end(code, j, 1)
            if j < 0:
                return -1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return j if c == "}" else -1
            depth -= 1
        j += 1
    return -1


def _split_field(body: str) -> Field:
    """``expr!r:>10`` as (``expr``, False); ``expr`` or ``expr!s`` as (``expr``, True)."""
    depth = 0
    k = 0
    while k < len(body):
        c = body[k]
        if c in "'\"":
            k = _python_string(body, k)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and c == "!" and body[k + 1:k + 2] != "=":
            return body[:k], body[k + 1:] == "s"
        elif depth == 0 and c == ":":
            return body[:k], body[k + 1:] in ("", "s")
        elif depth == 0 and c == "=" and body[k + 1:k + 2] != "=" and \
                body[k - 1:k] not in ("=", "!", "<", ">"):
            return body[:k], False  # f"{c=}" prints the expression and its repr
        k += 1
    return body, True


def _python_templates(code: str) -> list[_Template]:
    found: list[_Template] = []
    i = 0
    while len(found) < _MAX_TEMPLATES:
        m = _PY_NEXT.search(code, i)
        if m is None:
            break
        i = m.start()
        if code[i] == "#":
            nl = code.find("\n", i)
            i = len(code) if nl < 0 else nl
            continue
        end = _python_string(code, i)
        p = i
        while p > 0 and i - p < 2 and code[p - 1] in "rRbBuUfF":
            p -= 1
        prefix = code[p:i].lower()
        if p > 0 and (code[p - 1].isalnum() or code[p - 1] == "_"):
            prefix = ""  # a name ending in r, b or f before a plain literal
        q = code[i] * 3 if code.startswith(code[i] * 3, i) else code[i]
        if not prefix and len(q) == 1:
            i = end
            continue  # a plain literal: the readers take it as it is
        if not code.endswith(q, 0, end) or end - i < 2 * len(q):
            break  # not closed: left to the plain reading
        # f"..", r"..", b"..", """..""": one plain literal in double quotes.
        t = _Template(p if prefix else i, end, '"', '"', "r" in prefix)
        if "f" in prefix:
            if not _python_parts(code, i + len(q), end - len(q), t):
                break
        else:
            t.parts.append(code[i + len(q):end - len(q)])
        found.append(t)
        i = end
    return found


def _python_parts(code: str, j: int, stop: int, t: _Template) -> bool:
    buf: list[str] = []
    while j < stop:
        c = code[j]
        if c not in "\\{}":  # a run of plain characters, kept as they are (one search)
            m = _PY_FIELD_CHARS.search(code, j, stop)
            k = stop if m is None else m.start()
            buf.append(code[j:k])
            j = k
            continue
        if c == "\\" and not t.raw:
            k = j + 2
            if code.startswith("N{", j + 1):
                k = code.find("}", j, stop) + 1 or stop  # \N{EM DASH}
            buf.append(code[j:k])
            j = k
            continue
        if c in "{}" and code.startswith(c * 2, j):
            buf.append(c)
            j += 2
            continue
        if c == "{":
            close = _field_end(code, j + 1, True)
            if close < 0 or close > stop:
                return False
            t.parts.append("".join(buf))
            buf = []
            t.parts.append(_split_field(code[j + 1:close]))
            j = close + 1
            continue
        buf.append(c)
        j += 1
    t.parts.append("".join(buf))
    return True


def _js_templates(code: str) -> list[_Template]:
    found: list[_Template] = []
    i = 0
    n = len(code)
    while len(found) < _MAX_TEMPLATES:
        m = _JS_NEXT.search(code, i)
        if m is None:
            break
        i = m.start()
        c = code[i]
        if c in "'\"":
            i = _string_end(code, i, c)
            continue
        if c == "/":
            if code.startswith("//", i):
                nl = code.find("\n", i)
                i = n if nl < 0 else nl
            elif code.startswith("/*", i):
                close = code.find("*/", i + 2)
                i = n if close < 0 else close + 2
            elif _regex_here(code, i):
                i = _regex_end(code, i)
            else:
                i += 1
            continue
        end = _template_end(code, i, 0)
        if end < 0 or end > n or not code.endswith("`", 0, end) or end - i < 2:
            break
        head = code[max(0, i - 24):i].rstrip(" \t")
        tagged = head.endswith("String.raw") and not (
            len(head) > 10 and (head[-11].isalnum() or head[-11] in "_.$"))
        start = i - (len(code[max(0, i - 24):i]) - len(head)) - 10 if tagged else i
        t = _Template(start, end, '"', '"', tagged)
        if not _js_parts(code, i + 1, end - 1, t):
            break
        found.append(t)
        i = end
    return found


def _js_parts(code: str, j: int, stop: int, t: _Template) -> bool:
    buf: list[str] = []
    while j < stop:
        c = code[j]
        if c == "\\":
            buf.append(code[j:j + 2].replace("\\", "\\\\") if t.raw else code[j:j + 2])
            j += 2
            continue
        if c == "$" and code.startswith("${", j):
            close = _field_end(code, j + 2, False)
            if close < 0 or close > stop:
                return False
            t.parts.append("".join(buf))
            buf = []
            t.parts.append((code[j + 2:close], True))
            j = close + 1
            continue
        buf.append('\\"' if c == '"' else c)
        j += 1
    t.parts.append("".join(buf))
    return True


_RB_NEXT = re.compile(r"""['"`#/]""")


def _ruby_templates(code: str) -> list[_Template]:
    """Ruby double-quoted and backtick literals holding ``#{..}`` fields (fields may hold
    literals in the same quote: ``"#{"r" + "m"} -rf ~"``)."""
    found: list[_Template] = []
    i = 0
    n = len(code)
    while len(found) < _MAX_TEMPLATES:
        m = _RB_NEXT.search(code, i)
        if m is None:
            break
        i = m.start()
        c = code[i]
        if c == "#":
            nl = code.find("\n", i)
            i = n if nl < 0 else nl
            continue
        if c == "/":
            i = _regex_end(code, i) if _regex_here(code, i) else i + 1
            continue
        if c == "'" or (i > 0 and code[i - 1] in "?$"):
            i = _string_end(code, i, c) if c == "'" else i + 1
            continue
        t = _Template(i, n, c, c, False)
        buf: list[str] = []
        j = i + 1
        while j < n and code[j] != c:
            if code[j] == "\\":
                buf.append(code[j:j + 2])
                j += 2
            elif code.startswith("#{", j):
                close = _field_end(code, j + 2, False)
                if close < 0:
                    return found
                t.parts += ["".join(buf), (code[j + 2:close], True)]
                buf = []
                j = close + 1
            else:
                buf.append(code[j])
                j += 1
        if j >= n:
            break
        t.parts.append("".join(buf))
        t.end = j + 1
        if len(t.parts) > 1:
            found.append(t)
        i = j + 1
    return found


def _constant(expr: str, language: str, scope: Scope | None) -> str | None:
    """The value of a field's expression when it is a constant string expression."""
    expr = expr.strip()
    if not expr or len(expr) > _MAX_FIELD:
        return None
    if scope is not None and _NAME.fullmatch(expr) is not None and expr in scope:
        # Fast path, same value: a lone name is one name token, which the parser reads as
        # the scope's value when the scope holds it (``Parser.call``) and nothing follows.
        return scope[expr]
    toks = tokens(expr, language)
    if not toks:
        return None
    p = Parser(toks, language, scope if scope is not None else {})
    p.code, p.escaped, p.limit = expr, escaped(expr, language), 400
    try:
        value = p.expr()
    except (Fail, ValueError, OverflowError, IndexError):
        return None
    if p.i != len(toks):
        return None
    return text_of(value, True)


def _escape(value: str, quote: str = '"') -> str:
    """``value`` as the body of a literal in ``quote`` (double quotes or backticks)."""
    return value.replace("\\", "\\\\").replace(quote, "\\" + quote).replace("\n", "\\n")


def _static(text: str, raw: bool) -> str:
    """A template's static source text as the body of a plain double-quoted literal: its
    escapes kept (a raw string's backslashes are themselves), bare quotes and newlines
    escaped."""
    if raw:
        return _escape(text)
    if "\\" not in text:  # no escape to keep: each character maps on its own, as below
        return text.replace('"', '\\"').replace("\n", "\\n")
    out: list[str] = []
    k = 0
    while k < len(text):
        c = text[k]
        if c == "\\":
            out.append(text[k:k + 2])
            k += 2
            continue
        out.append('\\"' if c == '"' else "\\n" if c == "\n" else c)
        k += 1
    return "".join(out)


def read_templates(code: str, language: str, field: Callable[[str, str], str],
                   spell: Callable[[str, str], str]) -> str:
    """``code`` with its f-strings (Python) or template literals (JavaScript) written as
    plain literals; ``field(expr, language)`` writes a field that is not constant, and
    ``spell(code, language)`` writes the code's path spellings (``expanduser("~")``) as
    literals before names are bound."""
    if len(code) > _MAX_CODE:
        return code
    found = _python_templates(code) if language == "python" else \
        _js_templates(code) if language in _JS else \
        _ruby_templates(code) if language == "ruby" else []
    if not found:
        return code
    # The code with each template as an unknown literal, for the bindings of its names.
    masked: list[str] = []
    last = 0
    for t in found:
        masked.append(code[last:t.start])
        masked.append('"' + DYN + '"')
        last = t.end
    masked.append(code[last:])
    plain = spell("".join(masked), language)
    scanned = tokens(plain, language)
    toks = list(scanned) if scanned else []
    holes = [k for k, tok in enumerate(toks) if tok[0] == "str" and tok[1] == DYN]
    scope = scope_of(toks, plain, language) if toks else None
    out: list[str] = []
    last = 0
    for n, t in enumerate(found):
        k = holes[n] if len(holes) == len(found) else None
        text: list[str] = []
        constant = True
        for part in t.parts:
            if isinstance(part, str):
                text.append(part if language in _JS or t.quote == "`" else
                            _static(part, t.raw))
                continue
            if scope is not None and k is not None:
                scope.pos = k
            value = _constant(part[0], language, scope if k is not None else None) \
                if part[1] else None
            if value is not None:
                written = _escape(value, t.quote)
            else:
                constant = False
                written = field(part[0].strip(), language)
            text.append(written)
        body = "".join(text)
        if constant and k is not None and "\\" not in body:  # b = f"{a} x": b holds it too
            toks[k] = ("str", body, toks[k][2], toks[k][3])
        out.append(code[last:t.start])
        out.append(t.head + body + t.quote)
        last = t.end
    out.append(code[last:])
    return "".join(out)
