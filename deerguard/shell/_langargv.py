"""Commands other languages build from values, read as the commands they run.

* Julia backtick commands interpolate values as whole words: ``run(`rm -rf $(homedir())`)``
  runs ``rm -rf /home/me``. Home-directory expressions are already spelled as ``"~"`` by
  ``_langpaths`` (``homedir()``, ``ENV["HOME"]``), so ``$("~")`` is read as the word ``~``,
  ``$name`` as the string constant bound to ``name`` (``h = homedir()``), and any other
  ``$(expr)`` as a word not known statically (``rm -rf <unknown>`` warns). The shell would
  read ``$("~")`` as a command substitution instead: the command ``~``.
* Java, Kotlin, Scala and Groovy pass argument vectors as arrays:
  ``Runtime.getRuntime().exec(arrayOf("sh", "-c", "rm -rf ~"))``, ``exec(new String[]{"sh",
  "-c", ..})``, ``ProcessBuilder(new String[]{..})``, ``pb.command(listOf(..))``: the array's
  literals are the argv (a non-literal element stands as unknown), so ``sh -c CODE`` is
  classified as the shell code it runs.

One linear scan each (a literal-led regex, bounded windows, at most 16 commands).
"""

from __future__ import annotations

import re

from ._code import Snippet, literals
from ._interp import string_constants
from ._values import DYN

__all__ = ["LANG_ARGV", "lang_argv"]

LANG_ARGV = frozenset({"julia", "kotlin", "java", "jshell", "scala", "groovy"})
"""Languages :func:`lang_argv` reads."""

_JVM_ARRAY = re.compile(
    r"(?:exec|ProcessBuilder|command)[ \t]*\([ \t]*(?:new[ \t]+String[ \t]*\[[ \t]*\][ \t]*\{"
    r"|(?:arrayOf|listOf|mutableListOf|List\.of|Arrays\.asList|Array|Seq)[ \t]*\(|\[)")
_MAX = 16
_BARE = re.compile(r"[\w./~*:=@%+,-]+")


def lang_argv(text: str, language: str, snippets: list[Snippet]) -> list[Snippet]:
    """``snippets`` with Julia interpolations read, plus JVM argument arrays."""
    if language == "julia":
        return _julia(text, snippets) if "$" in text else snippets
    if "exec" not in text and "ProcessBuilder" not in text and "command" not in text:
        return snippets
    found: list[str] = []
    lits = {s: (e, v) for s, e, v in literals(text, False)[:1024]}
    hits = 0
    for m in _JVM_ARRAY.finditer(text):
        if m.start() > 0 and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_"):
            continue
        hits += 1
        if hits > 2 * _MAX:
            break  # bounded work on hostile code: each array reads a bounded window
        words = _elements(text, m.end(), lits)
        if words and words[0] != DYN:
            found.append(" ".join(_quote(w) for w in words))
        if len(found) >= _MAX:
            break
    known = {s.text for s in snippets}
    return [*snippets, *(Snippet(c, 0, 0) for c in dict.fromkeys(found) if c not in known)]


def _elements(text: str, pos: int, lits: dict[int, tuple[int, str]]) -> list[str]:
    """The words of an array literal whose elements start at ``pos``: literals, and DYN for
    any other element; up to the array's closing bracket."""
    words: list[str] = []
    depth = 0
    cur: str | None = None  # the element being read: its literal value, or DYN
    j = pos
    limit = min(len(text), pos + 600)
    while j < limit and len(words) < 64:
        if j in lits:
            end, value = lits[j]
            cur = value[1:] if cur is None and depth == 0 else DYN
            j = end
            continue
        c = text[j]
        if c in "([{":
            depth += 1
            cur = DYN
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            words.append(cur if cur is not None else DYN)
            cur = None
        elif not c.isspace() and depth == 0:
            cur = DYN  # a name, a call, a concatenation
        j += 1
    if cur is not None:
        words.append(cur)
    return words


def _quote(word: str) -> str:
    if word == DYN or _BARE.fullmatch(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def _julia(text: str, snippets: list[Snippet]) -> list[Snippet]:
    """Julia backtick commands with their ``$`` interpolations read as words."""
    consts: dict[str, str] | None = None
    out: list[Snippet] = []
    for snip in snippets:
        if "$" not in snip.text or text[snip.start:snip.start + 1] != "`":
            out.append(snip)
            continue
        if consts is None:
            consts = string_constants(text, literals(text, True))
        out.append(Snippet(_interpolate(snip.text, consts), snip.start, snip.end,
                           snip.pipe_in))
    return out


def _interpolate(cmd: str, consts: dict[str, str]) -> str:
    """``rm -rf $("~")`` -> ``rm -rf ~``; ``$h`` -> its constant; other ``$(..)`` -> DYN."""
    parts: list[str] = []
    i = 0
    n = len(cmd)
    while i < n:
        k = cmd.find("$", i)
        if k < 0 or k + 1 >= n:
            parts.append(cmd[i:])
            break
        parts.append(cmd[i:k])
        if cmd[k + 1] == "(":
            depth = 0
            j = k + 1
            while j < n:
                depth += 1 if cmd[j] == "(" else -1 if cmd[j] == ")" else 0
                if depth == 0:
                    break
                j += 1
            inner = cmd[k + 2:j].strip()
            parts.append(_word(inner, consts))
            i = j + 1
            continue
        m = re.match(r"[A-Za-z_]\w*", cmd[k + 1:k + 65])
        if m is not None and m.group() in consts:
            parts.append(_home_word(consts[m.group()]))
            i = k + 1 + m.end()
            continue
        parts.append("$")  # left to the shell's reading ($HOME)
        i = k + 1
    return "".join(parts)


def _word(expr: str, consts: dict[str, str]) -> str:
    if len(expr) >= 2 and expr[0] == expr[-1] == '"' and '"' not in expr[1:-1] and \
            "$" not in expr:
        return _home_word(expr[1:-1])
    if expr in consts:
        return _home_word(consts[expr])
    return DYN


def _home_word(value: str) -> str:
    """One word holding ``value``; a leading ``~`` (a home directory spelled by
    ``_langpaths``) stays unquoted so the shell reader sees the home directory."""
    if value.startswith("~") and (len(value) == 1 or value[1] == "/"):
        return "~" + (_quote(value[1:]) if value[1:] else "")
    return _quote(value) if value else "''"
