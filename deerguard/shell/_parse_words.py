"""Word parsing: quotes, escapes, expansions, substitutions, tilde, extglob, heredoc bodies.

Each scanner moves the cursor forward only; bounded regions are parsed in place by lowering
``n``; nesting is counted by ``enter``/``leave`` so hostile depth becomes an issue.
"""

from __future__ import annotations

from typing import cast

from deerguard.shell._lexer import (
    BRACE_RUN_RE,
    BRACE_TOKEN_RE,
    LIT_DQ_RE,
    LIT_NORMAL_RE,
    METACHARS,
    NAME_RE,
    NAME_START,
    BraceMark,
    RawPart,
    brace_pass,
    decode_ansi_c,
    merge_literals,
)
from deerguard.shell._parse_nodes import (
    new_escaped,
    new_literal,
    new_param,
    new_single,
    new_word,
    plain_word,
)
from deerguard.shell._parse_state import Base, Pending, State
from deerguard.shell.ast import (
    AnsiCQuoted,
    ArithExp,
    CmdSubst,
    DoubleQuoted,
    Literal,
    ProcSubst,
    SingleQuoted,
    Statement,
    Tilde,
    Word,
    WordPart,
)

_SPECIAL_PARAMS = frozenset("@*#?-$!0")
_TILDE_END = frozenset(" \t\n;&|<>()/")
_PARAM_OPS = (
    ":-", ":=", ":?", ":+", "-", "=", "?", "+", "##", "#", "%%", "%",
    "//", "/#", "/%", "/", "^^", "^", ",,", ",", ":", "@",
)  # fmt: skip
_PLAIN_END = METACHARS
_QUOTE_START = frozenset("\\'\"$`")  # what quote_or_expansion handles
_BRACE_CHARS = frozenset("{,}")
_CLOSE_PAREN = frozenset({")"})
_CLOSE_BRACE = frozenset({"}"})


def _mark_literal(mark: BraceMark) -> Literal:
    return Literal((mark.pos, mark.pos + 1), mark.char)


def _raw_dq_escape(c: str) -> bool:
    return c in '$`"\\'


class WordParser(Base):
    """Parses words and word parts at the cursor."""

    def parse_list(self, stops: frozenset[str]) -> tuple[Statement, ...]:
        raise NotImplementedError

    def child(self, source: str, base: int) -> WordParser:
        """A parser for re-scanned text (a backtick body) sharing this parse's state."""
        raise NotImplementedError

    def finish(self) -> None:
        """Report heredocs still waiting for a body when the input ends."""
        raise NotImplementedError

    def param_braced(self, start: int, *, quoted: bool) -> WordPart:
        raise NotImplementedError

    def arith_exp(self, start: int, body: int, *, close: str = "))") -> ArithExp | None:
        raise NotImplementedError

    def backtick(self, *, quoted: bool) -> CmdSubst:
        raise NotImplementedError

    def merged(self, raw: list[RawPart]) -> tuple[WordPart, ...]:
        return merge_literals([p for p in raw if not isinstance(p, BraceMark)])

    # --- unquoted words -----------------------------------------------------------------

    def word(self, *, brace: bool = False, assign: bool = False) -> Word | None:
        """Parse one unquoted word at the cursor (None when a delimiter is there)."""
        s, n = self.s, self.n
        start = self.i
        m = LIT_NORMAL_RE.match(s, start, n)
        if m is not None:  # fast path: a plain word (most words are)
            end = m.end()
            if end >= n or (s[end] in _PLAIN_END and not s.startswith(("<(", ">("), end, n)):
                self.i = end
                span = self.sp(start, end)
                return plain_word(span, m.group())
        raw: list[RawPart] = []
        assign_like: bool | None = None if not assign else True
        base, posmap = self.base, self.posmap
        while self.i < n and not self.st.aborted:
            i = self.i
            c = s[i]
            if c in _QUOTE_START:  # first: no literal run or other case starts with these
                if c == "$" and posmap is None and i + 1 < n and s[i + 1] in NAME_START:
                    # ``$name``: the part ``dollar()`` returns for it, without its dispatch.
                    m = NAME_RE.match(s, i + 1, n)
                    assert m is not None
                    end = m.end()
                    raw.append(new_param((base + i, base + end), m.group(), True))
                    self.i = end
                    continue
                if c == "'" and posmap is None:
                    j = s.find("'", i + 1, n)
                    if j >= 0:  # closed: the part ``single_quoted()`` returns, inline
                        raw.append(new_single((base + i, base + j + 1), s[i + 1 : j]))
                        self.i = j + 1
                        continue
                elif c == "\\" and posmap is None and i + 1 < n and s[i + 1] != "\n":
                    # ``\x``: the part ``quote_or_expansion()`` returns for it, inline.
                    raw.append(new_escaped((base + i, base + i + 2), s[i + 1]))
                    self.i = i + 2
                    continue
                self.quote_or_expansion(raw, c, quoted=False)
                continue
            if c in _BRACE_CHARS:  # before the literal regex, which never matches these
                if brace and posmap is None and i - start >= 8:
                    # A long brace word (not ``{}`` or ``{a,b}``): split the stretch of brace
                    # marks and literal runs ahead with one call into the tokens this loop
                    # would take one by one.
                    run = BRACE_RUN_RE.match(s, i, n)
                    assert run is not None  # ``c`` itself matches
                    self.brace_run(raw, i, run.end())
                    continue
                if brace:
                    raw.append(BraceMark(c, base + i if posmap is None else self.abs(i)))
                else:
                    raw.append(new_literal(self.sp(i, i + 1), c))
                self.i = i + 1
                continue
            if c in METACHARS:
                if (c == "<" or c == ">") and i + 1 < n and s[i + 1] == "(":
                    raw.append(self.procsubst())
                    continue
                break
            m = LIT_NORMAL_RE.match(s, i, n)
            if m:
                end = m.end()
                span = (base + i, base + end) if posmap is None else self.sp(i, end)
                raw.append(new_literal(span, m.group()))
                self.i = end
                continue
            if c == "~" and i > start and s[i - 1] in ":=" and assign_like is None:
                # bash also expands ``~`` after ``=``/``:`` in arguments shaped like NAME=...
                m = NAME_RE.match(s, start, i)
                eq = m.end() if m else start
                assign_like = m is not None and s.startswith(("=", "+="), eq, i)
            if c == "~" and (i == start or (assign_like and s[i - 1] in ":=")):
                raw.append(self.tilde(bool(assign_like)))
            elif c in "@!+*?" and i + 1 < n and s[i + 1] == "(":
                raw.append(self.extglob())
            elif not self.quote_or_expansion(raw, c, quoted=False):
                raw.append(new_literal(self.sp(i, i + 1), c))
                self.i = i + 1
        if self.i == start:
            return None
        if len(raw) == 1 and not isinstance(raw[0], BraceMark):
            return new_word(self.sp(start, self.i), (raw[0],))
        if not brace:
            # Brace marks are only made when ``brace`` is set: ``raw`` holds none to filter.
            return new_word(self.sp(start, self.i), merge_literals(cast("list[WordPart]", raw)))
        marks = {p.char for p in raw if isinstance(p, BraceMark)}
        # An expansion needs both braces and either a comma or a sequence (whose ``..`` lies
        # in one literal). Without either, ``brace_pass`` turns every mark back into a
        # literal in place, as the branch below does directly (``{}`` of ``find -exec``).
        if "{" in marks and "}" in marks and (
            "," in marks or any(type(p) is Literal and ".." in p.value for p in raw)
        ):
            parts = brace_pass(raw)
        elif marks:
            parts = merge_literals(
                [_mark_literal(p) if isinstance(p, BraceMark) else p for p in raw]
            )
        else:
            parts = self.merged(raw)
        return new_word(self.sp(start, self.i), parts)

    def brace_run(self, raw: list[RawPart], start: int, end: int) -> None:
        """Append the parts of ``s[start:end]``, only brace marks and literal runs (no posmap).

        The same parts as the ``word()`` loop makes: a mark per ``{ , }``, one literal per
        maximal run of the other characters (what LIT_NORMAL_RE matches).
        """
        base = self.base
        add = raw.append
        pos = start
        for token in BRACE_TOKEN_RE.findall(self.s, start, end):
            size = len(token)
            if size == 1 and token in _BRACE_CHARS:
                add(BraceMark(token, base + pos))
            else:
                add(new_literal((base + pos, base + pos + size), token))
            pos += size
        self.i = end

    def quote_or_expansion(self, raw: list[RawPart], c: str, *, quoted: bool) -> bool:
        """Handle ``\\ ' " $ `` at the cursor; False when ``c`` is none of them."""
        i = self.i
        if c == "\\":
            if i + 1 >= self.n:
                raw.append(new_literal(self.sp(i, i + 1), "\\"))
                self.i = i + 1
            elif self.s[i + 1] == "\n":
                self.i = i + 2  # line continuation: removed, produces no part
            else:
                raw.append(new_escaped(self.sp(i, i + 2), self.s[i + 1]))
                self.i = i + 2
        elif c == "'":
            raw.append(self.single_quoted())
        elif c == '"':
            raw.append(self.double_quoted(i, i + 1))
        elif c == "$":
            raw.append(self.dollar(quoted=quoted))
        elif c == "`":
            raw.append(self.backtick(quoted=quoted))
        else:
            return False
        return True

    def tilde(self, assign: bool) -> WordPart:
        s, n, i = self.s, self.n, self.i
        j = i + 1
        while j < n and (s[j].isalnum() or s[j] in "._-+"):
            j += 1
        if j >= n or s[j] in _TILDE_END or (assign and s[j] == ":"):
            self.i = j
            return Tilde(self.sp(i, j), s[i + 1 : j])
        self.i = i + 1
        return new_literal(self.sp(i, i + 1), "~")

    def extglob(self) -> Literal:
        """``@(a|b)`` and friends: kept as one glob literal when the parens close on the line."""
        i = self.i
        close = self.match_paren(i + 1)
        if close < 0:
            self.i = i + 1
            return new_literal(self.sp(i, i + 1), self.s[i])
        self.i = close + 1
        return Literal(self.sp(i, close + 1), self.s[i : close + 1])

    def match_paren(self, open_pos: int) -> int:
        """Matching ``)`` for an extglob ``(`` on the same line, memoized so scans stay linear.

        The memo is kept per region end ``n`` (a backtick or heredoc body is parsed with a
        lower ``n``): a match found with one end must not leak into a shorter region.
        """
        n = self.n
        memo = self.paren_memo.get(n)
        if memo is not None and memo[1] <= open_pos < memo[2]:
            return memo[0].get(open_pos, -1)
        s = self.s
        matches: dict[int, int] = memo[0] if memo is not None else {}
        stack: list[int] = []
        j = open_pos
        while j < n:
            c = s[j]
            if c == "\n":
                break
            if c == "\\":
                j += 2
                continue
            if c == "(":
                stack.append(j)
            elif c == ")":
                if not stack:
                    break
                matches[stack.pop()] = j
                if not stack:
                    j += 1
                    break
            j += 1
        self.paren_memo[n] = (matches, open_pos, min(j, n))
        return matches.get(open_pos, -1)

    # --- quotes ---------------------------------------------------------------------------

    def single_quoted(self) -> SingleQuoted:
        i = self.i
        j = self.s.find("'", i + 1, self.n)
        if j < 0:
            self.issue(i, "unclosed single quote", incomplete=True)
            self.i = self.n
            return SingleQuoted(self.sp(i, self.n), self.s[i + 1 : self.n])
        self.i = j + 1
        return new_single(self.sp(i, j + 1), self.s[i + 1 : j])

    def double_quoted(self, start: int, body: int, *, locale: bool = False) -> DoubleQuoted:
        self.i = body
        if not self.enter():
            self.leave()
            return DoubleQuoted(self.sp(start, self.i), (), locale)
        s, n = self.s, self.n
        raw: list[RawPart] = []
        closed = False
        while self.i < n and not self.st.aborted:
            i = self.i
            c = s[i]
            if c == '"':
                self.i = i + 1
                closed = True
                break
            m = LIT_DQ_RE.match(s, i, n)
            if m:
                raw.append(new_literal(self.sp(i, m.end()), m.group()))
                self.i = m.end()
            elif c == "\\" and i + 1 < n and not _raw_dq_escape(s[i + 1]) and s[i + 1] != "\n":
                raw.append(new_literal(self.sp(i, i + 1), "\\"))
                self.i = i + 1
            else:
                self.quote_or_expansion(raw, c, quoted=True)
        self.leave()
        if not closed:
            self.issue(start, "unclosed double quote", incomplete=True)
        parts = merge_literals([p for p in raw if not isinstance(p, BraceMark)])
        return DoubleQuoted(self.sp(start, self.i), parts, locale)

    # --- dollar forms ---------------------------------------------------------------------

    def dollar(self, *, quoted: bool) -> WordPart:
        s, n, i = self.s, self.n, self.i
        nxt = s[i + 1] if i + 1 < n else ""
        if nxt == "(":
            if i + 2 < n and s[i + 2] == "(" and (self.abs(i)) not in self.st.not_arith:
                arith = self.arith_exp(i, i + 3)
                if arith is not None:
                    return arith
                self.st.not_arith.add(self.abs(i))
            return self.cmd_subst(i)
        if nxt == "{":
            return self.param_braced(i, quoted=quoted)
        if nxt == "[":
            return self.arith_exp(i, i + 2, close="]") or new_literal(self.sp(i, i + 1), "$")
        if not quoted and nxt == "'":
            j = i + 2
            while j < n and s[j] != "'":
                j += 2 if s[j] == "\\" else 1
            if j >= n:
                self.issue(i, "unclosed $'...' quote", incomplete=True)
                j = n
            self.i = min(j + 1, n)
            return AnsiCQuoted(self.sp(i, self.i), decode_ansi_c(s[i + 2 : min(j, n)]))
        if not quoted and nxt == '"':
            return self.double_quoted(i, i + 2, locale=True)
        m = NAME_RE.match(s, i + 1, n)
        if m:
            self.i = m.end()
            return new_param(self.sp(i, m.end()), m.group(), True)
        if nxt.isdecimal() and nxt.isascii() or nxt in _SPECIAL_PARAMS and nxt:
            self.i = i + 2
            return new_param(self.sp(i, i + 2), nxt, True)
        self.i = i + 1
        return new_literal(self.sp(i, i + 1), "$")

    def cmd_subst(self, start: int) -> CmdSubst:
        self.i = start + 2
        self.in_subst += 1
        body = self.parse_list(_CLOSE_PAREN)
        self.in_subst -= 1
        if self.i < self.n and self.s[self.i] == ")":
            self.i += 1
        else:
            self.issue(start, "unclosed command substitution $(", incomplete=self.i >= self.n)
        return CmdSubst(self.sp(start, self.i), body)

    def procsubst(self) -> ProcSubst:
        start = self.i
        self.i = start + 2
        self.in_subst += 1
        body = self.parse_list(_CLOSE_PAREN)
        self.in_subst -= 1
        if self.i < self.n and self.s[self.i] == ")":
            self.i += 1
        else:
            self.issue(start, "unclosed process substitution", incomplete=self.i >= self.n)
        op = self.s[start]
        return ProcSubst(self.sp(start, self.i), op, body)


__all__ = ["WordParser", "State", "Pending"]
