"""Streams carry a written file's known text: ``cat a > b``, ``cat a | tee b``, ``dd if=a
of=b``, ``sponge b``, ``cat <(echo CODE) > b``, and text tools reading a written file
(``sed '' a > b``, ``head``/``tail``/``cut``, ``awk 1 a``; ``sed -i`` rewrites it in place).

``cat``/``dd``/the text tools print the file's known text (their output flow's text), so a
redirection or ``tee`` writes it where it goes; ``tee``/``sponge``/``dd of=`` write what
they read (``-a`` appends). Landings go through ``_copies.land``, so links see them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._copies import STDIN_PATHS, appended, cap_text, land
from ._copymore import pv_args
from ._files import file_taint
from ._flow import Flow
from ._paths import norm_path
from ._resolve import Invocation
from ._textout import text_output
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["STREAM_TOOLS", "stream_copy"]

_AWKS = frozenset({"awk", "gawk", "mawk", "nawk"})
_FILTERS = frozenset({"head", "tail", "cut", "sed"}) | _AWKS
STREAM_TOOLS = frozenset({"cat", "tee", "sponge", "dd", "pv"}) | _FILTERS
_MAX_LEN = 10000  # as _copies: a concatenation is cut there
_MAX_SOURCES = 16
# Devices a write goes through rather than into (/dev/shm is a directory of files).
_DEVICES = ("/dev/null", "/dev/std", "/dev/tty", "/dev/fd/", "/dev/pts/", "/dev/console")


def stream_copy(run: Run, inv: Invocation, stdin: Flow | None, out: Flow) -> Flow:
    """``cat``/``dd`` print a written file's text; ``tee``/``sponge``/``dd of=`` write what
    they read. Returns ``out`` with the printed text when it is known."""
    name = inv.name
    args = inv.args
    stdin_text = stdin.text if stdin is not None else None
    if stdin_text is None and not run.file_text and not run.files and not (
            name == "cat" and any(f.proc for f in args)):
        return out  # nothing known to copy (cat a.txt)
    if name == "pv":  # pv A > B, pv -o B A: prints its files (or stdin) like cat
        return _pv(run, inv, stdin_text, out)
    if name == "cat":
        text = _cat_text(run, args, stdin_text)
        return out if text is None or text == out.text else _with_text(out, text)
    if name in _FILTERS:
        return _filter(run, inv, stdin_text, out)
    if name == "dd":
        return _dd(run, args, stdin_text, out, inv.word.span)
    append = False
    paths: list[str] = []
    for f in args:
        t = f.text
        if t in ("-a", "--append"):
            append = True
        elif f.static and t.startswith("-") and len(t) > 1:
            continue  # tee -i, -p, --output-error=...
        elif (path := norm_path(t, run.cwd)) is not None and not path.startswith(_DEVICES):
            paths.append(path)
    if stdin is not None and stdin_text is not None:
        for path in paths[:_MAX_SOURCES]:
            old = run.file_text.get(path) if append else None
            land(run, path, appended(old, stdin_text, stdin.producer), frozenset(), False,
                  inv.word.span)
    return out


def _pv(run: Run, inv: Invocation, stdin_text: str | None, out: Flow) -> Flow:
    files, output, whole = pv_args(inv.args)
    if not whole:
        return out
    text = _cat_text(run, files, stdin_text) if files else stdin_text
    taint = frozenset().union(*(file_taint(run.files, norm_path(f.text, run.cwd))
                                for f in files[:_MAX_SOURCES]))
    if output is not None:
        path = norm_path(output, run.cwd)
        if path is not None and not path.startswith(_DEVICES):
            land(run, path, text, taint, False, inv.word.span)
        return out
    return out if text is None or text == out.text else _with_text(out, text)


def _cat_text(run: Run, args: list[Field], stdin_text: str | None) -> str | None:
    """The text ``cat FILE...`` prints when every file's text is known (``-`` is stdin)."""
    pieces: list[str] = []
    ended = False
    total = 0
    for f in args:
        t = f.text
        if not ended and f.static and t in ("-u", "--"):
            ended = t == "--"
            continue
        if f.proc:
            piece = run.proc_output(f.span)  # cat <(echo CODE)
        elif t == "-" or t in STDIN_PATHS:
            piece = stdin_text
        elif not ended and t.startswith("-"):
            return None  # -n, -A...: the text printed is not the file's
        else:
            piece = run.file_text.get(norm_path(t, run.cwd) or "")
        if piece is None:
            return None
        pieces.append(piece)
        total += len(piece) + 1
        if total > _MAX_LEN:
            break  # cat a a a a...: the text is cut (_cap), the rest is not read
    # echo's known text leaves out its final newline: the next file starts a new line
    return cap_text("".join(p if p.endswith("\n") or k == len(pieces) - 1 else p + "\n"
                        for k, p in enumerate(pieces))) if pieces else None


def _filter(run: Run, inv: Invocation, stdin_text: str | None, out: Flow) -> Flow:
    """``sed '' a > b``, ``head -n 50 a > b``: a text tool reading a written file prints
    its known output for that text; ``sed -i SCRIPT a`` rewrites a's text."""
    args = inv.args
    if stdin_text is not None and out.text is None and inv.name in _AWKS:
        new = text_output(inv.name, [f.text for f in args], stdin_text)
        return out if new is None else _with_text(out, new)  # echo CODE | awk '{print}'
    if stdin_text is not None or not args or not run.file_text:
        return out
    last = args[-1]
    path = norm_path(last.text, run.cwd) if last.static and last.text[:1] != "-" else None
    text = run.file_text.get(path or "")
    if text is None or path is None:
        return out
    texts = [f.text for f in args[:-1]]
    if inv.name == "sed" and any(t.startswith(("-i", "--in-place")) for t in texts):
        return out  # sed -i SCRIPT a: _sedtext rewrites a's text (and the text it adds)
    new = text_output(inv.name, texts, text)
    return out if new is None else _with_text(out, new)


def _dd(run: Run, args: list[Field], stdin_text: str | None, out: Flow,
        span: tuple[int, int]) -> Flow:
    """``dd if=A of=B``: B gets A's text (or stdin's); with no ``of=`` it is printed."""
    source: str | None = None
    dest: str | None = None
    whole = True
    for f in args:
        key, eq, value = f.text.partition("=")
        if not eq:
            continue
        if key == "if":
            source = value
        elif key == "of":
            dest = value
        elif key not in ("bs", "ibs", "obs", "status", "iflag", "oflag"):
            whole = False  # count=, skip=, seek=, conv=: not the whole text as is
    if source in STDIN_PATHS or source == "-":
        source = None  # dd if=/dev/stdin: what it reads
    text = stdin_text if source is None else run.file_text.get(norm_path(source, run.cwd)
                                                               or "")
    taint = file_taint(run.files, norm_path(source, run.cwd)) if source else frozenset()
    if not whole:
        text = None
    if dest is None:
        return out if text is None else _with_text(out, text)
    path = norm_path(dest, run.cwd)
    if path is not None and not path.startswith(_DEVICES):
        land(run, path, text, taint, False, span)
    return out


def _with_text(out: Flow, text: str) -> Flow:
    return Flow(out.taint, out.producer, out.span, text, out.via)
