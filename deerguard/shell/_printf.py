"""bash's ``printf`` format applied to known arguments (``printf -v x '%c%c' r m`` is ``rm``).

Conversions ``%s %b %c %q %d %i %u %o %x %X %%`` with flags, widths and precisions (``*``
too) are modelled; the format is reused while arguments remain, as bash does. Anything else
(``%(...)T``, floats, a number that does not parse, an unknown part inside a conversion that
changes it) gives None: the output is not known. Output is bounded.
"""

from __future__ import annotations

from ._embedded import decode_escapes
from ._values import DYN, to_int

__all__ = ["printf_format"]

_MAX_OUT = 4096
_FLAGS = "-+ #0'"
_LENGTH = "hlLjzt"
_SAFE_Q = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=+,@%^-")


class _Args:
    __slots__ = ("values", "index")

    def __init__(self, values: list[str]) -> None:
        self.values = values
        self.index = 0

    def take(self) -> str:
        if self.index < len(self.values):
            self.index += 1
            return self.values[self.index - 1]
        return ""


def printf_format(fmt: str, values: list[str]) -> str | None:
    """printf's output for a known format and arguments, or None when it is not modelled."""
    if DYN in fmt:
        return None
    args = _Args(values)
    out: list[str] = []
    size = 0
    while True:
        start = args.index
        piece = _once(fmt, args)
        if piece is None:
            return None
        text, stop = piece
        out.append(text)
        size += len(text)
        if size > _MAX_OUT:
            return None
        if stop or args.index >= len(values) or args.index == start:
            return "".join(out)


def _once(fmt: str, args: _Args) -> tuple[str, bool] | None:
    """One pass over the format: (output, stop) where stop is a ``\\c``."""
    out: list[str] = []
    i = 0
    n = len(fmt)
    while i < n:
        j = fmt.find("%", i)
        literal = fmt[i:] if j < 0 else fmt[i:j]
        if literal:
            out.append(decode_escapes(literal))
        if j < 0:
            break
        if fmt.startswith("%%", j):
            out.append("%")
            i = j + 2
            continue
        k = j + 1
        while k < n and fmt[k] in _FLAGS:
            k += 1
        flags = fmt[j + 1:k]
        width, k, ok = _number(fmt, k, args)
        precision: int | None = None
        if k < n and fmt[k] == ".":
            precision, k, ok2 = _number(fmt, k + 1, args)
            precision = precision or 0
            ok = ok and ok2
        while k < n and fmt[k] in _LENGTH:
            k += 1
        if k >= n or not ok:
            return None
        conv = fmt[k]
        piece = _convert(conv, args.take(), flags, precision)
        if piece is None:
            return None
        text, stop = piece
        out.append(_pad(text, flags, width, numeric=conv in "diuoxX"))
        if stop:
            return "".join(out), True
        i = k + 1
    return "".join(out), False


def _escape_stop(text: str) -> int:
    """Index of a ``\\c`` escape (output stops there), or len(text)."""
    i = text.find("\\c")
    while i > 0 and text[i - 1] == "\\":
        i = text.find("\\c", i + 1)
    return i if i >= 0 else len(text)


def _number(fmt: str, k: int, args: _Args) -> tuple[int | None, int, bool]:
    """A width or precision at ``k``: (value, next index, parsed)."""
    if k < len(fmt) and fmt[k] == "*":
        raw = args.take().strip()
        if not raw:
            return 0, k + 1, True
        number = to_int(raw)
        if number is not None and abs(number) < 10_000:
            return number, k + 1, True
        return None, k + 1, False
    start = k
    while k < len(fmt) and fmt[k] in "0123456789":
        k += 1
    if k - start > 4:
        return None, k, False  # a width of 10^5 characters: not modelled
    return (int(fmt[start:k]) if k > start else None), k, True


def _pad(text: str, flags: str, width: int | None, *, numeric: bool) -> str:
    if width is None or len(text) >= abs(width):
        return text
    if DYN in text:
        return DYN
    if "-" in flags or width < 0:
        return text.ljust(abs(width))
    if numeric and "0" in flags:
        sign = text[:1] if text[:1] in "+-" else ""
        return sign + text[len(sign):].rjust(width - len(sign), "0")
    return text.rjust(width)


def _convert(conv: str, arg: str, flags: str, precision: int | None
             ) -> tuple[str, bool] | None:
    if conv in "sb":
        stop = False
        if conv == "b":
            cut = _escape_stop(arg)
            stop = cut < len(arg)
            arg = decode_escapes(arg[:cut].replace("\\0", "\\"))
        if precision is not None:
            if DYN in arg[:precision]:
                return DYN, stop
            arg = arg[:precision]
        return arg, stop
    if conv == "c":
        return arg[:1], False
    if conv == "q":
        if DYN in arg:
            return DYN, False
        if not arg:
            return "''", False
        if not arg.isprintable():
            return None
        return "".join(c if c in _SAFE_Q else "\\" + c for c in arg), False
    if conv in "diuoxX":
        number = _integer(arg)
        if number is None:
            return None
        if conv in "di":
            text = str(number)
            if number >= 0 and "+" in flags:
                text = "+" + text
        else:
            base = {"u": "d", "o": "o", "x": "x", "X": "X"}[conv]
            text = format(number if number >= 0 else number + (1 << 64), base)
        if precision is not None:
            text = text.rjust(precision, "0")
        return text, False
    return None


def _integer(arg: str) -> int | None:
    text = arg.strip()
    if not text:
        return 0
    if text[0] in "'\"":
        return ord(text[1]) if len(text) > 1 else 0
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-")
    try:
        if body.lower().startswith("0x"):
            return sign * int(body[2:], 16)
        if body.startswith("0") and len(body) > 1:
            return sign * int(body, 8)
        return sign * int(body, 10) if body.isdecimal() else None
    except ValueError:
        return None
