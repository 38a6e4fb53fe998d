"""Static output of text tools over static input: ``head``, ``tail``, ``cut``, ``sed``,
``awk`` (print programs) and ``getent passwd``.

``$(sed 's/x/r/' <<< xm) -rf /`` runs ``rm``, ``$(cut -c2-3 <<< xrm)`` is ``rm``,
``$(awk 'BEGIN{printf "rm"}')`` is ``rm`` and ``$(getent passwd $USER | cut -d: -f6)`` is a
home directory: when a tool's input (stdin text) and arguments are static, its output is
computed here, so the rules read the name or path it makes. The evaluator covers the common
option subset of each tool; any other option, a file operand (not known), or input too
large gives None: the output stays unknown, as before.

Bounded work: input of at most :data:`_MAX_INPUT` characters; ``sed`` regular expressions
run through Python's ``re`` only with few quantifiers, no quantified group and no
back-reference in the pattern (so no exponential or high-degree backtracking), on input of
at most :data:`_MAX_REGEX_INPUT` characters. An unknown part (DYN) of the input is opaque:
it keeps its place in a line (``cut -f``, ``head -n``) and makes character positions after
it unknown.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._digits import NUM
from ._printf import printf_format
from ._values import DYN

__all__ = ["TEXT_TOOLS", "text_output"]

TEXT_TOOLS = frozenset({"head", "tail", "cut", "sed", "awk", "gawk", "mawk", "nawk", "getent"})
_MAX_INPUT = 4096
_MAX_REGEX_INPUT = 128
_MAX_LINES = 256


def text_output(name: str, texts: list[str], stdin: str | None) -> str | None:
    """What ``name`` with arguments ``texts`` prints for the stdin text ``stdin`` (None when
    not known); never raises."""
    if any(DYN in t for t in texts) and name != "getent":
        return None
    if stdin is not None and len(stdin) > _MAX_INPUT:
        return None
    try:
        if name == "getent":
            return _getent(texts)
        tool = _TOOLS.get(name) or (_awk if name in TEXT_TOOLS else None)
        return tool(texts, stdin) if tool is not None else None
    except (ValueError, IndexError, OverflowError, re.error, RecursionError):
        return None


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines[:_MAX_LINES]


def _count(value: str) -> tuple[int, str]:
    """``N``, ``-N`` or ``+N`` of head/tail: (N, its sign or "")."""
    lead = value[:1] if value[:1] in ("+", "-") else ""
    number = int(value[1:] if lead else value)
    if number < 0 or number > 1 << 20:
        raise ValueError(value)
    return number, lead


def _head_tail(name: str, texts: list[str], stdin: str | None) -> str | None:
    if stdin is None:
        return None
    mode, value = "n", "10"
    k = 0
    while k < len(texts):
        t = texts[k]
        if t in ("-n", "-c", "--lines", "--bytes") and k + 1 < len(texts):
            mode, value = ("c" if t in ("-c", "--bytes") else "n"), texts[k + 1]
            k += 2
            continue
        if t.startswith(("--lines=", "--bytes=")):
            mode, value = t[2], t.partition("=")[2]
        elif t[:2] in ("-n", "-c") and len(t) > 2:
            mode, value = t[1], t[2:]
        elif t[:1] == "-" and t[1:].isdigit():
            value = t[1:]
        elif t in ("-q", "-s", "--quiet", "--silent", "-"):
            pass
        else:
            return None  # a file operand or an option not modelled
        k += 1
    number, lead = _count(value)
    if mode == "c":
        if DYN in stdin:
            return None
        data = stdin if stdin.endswith("\n") else stdin + "\n"  # echo and <<< end a line
        if name == "head":
            return data[:len(data) - number] if lead == "-" else data[:number]
        return data[number - 1:] if lead == "+" else data[len(data) - number:] if number else ""
    lines = _lines(stdin)
    if name == "head":
        picked = lines[:len(lines) - number] if lead == "-" else lines[:number]
    else:
        picked = lines[number - 1 if number else 0:] if lead == "+" else \
            lines[len(lines) - number:] if number else []
    return "\n".join(picked)


def _ranges(spec: str) -> list[tuple[int, int]]:
    """cut's LIST: ``N``, ``N-``, ``-M``, ``N-M``, comma separated (1-based, inclusive)."""
    out: list[tuple[int, int]] = []
    for part in spec.split(","):
        start, dash, end = part.partition("-")
        lo = int(start) if start else 1
        hi = (int(end) if end else 1 << 20) if dash else lo
        if lo < 1 or hi < lo:
            raise ValueError(spec)
        out.append((lo, hi))
    return out


def _cut(texts: list[str], stdin: str | None) -> str | None:
    if stdin is None:
        return None
    mode = ""
    spec = ""
    delim = "\t"
    out_delim: str | None = None
    only = False
    k = 0
    while k < len(texts):
        t = texts[k]
        value: str | None = None
        if t in ("-c", "-b", "-f", "-d") and k + 1 < len(texts):
            value = texts[k + 1]
            k += 1
        elif t[:2] in ("-c", "-b", "-f", "-d") and len(t) > 2:
            value = t[2:]
        elif t.startswith(("--characters=", "--bytes=", "--fields=", "--delimiter=")):
            value = t.partition("=")[2]
            t = "-" + t[2]
        elif t.startswith("--output-delimiter="):
            out_delim = t.partition("=")[2]
        elif t in ("-s", "--only-delimited"):
            only = True
        elif t not in ("-n", "-"):
            return None
        if value is not None:
            if t[1] == "d":
                if len(value) != 1:
                    return None
                delim = value
            else:
                mode, spec = t[1], value
        k += 1
    if not mode:
        return None
    wanted = _ranges(spec)
    result: list[str] = []
    for line in _lines(stdin):
        if mode == "f":
            if delim not in line:
                if not only:
                    result.append(line)
                continue
            fields = line.split(delim)
            picked = [f for i, f in enumerate(fields, 1) if any(lo <= i <= hi
                                                                 for lo, hi in wanted)]
            result.append((delim if out_delim is None else out_delim).join(picked))
        else:
            if DYN in line:
                return None
            chars = [c for i, c in enumerate(line, 1) if any(lo <= i <= hi for lo, hi in wanted)]
            result.append("".join(chars))
    return "\n".join(result)


# --- sed ----------------------------------------------------------------------------------

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
            if nxt.isdigit():
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
            parts.append(int(nxt) if nxt.isdigit() else "\n" if nxt == "n" else
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
        while i < n and (script[i].isdigit() or script[i] == "$"):
            addr += script[i]
            i += 1
        if addr and not (addr == "$" or addr.isdigit()):
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
            digits = "".join(ch for ch in flags if ch.isdigit())
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


def _sed(texts: list[str], stdin: str | None) -> str | None:
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
    lines = _lines(stdin)
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


# --- awk ----------------------------------------------------------------------------------

_PRINT_ITEM = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|\$(\d+)|(\d+))\s*(,?)')


def _awk_items(body: str) -> list[tuple[str | None, int | None, bool]] | None:
    """``"lit" $2, $3 7`` -> [(literal, field, comma after)...]; None for anything else."""
    items: list[tuple[str | None, int | None, bool]] = []
    i = 0
    while i < len(body):
        m = _PRINT_ITEM.match(body, i)
        if m is None or m.end() == i:
            return None
        lit = m.group(1) if m.group(1) is not None else m.group(3)
        items.append((lit, int(m.group(2)) if m.group(2) else None, bool(m.group(4))))
        i = m.end()
    return items


def _awk_unescape(text: str) -> str:
    return text.replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"') \
        .replace("\\\\", "\\")


def _awk_statements(block: str, fields: list[str] | None, ofs: str) -> str | None:
    out: list[str] = []
    for stmt in block.split(";"):
        stmt = stmt.strip()
        if not stmt:
            continue
        word, _, rest = stmt.partition(" ")
        if stmt.startswith(("print(", "printf(")):
            word, rest = stmt.split("(", 1)
            if not rest.endswith(")"):
                return None
            rest = rest[:-1]
        if word not in ("print", "printf"):
            return None
        items = _awk_items(rest.strip())
        if items is None:
            return None
        values: list[str] = []
        seps: list[bool] = []
        for lit, field, comma in items:
            if field is not None:
                if fields is None:
                    return None
                values.append(fields[field - 1] if 0 < field <= len(fields) else
                              " ".join(fields) if field == 0 else "")
            else:
                values.append(_awk_unescape(lit or ""))
            seps.append(comma)
        if word == "printf":
            if not values:
                return None
            text = printf_format(values[0].replace("\\", "\\\\"), values[1:])
            if text is None:
                return None
            out.append(text)
        else:
            line = "".join(v + (ofs if sep and k < len(values) - 1 else "")
                           for k, (v, sep) in enumerate(zip(values, seps, strict=True)))
            out.append((line if items else " ".join(fields or [])) + "\n")
    return "".join(out)


def _awk(texts: list[str], stdin: str | None) -> str | None:
    fs: str | None = None
    k = 0
    while k < len(texts) and texts[k].startswith("-") and texts[k] != "-":
        t = texts[k]
        if t == "-F" and k + 1 < len(texts):
            fs = texts[k + 1]
            k += 2
            continue
        if t.startswith("-F"):
            fs = t[2:]
        elif t != "--":
            return None  # -v, -f FILE, -e: not modelled
        k += 1
    if k >= len(texts) or len(texts) > k + 1 + (texts[-1] == "-"):
        return None  # no program, or input files
    program = texts[k].strip()
    begin = re.fullmatch(r"BEGIN\s*\{(.*)\}", program, re.S)
    if begin is not None:
        text = _awk_statements(begin.group(1), None, " ")
        return None if text is None else text.rstrip("\n") if text.endswith("\n") else text
    main = re.fullmatch(r"\{(.*)\}", program, re.S)
    if main is None or stdin is None:
        return None
    out: list[str] = []
    for line in _lines(stdin):
        if fs is None or fs == " ":
            fields = line.split()
        elif len(fs) == 1 and fs != "\\":
            fields = line.split(fs)
        else:
            return None  # a regex separator: not modelled
        text = _awk_statements(main.group(1), fields, " ")
        if text is None:
            return None
        out.append(text)
    return "".join(out).rstrip("\n")


# --- getent -------------------------------------------------------------------------------

def _getent(texts: list[str]) -> str | None:
    """``getent passwd [NAME...]``: a passwd line per user, its home field known (``/root``,
    ``/home/NAME``; the home of a user not known statically is a home: ``~``); the
    numbers are digits (NUM), the rest unknown."""
    if not texts or texts[0] != "passwd":
        return None
    names = texts[1:]
    if not names:
        return "root:x:0:0:root:/root:/bin/bash\n" + DYN
    if any(n.startswith("-") for n in names):
        return None
    lines = []
    for n in names:
        home = "/root" if n == "root" else "~" if DYN in n or n == "" else "/home/" + n
        user = n if DYN not in n else DYN
        lines.append(f"{user}:x:{NUM}:{NUM}:{DYN}:{home}:{DYN}")
    return "\n".join(lines)


_TOOLS: dict[str, Callable[[list[str], str | None], str | None]] = {
    "head": lambda t, s: _head_tail("head", t, s),
    "tail": lambda t, s: _head_tail("tail", t, s),
    "cut": _cut,
    "sed": _sed,
}
