"""Where Python, JavaScript and Ruby code binds each name, for :mod:`._names`.

:class:`Sites` reads the tokens once (``_strfuncs``) and records, for each name, every
binding site: ``set`` (``c = <expr>``, tuple and chained assignments, annotations,
``const``/``let``/``var`` declarators), ``aug`` (``c += <expr>``), ``alias`` (``a = b = ..``)
or ``other`` (anything else that rebinds or changes it: loop targets, parameters, imports,
``c := ..``, destructuring, ``++``, Ruby's ``c << x``, ``c.sub!``, ``c[i] = ..``, block
parameters). A namespace written by name (``globals()``, ``setattr``, ``eval``,
``binding``) turns the reading off. Bounded: at most 256 sites and 40,000 token steps.
"""

from __future__ import annotations

from ._strfuncs import Tok

__all__ = ["RB_MODIFIERS", "Site", "Sites"]

_MAX_SITES = 256
_MAX_WORK = 40000  # tokens the binding scans may look at, over the whole code
# Code that writes names without binding syntax: no name is known constant in it.
_NAMESPACE = frozenset({"globals", "locals", "vars", "setattr", "exec", "eval", "__dict__",
                        "__builtins__", "globalThis", "window", "global", "Function",
                        "nonlocal", "__setattr__", "builtins", "__import__", "execfile"})
_PY_BINDERS = frozenset({"for", "as", "import", "def", "class", "del", "lambda", "case",
                         "except", "from"})
_JS_BINDERS = frozenset({"function", "class", "catch", "import", "of", "in", "delete"})
_RB_BINDERS = frozenset({"for", "def", "class", "module"})
# Ruby: names written by reflection, and the String methods that change a string in place.
_RB_NAMESPACE = frozenset({"binding", "instance_variable_set", "local_variable_set", "send",
                           "public_send", "__send__", "define_method", "instance_eval",
                           "class_eval", "module_eval", "const_set", "class_variable_set"})
_RB_MUTATORS = frozenset({"replace", "concat", "insert", "prepend", "clear", "setbyte",
                          "force_encoding", "encode", "slice", "squeeze", "tr", "delete"})
# After these a Ruby statement runs only sometimes (c += "x" if y) or may stop before it.
RB_MODIFIERS = frozenset({"if", "unless", "while", "until", "rescue", "and", "or", "then",
                          "do", "begin", "case", "when", "else", "elsif", "end", "{", "}",
                          "def", "class", "module", "for", "ensure", "&&", "||", "?"})
_DECL = frozenset({"const", "let", "var"})
_COMPOUND = ("if ", "elif ", "else", "for ", "while ", "with ", "try", "except", "finally",
             "def ", "class ", "match ", "case ", "async ")
_AUG_OPS = frozenset({"+", "-", "*", "/", "%", "&", "|", "^", "@", "<<", "**", "//", ">>"})

# (kind, token index of the name, token index of its right side, a plain statement)
Site = tuple[str, int, int, bool]


class Sites:
    """The binding sites of each name of ``toks`` (``code``'s tokens in ``language``)."""

    def __init__(self, toks: list[Tok], code: str, language: str) -> None:
        self.toks = toks
        self.code = code
        self.js = language in ("node", "deno", "bun")
        self.ruby = language == "ruby"
        self.sites: dict[str, list[Site]] = {}
        self.work = 0
        self.count = 0  # sites recorded (of every name)
        self.off = "=" not in code  # no binding gives a name a value
        if not self.off:
            self._scan()

    def _add(self, name: str, kind: str, k: int, rhs: int, plain: bool) -> None:
        if self.count >= _MAX_SITES:
            self.off = True
            return
        self.count += 1
        self.sites.setdefault(name, []).append((kind, k, rhs, plain))

    def _plain(self, k: int) -> bool:
        """Whether the statement holding token ``k`` starts at it (not after ``if x:``,
        ``else``, ``if (x)`` or inside an expression)."""
        toks = self.toks
        j = k - 1
        if self.ruby:  # c += "x" if y: a modifier makes the statement conditional
            end = self._rhs_end(k)
            return (j < 0 or toks[j][1] in (";", "\n")) and \
                not any(toks[m][1] in RB_MODIFIERS for m in range(k, end))
        if not self.js:
            if j >= 0 and toks[j][1] not in (";", "\n"):
                return False
            start = self.code.rfind("\n", 0, toks[k][2]) + 1
            return not self.code[start:toks[k][2]].lstrip(" \t").startswith(_COMPOUND)
        if j >= 0 and toks[j][1] in _DECL:
            j -= 1
        newline = False
        while j >= 0 and toks[j][1] == "\n":
            j -= 1
            newline = True
        if j < 0 or toks[j][1] in (";", "{", "}"):
            return True
        # A newline ends a statement (ASI) unless what precedes it asks for more.
        return newline and toks[j][0] in ("str", "num", "name") and \
            toks[j][1] not in ("else", "do", "return", "typeof", "in", "of")

    def _scan(self) -> None:
        toks = self.toks
        n = len(toks)
        binders = _JS_BINDERS if self.js else _RB_BINDERS if self.ruby else _PY_BINDERS
        py = not self.js and not self.ruby
        k = 0
        while k < n and not self.off:
            self.work += 1
            if self.work > _MAX_WORK:
                self.off = True  # hostile code: no name is read as constant
                break
            kind, text = toks[k][0], toks[k][1]
            if kind == "name" and ((text in _NAMESPACE and (py or text != "exec")) or (
                    self.js and text == "with") or (self.ruby and text in _RB_NAMESPACE)):
                self.off = True  # globals()["c"] = .., setattr, exec: names written by name
                break
            if kind == "name" and text in binders:
                k = self._binder(k, text)
                continue
            if kind == "op" and text == "(" and self.js:
                self._arrow(k)
            if self.ruby and self._ruby_other(k):
                k += 1
                continue
            if kind == "op" and text in (")", "]", "}") and k + 1 < n and toks[k + 1][1] == "=":
                self._group(k)  # (a, b) = .., [a, b] = .., ({a} = o): targets in a group
            if kind == "name" and k > 1 and toks[k - 1][1] in ("+", "-") and \
                    toks[k - 2][1] == toks[k - 1][1] and toks[k - 2][3] == toks[k - 1][2]:
                self._add(text, "other", k, k, False)  # ++c
            if kind != "name" or text in _DECL or (k > 0 and toks[k - 1][1] in (".", "->")):
                k += 1
                continue
            nxt = toks[k + 1] if k + 1 < n else None
            if nxt is None:
                break
            if nxt[1] == "=>" and self.js:
                self._add(text, "other", k, k, False)  # c => ...: a parameter
            elif nxt[1] == "=" and not self._keyword(k):
                self._assign(k)
            elif nxt[1] == ":" and py and k + 2 < n and toks[k + 2][1] == "=" \
                    and toks[k + 2][2] == nxt[3]:
                self._add(text, "other", k, k, False)  # c := ...
            elif nxt[1] == ":" and py and self._plain(k):
                self._annotated(k)
            elif nxt[1] in _AUG_OPS or nxt[1] in ("<", ">"):
                self._augmented(k)
            elif nxt[1] == "," and not self.js and self._plain(k):
                k = self._tuple(k)
                continue
            elif nxt[1] in ("++", "--") or (nxt[1] in ("+", "-") and k + 2 < n and
                                             toks[k + 2][1] == nxt[1] and self.js):
                self._add(text, "other", k, k, False)
            k += 1

    def _ruby_other(self, k: int) -> bool:
        """Ruby bindings of other shapes: ``c << "x"``, ``c.sub!(..)``, ``c.replace(..)``,
        ``c[0] = ..``, block parameters ``|a, b|``, ``rescue => e``."""
        toks = self.toks
        kind, text = toks[k][0], toks[k][1]
        if kind == "op" and text == "|" and k > 0 and toks[k - 1][1] in ("{", "do"):
            j = k + 1
            while j < len(toks) and j < k + 32 and toks[j][1] != "|":
                if toks[j][0] == "name":
                    self._add(toks[j][1], "other", j, j, False)
                j += 1
            return True
        if kind != "name" or k + 1 >= len(toks):
            return False
        nxt = toks[k + 1][1]
        other = (nxt == "<<" or (k > 0 and toks[k - 1][1] == "=>") or (
            nxt == "." and k + 2 < len(toks) and (toks[k + 2][1] in _RB_MUTATORS or (
                k + 3 < len(toks) and toks[k + 3][1] == "!" and
                toks[k + 3][2] == toks[k + 2][3]))))
        if nxt == "[":
            depth = 0
            for j in range(k + 1, min(len(toks), k + 64)):
                depth += toks[j][1] == "["
                depth -= toks[j][1] == "]"
                if depth == 0:
                    other = j + 1 < len(toks) and toks[j + 1][1] == "="
                    break
        if other:
            self._add(text, "other", k, k, False)
        return other

    def _group(self, k: int) -> None:
        depth = 0
        self.work += 64
        for j in range(k, max(-1, k - 64), -1):
            t = self.toks[j]
            if t[1] in (")", "]", "}"):
                depth += 1
            elif t[1] in ("(", "[", "{"):
                depth -= 1
                if depth == 0:
                    return
            elif t[0] == "name":
                self._add(t[1], "other", j, j, False)

    def _keyword(self, k: int) -> bool:
        """``f(c="x")``: a keyword argument of a call binds nothing in the caller."""
        if self.ruby:
            return False  # f(c = "x") assigns c in Ruby
        depth = 0
        for j in range(k - 1, max(-1, k - 400), -1):
            self.work += 1
            t = self.toks[j][1]
            if t in (")", "]", "}"):
                depth += 1
            elif t in ("(", "[", "{"):
                if depth == 0:
                    if t != "(":
                        return self.js and t == "{"
                    head = self.toks[j - 1][1] if j > 0 else ""
                    before = self.toks[j - 2][1] if j > 1 else ""
                    if head in ("def", "function", "lambda") or before in ("def",
                                                                           "function"):
                        return False
                    return not self.js
                depth -= 1
            elif t in (";", "\n") and depth == 0:
                return False
        return False

    def _rhs_end(self, j: int) -> int:
        depth = 0
        for m in range(j, min(len(self.toks), j + 400)):
            self.work += 1
            t = self.toks[m]
            if t[0] != "op":
                continue
            if t[1] in "([{":
                depth += 1
            elif t[1] in ")]}":
                if depth == 0:
                    return m
                depth -= 1
            elif t[1] in (";", "\n") and depth == 0:
                return m
        return len(self.toks)

    def _assign(self, k: int) -> None:
        name = self.toks[k][1]
        j = k + 2
        if j < len(self.toks) and self.toks[j][0] == "name" and j + 1 < len(self.toks) and \
                self.toks[j + 1][1] == "=":
            self._add(name, "alias", k, j, False)  # a = b = "x": a holds what b does
            return
        self._add(name, "set", k, j, self._plain(k))

    def _annotated(self, k: int) -> None:
        depth = 0
        for j in range(k + 2, self._rhs_end(k + 2)):
            t = self.toks[j][1]
            depth += t in ("(", "[", "{")
            depth -= t in (")", "]", "}")
            if t == "=" and depth == 0:
                self._add(self.toks[k][1], "set", k, j + 1, True)
                return

    def _augmented(self, k: int) -> None:
        toks = self.toks
        j = k + 1
        op = ""
        while j < len(toks) and j < k + 4 and toks[j][0] == "op" and toks[j][1] != "=" and \
                (not op or toks[j][2] == toks[j - 1][3]):
            op += toks[j][1]
            j += 1
        if j >= len(toks) or toks[j][1] != "=" or toks[j][2] != toks[j - 1][3]:
            return
        if op in ("<", ">", "!", "="):
            return  # a comparison: c <= x
        kind = "aug" if op == "+" else "other"
        self._add(toks[k][1], kind, k, j + 1, self._plain(k))

    def _tuple(self, k: int) -> int:
        """``a, b = "rm", "-rf ~"``: the targets, then the values in the same number
        (a starred or nested target binds what is not constant)."""
        toks = self.toks
        names = [k]
        j = k + 1
        while j + 1 < len(toks) and toks[j][1] == "," and toks[j + 1][0] == "name":
            names.append(j + 1)
            j += 2
        if j >= len(toks) or toks[j][1] != "=" or len(names) > 16:
            end = self._rhs_end(j)
            if any(toks[m][1] == "=" for m in range(j, end)):
                for m in range(k, end):
                    if toks[m][1] == "=":
                        break
                    if toks[m][0] == "name":
                        self._add(toks[m][1], "other", m, m, False)
            return j
        end = self._rhs_end(j + 1)
        starts = [j + 1]
        depth = 0
        for m in range(j + 1, end):
            t = toks[m][1]
            if t in ("(", "[", "{"):
                depth += 1
            elif t in (")", "]", "}"):
                depth -= 1
            elif t == "," and depth == 0:
                starts.append(m + 1)
        if len(starts) != len(names):
            for at in names:
                self._add(toks[at][1], "other", at, at, False)
            return j + 1
        for at, rhs in zip(names, starts, strict=True):
            self._add(toks[at][1], "set", at, rhs, self._plain(k))
        return j + 1

    def _binder(self, k: int, word: str) -> int:
        """Names a binding keyword binds: up to ``in``/``:``/``)``/the statement end."""
        toks = self.toks
        if self.js and word in ("of", "in"):  # for (c of xs), for (const [a, b] of xs)
            j = k - 1
            while j >= 0 and j > k - 32 and toks[j][1] not in ("(", ";", "\n", "{", "}"):
                if toks[j][0] == "name" and toks[j][1] not in _DECL:
                    self._add(toks[j][1], "other", j, j, False)
                j -= 1
            return k + 1
        stop = ("in", ":") if word in ("for", "case", "lambda") else ("in", "=", "{") \
            if self.js else (":", "=")
        depth = 0
        j = k + 1
        while j < len(toks) and j < k + 400:
            self.work += 1
            t = toks[j]
            if t[1] in ("(", "[", "{") and not (self.js and t[1] == "{" and depth == 0
                                                  and word == "function"):
                depth += 1
            elif t[1] in (")", "]", "}"):
                depth -= 1
                if depth < 0 or (depth == 0 and word in ("function", "catch", "def")):
                    break
            elif depth == 0 and (t[1] in stop or t[1] in (";", "\n")):
                break
            if t[0] == "name" and t[1] not in ("as", "import", "in", "const", "let", "var"):
                self._add(t[1], "other", j, j, False)
            j += 1
        return j

    def _arrow(self, k: int) -> None:
        """``(a, b) => ..``: the parameters of an arrow function, from its ``(``."""
        if self.toks[k][1] != "(":
            return
        depth = 0
        self.work += 64
        for j in range(k, min(len(self.toks), k + 64)):
            t = self.toks[j][1]
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
                if depth == 0:
                    if j + 1 < len(self.toks) and self.toks[j + 1][1] == "=>":
                        for m in range(k + 1, j):
                            if self.toks[m][0] == "name":
                                self._add(self.toks[m][1], "other", m, m, False)
                    return
