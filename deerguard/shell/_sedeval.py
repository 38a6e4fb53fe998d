"""``sed`` over static input, for :mod:`._textout`: ``s/RE/REPL/FLAGS`` (``g``, ``p``, ``N``,
``I``), ``y/abc/xyz/``, and ``p``/``d``/``q`` with a line-number or ``$`` address, from
``-e``/``--expression`` or the first operand, with ``-n`` and ``-E``/``-r``.

Regular expressions (BRE or ERE) run through Python's ``re`` only with at most two
quantifiers, no quantified group and no back-reference in the pattern (so no exponential or
high-degree backtracking), on input of at most :data:`_MAX_REGEX_INPUT` characters; at most
four scripts of five commands. Anything else gives None (the output stays unknown).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._values import DYN

__all__ = ["MAX_LINES", "lines_of", "sed_output"]

_MAX_REGEX_INPUT = 128
MAX_LINES = 256


def lines_of(text: str) -> list[str]:
    """The lines of ``text`` (a final newline ends the last one), at most MAX_LINES."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines[:MAX_LINES]


_Command = tuple[str, str, Callable[[str], str] | None, str]  # (addr, cmd, subst, flags)


def _split_delim(text: str, i: int, delim: str) -> tuple[str, int]:
    """The text up to the next unescaped ``delim`` from ``i``: (piece, index after it)."""
    out: list[str] = []
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append(nxt if nxt == delim else "\\" + nxt)
            i += 2
            continue
        if c == delim:
            return "".join(out), i + 1
        out.append(c)
        i += 1
    raise ValueError("unterminated")


def _regex(pattern: str, extended: bool) -> re.Pattern[str]:
    """A sed BRE/ERE as a Python regex, refused when it could backtrack heavily."""
    if len(pattern) > 64 or "[:" in pattern or "[=" in pattern or "[." in pattern:
        raise ValueError(pattern)
    out: list[str] = []
    quantifiers = 0
    i = 0
    n = len(pattern)
    in_bracket = False
    while i < n:
        c = pattern[i]
        if in_bracket:
            out.append("\\" + c if c in "\\[" else c)
            in_bracket = c != "]" or out[-2:-1] == ["["] or out[-2:] == ["[", "^"]
            i += 1
            continue
        if c == "[":
            in_bracket = True
            out.append("[")
            if i + 1 < n and pattern[i + 1] in "^!":
                out.append("^")
                i += 1
            if i + 1 < n and pattern[i + 1] == "]":
                out.append("\\]")
                i += 1
            i += 1
            continue
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            i += 2
            if nxt.isdecimal():
                raise ValueError("back-reference")
            if not extended and nxt in "(){}+?|":
                out.append(nxt)
                quantifiers += nxt in "{+?"
            elif nxt == "n":
                out.append("\\n")
            elif nxt == "t":
                out.append("\\t")
            else:
                out.append(re.escape(nxt))
            continue
        if c in "(){}+?|" and not extended:
            out.append("\\" + c)
        elif c == "*" and (not out or out[-1] in ("(", "^", "|")):
            out.append("\\*")  # a leading * is literal
        else:
            quantifiers += c in "*+?{"
            out.append(c if c in ".^$*+?(){}|" else re.escape(c))
        i += 1
    py = "".join(out)
    if quantifiers > 2 or re.search(r"\)[*+?{]", py):
        raise ValueError("backtracking")
    return re.compile(py)


def _replacement(repl: str) -> Callable[[re.Match[str]], str]:
    parts: list[str | int] = []
    i = 0
    while i < len(repl):
        c = repl[i]
        if c == "\\" and i + 1 < len(repl):
            nxt = repl[i + 1]
            parts.append(int(nxt) if nxt.isdecimal() else "\n" if nxt == "n" else
                         "\t" if nxt == "t" else nxt)
            i += 2
            continue
        parts.append(0 if c == "&" else c)
        i += 1

    def apply(m: re.Match[str]) -> str:
        return "".join(p if isinstance(p, str) else (m.group(p) or "") for p in parts)
    return apply


def _sed_script(script: str, extended: bool, out: list[_Command]) -> None:
    i = 0
    n = len(script)
    while i < n:
        c = script[i]
        if c in " \t\n;":
            i += 1
            continue
        addr = ""
        while i < n and (script[i].isdecimal() or script[i] == "$"):
            addr += script[i]
            i += 1
        if addr and not (addr == "$" or addr.isdecimal()):
            raise ValueError(addr)
        if i >= n:
            raise ValueError("no command")
        cmd = script[i]
        i += 1
        if len(out) >= 5:
            raise ValueError("too many commands")
        if cmd in "pdq":
            out.append((addr, cmd, None, ""))
        elif cmd in "sy" and i < n:
            delim = script[i]
            if delim in "\\\n":
                raise ValueError(delim)
            left, i = _split_delim(script, i + 1, delim)
            right, i = _split_delim(script, i, delim)
            flags = ""
            while i < n and script[i] in "gpiI0123456789":
                flags += script[i]
                i += 1
            if cmd == "y":
                if flags or len(left) != len(right):
                    raise ValueError("y")
                table = str.maketrans(left, right)
                out.append((addr, "y", _translate(table), ""))
                continue
            regex = re.compile(_regex(left, extended).pattern, re.I) if "i" in flags.lower() \
                else _regex(left, extended)
            fill = _replacement(right)
            digits = "".join(ch for ch in flags if ch.isdecimal())
            count = 0 if "g" in flags else 1
            nth = int(digits) if digits else 0
            out.append((addr, "s", _nth(regex, fill, nth) if nth else
                        _sub(regex, fill, count), flags))
        else:
            raise ValueError(cmd)
        while i < n and script[i] in " \t":
            i += 1
        if i < n and script[i] not in ";\n}":
            raise ValueError("trailing")


def _translate(table: dict[int, int]) -> Callable[[str], str]:
    def apply(s: str) -> str:
        return s.translate(table)
    return apply


def _sub(regex: re.Pattern[str], fill: Callable[[re.Match[str]], str], count: int
         ) -> Callable[[str], str]:
    def apply(s: str) -> str:
        return regex.sub(fill, s, count=count)
    return apply


def _nth(regex: re.Pattern[str], fill: Callable[[re.Match[str]], str], nth: int
         ) -> Callable[[str], str]:
    def apply(s: str) -> str:
        for k, m in enumerate(regex.finditer(s), 1):
            if k == nth:
                return s[:m.start()] + fill(m) + s[m.end():]
        return s
    return apply


def sed_output(texts: list[str], stdin: str | None) -> str | None:
    """What ``sed`` with arguments ``texts`` prints for ``stdin``; None when not known."""
    if stdin is None or DYN in stdin or len(stdin) > _MAX_REGEX_INPUT:
        return None
    quiet = False
    extended = False
    scripts: list[str] = []
    operands: list[str] = []
    k = 0
    while k < len(texts):
        t = texts[k]
        if t in ("-e", "--expression") and k + 1 < len(texts):
            scripts.append(texts[k + 1])
            k += 2
            continue
        if t.startswith("--expression="):
            scripts.append(t.partition("=")[2])
        elif t in ("-n", "--quiet", "--silent"):
            quiet = True
        elif t in ("-E", "-r", "--regexp-extended"):
            extended = True
        elif t in ("-u", "--unbuffered", "--posix", "-s", "--separate"):
            pass
        elif t.startswith("-") and len(t) > 1 and set(t[1:]) <= set("nEru"):
            quiet = quiet or "n" in t
            extended = extended or "E" in t or "r" in t
        elif t.startswith("-") and t != "-":
            return None  # -i (in place), -f FILE, -z: not modelled
        else:
            operands.append(t)
        k += 1
    if not scripts:
        if not operands:
            return None
        scripts.append(operands.pop(0))
    if operands and operands != ["-"]:
        return None  # input files: not known
    commands: list[_Command] = []
    for script in scripts[:4]:
        _sed_script(script, extended, commands)
    if len(commands) > 4 or len(scripts) > 4:
        return None
    lines = lines_of(stdin)
    out: list[str] = []
    for number, line in enumerate(lines, 1):
        last = number == len(lines)
        deleted = False
        for addr, cmd, fn, flags in commands:
            if addr and not ((addr == "$" and last) or addr == str(number)):
                continue
            if cmd == "p":
                out.append(line)
            elif cmd == "d":
                deleted = True
                break
            elif cmd == "q":
                if not quiet:
                    out.append(line)
                return "\n".join(out)
            elif fn is not None:
                new = fn(line)
                if cmd == "s" and "p" in flags and new != line:
                    out.append(new)
                line = new
        if not deleted and not quiet:
            out.append(line)
    return "\n".join(out)
