"""Shared state and low-level scanning for the shell parser (positions, issues, heredocs).

A parser instance reads one string ``s`` between ``i`` and ``n``; ``base`` maps its offsets to
the original source (non-zero only for the re-parsed body of a backtick substitution).
``n`` is temporarily lowered to parse a bounded region (an array index, a heredoc body) in
place, so no text is ever copied or re-scanned.
"""

from __future__ import annotations

import sys
from bisect import bisect_left
from dataclasses import dataclass

from deerguard.shell._lexer import COMMENT_END_RE, RESERVED_RE
from deerguard.shell.ast import Comment, ParseIssue, Redirect, Span, Statement

# First characters of every reserved word (a cheap filter before the regex).
_RESERVED_FIRST = frozenset("iteufwdcs{}[!")

# Python frames used per nesting level, worst case (list -> statement -> and-or -> pipeline ->
# command -> simple -> word -> dollar -> substitution -> list). Used to keep recursion far
# below the interpreter's limit whatever the caller's stack depth.
FRAMES_PER_LEVEL = 12
# The nesting limit: fixed, so a command parses the same wherever it is parsed from (and in
# the pure-Python and mypyc-compiled builds alike). Only a caller that leaves less Python
# stack than MAX_DEPTH levels need (about 600 frames) gets a lower limit instead of a
# RecursionError.
MAX_DEPTH = 48


def _stack_room() -> int:
    """Python frames still available below the recursion limit, with a safety margin."""
    depth = 0
    frame = sys._getframe()
    while frame is not None and depth < 100_000:
        depth += 1
        frame = frame.f_back  # type: ignore[assignment]
    return max(0, sys.getrecursionlimit() - depth - 100)


class State:
    """Mutable bookkeeping shared by a parser and its backtick sub-parsers."""

    __slots__ = (
        "max_depth", "budget_checked", "issues", "comments", "depth", "aborted", "not_arith"
    )  # fmt: skip

    def __init__(self) -> None:
        # A plain class (not a dataclass): built once per parse, so its cost is per command.
        self.max_depth = 16  # raised once, after measuring the real stack room (enter())
        self.budget_checked = False
        self.issues: list[ParseIssue] = []
        self.comments: list[Comment] = []
        self.depth = 0
        self.aborted = False
        self.not_arith: set[int] = set()


@dataclass(slots=True)
class Pending:
    """A heredoc whose body starts after the current line: filled in at the next newline."""

    redirect: Redirect
    delimiter: str
    quoted: bool
    strip_tabs: bool


class Base:
    """Cursor, issue reporting, depth accounting and whitespace/comment skipping."""

    def __init__(self, source: str, state: State, base: int = 0) -> None:
        self.s = source
        self.n = len(source)
        self.i = 0
        self.base = base
        # For a backtick body with escapes removed: source offset of each local offset.
        self.posmap: list[int] | None = None
        self.st = state
        self.pending: list[Pending] = []
        self.stops: dict[str, int] = {}
        self.in_subst = 0  # how many $( ) / <( ) bodies enclose the cursor
        # Extglob paren matching memo per region end: (matches, scanned from, scanned to).
        self.paren_memo: dict[int, tuple[dict[int, int], int, int]] = {}
        self._peek_i = -1  # memo of peek_reserved: cursor and region end it answered for
        self._peek_n = -1
        self._peek_val: str | None = None

    # --- helpers --------------------------------------------------------------------------

    def abs(self, pos: int) -> int:
        """Source offset of local offset ``pos``."""
        m = self.posmap
        return self.base + pos if m is None else m[min(pos, len(m) - 1)]

    def local(self, pos: int) -> int:
        """Local offset of source offset ``pos`` (inverse of ``abs``)."""
        m = self.posmap
        return pos - self.base if m is None else bisect_left(m, pos)

    def sp(self, start: int, end: int) -> Span:
        m = self.posmap
        if m is None:
            return (self.base + start, self.base + end)
        # An end offset maps just past its last character, not to the next kept one; an
        # empty span sits just past the character before it too (not at the next kept one,
        # which may lie past an enclosing node's end: `\`()&&\`` ends in an empty command).
        last = len(m) - 1
        if end > start:
            return (m[min(start, last)], m[min(end - 1, last)] + 1)
        at = m[min(start - 1, last)] + 1 if start > 0 else m[0]
        return (at, at)

    def issue(self, pos: int, message: str, *, incomplete: bool = False) -> None:
        if self.st.aborted:
            return
        self.st.issues.append(ParseIssue(self.abs(pos), message, incomplete))

    def enter(self) -> bool:
        """Count one nesting level; on overflow record an issue and abort the parse."""
        st = self.st
        st.depth += 1
        if st.depth > st.max_depth and not st.budget_checked:
            st.budget_checked = True
            st.max_depth = min(MAX_DEPTH, st.depth - 1 + _stack_room() // FRAMES_PER_LEVEL)
        if st.depth > st.max_depth and not st.aborted:
            message = f"nesting deeper than {st.max_depth} levels; rest not parsed"
            self.issue(min(self.i, self.n), message)
            st.aborted = True
        if st.aborted:
            self.i = self.n
            return False
        return True

    def leave(self) -> None:
        self.st.depth -= 1

    def peek_reserved(self) -> str | None:
        # Asked several times at each command start (stop check, pipeline, command): memo.
        i = self.i
        n = self.n
        if i >= n or self.s[i] not in _RESERVED_FIRST:
            return None
        if i == self._peek_i and n == self._peek_n:
            return self._peek_val
        m = RESERVED_RE.match(self.s, i, n)
        self._peek_i = i
        self._peek_n = n
        self._peek_val = m.group() if m else None
        return self._peek_val

    def eat_reserved(self, word: str, opener: int) -> bool:
        """Consume reserved ``word`` at the cursor, or report it missing."""
        if self.peek_reserved() == word:
            self.i += len(word)
            return True
        if self.i >= self.n:
            self.issue(self.i, f"expected '{word}' before end of input", incomplete=True)
        else:
            self.issue(self.i, f"expected '{word}' (construct opened at {self.abs(opener)})")
        return False

    # --- whitespace, newlines, comments, heredocs -----------------------------------------

    def blanks(self) -> None:
        s, n = self.s, self.n
        i = self.i
        if i >= n or s[i] not in " \t\\":
            return
        while i < n:
            c = s[i]
            if c == " " or c == "\t":
                i += 1
            elif c == "\\" and i + 1 < n and s[i + 1] == "\n":
                i += 2
            else:
                break
        self.i = i

    def gap(self) -> None:
        """Skip blanks, newlines (reading due heredoc bodies) and comments."""
        s, st = self.s, self.st
        while not st.aborted:
            i = self.i
            n = self.n
            while i < n:  # ``blanks()`` inlined: one call less per statement
                c = s[i]
                if c == " " or c == "\t":
                    i += 1
                elif c == "\\" and i + 1 < n and s[i + 1] == "\n":
                    i += 2
                else:
                    break
            self.i = i
            if i >= n:
                return
            c = s[i]
            if c == "\n":
                self.newline()
            elif c == "#":
                self.comment()
            else:
                return

    def comment(self) -> None:
        start = self.i
        m = COMMENT_END_RE.match(self.s, start + 1, self.n)
        end = m.end() if m else self.n
        self.st.comments.append(Comment(self.sp(start, end), self.s[start + 1 : end]))
        self.i = end

    def newline(self) -> None:
        self.i += 1
        if self.pending:
            self.read_heredocs()

    def read_heredocs(self) -> None:
        pending, self.pending = self.pending, []
        s, n = self.s, self.n
        for item in pending:
            body_start = pos = self.i
            body_end = -1
            after = n
            while pos < n:
                e = s.find("\n", pos, n)
                line_end = n if e < 0 else e
                line = s[pos:line_end]
                if item.strip_tabs:
                    line = line.lstrip("\t")
                if line == item.delimiter:
                    body_end = pos
                    after = n if e < 0 else e + 1
                    break
                if self.in_subst and line.startswith(item.delimiter):
                    # Inside $( ), bash also ends the body at a line ``DELIM)`` (with
                    # optional blanks) and the ``)`` closes the substitution.
                    rest = line[len(item.delimiter) :].lstrip(" \t")
                    if rest.startswith(")"):
                        body_end = pos
                        after = line_end - len(rest)
                        break
                pos = n if e < 0 else e + 1
            terminated = body_end >= 0
            if not terminated:
                body_end = n
                self.issue(
                    body_start,
                    f"here-document delimited by end of input (wanted '{item.delimiter}')",
                    incomplete=True,
                )
            self.fill_heredoc(item, body_start, body_end, terminated)
            self.i = after

    def fill_heredoc(self, item: Pending, start: int, end: int, terminated: bool) -> None:
        raise NotImplementedError

    def body_stmt(self, stops: frozenset[str]) -> tuple[Statement, ...]:
        raise NotImplementedError
