"""nushell code (``nu -c CODE``) written as the bash text it amounts to.

nushell's simple commands read like sh's, but its blocks and closures do not: ``ls | each {
^rm -rf ~ }`` runs ``rm -rf ~`` for every file, as do ``do { ... }``, ``if c { ... } else {
... }``, ``try { ... } catch { ... }``, ``for x in $l { ... }``, ``loop``, ``while``,
``where``, ``par-each``, ``reduce`` and any other command given a block. :func:`nu_bash`
reads the code with nushell's lexing (``"..."`` with escapes, ``'...'``, backtick words,
``r#'...'#`` raw strings, ``$"...(expr)..."`` interpolation, ``# comments``, ``(...)``
subexpressions, ``[...]`` lists, ``{...}`` records, blocks and ``{|params| ...}`` closures)
and writes bash text in which:

* every block's statements are statements of their own, after the pipeline that holds the
  block (the block itself is a placeholder word): a block passed to a command is code that
  may run, whatever the command;
* ``^name`` (an external command) is ``name``, ``^$x`` a program not known statically;
* a pipeline element that starts with a value (``$f.name``, a string, a number, a list, a
  record, a subexpression) is an expression, not a program: it is ``echo`` of its words;
* ``(...)`` is ``$(...)``; ``$x`` (any cell path) is ``"${x}"``, ``$env.NAME`` is
  ``"${NAME}"``, ``$nu.home-path`` is ``~``;
* ``let x = VALUE`` and ``$env.X = VALUE`` are ``x=VALUE``; ``open F`` is ``cat F``;
  ``save [-a] F`` is ``tee [-a] F``; ``run-external`` is ``command``; ``o>``/``e>``/``o+e>``
  are ``>``/``2>``/``&>``.

One pass over the text (blocks nested deeper than :data:`_MAX_DEPTH` are skipped by a
bracket count): linear, never raises.
"""

from __future__ import annotations

import re

from ._bashword import bash_literal
from ._words import Field

__all__ = ["nu_bash"]

_MAX_DEPTH = 24
# Left bare by bash_literal: bash reads these as they are, and a nushell glob (``~/*``)
# stays a glob (cmd.exe code, which does not glob, quotes ``*``/``?``: _cmdcode).
_SAFE_RE = re.compile(r"[A-Za-z0-9_./:@+,*?%-]+\Z")
_VAR_RE = re.compile(r"\$(?:E:)?([A-Za-z_][\w-]*)((?:\.[\w?!-]+)*)")  # elvish $E:HOME
_NAME_RE = re.compile(r"[A-Za-z_]\w*\Z")
_RECORD_KEY_RE = re.compile(r"""(?:[\w-]+|"[^"\n]*"|'[^'\n]*')[ \t]*:(?!:)""")
_BASH_RESERVED = frozenset({"if", "then", "else", "elif", "fi", "case", "esac", "for",
                            "select", "while", "until", "do", "done", "in", "function",
                            "time", "coproc"})
_REDIRECTS = {"o>": ">", "out>": ">", "e>": "2>", "err>": "2>", "o+e>": "&>", "e+o>": "&>",
              "out+err>": "&>", "err+out>": "&>", "o>>": ">>", "out>>": ">>", "e>>": "2>>",
              "err>>": "2>>", "o+e>>": "&>>", "e+o>>": "&>>"}
_SH_REDIRECT = re.compile(r"[0-9]?(?:>>|>|<)")
# Assignments: nushell let/mut/const, elvish var/set (set E:PATH = ... sets the environment).
_LET = frozenset({"let", "mut", "const", "var", "set"})
_WORD_END = " \t\r\n|;()[]{}"
_CLOSERS = {"(": ")", "[": "]", "{": "}"}

# Token kinds: "bare", "ext" (a ^word), "str", "var", "sub", "block", "value" (list/record).
_Tok = tuple[str, str, str]  # (kind, bash text, nushell text of a bare word)


def _q(text: str) -> str:
    """Literal text as one bash word (a leading ``~`` and dynamic markers stay bare)."""
    return bash_literal(text, _SAFE_RE) or "''"


class _Reader:
    def __init__(self, code: str, *, elvish: bool = False) -> None:
        self.code = code
        self.elvish = elvish
        self.i = 0
        self.depth = 0
        self.open = False  # a construct left open at the end, or nested deeper than followed

    # -- statements and pipelines ---------------------------------------------------------

    def statements(self, close: str) -> list[str]:
        """Bash statements of the code up to ``close`` (consumed) or the end."""
        code, out = self.code, []
        while self.i < len(code):
            c = code[self.i]
            if c == close:
                self.i += 1
                break
            if c in " \t\r\n;":
                self.i += 1
            elif c == "#":
                self._comment()
            elif c in ")]}":
                self.i += 1  # a stray closer
            else:
                out.extend(self._pipeline(close))
        else:
            self.open = self.open or bool(close)
        return out

    def _comment(self) -> None:
        end = self.code.find("\n", self.i)
        self.i = len(self.code) if end < 0 else end

    def _pipeline(self, close: str) -> list[str]:
        code = self.code
        elements: list[str] = []
        hoisted: list[str] = []
        while True:
            tokens: list[_Tok] = []
            while self.i < len(code):
                c = code[self.i]
                if c in " \t\r":
                    self.i += 1
                elif c in "\n;|" or c == close or (c == "#" and not tokens) or c in ")]}":
                    break
                else:
                    start = self.i
                    tokens.append(self._token(hoisted))
                    if self.i == start:
                        self.i += 1  # never stall
            elements.append(self._element(tokens))
            if self.i < len(code) and code[self.i] == "|":
                self.i += 1
                continue
            break
        return [" | ".join(elements), *hoisted]

    def _element(self, tokens: list[_Tok]) -> str:
        if not tokens:
            return ":"
        kind, bash, raw = tokens[0]
        low = raw.lower()
        words: list[str] = []
        k = 1
        if kind == "var" and raw and len(tokens) >= 3 and tokens[1][2] == "=":
            tokens = [("bare", "let", "let"), ("bare", raw[5:], raw[5:]), *tokens[1:]]
            kind, bash, raw = tokens[0]  # $env.PATH = V sets the variable: let PATH = V
            low = raw
        if kind == "ext":
            words.append(bash)
        elif kind != "bare" or raw[:1].isdecimal() or raw[:1] in "-+":
            words.append("echo")  # a value: $f.name, 'text', [1 2], (expr), 42
            k = 0
        elif low in _LET and len(tokens) >= 4 and tokens[2][2] == "=" \
                and _NAME_RE.match(tokens[1][2].removeprefix("E:")):
            tokens[1] = ("bare", tokens[1][1], tokens[1][2].removeprefix("E:"))
            if len(tokens) == 4 and tokens[3][0] != "bare":
                return f"{tokens[1][2]}={tokens[3][1]}"
            return f'{tokens[1][2]}="$({self._element(tokens[3:])})"'
        elif low == "run-external":
            words.append("command")
        elif low == "open":
            words.append("cat")
        elif low == "save":
            words.append("tee")
            tokens = [t for t in tokens if t[2] not in ("-f", "--force", "-r", "--raw")]
        elif low in _BASH_RESERVED:
            words.append("'" + raw + "'")
        else:
            words.append(bash)
        redirect = ""
        for kind, bash, raw in tokens[k:]:
            if kind == "bare" and raw in _REDIRECTS:
                redirect = _REDIRECTS[raw]
            elif self.elvish and kind == "bare" and (m := _SH_REDIRECT.match(raw)):
                if m.end() < len(raw):  # elvish redirects like sh: >file, 2>>log, < in
                    words.append(m[0] + _q(raw[m.end():]))
                else:
                    redirect = m[0]
            elif redirect:
                words.append(redirect + bash)
                redirect = ""
            else:
                words.append(bash)
        return " ".join(words)

    # -- tokens ---------------------------------------------------------------------------

    def _token(self, hoisted: list[str]) -> _Tok:
        code = self.code
        c = code[self.i]
        if c == "^" and self.i + 1 < len(code) and code[self.i + 1] not in _WORD_END:
            while self.i < len(code) and code[self.i] == "^":
                self.i += 1
            if self.i >= len(code) or code[self.i] in _WORD_END:
                return ("bare", "''", "")
            _, bash, raw = self._token(hoisted)
            return ("ext", bash, raw)
        closer = _CLOSERS.get(c) if c in "([{" else code[self.i + 1] \
            if c == "$" and code[self.i + 1:self.i + 2] in ("\"", "'") else None
        if closer is not None and self.depth >= _MAX_DEPTH:
            self.i += 1 if c != "$" else 2
            self._skip(closer)  # nested deeper than followed: skipped by a bracket count
            return ("value", "''", "")
        if closer is not None:
            self.depth += 1
            try:
                return self._opener(c, hoisted)
            finally:
                self.depth -= 1
        if c in "\"'`":
            return ("str", _q(self._string(c)), "")
        if c == "r" and code.startswith(("r#", "r'"), self.i):
            hashes = len(code[self.i + 1:]) - len(code[self.i + 1:].lstrip("#"))
            if code.startswith("'", self.i + 1 + hashes):
                closer = "'" + "#" * hashes
                start = self.i + 2 + hashes
                end = code.find(closer, start)
                end = len(code) if end < 0 else end
                self.i = min(len(code), end + len(closer))
                return ("str", _q(code[start:end]), "")
        if c == "$":
            m = _VAR_RE.match(code, self.i)
            if m:
                self.i = m.end()
                name, path = m[1], m[2]
                if name == "nu" and path.startswith((".home-path", ".home-dir")):
                    return ("var", "~", "")
                env = ""
                if name == "env" and path:
                    name = env = path[1:].split(".", 1)[0]
                bash = '"${' + name + '}"' if _NAME_RE.match(name) else '"${DG_NU_VALUE}"'
                return ("var", bash, "$env." + env if env else "")
        start = self.i
        while self.i < len(code) and code[self.i] not in _WORD_END:
            if code[self.i] in "\"'" and self.i > start and code[self.i - 1] in "=:":
                self._string(code[self.i])  # --flag="a b", key:'v'
                continue
            self.i += 1
        raw = code[start:self.i]
        return ("bare", _q(raw), raw)

    def _opener(self, c: str, hoisted: list[str]) -> _Tok:
        """A token that nests: an interpolation, a subexpression, a list or a brace."""
        if c == "$":
            return ("str", self._interpolation(), "")
        self.i += 1
        if c == "(":
            return ("sub", '"$(' + "\n".join(self.statements(")")) + '\n)"', "")
        if c == "[":
            return self._list(hoisted)
        return self._brace(hoisted)

    def _string(self, quote: str) -> str:
        """The text of a string starting at the quote (escapes read in ``"..."``)."""
        code = self.code
        self.i += 1
        out: list[str] = []
        while self.i < len(code):
            c = code[self.i]
            if c == quote:
                self.i += 1
                break
            if c == "\\" and quote == '"' and self.i + 1 < len(code):
                nxt = code[self.i + 1]
                out.append({"n": "\n", "t": "\t", "r": "\r"}.get(nxt, nxt))
                self.i += 2
                continue
            out.append(c)
            self.i += 1
        else:
            self.open = True
        return "".join(out)

    def _interpolation(self) -> str:
        """``$"a (expr) b"``: the literal text and ``$(expr)`` for each expression."""
        code = self.code
        quote = code[self.i + 1]
        self.i += 2
        parts: list[str] = []
        lit: list[str] = []
        while self.i < len(code):
            c = code[self.i]
            if c == quote:
                self.i += 1
                break
            if c == "(":
                self.i += 1
                parts.append(_q("".join(lit)) if lit else "")
                lit = []
                parts.append('"$(' + "\n".join(self.statements(")")) + '\n)"')
                continue
            if c == "\\" and quote == '"' and self.i + 1 < len(code):
                lit.append(code[self.i + 1])
                self.i += 2
                continue
            lit.append(c)
            self.i += 1
        else:
            self.open = True
        if lit:
            parts.append(_q("".join(lit)))
        return "".join(parts) or "''"

    def _skip(self, close: str) -> None:
        """Past the ``close`` matching an opener already read (counting brackets only)."""
        code, level = self.code, 1
        self.open = True
        if close in "\"'":
            end = code.find(close, self.i)
            self.i = len(code) if end < 0 else end + 1
            return
        opener = {")": "(", "]": "[", "}": "{"}[close]
        while self.i < len(code) and level:
            c = code[self.i]
            level += (c == opener) - (c == close)
            self.i += 1

    def _list(self, hoisted: list[str]) -> _Tok:
        """``[a (b) {c}]``: the items as words (subexpressions run, blocks are hoisted)."""
        words: list[str] = []
        self._list_until("]", words, hoisted)
        return ("value", " ".join(words) or "''", "")

    def _brace(self, hoisted: list[str]) -> _Tok:
        """A record, a block or a closure after ``{``; a block's statements are hoisted."""
        code = self.code
        j = self.i
        while j < len(code) and code[j] in " \t\r\n":
            j += 1
        if j < len(code) and code[j] == "|":
            end = code.find("|", j + 1)  # {|x, y| body}: the parameters are names
            self.open = self.open or end < 0
            self.i = len(code) if end < 0 else end + 1
        elif j >= len(code) or code[j] == "}" or _RECORD_KEY_RE.match(code, j):
            self.i = j
            record: list[str] = []
            self._list_until("}", record, hoisted)
            # a record's values are data; what its subexpressions run is still run
            hoisted.extend(": " + w for w in record if "$(" in w)
            return ("value", "'{record}'", "")
        hoisted.extend(self.statements("}"))
        return ("block", "'{block}'", "")

    def _list_until(self, close: str, words: list[str], hoisted: list[str]) -> None:
        code = self.code
        while self.i < len(code):
            c = code[self.i]
            if c == close:
                self.i += 1
                return
            if c in " \t\r\n,;|:)]":
                self.i += 1
            elif c == "#":
                self._comment()
            else:
                start = self.i
                words.append(self._token(hoisted)[1])
                if self.i == start:
                    self.i += 1
        self.open = True


def nu_bash(code: Field, *, elvish: bool = False) -> Field:
    """nushell CODE (a field) as bash text with the same commands, blocks included; with
    ``elvish``, elvish code (its lambdas, ``(...)`` output capture and ``[...]`` lists read
    the same; ``>``, ``>>`` and ``<`` redirect as in sh)."""
    reader = _Reader(code.text, elvish=elvish)
    bash = "\n".join(reader.statements(""))
    if reader.open:
        # An unclosed or too deeply nested construct: the bash text is left open too, so
        # the nested code reports shell.parse-incomplete (and is raw-scanned) as bash would.
        bash += "\n("
    return code if bash == code.text else Field(bash, code.span, code.taint)
