"""The builtins that assign what they read or format: ``read``, ``mapfile``, ``printf -v``.

``read x y <<< 'rm -rf /'`` gives x=rm and y='-rf /' (IFS splitting, the last name takes the
rest, backslashes quote unless ``-r``); ``read -a`` and ``mapfile`` fill arrays;
``printf -v x '%c%c' r m`` formats like printf. Every name is assigned through
:func:`~deerguard.shell._assign.store` (so ``read PATH`` is a PATH change) after its subscript,
if any, is evaluated (``read 'a[$(cmd)]'`` runs cmd). Input that is not known statically
makes the names unknown, with its taint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._arith import name_slot
from ._assign import Element, store
from ._printf import printf_format
from ._values import DYN, NO_TAINT, Field, Var, to_int

if TYPE_CHECKING:
    from ._flow import Flow
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["mapfile_builtin", "printf_v", "read_builtin"]


def printf_v(run: Run, inv: Invocation) -> bool:
    """``printf -v NAME FORMAT ARGS``: NAME gets the formatted text. False when the
    invocation has no ``-v``."""
    args = inv.args
    if not args or not args[0].text.startswith("-v"):
        return False
    if args[0].text == "-v":
        if len(args) < 2:
            return False
        target, rest = args[1], args[2:]
    else:
        target, rest = Field(args[0].text[2:], args[0].span, args[0].taint), args[1:]
    if rest and rest[0].text == "--":
        rest = rest[1:]
    taint = frozenset().union(*(f.taint for f in rest)) if rest else NO_TAINT
    text = printf_format(rest[0].text, [f.text for f in rest[1:]]) if rest else ""
    name, sub = name_slot(run, target.text, target.taint, target.span)
    value = Field(text if text is not None else DYN, target.span, taint)
    store(run, name, value, Var(alts=(value.text,), taint=taint), target.span, sub=sub)
    return True


# Options of read / mapfile that take an argument.
_READ_ARGS = frozenset("adinNptu")
_MAPFILE_ARGS = frozenset("dnOsuCc")


def _options(inv: Invocation, with_args: frozenset[str]
             ) -> tuple[dict[str, Field], list[Field]]:
    opts: dict[str, Field] = {}
    names: list[Field] = []
    args = inv.args
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        i += 1
        if names or not t.startswith("-") or t == "-":
            names.append(f)
            continue
        if t == "--":
            names.extend(args[i:])
            break
        for k, c in enumerate(t[1:], start=1):
            if c in with_args:
                if k + 1 < len(t):
                    opts[c] = Field(t[k + 1:], f.span, f.taint)
                elif i < len(args):
                    opts[c] = args[i]
                    i += 1
                break
            opts[c] = f
    return opts, names


def read_builtin(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``read [-r] [-a ARR] [-d D] NAME...``: the names take fields of the first line.

    ``read x y <<< 'rm -rf /'`` gives x=rm, y='-rf /'; ``read -a a`` splits into an array;
    without ``-r`` a backslash quotes the next character. Unknown input taints the names.
    """
    opts, names = _options(inv, _READ_ARGS)
    taint = stdin.taint if stdin is not None else NO_TAINT
    text = stdin.text if stdin is not None else None
    span = inv.word.span
    ifs_var = run.env.get("IFS")
    ifs = " \t\n" if ifs_var is None else ifs_var.alts[0]
    for name, value in run.prefix:
        if name == "IFS":  # IFS=: read a b: the assignment applies to read only
            ifs = value.text
    line: str | None = None
    if text is not None and DYN not in ifs:
        delim = opts["d"].text[:1] if "d" in opts else "\n"
        line = _first_record(text, delim or "\0", raw="r" in opts)
        count = opts.get("n") or opts.get("N")
        if count is not None:
            n = to_int(count.text)
            line = line[:n] if n is not None and n >= 0 else None
    if "a" in opts:
        target = opts["a"]
        words = _split(line, ifs, 0, raw="r" in opts) if line is not None else None
        value = Field(" ".join(words) if words is not None else DYN, target.span, taint)
        elements: list[Element] = [(None, w) for w in words] if words is not None else \
            [(None, DYN)]
        store(run, target.text, value, None, target.span, elements=elements)
        return
    if not names:
        reply = line if line is None or "r" in opts else _unescape(line)
        value = Field(reply if reply is not None else DYN, span, taint)
        store(run, "REPLY", value, Var(alts=(value.text,), taint=taint), span)
        return
    fields = _split(line, ifs, len(names), raw="r" in opts) if line is not None else None
    for index, f in enumerate(names):
        name, sub = name_slot(run, f.text, f.taint, f.span)
        text_i = DYN if fields is None else (fields[index] if index < len(fields) else "")
        value = Field(text_i, f.span, taint)
        store(run, name, value, Var(alts=(text_i,), taint=taint), f.span, sub=sub)


def _first_record(text: str, delim: str, *, raw: bool) -> str:
    """The text up to the delimiter; without -r, backslash-newline joins lines and other
    backslashes stay (as escapes for the splitting, which removes them)."""
    if raw:
        return text.split(delim, 1)[0]
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            if text[i + 1] != "\n":
                out.append(text[i:i + 2])
            i += 2
            continue
        if c == delim:
            break
        out.append(c)
        i += 1
    return "".join(out)


def _unescape(line: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(line):
        if line[i] == "\\" and i + 1 < len(line):
            i += 1
        out.append(line[i])
        i += 1
    return "".join(out)


def _split(line: str, ifs: str, count: int, *, raw: bool) -> list[str]:
    """Split a read line on IFS into ``count`` fields (0: all), the last one taking the
    rest; backslash escapes (kept by :func:`_first_record`) quote a character."""
    white = {c for c in ifs if c in " \t\n"}
    other = {c for c in ifs if c not in " \t\n"}
    chars: list[tuple[str, bool]] = []
    i = 0
    while i < len(line):
        if line[i] == "\\" and i + 1 < len(line) and not raw:
            chars.append((line[i + 1], True))
            i += 2
        else:
            chars.append((line[i], False))
            i += 1
    fields: list[str] = []
    i = 0
    n = len(chars)
    while i < n and not chars[i][1] and chars[i][0] in white:
        i += 1
    while i < n:
        if count and len(fields) == count - 1:
            end = n
            while end > i and not chars[end - 1][1] and chars[end - 1][0] in white:
                end -= 1
            fields.append("".join(c for c, _ in chars[i:end]))
            return fields
        start = i
        while i < n and (chars[i][1] or chars[i][0] not in white | other):
            i += 1
        fields.append("".join(c for c, _ in chars[start:i]))
        while i < n and not chars[i][1] and chars[i][0] in white:
            i += 1
        if i < n and not chars[i][1] and chars[i][0] in other:
            i += 1
            while i < n and not chars[i][1] and chars[i][0] in white:
                i += 1
    return fields


def mapfile_builtin(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``mapfile [-t] [-d D] [-O N] [-s N] [-n N] ARR``: one element per line."""
    opts, names = _options(inv, _MAPFILE_ARGS)
    taint = stdin.taint if stdin is not None else NO_TAINT
    text = stdin.text if stdin is not None else None
    if text is not None and stdin is not None and stdin.via == "here-string":
        text += "\n"  # <<< adds a newline
    target = names[0] if names else Field("MAPFILE", inv.word.span)
    if "[" in target.text:
        return  # mapfile rejects a subscript
    elements: list[Element] = [(None, DYN)]
    numbers = {k: to_int(opts[k].text) for k in "Osn" if k in opts}
    if text is not None and all(n is not None and n >= 0 for n in numbers.values()):
        delim = (opts["d"].text[:1] or "\0") if "d" in opts else "\n"
        pieces = text.split(delim)
        lines = [p + delim for p in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
        if "t" in opts:
            lines = [line[:-1] if line.endswith(delim) else line for line in lines]
        lines = lines[numbers.get("s") or 0:]
        if numbers.get("n"):
            lines = lines[:numbers.get("n")]
        origin = numbers.get("O") or 0
        elements = [(str(origin + i), line) for i, line in enumerate(lines)]
        if origin == 0:
            elements = [(None, line) for line in lines]
    value = Field(" ".join(v for _, v in elements), target.span, taint)
    store(run, target.text, value, None, target.span, elements=elements,
          append="O" in opts)
