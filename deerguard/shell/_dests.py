"""Where copy-like tools and extractors write: the paths a write check must see.

``cp x /usr/local/bin`` writes ``/usr/local/bin/x``: a destination that may be a directory
is checked as itself, as ``DIR/*`` (any file under it, which the rule globs ``DIR/*``
match) and as ``DIR/BASENAME`` of each source (``cp .bashrc ~/`` writes ``~/.bashrc``).
``-t DIR``/``--target-directory=DIR`` name the directory explicitly (every operand is a
source); extractors write under ``-C DIR``/``--directory=DIR`` (tar), ``-d DIR`` (unzip)
or ``-oDIR`` (7z).
"""

from __future__ import annotations

from ._optwalk import walk_options
from ._resolve import Invocation
from ._words import DYN, Field

__all__ = ["COPIERS", "EXTRACTORS", "copy_dests", "copy_operands", "extract_dir"]

COPIERS = frozenset({"cp", "mv", "install", "ln", "rsync", "gcp", "gmv", "ginstall"})
EXTRACTORS = frozenset({"tar", "bsdtar", "gtar", "busybox-tar", "unzip", "7z", "7za",
                        "cpio", "unrar"})
_TARGET_DIR = frozenset({"cp", "mv", "install", "ln", "gcp", "gmv", "ginstall"})
_VALUE_LETTERS = {"cp": "St", "gcp": "St", "mv": "St", "gmv": "St", "ln": "St",
                  "install": "mogSt", "ginstall": "mogSt"}
_MAX_SOURCES = 16
# Long options that take the next word: --suffix/--mode/--owner/--group, and -t's long name
# for the tools that have one.
_LONG = frozenset({"--suffix", "--mode", "--owner", "--group"})
_LONG_TARGET = _LONG | {"--target-directory"}


def copy_dests(inv: Invocation, cwd: str | None = None, *, deep: bool = False
               ) -> tuple[list[Field], list[Field]]:
    """(the destinations to check as written paths, the sources) of a copy-like tool.

    A plain relative destination in an unknown directory (``cp a build/``) is only checked
    as itself: the listed directories are absolute, under ``~`` or hidden (``.config/``).
    ``deep``: every destination, for tracking where a tainted file lands."""
    target, operands = copy_operands(inv, _VALUE_LETTERS.get(inv.name, ""))
    if target is not None:
        return _under(target, operands, cwd, deep), operands
    if len(operands) < 2:
        return [], operands
    return _under(operands[-1], operands[:-1], cwd, deep), operands[:-1]


def copy_operands(inv: Invocation, letters: str) -> tuple[Field | None, list[Field]]:
    """(the ``-t DIR``/``--target-directory=DIR`` target, the operands) of a copy-like
    tool whose short options in ``letters`` take a value."""
    target: Field | None = None
    operands: list[Field] = []
    to_dir = inv.name in _TARGET_DIR
    for name, value, _ in walk_options(inv.args, letters, _LONG_TARGET if to_dir else _LONG,
                                       dynamic="operand"):
        if name is None and value is not None:
            operands.append(value)
        elif (name == "t" and "t" in letters) or (name == "--target-directory" and to_dir):
            target = value  # (a static word: never a process substitution's)
    return target, operands


def _under(dest: Field, sources: list[Field], cwd: str | None, deep: bool) -> list[Field]:
    """``dest`` itself, ``dest/*`` and ``dest/BASENAME`` of each static source."""
    out = [dest]
    text = dest.text
    if DYN in text or (not deep and cwd is None and not text.startswith(("/", "~")) and not (
            text.startswith(".") and not text.startswith(("./", "../")) and text != ".")):
        return out
    base = dest.text.rstrip("/") or "/"
    prefix = base if base.endswith("/") else base + "/"
    out.append(Field(prefix + "*", dest.span, dest.taint))
    for f in sources[:_MAX_SOURCES]:
        name = f.text.rstrip("/").rsplit("/", 1)[-1]
        if name and DYN not in name and name not in (".", "..") and not name.startswith("-"):
            out.append(Field(prefix + name, dest.span, dest.taint))
    return out


def extract_dir(inv: Invocation) -> str | None:
    """The directory an extraction writes under (``.`` by default), or None when ``inv``
    does not extract (``tar czf out.tgz -C / etc`` reads ``/etc``)."""
    texts = [f.text for f in inv.args]
    name = inv.name
    if name in ("7z", "7za") and "x" not in texts and "e" not in texts:
        return None
    if name == "cpio" and not any(t in ("-i", "--extract") or (
            t.startswith("-") and not t.startswith("--") and "i" in t) for t in texts):
        return None
    if name in ("tar", "bsdtar", "gtar", "busybox-tar"):
        first = texts[0] if texts else ""
        extracting = any(t in ("-x", "--extract", "--get") or (
            not t.startswith("--") and t.startswith("-") and "x" in t) for t in texts) or (
            bool(first) and not first.startswith("-") and "x" in first)
        if not extracting:
            return None
    where = "."
    for k, t in enumerate(texts):
        nxt = texts[k + 1] if k + 1 < len(texts) else None
        if t in ("-C", "--directory", "-d") and nxt is not None:
            if t != "-d" or name in ("unzip", "unrar"):
                where = nxt
        elif name.startswith("7z") and t.startswith("-o") and len(t) > 2:
            where = t[2:]
        elif t.startswith("--directory="):
            where = t.split("=", 1)[1]
        elif name in ("tar", "bsdtar", "gtar") and t.startswith("-C") and len(t) > 2:
            where = t[2:]
    return where
