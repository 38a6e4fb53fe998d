"""Names bound to constant strings in Python and JavaScript code, read soundly.

``c = "rm -rf /"; os.system(f"{c}")``: the folder (``_strfold``) and the template reader
(``_fstr``) need the value a name holds where it is read. :class:`Scope` answers it from
every binding of the name in the code (tokens of ``_strfuncs``):

* ``c = <const>`` (also ``a, b = "rm", "-rf ~"``, ``a = b = "x"``, ``c: str = "x"``,
  ``const c = "x"``, ``let a = "x", b = "y"``) binds a constant when the right side folds;
* ``c += <const>`` appends, when it is a plain statement in the block of the one
  ``c = <const>`` (no branch or loop header between them);
* any other binding (``c = input()``, ``for c in``, ``import c``, ``def f(c)``, ``c :=``,
  ``with .. as c``, ``except .. as c``, ``(c) =>``, ``catch (c)``, destructuring) makes the
  name not constant, and so does a namespace written by name (``globals()``, ``setattr``,
  ``exec``, ``eval``, ``globalThis``).

A name has a value only where it is read after every binding of it (a loop or a function
body read earlier could see a later value), and several plain bindings must agree. Every
scan is linear in the tokens; at most 256 binding sites and 8 levels of names defined by
names are read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from ._strfuncs import Tok

__all__ = ["Scope", "SCOPED"]

SCOPED = frozenset({"python", "node", "deno", "bun", "ruby"})
_MAX_SITES = 256
_MAX_NAME_SITES = 32
_MAX_DEPTH = 8
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
_RB_MODIFIERS = frozenset({"if", "unless", "while", "until", "rescue", "and", "or", "then",
                           "do", "begin", "case", "when", "else", "elsif", "end", "{", "}",
                           "def", "class", "module", "for", "ensure", "&&", "||", "?"})
_DECL = frozenset({"const", "let", "var"})
_COMPOUND = ("if ", "elif ", "else", "for ", "while ", "with ", "try", "except", "finally",
             "def ", "class ", "match ", "case ", "async ")
_AUG_OPS = frozenset({"+", "-", "*", "/", "%", "&", "|", "^", "@", "<<", "**", "//", ">>"})
_ENDS = frozenset({";", "\n", ")", "}", ",", "]"})

# (kind, token index of the name, token index of its right side, a plain statement)
Site = tuple[str, int, int, bool]
Fold = Callable[[int, "Scope"], "tuple[str | None, int]"]


class Scope(Mapping[str, str]):
    """The constant names of ``toks`` as read at token ``pos`` (set by the reader)."""

    def __init__(self, toks: list[Tok], code: str, language: str, fold: Fold) -> None:
        self.toks = toks
        self.code = code
        self.js = language in ("node", "deno", "bun")
        self.ruby = language == "ruby"
        self.fold = fold
        self.pos = len(toks)
        self.sites: dict[str, list[Site]] = {}
        self.cache: dict[tuple[int, int], str | None] = {}
        self.final: dict[str, str | None] = {}
        self.depth = 0
        self.work = 0
        self.off = "=" not in code  # no binding gives a name a value
        if not self.off:
            self._scan()

    # -- Mapping ---------------------------------------------------------------------
    def __getitem__(self, name: str) -> str:
        value = self.value(name, self.pos)
        if value is None:
            raise KeyError(name)
        return value

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.value(name, self.pos) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(())  # only lookups by name are meaningful

    def __len__(self) -> int:
        return 0

    # -- binding sites ---------------------------------------------------------------
    def _add(self, name: str, kind: str, k: int, rhs: int, plain: bool) -> None:
        if sum(len(v) for v in self.sites.values()) >= _MAX_SITES:
            self.off = True
            return
        self.sites.setdefault(name, []).append((kind, k, rhs, plain))

    def _plain(self, k: int) -> bool:
        """Whether the statement holding token ``k`` starts at it (not after ``if x:``,
        ``else``, ``if (x)`` or inside an expression)."""
        toks = self.toks
        j = k - 1
        if self.ruby:  # c += "x" if y: a modifier makes the statement conditional
            end = self._rhs_end(k)
            return (j < 0 or toks[j][1] in (";", "\n")) and \
                not any(toks[m][1] in _RB_MODIFIERS for m in range(k, end))
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

    # -- values ----------------------------------------------------------------------
    def _site_value(self, name: str, site: Site) -> str | None:
        key = (site[1], site[2])
        if key in self.cache:
            return self.cache[key]
        self.cache[key] = None  # a cycle reads as not constant
        saved = self.pos
        self.pos = site[1]
        try:
            if site[0] == "alias":
                value = self.value(self.toks[site[2]][1], site[2] + 1)
            else:
                value, end = self.fold(site[2], self)
                if value is not None and end < len(self.toks) and \
                        self.toks[end][1] not in _ENDS:
                    value = None
        finally:
            self.pos = saved
        self.cache[key] = value
        return value

    def value(self, name: str, pos: int) -> str | None:
        """The constant ``name`` holds when read at token ``pos``, or None."""
        if self.off:
            return None
        sites = self.sites.get(name)
        if not sites or sites[-1][1] >= pos or self.depth >= _MAX_DEPTH:
            return None
        if name in self.final:  # read after every binding: the same value wherever
            return self.final[name]
        if any(s[0] == "other" for s in sites) or sites[0][0] == "aug" or \
                len(sites) > _MAX_NAME_SITES:
            return None
        value = self._value(name, sites)
        if self.depth == 0:
            self.final[name] = value
        return value

    def _value(self, name: str, sites: list[Site]) -> str | None:
        self.depth += 1
        try:
            augs = [s for s in sites if s[0] == "aug"]
            if not augs:
                values = {self._site_value(name, s) for s in sites}
                return values.pop() if len(values) == 1 else None
            if len(sites) != len(augs) + 1 or not all(s[3] for s in sites) or \
                    not all(self._same_block(sites[0][1], s[1]) for s in augs):
                return None
            parts = [self._site_value(name, s) for s in sites]
            if any(p is None for p in parts):
                return None
            joined = "".join(p or "" for p in parts)
            return joined if len(joined) <= 4096 else None
        finally:
            self.depth -= 1

    def _same_block(self, a: int, b: int) -> bool:
        """Whether tokens ``a`` < ``b`` are statements of one block, nothing between them
        leaving it (a brace closed, or a line indented less)."""
        if self.ruby:  # no block opens or closes between them
            return not any(self.toks[j][1] in _RB_MODIFIERS for j in range(a, b))
        if self.js:
            depth = 0
            for j in range(a, b):
                t = self.toks[j][1]
                if t == "{":
                    depth += 1
                elif t == "}":
                    depth -= 1
                    if depth < 0:
                        return False
            return depth == 0
        code = self.code

        def indent(k: int) -> int:
            start = code.rfind("\n", 0, self.toks[k][2]) + 1
            head = code[start:self.toks[k][2]]
            return len(head) - len(head.lstrip())

        if indent(a) != indent(b):
            return False
        end = self.toks[b][2]
        line = code.find("\n", self.toks[a][2], end)
        while line != -1:
            nxt = code.find("\n", line + 1, end)
            text = code[line + 1:nxt if nxt != -1 else end]
            body = text.lstrip(" \t")
            if body and not body.startswith("#") and len(text) - len(body) != indent(a):
                return False
            line = nxt
        return True
