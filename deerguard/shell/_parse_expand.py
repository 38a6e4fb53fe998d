"""Expansions with structure: ``${...}`` parameter forms, arithmetic, heredoc bodies.

Split from ``_parse_words`` (quotes and plain words); the same cursor rules apply: scanning only
moves forward, nested levels go through ``enter``/``leave``.
"""

from __future__ import annotations

from deerguard.shell._lexer import (
    BACKTICK_SPECIAL_RE,
    DIGITS_RE,
    HEREDOC_SPECIAL_RE,
    LIT_ARITH_RE,
    LIT_HEREDOC_RE,
    LIT_PARAM_RE,
    NAME_RE,
    BraceMark,
    RawPart,
    merge_literals,
)
from deerguard.shell._parse_nodes import (
    new_heredoc,
    new_literal,
    new_param,
)
from deerguard.shell._parse_words import Pending, WordParser
from deerguard.shell.ast import (
    ArithExp,
    CmdSubst,
    Literal,
    ParamExp,
    Word,
    WordPart,
)

_SPECIAL_PARAMS = frozenset("@*#?-$!0")
_PARAM_OPS = (
    ":-", ":=", ":?", ":+", "-", "=", "?", "+", "##", "#", "%%", "%",
    "//", "/#", "/%", "/", "^^", "^", ",,", ",", "~~", "~", ":", "@",
)  # fmt: skip
_CLOSE_BRACE = frozenset({"}"})
_EMPTY: frozenset[str] = frozenset()


class ExpansionParser(WordParser):
    """``${...}``, arithmetic and heredoc bodies."""

    def param_braced(self, start: int, *, quoted: bool) -> WordPart:
        s, n = self.s, self.n
        i = start + 2
        self.i = i
        if i < n and s[i] in " \t\n|":
            # bash 5.3 ``${ cmd; }`` / ``${| cmd; }``: runs a command like $( ).
            self.i = i + 1 if s[i] == "|" else i
            body = self.parse_list(_CLOSE_BRACE)
            if self.peek_reserved() == "}":
                self.i += 1
            else:
                self.issue(start, "unclosed ${ command substitution", incomplete=self.i >= n)
            return CmdSubst(self.sp(start, self.i), body)
        if not self.enter():
            self.leave()
            return ParamExp(self.sp(start, self.i), "")
        prefix = ""
        if i + 1 < n and s[i] in "#!" and s[i + 1] not in "}":
            nx = s[i + 1]
            if nx.isalnum() or nx == "_" or nx in _SPECIAL_PARAMS:
                prefix = s[i]
                i += 1
        m = NAME_RE.match(s, i, n) or DIGITS_RE.match(s, i, n)
        if m:
            name = m.group()
            i = m.end()
        elif i < n and s[i] in _SPECIAL_PARAMS:
            name = s[i]
            i += 1
        else:
            name = ""
        self.i = i
        index: Word | None = None
        if name and i < n and s[i] == "[":
            arith = self.arith_exp(i, i + 1, close="]")
            if arith is not None:
                index = Word(arith.span, arith.parts)
        op: str | None = None
        args: list[Word] = []
        i = self.i
        if name and i < n and s[i] != "}":
            if prefix == "!" and s[i] in "*@" and i + 1 < n and s[i + 1] == "}":
                i += 1
                self.i = i
            else:
                op = next((o for o in _PARAM_OPS if s.startswith(o, i, n)), None)
        if op is not None:
            self.i = i + len(op)
            if op == "@":
                j = self.i
                self.i = min(j + 1, n)
                args.append(Word(self.sp(j, self.i), (Literal(self.sp(j, self.i), s[j : self.i]),)))
            elif op[0] == "/":
                args.append(self.param_word("/", quoted))
                if self.i < n and s[self.i] == "/":
                    self.i += 1
                    args.append(self.param_word("", quoted))
            elif op == ":":
                args.append(self.param_word(":", quoted))
                if self.i < n and s[self.i] == ":":
                    self.i += 1
                    args.append(self.param_word("", quoted))
            else:
                args.append(self.param_word("", quoted))
        if not name:
            self.issue(start, "bad substitution")
            self.skip_to_brace()
        if self.i < n and s[self.i] == "}":
            self.i += 1
        elif not self.st.aborted:
            if self.i < n:
                self.issue(self.i, "bad substitution")
                self.skip_to_brace()
                self.i = min(self.i + 1, n)
            else:
                self.issue(start, "unclosed ${", incomplete=True)
        self.leave()
        return new_param(self.sp(start, self.i), name, False, prefix, index, op, tuple(args))

    def skip_to_brace(self) -> None:
        j = self.s.find("}", self.i, self.n)
        self.i = self.n if j < 0 else j

    def param_word(self, stop: str, quoted: bool) -> Word:
        """A word inside ``${...}``: blanks are literal; ends at ``}`` (or ``stop``)."""
        s, n = self.s, self.n
        start = self.i
        raw: list[RawPart] = []
        braces = 0
        while self.i < n and not self.st.aborted:
            i = self.i
            c = s[i]
            if braces == 0 and (c == "}" or (stop and c == stop)):
                break
            m = LIT_PARAM_RE.match(s, i, n)
            if m:
                raw.append(new_literal(self.sp(i, m.end()), m.group()))
                self.i = m.end()
            elif c in "{}" or (c == "'" and quoted):
                braces += 1 if c == "{" else -1 if c == "}" else 0
                raw.append(Literal(self.sp(i, i + 1), c))
                self.i = i + 1
            elif not self.quote_or_expansion(raw, c, quoted=quoted):
                raw.append(Literal(self.sp(i, i + 1), c))
                self.i = i + 1
        parts = merge_literals([p for p in raw if not isinstance(p, BraceMark)])
        return Word(self.sp(start, self.i), parts)

    # --- backticks ------------------------------------------------------------------------

    def backtick(self, *, quoted: bool) -> CmdSubst:
        """`` `...` ``: unescape ``\\$ \\` \\\\`` (and ``\\"`` in double quotes), parse the body."""
        s, n, start = self.s, self.n, self.i
        j = start + 1
        close = s.find("`", j, n)
        end = n if close < 0 else close
        if self.posmap is None and s.find("\\", j, end) < 0:
            # No backslash before the closing backtick (the common case): nothing to unescape,
            # so parse the body in place as its own script (no copy, no sub-parser).
            if close < 0:
                self.issue(start, "unclosed backtick substitution", incomplete=True)
            after = min(end + 1, n)
            saved_stops, saved_pending, saved_subst = self.stops, self.pending, self.in_subst
            self.n, self.stops, self.pending, self.in_subst = end, {}, [], 0
            self.i = j
            body = self.parse_list(_EMPTY)
            if self.pending:
                self.finish()
            self.n, self.stops, self.pending = n, saved_stops, saved_pending
            self.in_subst = saved_subst
            # After an abort every enclosing level ends at the input's end (as enter() does),
            # not at this bounded body's end.
            self.i = n if self.st.aborted else after
            base = self.base
            return CmdSubst((base + start, base + after), body, True)
        buf: list[str] = []
        dropped: list[int] = []  # local positions of removed backslashes
        run = j
        escapes = '$`\\"' if quoted else "$`\\"
        if s.find("\\", j, end) < 0:
            j = end  # nothing to unescape (only the offsets need mapping)
        while j < n and s[j] != "`":  # scan escapes (skipped when no backslash came first)
            m = BACKTICK_SPECIAL_RE.search(s, j, n)
            if m is None:
                j = n
                break
            j = m.start()
            if s[j] == "`":
                break
            if j + 1 < n and s[j + 1] in escapes:
                buf.append(s[run:j])
                dropped.append(j)
                run = j + 1
                j += 2
            else:
                j += 1
        if j >= n:
            self.issue(start, "unclosed backtick substitution", incomplete=True)
        after = min(j + 1, n)
        if not dropped and self.posmap is None:
            # No escapes: parse the body in place as its own script (no copy, no sub-parser).
            saved = (self.n, self.stops, self.pending, self.in_subst)
            self.n, self.stops, self.pending, self.in_subst = j, {}, [], 0
            self.i = start + 1
            body = self.parse_list(_EMPTY)
            if self.pending:
                self.finish()
            self.n, self.stops, self.pending, self.in_subst = saved
            self.i = self.n if self.st.aborted else after  # as above: an abort ends it all
            return CmdSubst(self.sp(start, after), body, True)
        buf.append(s[run:j])
        self.i = after
        child = self.child("".join(buf), self.abs(start) + 1)
        if dropped or self.posmap is not None:
            # Offsets in the unescaped text map back to the source through this table.
            gone = set(dropped)
            child.posmap = [self.abs(k) for k in range(start + 1, j + 1) if k not in gone]
        body = child.parse_list(_EMPTY)
        child.finish()
        end = self.i
        if self.st.aborted:
            self.i = self.n  # as above: an abort ends every enclosing level at the input's end
        return CmdSubst(self.sp(start, end), body, True)

    # --- arithmetic -----------------------------------------------------------------------

    def arith_exp(self, start: int, body: int, *, close: str = "))") -> ArithExp | None:
        """Arithmetic from ``body`` to ``close``; None when ``((`` is not arithmetic after all."""
        self.i = body
        if not self.enter():
            self.leave()
            return ArithExp(self.sp(start, self.i), "")
        st = self.st
        marks = (len(st.issues), len(st.comments), len(self.pending))
        parts, end, ok = self.arith_parts(close)
        self.leave()
        if not ok:
            # Forget what the abandoned attempt recorded; the re-parse records it again.
            del st.issues[marks[0] :], st.comments[marks[1] :], self.pending[marks[2] :]
            self.i = start
            return None
        # After an abort every enclosing level ends at the input's end: copying that text
        # at each level would cost depth x length, so aborted levels keep no text.
        text = "" if self.st.aborted else self.s[body:end]
        return ArithExp(self.sp(start, self.i), text, parts)

    def arith_parts(self, close: str) -> tuple[tuple[WordPart, ...], int, bool]:
        """Scan arithmetic text; returns (parts, end of text, recognised)."""
        s, n = self.s, self.n
        raw: list[RawPart] = []
        depth = 0
        while self.i < n and not self.st.aborted:
            i = self.i
            c = s[i]
            m = LIT_ARITH_RE.match(s, i, n)
            if m:
                raw.append(new_literal(self.sp(i, m.end()), m.group()))
                self.i = m.end()
                continue
            if c in "([":
                depth += 1
            elif c in ")]" and depth > 0:
                depth -= 1
            elif c == ")" and close in ("))", "for"):
                if i + 1 < n and s[i + 1] == ")":
                    self.i = i + 2
                    return self.merged(raw), i, True
                if close == "))":
                    return (), i, False
            elif (c == "]" and close == "]") or (c == ";" and close == "for"):
                self.i = i + 1
                return self.merged(raw), i, True
            if c in "()[];":
                raw.append(Literal(self.sp(i, i + 1), c))
                self.i = i + 1
            elif not self.quote_or_expansion(raw, c, quoted=True):
                raw.append(Literal(self.sp(i, i + 1), c))
                self.i = i + 1
        if not self.st.aborted:
            self.issue(self.i, "unclosed arithmetic expression", incomplete=True)
        return self.merged(raw), self.i, True

    # --- heredoc bodies -------------------------------------------------------------------

    def fill_heredoc(self, item: Pending, start: int, end: int, terminated: bool) -> None:
        s = self.s
        body = s[start:end]
        text = body
        if item.strip_tabs:
            text = "\n".join(line.lstrip("\t") for line in body.split("\n"))
        parts: tuple[WordPart, ...]
        if item.quoted:
            parts = (Literal(self.sp(start, end), text),) if body else ()
        elif HEREDOC_SPECIAL_RE.search(s, start, end) is None:
            # Nothing to expand or unescape: the loop below would make one literal of it all.
            parts = (new_literal(self.sp(start, end), body),) if body else ()
        else:
            saved_n = self.n
            self.i, self.n = start, end
            raw: list[RawPart] = []
            while self.i < end and not self.st.aborted:
                i = self.i
                c = s[i]
                m = LIT_HEREDOC_RE.match(s, i, end)
                if m:
                    raw.append(new_literal(self.sp(i, m.end()), m.group()))
                    self.i = m.end()
                elif c == "\\" and i + 1 < end and s[i + 1] not in "$`\\\n":
                    raw.append(Literal(self.sp(i, i + 1), "\\"))
                    self.i = i + 1
                else:
                    self.quote_or_expansion(raw, c, quoted=True)
            self.n = saved_n
            parts = merge_literals([p for p in raw if not isinstance(p, BraceMark)])
        doc = new_heredoc(
            self.sp(start, end), item.delimiter, item.quoted, item.strip_tabs, text, parts,
            terminated,
        )  # fmt: skip
        # The Redirect was built when its line was parsed; its body only exists now. The node
        # is not yet visible to any caller, so completing it in place is safe.
        object.__setattr__(item.redirect, "heredoc", doc)
