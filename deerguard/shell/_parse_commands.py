"""Command-level parsing: lists, and-or, pipelines, simple commands, redirections.

Compound commands (``if``, loops, ``case``, groups...) live in ``_parse_compound``.
"""

from __future__ import annotations

import re

from deerguard.shell._lexer import (
    ANY_ARG_RE,
    DECL_ARRAY_RE,
    NAME_WORD_RE,
    PLAIN_ARGS_RE,
    RESERVED,
)
from deerguard.shell._parse_assign import AssignRedirectParser
from deerguard.shell._parse_nodes import (
    new_literal,
    new_simple,
    new_single,
    new_statement,
    new_word,
    plain_word,
)
from deerguard.shell.ast import (
    AndOr,
    Assignment,
    Command,
    DoubleQuoted,
    FunctionDef,
    Literal,
    Pipeline,
    Redirect,
    SimpleCommand,
    Statement,
    Word,
    WordPart,
)

_STRAY = (";;&", ";;", ";&", "&&", "||", "|&", "|", "&", ";", ")")
_COMPOUND_WORDS = frozenset(
    {"{", "if", "for", "while", "until", "case", "select", "[[", "function", "coproc"}
)
_REDIRECT_START = frozenset("<>&{0123456789")
_DECLARATIONS = frozenset({"declare", "typeset", "local", "export", "readonly"})
_CLOSERS = frozenset({"}", "fi", "then", "else", "elif", "do", "done", "esac"})
_FUNC_NAME_BAD_RE = re.compile(r"[=$`'\"\\]")  # characters no ``name()`` definition may hold


class CommandParser(AssignRedirectParser):
    """Statements and simple commands; compound commands come from a subclass."""

    def compound(self, word: str | None) -> Command | None:
        raise NotImplementedError

    # --- lists ----------------------------------------------------------------------------

    def parse_list(self, stops: frozenset[str]) -> tuple[Statement, ...]:
        """Statements until end of input or a token in ``stops`` (or an enclosing stop)."""
        stmts: list[Statement] = []
        st = self.st
        st.depth += 1  # ``enter()`` inlined for the common case (within the limit)
        if st.depth > st.max_depth or st.aborted:
            st.depth -= 1
            if not self.enter():
                self.leave()
                return ()
        active = self.stops
        for stop in stops:
            active[stop] = active.get(stop, 0) + 1
        s = self.s
        while True:
            i = self.i
            if i < self.n and s[i] in " \t\\\n#":  # skip the call when not at a gap
                self.gap()
            if self.i >= self.n or self.st.aborted or (active and self.at_stop()):
                break
            before = self.i
            stmt = self.statement()
            if stmt is None:
                stmt = self.stray()
            stmts.append(stmt)
            if self.i == before:  # defensive: never loop without progress
                self.i += 1
        active = self.stops  # a backtick body swaps in its own table while it is parsed
        for stop in stops:
            left = active[stop] - 1
            if left:
                active[stop] = left
            else:
                del active[stop]  # an empty table means no enclosing stops at all
        self.leave()
        if self.st.aborted:
            self.i = self.n
        return tuple(stmts)

    def at_stop(self) -> bool:
        s, i = self.s, self.i
        c = s[i]
        if c == ")":
            return ")" in self.stops
        if c == ";" and i + 1 < self.n and s[i + 1] in ";&":
            return ";;" in self.stops
        word = self.peek_reserved()
        return word is not None and word in self.stops

    def stray(self) -> Statement:
        """An unexpected operator at statement start: kept as an empty command, reported."""
        start = self.i
        if start >= self.n:  # defensive: nothing left to report
            return Statement(self.sp(start, start), SimpleCommand(self.sp(start, start)))
        tok = next((t for t in _STRAY if self.s.startswith(t, start, self.n)), self.s[start])
        self.issue(start, f"syntax error near unexpected token '{tok}'")
        self.i = start + len(tok)
        return Statement(self.sp(start, self.i), SimpleCommand(self.sp(start, self.i)))

    def statement(self) -> Statement | None:
        start = self.i
        cmd = self.and_or()
        if cmd is None:
            return None
        if self.i < self.n and self.s[self.i] in " \t\\":  # skip the call when not at a blank
            self.blanks()
        s, n, i = self.s, self.n, self.i
        term: str | None = None
        end = i
        if i < n:
            c = s[i]
            nxt = s[i + 1] if i + 1 < n else ""
            if c == ";" and nxt != ";" and nxt != "&":
                term, end = ";", i + 1
                self.i = end
            elif c == "&" and nxt != "&" and nxt != ">":
                term, end = "&", i + 1
                self.i = end
            elif c == "\n":
                term = "\n"
                self.newline()
                if self.st.aborted:
                    # Nesting overflowed in a heredoc body read at this newline: like every
                    # level open at an abort, the statement ends at the input's end.
                    return new_statement(self.sp(start, self.n), cmd, term)
        if self.posmap is None:
            base = self.base
            if term is None or term == "\n":
                return new_statement((base + start, cmd.span[1]), cmd, term)
            return new_statement((base + start, base + end), cmd, term)
        if term is None or term == "\n":
            end = self.local(cmd.span[1])
        return new_statement(self.sp(start, end), cmd, term)

    def and_or(self) -> Command | None:
        start = self.i
        first = self.pipeline()
        if first is None:
            return None
        s, n, st = self.s, self.n, self.st
        if not st.aborted:  # fast exit: no ``&&``/``||`` follows (most statements)
            at = self.i
            if at < n and s[at] in " \t\\":
                self.blanks()
                at = self.i
            if at + 1 >= n or (s[at] != "&" and s[at] != "|") or s[at + 1] != s[at]:
                return first
        cmds: list[Command] = [first]
        ops: list[str] = []
        while not st.aborted:
            at = self.i
            if at < n and s[at] in " \t\\":  # skip the call when not at a blank
                self.blanks()
                at = self.i
            if at + 1 >= n:
                break
            c = s[at]
            if (c != "&" and c != "|") or s[at + 1] != c:
                break
            op = c + c
            self.i = at + 2
            if at + 2 < n and s[at + 2] in " \t\\\n#":
                self.gap()
            nxt = self.pipeline()
            if nxt is None:
                self.issue(at, f"expected a command after '{op}'", incomplete=self.i >= self.n)
                nxt = SimpleCommand(self.sp(at + 2, at + 2))  # keeps the operator covered
                cmds.append(nxt)
                ops.append(op)
                break
            cmds.append(nxt)
            ops.append(op)
        if len(cmds) == 1:
            return first
        return AndOr(self.sp(start, self.local(cmds[-1].span[1])), tuple(cmds), tuple(ops))

    def pipeline(self) -> Command | None:
        start = self.i
        negated = timed = False
        while self.i < self.n and self.s[self.i] in "t!":  # ``time`` and ``!`` prefixes
            word = self.peek_reserved()
            if word == "time":  # ``time time cmd`` is valid bash
                timed = True
                self.i += 4
                self.blanks()
                for opt in ("-p", "--"):  # ``time -p -- cmd``: bash takes both, in order
                    if self.s.startswith(opt, self.i, self.n) and (
                        self.i + 2 >= self.n or self.s[self.i + 2] in " \t\n;&|"
                    ):
                        self.i += 2
                        self.blanks()
            elif word == "!":
                negated = not negated
                self.i += 1
                self.blanks()
            else:
                break
        first = self.command()
        if first is None:
            if self.i == start:
                return None
            # ``time`` / ``!`` with no command: keep the prefix covered by a node.
            first = SimpleCommand(self.sp(self.i, self.i))
            negated = negated or not timed
        s, n, st = self.s, self.n, self.st
        if not negated and not timed and not st.aborted:  # fast exit: no ``|`` follows
            i = self.i
            if i < n and s[i] in " \t\\":
                self.blanks()
                i = self.i
            if i >= n or s[i] != "|":
                return first
        cmds: list[Command] = [first]
        ops: list[str] = []
        while not st.aborted:
            i = self.i
            if i < n and s[i] in " \t\\":  # skip the call when not at a blank
                self.blanks()
                i = self.i
            if i >= n or s[i] != "|":
                break
            nxt_char = s[i + 1] if i + 1 < n else ""
            if nxt_char == "|":
                break
            op = "|&" if nxt_char == "&" else "|"
            j = self.i = i + len(op)
            if j < n and s[j] in " \t\\\n#":
                self.gap()
                j = self.i
            if j < n and s[j] == "!" and self.peek_reserved() == "!":
                self.issue(self.i, "syntax error near unexpected token '!'")
            nxt = self.command()
            if nxt is None:
                self.issue(i, f"expected a command after '{op}'", incomplete=self.i >= self.n)
                nxt = SimpleCommand(self.sp(i + len(op), i + len(op)))
                cmds.append(nxt)
                ops.append(op)
                break
            cmds.append(nxt)
            ops.append(op)
        if len(cmds) == 1 and not negated and not timed:
            return first
        end = self.local(cmds[-1].span[1])
        return Pipeline(self.sp(start, end), tuple(cmds), tuple(ops), negated, timed)

    def command(self) -> Command | None:
        if self.i >= self.n or self.st.aborted:
            return None
        c = self.s[self.i]
        if c in "\n;&|)":
            if c == "&" and self.s.startswith("&>", self.i, self.n):
                return self.simple()
            return None
        word = self.peek_reserved()
        if c == "(" or word in _COMPOUND_WORDS:
            found = self.compound(word if c != "(" else "(")
            if found is not None:
                return found
        elif word in _CLOSERS:
            self.issue(self.i, f"syntax error near unexpected reserved word '{word}'")
        return self.simple()

    # --- simple commands ------------------------------------------------------------------

    def simple(self) -> Command:
        s, n = self.s, self.n
        start = self.i
        assigns: list[Assignment] = []
        words: list[Word] = []
        redirs: list[Redirect] = []
        declaration = False
        base, posmap = self.base, self.posmap
        any_arg = ANY_ARG_RE.match
        m = NAME_WORD_RE.match(s, start, n)
        if m is not None:
            # Fast path: a plain command name (not an assignment; reserved words were
            # already taken by ``command``).
            a, b = m.span()
            span = (base + a, base + b) if posmap is None else self.sp(a, b)
            words.append(plain_word(span, m.group()))
            declaration = m.group() in _DECLARATIONS
            self.i = b
        while not self.st.aborted:
            if words and not declaration:
                # Fast paths: most arguments are plain words (no quotes, expansions, braces)
                # or one quoted string with nothing to expand ("a b" or 'a b').
                add = words.append
                i = self.i
                while True:
                    m = any_arg(s, i, n)
                    if m is None:
                        break
                    a, b = m.span(1)
                    if a >= 0:
                        span = (base + a, base + b) if posmap is None else self.sp(a, b)
                        add(plain_word(span, m.group(1)))
                        i = b
                        if b - start > 128 and posmap is None and b < n and s[b] == " ":
                            # A long command: take the rest of its run of plain arguments in
                            # one match (that costs more than it saves on a few arguments).
                            i = self.plain_args(words, b)
                        continue
                    if posmap is not None:
                        break
                    a, b = m.span(2)
                    span = (base + a, base + b)
                    text = m.group(2)
                    if text[0] == "'":
                        part: WordPart = new_single(span, text[1:-1])
                    else:
                        inner = (base + a + 1, base + b - 1)
                        body = (new_literal(inner, text[1:-1]),) if b - a > 2 else ()
                        part = DoubleQuoted(span, body)
                    add(new_word(span, (part,)))
                    i = b
                self.i = i
            if self.i < self.n and self.s[self.i] in " \t\\":  # skip the call when not at a blank
                self.blanks()
            i = self.i
            if i >= n:
                break
            c = s[i]
            if c in "\n;|)" or (c == "&" and not s.startswith("&>", i, n)):
                break
            if c == "(":
                if len(words) == 1 and not assigns and not redirs:
                    func = self.function_parens(start, words[0])
                    if func is not None:
                        return func
                self.issue(i, "syntax error near unexpected token '('")
                break
            if c == "#":
                break  # a comment ends the command; the list reads it
            red = self.redirect() if c in _REDIRECT_START else None
            if red is not None:
                redirs.append(red)
                continue
            if not words:
                assign = self.assignment()
                if assign is not None:
                    assigns.append(assign)
                    continue
            elif declaration and DECL_ARRAY_RE.match(s, i, n):
                words.append(self.declaration_array())
                continue
            word = self.word(brace=True)
            if not words and word is not None and len(word.parts) == 1:
                first = word.parts[0]
                declaration = isinstance(first, Literal) and first.value in _DECLARATIONS
            if word is None:  # defensive: a delimiter we did not expect
                self.issue(i, f"unexpected character {s[i]!r}")
                self.i = i + 1
                continue
            words.append(word)
        begin = base + start if posmap is None else self.abs(start)
        end = words[-1].span[1] if words else begin
        if assigns and assigns[-1].span[1] > end:
            end = assigns[-1].span[1]
        if redirs and redirs[-1].span[1] > end:
            end = redirs[-1].span[1]
        return new_simple(
            (begin, end),
            tuple(assigns) if assigns else (),
            tuple(words),
            tuple(redirs) if redirs else (),
        )

    def plain_args(self, words: list[Word], i: int) -> int:
        """Append the run of plain arguments at ``i`` (each after one space) to ``words``.

        Returns where the run ends (``i`` when there is none). One match and one split give
        the words ``ANY_ARG_RE`` would match one by one (group 1), offsets from their lengths;
        a run with tabs or several spaces in a gap is left to that loop.
        """
        s, base = self.s, self.base
        run = PLAIN_ARGS_RE.match(s, i, self.n)
        if run is None:
            return i
        text = run.group()
        if "\t" in text or "  " in text:
            return i
        add = words.append
        pos = i + 1
        for arg in text[1:].split(" "):
            end = pos + len(arg)
            add(plain_word((base + pos, base + end), arg))
            pos = end + 1
        return run.end()

    def function_parens(self, start: int, name_word: Word) -> Command | None:
        name = name_word.literal_value()
        if not name or _FUNC_NAME_BAD_RE.search(name) or name in RESERVED:
            return None
        save = self.i
        self.i += 1
        self.blanks()
        if self.i >= self.n or self.s[self.i] != ")":
            self.i = save
            return None
        self.i += 1
        self.gap()
        body = self.command()
        if body is None:
            self.issue(self.i, "expected a function body", incomplete=self.i >= self.n)
            body = SimpleCommand(self.sp(self.i, self.i))
        elif isinstance(body, SimpleCommand):
            self.issue(self.local(body.span[0]), "function body is not a compound command")
        return FunctionDef(self.sp(start, self.local(body.span[1])), name, body)

    def finish(self) -> None:
        for item in self.pending:
            self.issue(self.i, f"here-document '{item.delimiter}' has no body", incomplete=True)
            self.fill_heredoc(item, self.i, self.i, False)
        self.pending = []


__all__ = ["CommandParser", "Literal"]
