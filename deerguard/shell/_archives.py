"""Archives carry the known text of the files they hold, through a file or a pipe.

``echo CODE > a.sh; tar cf - a.sh | tar xf - -C /tmp/d; sh /tmp/d/a.sh`` runs CODE: an
archive made in the command holds its members' known text (``run.file_text``) and taint
(``run.files``), and an extraction lands them under its directory, as ``_copies`` does for
a copy. The members of archive ``A`` (a path, or the output stream of the ``tar`` that made
it) are kept in the same file model under ``A/\\0/MEMBER``: no real path holds a NUL, so
nothing reads them as files, and a copy or move of ``A`` carries them with it.

- ``tar``/``gtar``/``bsdtar`` ``c`` (``-c``, ``--create``) with ``f FILE`` (``-`` or none:
  standard output), ``-C DIR`` before operands (they are read from DIR), operands a file
  or a directory (its known files under it); member names lose a leading ``/`` as tar's
  do. Compression (``z``, ``j``, ``J``...) keeps the text.
- ``x`` (``-x``, ``--extract``, ``--get``) from ``f FILE`` or standard input written by
  such a ``tar`` (``tar c a | tar x -C d``, ``tar c a | (cd d && tar x)``); ``-C DIR`` or
  the working directory; member operands select members. ``--strip-components``,
  ``--transform``, ``-T``/``--files-from`` and renaming options are not followed (the
  members stay where they are known: nothing lands).
- ``cpio -p DIR`` (pass-through) copies the files named on its stdin (a known text: ``echo
  a.sh | cpio -pd /tmp/d``) to ``DIR/NAME``.

An attacker gains nothing a plain ``cp`` would not give, but a round trip through an
archive is a copy the classifier did not see; ``zip``/``7z``/``cpio -o``/``-i`` and
archives piped through a compressor are left out (see the round report).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import file_taint
from ._flow import Flow
from ._paths import norm_path
from ._resolve import Invocation
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["ARCHIVERS", "archive_copy", "tar_spec"]

_TARS = frozenset({"tar", "gtar", "bsdtar"})
ARCHIVERS = _TARS | {"cpio"}
_SEP = "/\x00/"
_MAX_MEMBERS = 16
_MAX_WORDS = 64
_MAX_TEXTS = 64  # as everywhere run.file_text grows
_RESERVE = 16384  # of the run's work budget, left for nested code (as _copies)
# Short option letters of tar that take a value (the next word, or the rest of a cluster).
_TAR_VALUES = "fCbTXNLVgKH"
# Long options that take the next word when written without ``=``.
_TAR_LONG_VALUES = frozenset({
    "--file", "--directory", "--exclude", "--files-from", "--exclude-from", "--blocking-factor",
    "--newer", "--after-date", "--tape-length", "--label", "--listed-incremental", "--format",
    "--owner", "--group", "--mode", "--mtime", "--transform", "--xform", "--use-compress-program",
    "--strip-components", "--starting-file", "--suffix", "--to-command", "--volno-file",
    "--info-script", "--new-volume-script", "--rsh-command", "--record-size", "--sort"})
# Options that rename or select members in ways not followed here.
_RENAMES = frozenset({"--strip-components", "--transform", "--xform", "--files-from",
                      "--to-command", "--to-stdout", "--absolute-names", "--starting-file",
                      "--use-compress-program"})


class _Tar:
    __slots__ = ("mode", "archive", "directory", "operands", "renames")

    def __init__(self) -> None:
        self.mode = ""
        self.archive: str | None = None
        self.directory = "."
        self.operands: list[tuple[str, str]] = []  # (directory it is read from, operand)
        self.renames = False


def tar_spec(args: list[Field]) -> _Tar:
    """What ``tar ARGS`` does: its mode (``c``, ``x``, ``t`` or none), archive, operands with
    the ``-C`` directory each is read from, and whether renaming options are present."""
    spec = _Tar()
    take: list[str] = []  # letters or long options waiting for their value
    for index, f in enumerate(args[:_MAX_WORDS]):
        t = f.text
        if take:
            _value(spec, take.pop(0), t)
            continue
        if t.startswith("--"):
            key, eq, value = t.partition("=")
            if key in ("--create", "--extract", "--get"):
                spec.mode = "c" if key == "--create" else "x"
            elif key in ("--list", "--append", "--update", "--diff", "--delete"):
                spec.mode = "t"
            elif key in _RENAMES:
                spec.renames = True
            if key in _TAR_LONG_VALUES:
                if eq:
                    _value(spec, key, value)
                else:
                    take.append(key)
            continue
        if t.startswith("-") and len(t) > 1 or index == 0 and not t.startswith("-"):
            letters = t[1:] if t.startswith("-") else t
            old = not t.startswith("-")  # tar cf FILE: each value letter takes a word
            for k, letter in enumerate(letters):
                if letter in "cx":
                    spec.mode = letter
                elif letter in "trudA":
                    spec.mode = "t"
                elif letter in "PT":
                    spec.renames = True
                if letter in _TAR_VALUES:
                    rest = letters[k + 1:]
                    if old or not rest:
                        take.append(letter)
                    else:
                        _value(spec, letter, rest)
                        break
                    if not old:
                        break
            continue
        spec.operands.append((spec.directory, t))
    return spec


def _value(spec: _Tar, option: str, value: str) -> None:
    if option in ("f", "--file"):
        spec.archive = value
    elif option in ("C", "--directory"):
        spec.directory = value


def _stream_key(span: tuple[int, int]) -> str:
    return f"/\x00stream/{span[0]}-{span[1]}"


def archive_copy(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``tar c``/``tar x``/``cpio -p``: members' text and taint go into or out of the
    archive."""
    if inv.name == "cpio":
        _cpio(run, inv, stdin)
        return
    spec = tar_spec(inv.args)
    if spec.renames or not spec.mode or spec.mode == "t":
        return
    archive = spec.archive
    if spec.mode == "c":
        key = _stream_key(inv.word.span) if archive in (None, "-") else \
            norm_path(archive or "", run.cwd)
        if key is not None and DYN not in key:
            _create(run, key, spec.operands)
        return
    if archive in (None, "-"):
        if stdin is None or stdin.producer not in _TARS:
            return
        key = _stream_key(stdin.span)
    else:
        key = norm_path(archive or "", run.cwd) or ""
    _extract(run, key, spec, inv.word.span)


def _member(operand: str) -> str:
    """The name tar stores for an operand: a leading ``/`` (and ``./``) dropped."""
    name = operand.lstrip("/")
    while name.startswith("./"):
        name = name[2:]
    return "" if name in (".", "") else name.rstrip("/")


def _create(run: Run, key: str, operands: list[tuple[str, str]]) -> None:
    """The archive at ``key`` holds the known text of its operands (and of the files
    under them). Their taint needs nothing here: ``_files.track_writes`` already carries
    it to the archive and to where it is extracted."""
    texts = run.file_text
    cost = len(texts) * (len(operands) + 1) + 16
    if run.budget <= cost + _RESERVE:
        return  # a script of thousands of archives stays linear (as _copies)
    run.budget -= cost
    prefix = key + _SEP
    for old in [k for k in texts if k.startswith(prefix)]:
        del texts[old]  # a new archive at the same place
    count = 0
    keys = sorted(k for k in texts if "\x00" not in k)
    for directory, operand in operands[:_MAX_MEMBERS]:
        path = norm_path(operand if directory == "." or operand.startswith(("/", "~")) else
                         directory.rstrip("/") + "/" + operand, run.cwd)
        if path is None or DYN in path:
            continue
        member = _member(operand)
        found: list[tuple[str, str]] = []
        if member and path in texts:
            found.append((member, texts[path]))
        under = "" if path == "." else path.rstrip("/") + "/"
        for k in keys:
            if k.startswith(under) if under else not k.startswith(("/", "~")):
                rest = k[len(under):]
                found.append((member + "/" + rest if member else rest, texts[k]))
        for name, text in found:
            if count >= _MAX_MEMBERS or len(texts) >= _MAX_TEXTS:
                return
            count += 1
            texts[prefix + name] = text


def _extract(run: Run, key: str, spec: _Tar, span: tuple[int, int]) -> None:
    from ._copies import land  # _copies hooks this module in: imported when used

    prefix = key + _SEP
    members = sorted(k[len(prefix):] for k in run.file_text if k.startswith(prefix))
    wanted = [_member(t) for _, t in spec.operands]
    for name in members[:_MAX_MEMBERS]:
        if wanted and not any(name == w or name.startswith(w + "/") for w in wanted):
            continue
        where = name if spec.directory == "." else spec.directory.rstrip("/") + "/" + name
        path = norm_path(where, run.cwd)
        if path is not None and DYN not in path:
            land(run, path, run.file_text.get(prefix + name), frozenset(), False, span)


def _cpio(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``cpio -p DIR``: the files named on stdin, one a line, land under DIR."""
    from ._copies import land

    if stdin is None or stdin.text is None:
        return
    texts = [f.text for f in inv.args[:_MAX_WORDS]]
    if not any(t in ("-p", "--pass-through") or (
            t[:1] == "-" and t[1:2] != "-" and "p" in t) for t in texts):
        return
    dirs = [t for t in texts if not t.startswith("-")]
    if len(dirs) != 1:
        return
    for line in stdin.text.splitlines()[:_MAX_MEMBERS]:
        name = line.strip()
        source = norm_path(name, run.cwd)
        target = norm_path(dirs[0].rstrip("/") + "/" + _member(name), run.cwd)
        if not name or source is None or target is None or DYN in target:
            continue
        text = run.file_text.get(source)
        taint = file_taint(run.files, source)
        if text is not None or taint:
            land(run, target, text, taint, False, inv.word.span)
