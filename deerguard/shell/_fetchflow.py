"""Fetched data inside another language's code: the names bound to it (see
:mod:`._fetchrun`, whose readers build on :class:`FetchFlow`).

Every scan is bounded (spots, names, references, windows): linear in the code.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ._code import literals
from ._interp import string_constants

__all__ = ["JS", "MAX", "OPENS", "PARAM", "WINDOW", "FetchFlow", "bare", "first_open", "near_bind",
           "word_before"]

JS = frozenset({"node", "deno", "bun"})
MAX = 32  # spots, sinks, references per round
WINDOW = 2000  # how far a call's arguments are read
_BIND = re.compile(r"[ \t]*(?:(?:const|let|var|my|our|local|val|auto)[ \t]+)?"
                   r"([$@]?[A-Za-z_][\w]*)[ \t]*(?:\+=|\.=|:=|=)(?!=)")
_FOR = re.compile(r"[ \t]*+(?:async[ \t]++)?for[ \t]*+(?:await[ \t]*+)?\(?[ \t]*+"
                  r"(?:(?:const|let|var|my)[ \t]++)?"
                  r"([$]?[A-Za-z_]\w*)[ \t]++(?:in|of)\b")
_AS = re.compile(r"\bas[ \t]+([A-Za-z_]\w*)")
PARAM = re.compile(r"[ \t\n]*(?:async[ \t]*)?(?:\([ \t]*([A-Za-z_$][\w$]*)[^()]{0,80}\)"
                    r"|([A-Za-z_$][\w$]*))[ \t]*=>"
                    r"|[ \t\n]*(?:async[ \t]+)?function[ \t]*\w*[ \t]*\([ \t]*([A-Za-z_$][\w$]*)"
                    r"|[ \t\n]*(?:\{|do)[ \t]*\|[ \t]*(\w+)")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
OPENS = re.compile(r"(open|fopen|Path|createWriteStream)[ \t]*\(")  # File.open is open


def word_before(text: str, pos: int, floor: int = 0) -> tuple[str, int]:
    """The identifier (``$`` allowed) ending at ``pos`` once spaces are skipped back, and
    where it starts; a bounded backward walk."""
    j = pos
    lo = max(floor, pos - 64)
    while j > lo and text[j - 1] in " 	":
        j -= 1
    end = j
    while j > lo and (text[j - 1].isalnum() or text[j - 1] in "_$"):
        j -= 1
    return text[j:end], j


def bare(text: str, pos: int) -> bool:
    """No identifier character right before ``pos`` (a match is a whole name)."""
    return pos == 0 or not (text[pos - 1].isalnum() or text[pos - 1] in "_$")


def first_open(text: str, start: int, end: int) -> re.Match[str] | None:
    """The first file-opening call (``open(``, ``Path(``, ``createWriteStream(``) in
    ``text[start:end]`` (not ``urlopen(``)."""
    for count, m in enumerate(OPENS.finditer(text, start, end)):
        if bare(text, m.start()):
            return m
        if count >= 8:
            break
    return None


def near_bind(text: str, pos: int, floor: int) -> str | None:
    """``NAME = `` (or ``+=``, ``.=``, ``:=``; ``await``, ``new`` and ``(`` skipped) right
    before ``pos``: NAME."""
    j = pos
    lo = max(floor, pos - 120)
    for _ in range(8):
        while j > lo and text[j - 1] in " 	(":
            j -= 1
        word, k = word_before(text, j, lo)
        if word not in ("await", "new"):
            break
        j = k
    if j <= lo or text[j - 1] != "=":
        return None
    j -= 1
    if j > lo and text[j - 1] in "+.:":
        j -= 1
    elif j > lo and text[j - 1] in "=!<>":
        return None
    name, _k = word_before(text, j, lo)
    return name if name and not name[0].isdecimal() and name != "$" else None


class FetchFlow:
    """Fetched data in one code string: the names bound to it, where they are used."""

    def __init__(self, text: str, language: str, spots: list[int]) -> None:
        self.text = text
        self.language = language
        lits = literals(text, language in ("perl", "ruby", "php") or language in JS)
        self.lits = {s: (e, v) for s, e, v in lits[:1024]}
        self.lit_starts = sorted(self.lits)
        self.spots = spots
        self.names: set[str] = set()
        self.refs: list[int] = []  # start of each reference to a bound name
        self.ref_ends: dict[int, int] = {}
        self.consts: dict[str, str] | None = None
        self._propagate()

    # --- names bound to fetched data -----------------------------------------------------

    def _propagate(self) -> None:
        new = self._bound_at([(self._callee_start(s), s) for s in self.spots])
        for _ in range(4):
            room = 48 - len(self.names)
            new = set(sorted(new - self.names)[:room])  # by name: the same set under any seed
            if not new:
                break
            self.names |= new
            # No leading lookbehind (it would defeat the regex engine's literal-prefix scan):
            # the character before each match is checked by hand.
            pattern = re.compile("(?:" + "|".join(
                re.escape(n) for n in sorted(new, key=len, reverse=True)) + r")(?![\w])")
            found: list[tuple[int, int]] = []
            text = self.text
            for m in pattern.finditer(text):
                at = m.start()
                if at and (text[at - 1].isalnum() or text[at - 1] in "_$@."):
                    continue
                if not self._in_literal(at):
                    found.append((m.start(), m.end()))
                    if len(found) >= MAX * 2:
                        break
            for s, e in found:
                self.ref_ends[s] = e
            self.refs = sorted({*self.refs, *(s for s, _e in found)})
            new = self._bound_at(found)

    def _callee_start(self, paren: int) -> int:
        """Start of the dotted callee chain ending at the ``(`` at ``paren``."""
        j = paren
        floor = max(0, paren - 120)
        while j > floor and self.text[j - 1] in " \t":
            j -= 1
        while j > floor and (self.text[j - 1].isalnum() or self.text[j - 1] in "_.$:>-"):
            j -= 1
        return j

    def _bound_at(self, items: list[tuple[int, int]]) -> set[str]:
        """Names bound to the expressions starting at each item's first offset
        (assignments, ``with .. as``, ``for .. in``), and the callback parameters of the
        call chain at its second offset."""
        out: set[str] = set()
        text = self.text
        for start, chain in items:
            head_start = self._statement_start(start)
            head = text[head_start:start]
            near = near_bind(text, start, head_start)
            bind = _BIND.match(head) if near is None else None
            if near is not None and self._whole(start, self._end(start)):
                out.add(near)
            elif bind is not None and self._whole(head_start + bind.end(), self._end(start)):
                out.add(bind.group(1))
            loop = _FOR.match(head)
            if loop is not None:
                out.add(loop.group(1))
            line_end = text.find("\n", start)
            line_end = len(text) if line_end < 0 else line_end
            if head.lstrip(" \t").startswith(("with ", "async with ")):
                alias = _AS.search(text, start, line_end)
                if alias is not None:
                    out.add(alias.group(1))
            out.update(self._chain_params(chain))
        return out

    def _chain_params(self, pos: int) -> list[str]:
        """Parameters of callbacks in the call chain at ``pos`` (``(u, res => ..)``,
        ``.then(r => ..)``, ``.on('data', c => ..)``, Ruby ``{ |b| .. }``)."""
        text = self.text
        out: list[str] = []
        for _ in range(8):
            while pos < len(text) and text[pos] in " \t\n" and pos < len(text):
                pos += 1
            if text[pos:pos + 1] == "(":
                args, close = self._args(pos)
                for a, _b in args:
                    m = PARAM.match(text, a)
                    if m is not None:
                        out.extend(g for g in m.groups() if g)
                if close < 0:
                    break
                pos = close + 1
            elif text[pos:pos + 1] == "." or text[pos:pos + 2] == "?.":
                m = _IDENT.match(text, pos + (2 if text[pos] == "?" else 1))
                if m is None:
                    break
                pos = m.end()
            else:
                m = PARAM.match(text, pos)
                if m is not None and m.group(4):
                    out.append(m.group(4))  # Ruby block: URI.open(u) { |f| .. }
                break
        return out

    def _statement_start(self, pos: int) -> int:
        floor = max(0, pos - 200)
        return max(self.text.rfind(";", floor, pos), self.text.rfind("\n", floor, pos),
                   self.text.rfind("{", floor, pos), floor - 1) + 1

    def _end(self, pos: int) -> int:
        """End of the statement holding ``pos`` (its line, or its ``;``)."""
        ends = [e for e in (self.text.find("\n", pos), self.text.find(";", pos)) if e >= 0]
        return min(ends) if ends else len(self.text)

    # --- helpers on the text ---------------------------------------------------------------

    def _in_literal(self, pos: int) -> bool:
        k = bisect_left(self.lit_starts, pos + 1) - 1
        return k >= 0 and pos < self.lits[self.lit_starts[k]][0]

    def _args(self, open_pos: int) -> tuple[list[tuple[int, int]], int]:
        """Top-level argument spans of the call whose ``(`` is at ``open_pos``, and where
        its ``)`` is (-1 past the window)."""
        text = self.text
        args: list[tuple[int, int]] = []
        depth = 0
        start = open_pos + 1
        j = start
        limit = min(len(text), open_pos + WINDOW)
        while j < limit:
            if j in self.lits:
                j = self.lits[j][0]
                continue
            c = text[j]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    if text[start:j].strip():
                        args.append((start, j))
                    return args, j
                depth -= 1
            elif c == "," and depth == 0:
                args.append((start, j))
                start = j + 1
            j += 1
        return args, -1

    def _whole(self, start: int, end: int) -> bool:
        """The expression ``text[start:end]`` is data itself, not a literal with data
        formatted in: no literal, list or dict at its top level."""
        text = self.text
        j = start
        while j < end and text[j] in " \t\n":
            j += 1
        if j >= end or text[j] in "[{":
            return False
        depth = 0
        while j < end:
            if j in self.lits:
                if depth == 0:
                    return False
                j = self.lits[j][0]
                continue
            c = text[j]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and c in "'\"`" :
                return False  # f"..", an unterminated literal
            j += 1
        return True

    def _tainted(self, start: int, end: int) -> bool:
        """A fetch call or a reference to a bound name lies in ``[start, end)``."""
        for seq in (self.spots, self.refs):
            k = bisect_left(seq, start)
            if k < len(seq) and seq[k] < end:
                return True
        return False

    def _literal(self, start: int, end: int) -> str | None:
        """The value of the lone literal (or constant name) spanning ``[start, end)``."""
        text = self.text
        while start < end and text[start] in " \t\n":
            start += 1
        while end > start and text[end - 1] in " \t\n":
            end -= 1
        if start in self.lits and self.lits[start][0] == end:
            value = self.lits[start][1][1:]
            return value if value[:1] != "`" else None
        m = _IDENT.fullmatch(text, start, end)
        if m is not None:
            return self._consts().get(m.group())
        if text[start:end].startswith("out=") or text[start:end].startswith("filename="):
            return self._literal(start + text[start:end].index("=") + 1, end)
        return None

    def _consts(self) -> dict[str, str]:
        if self.consts is None:
            raw = tuple((s, e, v) for s, (e, v) in self.lits.items())
            self.consts = string_constants(self.text, raw)
        return self.consts
