"""Programs that pipe data into a command given in an option: tar's filters.

``tar --to-command=CMD`` runs CMD once per archive member with the member's contents on
its stdin (``tar xf x.tar --to-command=sh`` runs every archived file as a shell script,
like ``tar -xOf x.tar | sh``); ``tar -I CMD``/``--use-compress-program=CMD`` pipes the
archive through CMD. The command is classified as shell code whose stdin is the archive's
data (fetched when the archive was, or when tar reads a fetched stdin), so a shell or an
interpreter there is a pipe into a shell; a real compressor (``-I zstd``) or a checksum
(``--to-command=md5sum``) reads data and passes. tar's other command options
(``--checkpoint-action=exec=CMD``, ``--info-script``...) feed no data: ``_embedded`` finds
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import file_taint
from ._flow import Flow
from ._paths import norm_path
from ._resolve import Invocation
from ._words import NO_TAINT, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["TAR_NAMES", "filter_codes", "tar_filters"]

TAR_NAMES = frozenset({"tar", "gtar", "bsdtar"})
_FILTER_LONG = ("--to-command", "--use-compress-program")
# tar's short options that take an argument (GNU tar), apart from -f and -I.
_SHORT_ARG = "bCgHKLNTVX"


def filter_codes(args: list[Field]) -> tuple[list[Field], Field | None]:
    """The filter commands of a tar command line, and its archive operand (``-f X``)."""
    codes: list[Field] = []
    archive: Field | None = None
    k = 0
    n = len(args)
    while k < n:
        f = args[k]
        t = f.text
        nxt = args[k + 1] if k + 1 < n else None
        if t == "--":
            break
        if t.startswith("--"):
            opt, eq, value = t.partition("=")
            if opt in _FILTER_LONG:
                if eq:
                    codes.append(Field(value, f.span, f.taint))
                elif nxt is not None:
                    codes.append(nxt)
                    k += 1
            elif opt == "--file":
                if eq:
                    archive = Field(value, f.span, f.taint)
                elif nxt is not None:
                    archive = nxt
                    k += 1
        elif t.startswith("-") or k == 0:
            # -xzf X, or the old style first word `xf X` (its letters take the next words).
            letters = t[1:] if t.startswith("-") else t
            taken = 0
            for pos, c in enumerate(letters):
                if c in "fI" and (t.startswith("-") or k > 0):
                    rest = letters[pos + 1:]
                    if rest:
                        value_f = Field(rest, f.span, f.taint)
                    elif k + 1 + taken < n:
                        taken += 1
                        value_f = args[k + taken]
                    else:
                        break
                    if c == "f":
                        archive = value_f
                    else:
                        codes.append(value_f)
                    if rest:
                        break
                elif c in "fI":  # old style: each letter takes the next word in order
                    if k + 1 + taken < n:
                        taken += 1
                        if c == "f":
                            archive = args[k + taken]
                        else:
                            codes.append(args[k + taken])
                elif c in _SHORT_ARG and t.startswith("-"):
                    if pos + 1 == len(letters):
                        taken += 1
                    break
            k += taken
        k += 1
    return codes, archive


def tar_filters(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """Classify tar's filter commands with the archive's data on their stdin."""
    args = inv.args
    if not any(f.text.startswith(("--to-command", "--use-compress-program")) or (
            "I" in f.text and not f.text.startswith("--")) for f in args):
        return
    codes, archive = filter_codes(args)
    if not codes:
        return
    if archive is None or archive.text == "-":
        taint = stdin.taint if stdin is not None else NO_TAINT
    else:
        taint = file_taint(run.files, norm_path(archive.text, run.cwd)) | archive.taint
    data = Flow(taint, f"{inv.name} (the archive's contents)", inv.word.span)
    for code in codes:
        run.run_code(code, f"{inv.name} filter", inv.word.span, data, positional=[])
