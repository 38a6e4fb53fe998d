"""Static output of text tools over static input: ``head``, ``tail``, ``cut``, ``sed``,
``awk`` (print programs) and ``getent passwd``.

``$(sed 's/x/r/' <<< xm) -rf /`` runs ``rm``, ``$(cut -c2-3 <<< xrm)`` is ``rm``,
``$(awk 'BEGIN{printf "rm"}')`` is ``rm`` and ``$(getent passwd $USER | cut -d: -f6)`` is a
home directory: when a tool's input (stdin text) and arguments are static, its output is
computed here, so the rules read the name or path it makes. The evaluator covers the common
option subset of each tool; any other option, a file operand (not known), or input too
large gives None: the output stays unknown, as before.

Bounded work: input of at most :data:`_MAX_INPUT` characters (``sed``: see ``_sedeval``).
An unknown part (DYN) of the input is opaque: it keeps its place in a line (``cut -f``,
``head -n``) and makes character positions after it unknown.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._digits import NUM
from ._printf import printf_format
from ._sedeval import lines_of, sed_output
from ._values import DYN

__all__ = ["TEXT_TOOLS", "text_output"]

TEXT_TOOLS = frozenset({"head", "tail", "cut", "sed", "awk", "gawk", "mawk", "nawk", "getent"})
_MAX_INPUT = 4096


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
        elif t[:1] == "-" and t[1:].isdecimal():
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
    lines = lines_of(stdin)
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
    for line in lines_of(stdin):
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
    if program == "1" and stdin is not None:
        return stdin.rstrip("\n")  # awk 1: a true pattern prints every line as it is
    begin = re.fullmatch(r"BEGIN\s*\{(.*)\}", program, re.S)
    if begin is not None:
        text = _awk_statements(begin.group(1), None, " ")
        return None if text is None else text.rstrip("\n") if text.endswith("\n") else text
    main = re.fullmatch(r"\{(.*)\}", program, re.S)
    if main is None or stdin is None:
        return None
    out: list[str] = []
    for line in lines_of(stdin):
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
    "sed": sed_output,
}
