"""Assignments (``X=v``, ``a[i]=v``, ``a=(...)``, ``declare a=(...)``) and redirections."""

from __future__ import annotations

from deerguard.shell._lexer import (
    DECL_ARRAY_RE,
    DIGITS_RE,
    NAME_RE,
    RawPart,
    heredoc_delimiter,
)
from deerguard.shell._parse_expand import ExpansionParser
from deerguard.shell._parse_nodes import (
    new_assignment,
    new_redirect,
)
from deerguard.shell._parse_state import Pending
from deerguard.shell.ast import Assignment, Literal, Redirect, Word

_REDIRECT_OPS = ("&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">")
_REDIRECT_OPS3 = frozenset(op for op in _REDIRECT_OPS if len(op) == 3)
_REDIRECT_OPS2 = frozenset(op for op in _REDIRECT_OPS if len(op) == 2)
_DIGITS = frozenset("0123456789")
_REDIRECT_FIRST = _DIGITS | frozenset("{<>&")  # where a redirection can start


class AssignRedirectParser(ExpansionParser):
    """Assignment words and redirections at the cursor."""

    def declaration_array(self) -> Word:
        """``declare a=(x y)``: one argument word holding the elements' parts (bash passes
        the text to the builtin, but the elements' substitutions still run)."""
        s = self.s
        start = self.i
        m = DECL_ARRAY_RE.match(s, start, self.n)
        assert m is not None
        self.i = m.end()
        raw: list[RawPart] = [Literal(self.sp(start, self.i), m.group())]
        while not self.st.aborted:
            ws = self.i
            self.gap()
            if self.i > ws and s.find("#", ws, self.i) < 0:
                raw.append(Literal(self.sp(ws, self.i), s[ws : self.i]))
            if self.i >= self.n:
                self.issue(start, "unclosed array assignment", incomplete=True)
                break
            if s[self.i] == ")":
                raw.append(Literal(self.sp(self.i, self.i + 1), ")"))
                self.i += 1
                break
            word = self.word(brace=True)
            if word is None:
                self.issue(self.i, f"unexpected {s[self.i]!r} in array assignment")
                self.i += 1
                continue
            raw.extend(word.parts)
        return Word(self.sp(start, self.i), self.merged(raw))

    def assignment(self) -> Assignment | None:
        s, n, start = self.s, self.n, self.i
        m = NAME_RE.match(s, start, n)
        if not m:
            return None
        j = m.end()
        index: Word | None = None
        if j < n and s[j] == "[":
            depth = 0
            k = j
            while k < n and s[k] not in " \t\n;&|<>()":
                if s[k] == "[":
                    depth += 1
                elif s[k] == "]":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            if k >= n or s[k] != "]":
                return None
            idx_end = k + 1
            if not (s.startswith("=", idx_end, n) or s.startswith("+=", idx_end, n)):
                return None
            saved_n, self.n = self.n, k + 1
            arith = self.arith_exp(j, j + 1, close="]")
            self.n = saved_n
            index = Word(arith.span, arith.parts) if arith is not None else None
            j = idx_end
        append = s.startswith("+=", j, n)
        if not append and not s.startswith("=", j, n):
            return None
        self.i = j + (2 if append else 1)
        value: Word | None = None
        array: tuple[Word, ...] | None = None
        if self.i < n and s[self.i] == "(":
            array = self.array_elements()
        else:
            value = self.word(assign=True)
        return new_assignment(self.sp(start, self.i), m.group(), value, append, index, array)

    def array_elements(self) -> tuple[Word, ...]:
        open_at = self.i
        self.i += 1
        items: list[Word] = []
        while not self.st.aborted:
            self.gap()
            if self.i >= self.n:
                self.issue(open_at, "unclosed array assignment", incomplete=True)
                break
            if self.s[self.i] == ")":
                self.i += 1
                break
            word = self.word(brace=True)
            if word is None:
                self.issue(self.i, f"unexpected {self.s[self.i]!r} in array assignment")
                self.i += 1
                continue
            items.append(word)
        return tuple(items)

    def redirect(self) -> Redirect | None:
        s, n, start = self.s, self.n, self.i
        i = start
        fd: str | None = None
        m = DIGITS_RE.match(s, i, n) if i < n and s[i] in _DIGITS else None
        if m and m.end() < n and s[m.end()] in "<>":
            fd, i = m.group(), m.end()
        elif i < n and s[i] == "{":
            m = NAME_RE.match(s, i + 1, n)
            if m and s.startswith("}", m.end(), n) and m.end() + 1 < n and s[m.end() + 1] in "<>":
                fd, i = s[i : m.end() + 1], m.end() + 1
        if i >= n or s[i] not in "<>&":
            return None
        if s[i] in "<>" and i + 1 < n and s[i + 1] == "(" and fd is None:
            return None  # process substitution: a word
        # The longest operator of _REDIRECT_OPS at ``i`` (the region may end before ``s``).
        op: str | None = None
        if i + 3 <= n and s[i : i + 3] in _REDIRECT_OPS3:
            op = s[i : i + 3]
        elif i + 2 <= n and s[i : i + 2] in _REDIRECT_OPS2:
            op = s[i : i + 2]
        elif s[i] != "&":
            op = s[i]
        if op is None or (op[0] == "&" and fd is not None):
            return None
        self.i = j = i + len(op)
        if j < n and s[j] in " \t\\":  # skip the call when not at a blank
            self.blanks()
        word_start = self.i
        target = self.word()
        if target is None:
            self.issue(self.i, f"expected a word after '{op}'", incomplete=self.i >= n)
        # The word ends at the cursor (``word()`` stops there); in local offsets.
        end = self.i if target is not None else j
        red = new_redirect(self.sp(start, end), op, target, fd)
        if (op == "<<" or op == "<<-") and target is not None:
            delim, quoted = heredoc_delimiter(s[word_start:end])
            self.pending.append(Pending(red, delim, quoted, op == "<<-"))
        return red

    def trailing_redirects(self) -> tuple[Redirect, ...]:
        """Redirections after a compound command (``{ ...; } > out``)."""
        out: list[Redirect] = []
        s, n = self.s, self.n
        while not self.st.aborted:
            save = self.i
            self.blanks()
            if self.i >= n or s[self.i] not in _REDIRECT_FIRST:
                self.i = save  # ``redirect()`` would find nothing here: skip the call
                break
            red = self.redirect()
            if red is None:
                self.i = save
                break
            out.append(red)
        return tuple(out)
