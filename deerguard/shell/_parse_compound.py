"""Compound commands: groups, subshells, if, loops, case, select, [[ ]], (( )), function, coproc."""

from __future__ import annotations

import dataclasses

from deerguard.shell._lexer import (
    FUNC_NAME_RE,
    METACHARS,
    NAME_RE,
    RawPart,
)
from deerguard.shell._parse_commands import CommandParser
from deerguard.shell._parse_nodes import (
    new_literal,
    new_word,
)
from deerguard.shell.ast import (
    ArithCommand,
    ArithExp,
    ArithFor,
    BraceGroup,
    Case,
    CaseItem,
    Command,
    Coproc,
    For,
    FunctionDef,
    If,
    IfClause,
    Literal,
    Redirect,
    Select,
    SimpleCommand,
    Statement,
    Subshell,
    TestCommand,
    While,
    Word,
)

_THEN = frozenset({"then"})
_IF_BODY = frozenset({"elif", "else", "fi"})
_FI = frozenset({"fi"})
_DO = frozenset({"do"})
_DONE = frozenset({"done"})
_PAREN = frozenset({")"})
_BRACE = frozenset({"}"})
_CASE_BODY = frozenset({";;", "esac"})
_COMPOUND_START = frozenset({"{", "(", "if", "for", "while", "until", "case", "select", "[["})
_TEST_OP_CHARS = frozenset("()<>!")


def _is_match_op(word: Word) -> bool:
    """``word.literal_value() == "=~"``, without the general walk for a lone literal."""
    parts = word.parts
    if len(parts) == 1:
        only = parts[0]
        if type(only) is Literal:
            return only.value == "=~"
    return word.literal_value() == "=~"


class CompoundParser(CommandParser):
    """Adds the compound commands to the command parser."""

    def compound(self, word: str | None) -> Command | None:
        start = self.i
        cmd: _Redirectable
        if word == "(":
            memo = self.st.not_arith
            if self.s.startswith("((", start, self.n) and (self.abs(start)) not in memo:
                arith = self.arith_command(start)
                if arith is not None:
                    return arith
                self.st.not_arith.add(self.abs(start))
            self.i = start + 1
            body = self.parse_list(_PAREN)
            self.close(")", start)
            redirects = self.trailing_redirects()
            return Subshell(self.sp(start, self.i), body, redirects)
        if word == "{":
            self.i = start + 1
            body = self.parse_list(_BRACE)
            self.eat_reserved("}", start)
            redirects = self.trailing_redirects()
            return BraceGroup(self.sp(start, self.i), body, redirects)
        if word == "if":
            cmd = self.if_clause(start)
        elif word == "for":
            cmd = self.for_loop(start)
        elif word in ("while", "until"):
            self.i += len(word)
            cond = self.parse_list(_DO)
            body = self.do_done(start)
            cmd = While(self.sp(start, self.i), cond, body, word == "until")
        elif word == "case":
            cmd = self.case(start)
        elif word == "select":
            cmd = self.for_loop(start, select=True)
        elif word == "[[":
            cmd = self.test(start)
        elif word == "function":
            return self.function_keyword(start)
        elif word == "coproc":
            return self.coproc(start)
        else:
            return None
        redirects = self.trailing_redirects()
        if redirects:
            return _with_redirects(cmd, redirects, self.sp(start, self.i)[1])
        return cmd

    def close(self, char: str, opener: int) -> None:
        if self.i < self.n and self.s[self.i] == char:
            self.i += 1
        elif self.i >= self.n:
            self.issue(self.i, f"expected '{char}' before end of input", incomplete=True)
        else:
            self.issue(self.i, f"expected '{char}' (opened at {self.abs(opener)})")

    def arith_command(self, start: int) -> Command | None:
        arith = self.arith_exp(start + 2, start + 2)
        if arith is None:
            self.i = start
            return None
        end = start + 2 + len(arith.text)
        if arith.parts:  # an aborted parse keeps no text (see arith_exp), but its parts
            end = max(end, self.local(arith.parts[-1].span[1]))
        inner = ArithExp(self.sp(start + 2, end), arith.text, arith.parts)
        redirects = self.trailing_redirects()
        return ArithCommand(self.sp(start, self.i), inner, redirects)

    def if_clause(self, start: int) -> If:
        self.i += 2
        clauses: list[IfClause] = []
        else_body: tuple[Statement, ...] | None = None
        clause_start = start
        while True:
            cond = self.parse_list(_THEN)
            self.eat_reserved("then", start)
            body = self.parse_list(_IF_BODY)
            clauses.append(IfClause(self.sp(clause_start, self.i), cond, body))
            word = self.peek_reserved()
            if word == "elif":
                clause_start = self.i
                self.i += 4
                continue
            if word == "else":
                self.i += 4
                else_body = self.parse_list(_FI)
            break
        self.eat_reserved("fi", start)
        return If(self.sp(start, self.i), tuple(clauses), else_body)

    def do_done(self, start: int) -> tuple[Statement, ...]:
        self.gap()
        if self.peek_reserved() == "{":  # bash also accepts ``for x in y; { ...; }``
            brace_at = self.i
            self.i += 1
            body = self.parse_list(_BRACE)
            self.eat_reserved("}", brace_at)
            return body
        self.eat_reserved("do", start)
        body = self.parse_list(_DONE)
        self.eat_reserved("done", start)
        return body

    def for_loop(self, start: int, *, select: bool = False) -> For | Select | ArithFor:
        self.i += 6 if select else 3
        self.blanks()
        s, n = self.s, self.n
        if not select and s.startswith("((", self.i, n):
            return self.arith_for(start)
        m = NAME_RE.match(s, self.i, n)
        name = ""
        if m:
            name = m.group()
            self.i = m.end()
        else:
            self.issue(self.i, "expected a loop variable name", incomplete=self.i >= n)
        items: tuple[Word, ...] | None = None
        self.gap()
        if self.peek_reserved() == "in":
            self.i += 2
            words: list[Word] = []
            while not self.st.aborted:
                self.blanks()
                if self.i >= n or s[self.i] in "\n;":
                    break
                if s[self.i] == "#":
                    self.comment()
                    continue
                word = self.word(brace=True)
                if word is None:
                    self.issue(self.i, f"unexpected {s[self.i]!r} in word list")
                    break
                words.append(word)
            items = tuple(words)
        if self.i < n and s[self.i] == ";":
            self.i += 1
        body = self.do_done(start)
        cls = Select if select else For
        return cls(self.sp(start, self.i), name, items, body)

    def arith_for(self, start: int) -> ArithFor:
        self.i += 2
        clauses: list[ArithExp | None] = []
        s = self.s
        for _ in range(3):
            body = self.i
            parts, end, _ok = self.arith_parts("for")
            text = s[body:end]
            clauses.append(ArithExp(self.sp(body, end), text, parts) if text.strip() else None)
            if end >= self.n or s[end] == ")":
                break
        while len(clauses) < 3:
            clauses.append(None)
        self.blanks()
        if self.i < self.n and s[self.i] == ";":
            self.i += 1
        body_stmts = self.do_done(start)
        return ArithFor(self.sp(start, self.i), clauses[0], clauses[1], clauses[2], body_stmts)

    def case(self, start: int) -> Case:
        self.i += 4
        self.blanks()
        subject = self.word()
        if subject is None:
            self.issue(self.i, "expected a word after 'case'", incomplete=self.i >= self.n)
            subject = Word(self.sp(self.i, self.i), ())
        self.gap()
        items: list[CaseItem] = []
        if self.eat_reserved("in", start):
            while not self.st.aborted:
                self.gap()
                if self.i >= self.n or self.peek_reserved() == "esac":
                    break
                item = self.case_item()
                if item is None:
                    break
                items.append(item)
        self.eat_reserved("esac", start)
        return Case(self.sp(start, self.i), subject, tuple(items))

    def case_item(self) -> CaseItem | None:
        s, n = self.s, self.n
        start = self.i
        if s[start] == "(":
            self.i += 1
        patterns: list[Word] = []
        while not self.st.aborted:
            if self.i < n and s[self.i] in " \t\\":  # skip the call when not at a blank
                self.blanks()
            word = self.word()
            if word is None:
                break
            patterns.append(word)
            if self.i < n and s[self.i] in " \t\\":
                self.blanks()
            if self.i < n and s[self.i] == "|":
                self.i += 1
                continue
            break
        if self.i < n and s[self.i] == ")":
            self.i += 1
        else:
            self.issue(self.i, "expected ')' after case pattern", incomplete=self.i >= n)
            if not patterns:
                return None
        body = self.parse_list(_CASE_BODY)
        terminator = None
        for term in (";;&", ";;", ";&"):
            if s.startswith(term, self.i, n):
                terminator = term
                self.i += len(term)
                break
        return CaseItem(self.sp(start, self.i), tuple(patterns), body, terminator)

    def test(self, start: int) -> TestCommand:
        self.i += 2
        s, n = self.s, self.n
        words: list[Word] = []
        while not self.st.aborted:
            if self.i < n and s[self.i] in " \t\\":  # skip the call when not at a blank
                self.blanks()
            i = self.i
            if i >= n:
                self.issue(start, "unclosed '[['", incomplete=True)
                break
            c = s[i]
            if c == "\n":
                self.newline()
                continue
            if c == "]" and s.startswith("]]", i, n) and (i + 2 >= n or s[i + 2] in METACHARS):
                self.i = i + 2
                break
            # An operator: ``&&``, ``||`` or one of ``( ) < > !``.
            if c in _TEST_OP_CHARS:
                op: str | None = c
            elif (c == "&" or c == "|") and i + 1 < n and s[i + 1] == c:
                op = c + c
            else:
                op = None
            if op == "!" and i + 1 < n and s[i + 1] not in " \t\n":
                op = None
            if op is not None and not (op in "<>" and i + 1 < n and s[i + 1] == "("):
                self.i = i + len(op)
                span = self.sp(i, self.i)
                words.append(new_word(span, (new_literal(span, op),)))
                continue
            if words and _is_match_op(words[-1]):
                word = self.regex_word()
            else:
                word = self.word()
            if word is None:
                self.issue(i, f"unexpected {c!r} inside '[[ ]]'")
                self.i = i + 1
                continue
            words.append(word)
        return TestCommand(self.sp(start, self.i), tuple(words))

    def regex_word(self) -> Word | None:
        """The right side of ``=~``: parens, ``|``, ``<`` and ``>`` are regex characters."""
        s, n = self.s, self.n
        start = self.i
        raw: list[RawPart] = []
        depth = 0
        while self.i < n and not self.st.aborted:
            i = self.i
            c = s[i]
            if depth == 0 and (c in " \t\n)" or s.startswith(("&&", "||"), i, n)):
                break
            if c in "(|<>)& \t\n;{},~@!+*?":
                depth += 1 if c == "(" else -1 if c == ")" else 0
                raw.append(Literal(self.sp(i, i + 1), c))
                self.i = i + 1
                continue
            if c in "\\'\"$`":
                self.quote_or_expansion(raw, c, quoted=False)
                continue
            j = i + 1
            while j < n and s[j] not in "(|<>)& \t\n;{},~@!+*?\\'\"$`":
                j += 1
            raw.append(Literal(self.sp(i, j), s[i:j]))
            self.i = j
        if self.i == start:
            return None
        return Word(self.sp(start, self.i), self.merged(raw))

    def function_keyword(self, start: int) -> Command:
        self.i += 8
        self.blanks()
        m = FUNC_NAME_RE.match(self.s, self.i, self.n)
        name = ""
        if m:
            name = m.group()
            self.i = m.end()
        else:
            self.issue(self.i, "expected a function name", incomplete=self.i >= self.n)
        self.blanks()
        if self.s.startswith("(", self.i, self.n):
            save = self.i
            self.i += 1
            self.blanks()
            if self.s.startswith(")", self.i, self.n):
                self.i += 1
            else:
                self.i = save
        self.gap()
        body = self.command()
        if body is None:
            self.issue(self.i, "expected a function body", incomplete=self.i >= self.n)
            body = SimpleCommand(self.sp(self.i, self.i))
        return FunctionDef(self.sp(start, self.local(body.span[1])), name, body, keyword=True)

    def coproc(self, start: int) -> Command:
        self.i += 6
        self.blanks()
        name: str | None = None
        m = NAME_RE.match(self.s, self.i, self.n)
        if m and self.peek_reserved() not in _COMPOUND_START:
            save = self.i
            self.i = m.end()
            self.blanks()
            word = self.peek_reserved()
            nxt = self.s[self.i] if self.i < self.n else ""
            if m.end() < self.n and self.s[m.end()] in " \t" and (
                word in _COMPOUND_START or nxt == "("
            ):
                name = m.group()
            else:
                self.i = save
        body = self.command()
        if body is None:
            self.issue(self.i, "expected a command after 'coproc'", incomplete=self.i >= self.n)
            body = SimpleCommand(self.sp(self.i, self.i))
        return Coproc(self.sp(start, self.local(body.span[1])), name, body)


_Redirectable = If | For | ArithFor | While | Case | Select | TestCommand


def _with_redirects(cmd: _Redirectable, redirects: tuple[Redirect, ...], end: int) -> Command:
    return dataclasses.replace(cmd, span=(cmd.span[0], end), redirects=redirects)
