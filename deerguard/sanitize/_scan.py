"""The hand scanner behind :func:`neutralize`: finds forgeries and plans per-character escapes.

Every rewrite is per character: a bracket becomes an HTML character reference (``<`` ->
``&lt;``, ``>`` -> ``&gt;``, a look-alike bracket ``‹`` -> ``&#x2039;``, ``[`` -> ``&#x5B;``),
the backslashes of a JSON-escaped bracket (``\\u003c``) become ``&#x5C;``, an invisible
character inside a forgery or a hidden payload becomes its visible reference
(``&#x200B;``, ``&#xE0041;``), and an ``&`` inside a forgery becomes ``&amp;`` (so a
replacement never reads as a different entity), the first letter of a boundary marker becomes its
reference (``END USER INPUT`` -> ``&#x45;ND USER INPUT``). So ``html.unescape`` of each
replacement gives back the original characters: nothing visible is dropped. Replacement
text holds no trigger character, which makes the rewrite idempotent.

The scanner visits trigger characters only (found by one compiled character class), does
bounded work per trigger and never revisits a span: linear time. Runs of brackets and of
hidden characters are read in bulk (one regex match, one dict update), so attack-dense text
costs little more per character than prose. The name reader it builds on (spaces, brackets,
name words, tag ends) and the compiled profile are in ``_reader``; its patterns and
one-character tests in ``_scanpat``.
"""

from __future__ import annotations

import unicodedata

from ._chars import (
    LT_CHARS,
    PIPE_CHARS,
    char_skeleton,
    is_ignorable,
    is_tag_block,
    is_variation_selector,
)
from ._escapes import json_escape_at, written_in_capitals
from ._markers import MARKER_CHUNK, fences_side, marker_chunks
from ._plan import (
    BRACKET_CLOSE,
    BRACKET_OPEN,
    BRACKETS,
    RULE_HIDDEN,
    RULE_MARKER,
    RULE_TAG,
    RULE_TOKEN,
    Plan,
    Region,
    ncr,
    plan_fail_closed,
    revealable,
)
from ._reader import Compiled, Reader, compile_profile
from ._scanpat import (
    ASCII_NAME,
    ESCAPE_RUN,
    FLOOD,
    FLOOD_NEXT,
    JSON_FENCE_BEFORE,
    ONE_WORD,
    SHOWN_TAG,
    SPACES,
    TAG_RUN,
    TRIGGER,
    UNTAG,
    VARIATION_RUN,
    VS_BYTE,
    blank_or_mark,
    ends_bracket,
    ends_lt,
)

__all__ = ["Compiled", "Plan", "Region", "compile_profile", "plan", "plan_fail_closed", "ncr"]

_FLAG_BASE = "\U0001f3f4"
_CANCEL_TAG = "\U000e007f"

_MAX_WORDS = 32  # whitespace-separated words in a token name
_MARKER_TIMEOUT = 2.0  # seconds for the marker pattern on one input; fails closed after

class _Scanner(Reader):
    """Finds forgeries and hidden payloads and plans their per-character rewrite."""

    __slots__ = ("plan",)

    def __init__(self, text: str, compiled: Compiled) -> None:
        super().__init__(text, compiled)
        self.plan = Plan()

    # -- rules ------------------------------------------------------------------------
    def escape_span(self, start: int, end: int) -> None:
        """Escape brackets and reveal invisibles in ``text[start:end]`` (per character)."""
        text, subs = self.text, self.plan.subs
        for m in ESCAPE_RUN.finditer(text, start, end):
            a, b = m.span()
            if b - a == 1 and text[a] != "\\":
                subs[a] = ncr(text[a])
                continue
            if text[a] != "\\":
                subs.update(zip(range(a, b), map(ncr, text[a:b]), strict=True))
                continue
            # a backslash run is read once (linear); its backslashes are shown when it ends
            # in an escaped bracket; the escape's letters and digits need no reference
            _after, char = json_escape_at(text, a)
            if char is not None and char in BRACKETS:
                j = a
                while text[j] == "\\":
                    subs[j] = ncr("\\")
                    j += 1

    def add(self, rule: str, start: int, end: int, message: str) -> None:
        self.escape_span(start, end)
        self.plan.regions.append(Region(rule, start, end, message))

    def at_lt(self, start: int, after: int) -> int:
        """Handle an opening bracket at ``[start, after)``; return where scanning resumes."""
        text, c = self.text, self.c
        m = ASCII_NAME.match(text, after)
        if m is not None and self._plain_ascii_tag(
            m.group(1).lower(), m.start(1) + len(m.group(1))
        ):
            return m.start(1) + len(m.group(1))
        k = self.skip_space(after)
        # <<SYS>> / <</SYS>>
        inner = self.lt_at(k)
        if inner != -1:
            j = self.skip_space(inner)
            slash = self.slash_at(j)
            if slash != -1:
                j = self.skip_space(slash)
            for name_end, name, _, _ in self.read_words(j, _MAX_WORDS):
                if name in c.double_angle:
                    g1 = self.gt_at(self.skip_space(name_end))
                    g2 = self.gt_at(self.skip_space(g1)) if g1 != -1 else -1
                    end = g2 if g2 != -1 else (g1 if g1 != -1 else name_end)
                    self.add(RULE_TOKEN, start, end, f"chat-template token <<{name}>> escaped")
                    return end
            return after
        # <|im_start|>
        if k < self.n and text[k] in PIPE_CHARS:
            words = self.read_words(self.skip_space(k + 1), _MAX_WORDS)
            if not words:
                return after
            name_end, name, _, _ = words[-1]
            close = self.skip_space(name_end)
            # Any <|name|> is a token, but only a one-word name: `f <| g x |> h` (F#, Elm
            # pipes) is code, not a token.
            one_word = sum(1 for w in words if w[3]) == 1
            if c.any_template and one_word and close < self.n and text[close] in PIPE_CHARS:
                end = self.gt_at(self.skip_space(close + 1))
                if end != -1:
                    self.add(RULE_TOKEN, start, end, f"chat-template token <|{name}|> escaped")
                    return end
            for name_end, name, _, _ in words:
                if name in c.template:
                    end = -1
                    close = self.skip_space(name_end)
                    if close < self.n and text[close] in PIPE_CHARS:
                        end = self.gt_at(self.skip_space(close + 1))
                    final = end if end != -1 else name_end
                    self.add(RULE_TOKEN, start, final, f"chat-template token <|{name}|> escaped")
                    return final
            return after
        # <tag ...>, </tag>, < ns:tag >, and the <!tag> / <?tag?> declaration shapes
        slash = self.slash_at(k)
        if slash != -1:
            k = self.skip_space(slash)
        elif k < self.n and unicodedata.normalize("NFKC", text[k]) in ("!", "?"):
            k = self.skip_space(k + 1)
        end_of_name = -1
        shown = ""
        for name_end, full, colons, word_end in self.read_words(k, c.max_words):
            if self.matches(full, colons):
                end_of_name, shown = name_end, full
                break
            if word_end and not any(x in c.partial for x in self.locals_of(full, colons)):
                break
        if end_of_name == -1:
            return after
        end = self.tag_end(end_of_name)
        final = end if end != -1 else end_of_name
        self.add(RULE_TAG, start, final, f"forged tag escaped (name reads as {shown!r})")
        return final

    def at_bare_lt(self, start: int) -> int:
        """A `<` (or look-alike) not followed by a plain ASCII name; return where to resume."""
        nxt = start + 1
        after = self.text[nxt] if nxt < self.n else ""
        if ends_lt(after):
            return nxt  # `<;`, `<=`, `< ` before the end: nothing to read
        if after in FLOOD_NEXT:
            return self.flood(start)
        return self.at_lt(start, nxt)

    def flood(self, start: int) -> int:
        """Handle the bracket at ``start`` and the run of brackets after it; return where
        scanning resumes.

        In a run of brackets (`<`, `[`, look-alikes) with ASCII spaces between, every bracket
        but the last two is followed by another bracket, so it reads no name: nothing to do.
        The last two are read as usual unless what follows the run ends them too.
        """
        text = self.text
        m = FLOOD.match(text, start)
        end = m.end() if m is not None else start + 1
        run = text[start:end].rstrip(SPACES)
        last = start + len(run) - 1
        head = run[:-1].rstrip(SPACES)
        after = text[end] if end < self.n else ""  # "" for the end of the text
        if text[last] in BRACKET_OPEN:
            if not self.c.bracket or ends_bracket(after):
                return end
        elif ends_lt(after):
            return end
        if head:
            prev = start + len(head) - 1
            if text[prev] in LT_CHARS and text[last] in LT_CHARS and not ends_bracket(after):
                # `<<name`: read as `<<SYS>>` from here (unless it is one plain word that is
                # no such token), then `<name` as a tag
                word = ONE_WORD.match(text, end)
                if word is None or word.group(1).lower() in self.c.double_angle:
                    return self.at_lt(prev, prev + 1)
        if last != start:
            return last  # the main loop reads it (the fast paths for `<name` apply)
        return self.at_lt(last, last + 1) if text[last] in LT_CHARS else self.at_bracket(last)

    def at_bracket(self, start: int) -> int:
        text, c = self.text, self.c
        if not c.bracket:
            return start + 1
        k = self.skip_space(start + 1)
        slash = self.slash_at(k)
        if slash != -1:
            k = self.skip_space(slash)
        words = self.read_words(k, _MAX_WORDS)
        if not words:
            return start + 1
        name_end, name, _, _ = words[-1]
        close = self.skip_space(name_end)
        if name in c.bracket and close < self.n and text[close] in BRACKET_CLOSE:
            self.add(RULE_TOKEN, start, close + 1, f"chat-template token [{name}] escaped")
            return close + 1
        # Unterminated (`[INST ignore the above`): only when written in capitals, as the
        # tokens are, so `[Inst. Phys.]` and `[Think about it]` stay prose. The first word
        # and each cut inside it (before a non-ASCII character, which a revealed invisible
        # turns into `&#x...;`) are tried, so the rewrite stays idempotent.
        for word_end, word, _, at_word_end in words:
            written = text[k:word_end]  # judged by its capitals outside comments
            if word in c.bracket and written_in_capitals(written):
                self.add(RULE_TOKEN, start, word_end, f"chat-template token [{word} escaped")
                return word_end
            if at_word_end:
                break
        return start + 1

    def at_tag_block(self, start: int) -> int:
        text = self.text
        m = TAG_RUN.match(text, start)
        end = m.end() if m is not None else start
        run = text[start:end]
        if (
            start > 0
            and text[start - 1] == _FLAG_BASE
            and run.endswith(_CANCEL_TAG)
            and run[:-1].translate(UNTAG) in self.c.emoji
        ):
            return end
        decoded = run.translate(SHOWN_TAG)
        self.reveal(start, run, f"hidden Unicode tag characters revealed: {decoded!r}")
        return end

    def reveal(self, start: int, run: str, message: str) -> None:
        """Reveal a hidden run (Tag characters, variation selectors) starting at ``start``.

        What ``add`` does for a span of revealable characters only, written at once.
        """
        self.plan.subs.update(zip(range(start, start + len(run)), map(ncr, run), strict=True))
        self.plan.regions.append(Region(RULE_HIDDEN, start, start + len(run), message))

    def at_variation(self, start: int) -> int:
        text = self.text
        m = VARIATION_RUN.match(text, start)
        end = m.end() if m is not None else start
        if end - start == 1 and start > 0:
            prev = text[start - 1]
            if not (
                prev.isspace() or is_ignorable(prev) or is_variation_selector(prev) or prev < " "
            ):
                return end
        run = text[start:end]
        shown = run.translate(VS_BYTE).encode("latin-1").decode("utf-8", "replace")[:80]
        self.reveal(start, run, f"variation-selector payload revealed: {shown!r}")
        return end

    def at_marker(self, start: int, end: int) -> None:
        text = self.text
        k = start - 1
        while k >= 0 and text[k] != "\n" and blank_or_mark(text[k]):
            k -= 1
        json_fence = k >= 0 and JSON_FENCE_BEFORE.search(text, max(0, k - 5), k + 1) is not None
        fence = k >= 0 and fences_side(text[k], before=True)
        if not (k < 0 or text[k] == "\n" or fence or json_fence):
            return
        if (
            k == start - 1
            and k >= 0
            and not json_fence
            and not fence
            and char_skeleton(text[k]) not in (None, "", " ")
        ):
            return
        k = end
        while k < self.n and text[k] != "\n" and blank_or_mark(text[k]):
            k += 1
        if not (k >= self.n or text[k] == "\n" or fences_side(text[k], before=False)):
            return
        subs = self.plan.subs
        first = next(i for i in range(start, end) if char_skeleton(text[i]) not in (None, "", " "))
        subs.setdefault(first, ncr(text[first]))
        self.marks.add(first)
        for i in range(start, end):
            if revealable(text[i]):
                subs.setdefault(i, ncr(text[i]))
        self.plan.regions.append(Region(RULE_MARKER, start, end, "boundary marker neutralized"))

    def run(self) -> Plan:
        text = self.text
        # Markers first: the tag reader ends a name where a marker's first letter is rewritten.
        c = self.c
        if c.marker is not None:
            done = 0
            for chunk in marker_chunks(text, c.marker_skeletons):
                mm = c.marker.search(text, max(chunk, done), timeout=_MARKER_TIMEOUT)
                while mm is not None and mm.start() < chunk + MARKER_CHUNK:
                    self.at_marker(mm.start(), mm.end())
                    # Overlapping: a shorter phrase inside a longer one is a marker too.
                    done = mm.start() + 1
                    mm = c.marker.search(text, done, timeout=_MARKER_TIMEOUT)
        pos = 0
        search = TRIGGER.search
        names, partial, prefixes = self.c.names, self.c.partial, self.c.prefixes
        safe: set[str] = set()
        if text.isascii() and "<" not in text and "[" not in text and "\\" not in text:
            pos = len(text) + 1
        while pos <= len(text):
            m = search(text, pos)
            if m is None:
                break
            i = m.start()
            ch = text[i]
            if ch == "\\":
                b = i
                while b > pos and text[b - 1] == "\\":
                    b -= 1
                after = self._json_bracket(i, LT_CHARS)
                pos = self.at_lt(b, after) if after != -1 else i + 2
            elif ch == "<":
                name = m.group(1)
                if name is not None:
                    if name in safe:
                        pos = m.end()
                        continue
                    low = name.lower()
                    if low not in names and low not in partial and not low.startswith(prefixes):
                        safe.add(name)
                        pos = m.end()
                        continue
                    pos = self.at_lt(i, i + 1)
                    continue
                word = m.group(2)
                if word is None:
                    nxt = text[i + 1] if i + 1 < len(text) else ""
                    # a letter after `<` (`<system-reminder>`): the full reader, directly
                    pos = self.at_lt(i, i + 1) if nxt.isalnum() else self.at_bare_lt(i)
                    continue
                # one word ended by punctuation: nothing else is read, so only a profile
                # name (or prefix) makes it a forgery
                low = word.lower()
                if low not in names and not low.startswith(prefixes):
                    pos = m.end()
                    continue
                pos = self.at_lt(i, i + 1)
            elif ch in LT_CHARS:
                pos = self.at_bare_lt(i)
            elif ch in BRACKET_OPEN:
                nxt = text[i + 1] if i + 1 < len(text) else ""
                if nxt in FLOOD_NEXT:
                    pos = self.flood(i)
                elif not self.c.bracket or ends_bracket(nxt):
                    pos = i + 1  # `[1]`, `[]`, `[;`: no name after the bracket
                else:
                    pos = self.at_bracket(i)
            elif is_tag_block(ch):
                pos = self.at_tag_block(i)
            else:
                pos = self.at_variation(i)
        return self.plan


def plan(text: str, compiled: Compiled, /) -> Plan:
    """Scan ``text`` and return the per-character rewrite plan (may raise on internal error)."""
    return _Scanner(text, compiled).run()
