"""Copies carry a file's known text and taint to where they land.

``echo CODE > a; cp a b; sh b`` runs CODE: every way a command copies a file's bytes to
another path gives the destination the source's entry in ``run.file_text`` (the static text
written earlier in the command) and ``run.files`` (its taint), so everything that reads a
written file (``sh F``, ``./F``, ``source F``, interpreters, ``sed -f``, ``xargs -a``, git
hooks, ``~/.psqlrc``, ``.npmrc``...) sees the copy too. This is the same file model, only
followed through the copy:

- ``cp``/``mv``/``install``/``ln`` (and ``ln -s``, a link reads as its target), ``rsync``
  and ``scp`` between local paths: ``SRC DST`` writes ``DST`` (or ``DST/BASENAME`` when
  ``DST`` is a directory, which is not known statically: both are recorded), ``-t DIR``,
  ``--target-directory=DIR``, ``DIR/`` and several sources write ``DIR/BASENAME``; a
  directory's files move with it (``cp -r d e``: ``d/x`` lands at ``e/x`` and ``e/d/x``);
  ``mv`` leaves no text behind at its source.
- a link (``ln``, ``cp -s``/``-l``) stays one file with its target (``run.links``): a write
  to either end, or under a linked directory, lands at both (``write_links``), and a write
  through a link is checked as a write to its target (``ln -s ~/.bashrc x; echo C >> x``).
- streams (``cat a > b``, ``tee``, ``dd``, ``sponge``, text tools): see ``_copystreams``.

A copy whose source text is not known keeps the destination's old text, as the copy may
fail or not clobber (``cp -n``): the old text is still the best guess of what runs. A copy
that may leave the old file in place (``-n``, ``-u``, ``--update``) keeps both texts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from ._archives import ARCHIVERS, archive_copy
from ._checks import check_write
from ._copymore import MORE_COPIERS, backup_suffix, more_copy, move_to_backup
from ._deletes import check_rm
from ._dests import copy_operands
from ._files import file_taint
from ._findcopy import find_copies
from ._flow import Flow
from ._paths import norm_path
from ._resolve import Invocation
from ._shellcopy import SHELL_COPIERS, shell_copy
from ._words import Field, Taint

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["COPY_TOOLS", "STDIN_PATHS", "appended", "cap_text", "copy_files",
           "delete_through_links", "land", "resolve_link", "same_file",
           "write_links"]

# Short options that take a value (the rest of the cluster or the next word).
_LETTERS = {"cp": "St", "mv": "St", "ln": "St", "install": "mogSt", "rsync": "eBfTM",
            "scp": "cDFiJloPSX"}
_ALIASES = {"gcp": "cp", "gmv": "mv", "ginstall": "install", "gln": "ln"}
COPY_TOOLS = frozenset(_LETTERS) | frozenset(_ALIASES) | MORE_COPIERS | ARCHIVERS | {"find"}

# rsync's long options that take the next word as their value.
_RSYNC_VALUES = frozenset({
    "--exclude", "--include", "--exclude-from", "--include-from", "--files-from", "--filter",
    "--rsh", "--rsync-path", "--temp-dir", "--compare-dest", "--copy-dest", "--link-dest",
    "--backup-dir", "--suffix", "--chmod", "--chown", "--usermap", "--groupmap",
    "--log-file", "--log-file-format", "--out-format", "--partial-dir", "--password-file",
    "--port", "--timeout", "--contimeout", "--max-size", "--min-size", "--max-delete",
    "--bwlimit", "--block-size", "--modify-window", "--iconv", "--info", "--debug",
    "--address", "--remote-option", "--write-batch", "--only-write-batch", "--read-batch",
    "--sockopts", "--outbuf", "--checksum-choice", "--compress-choice", "--compress-level",
    "--skip-compress", "--stop-after", "--stop-at", "--protocol", "--checksum-seed"})
# Options under which a copy may leave the destination's old file in place.
_KEEPS_OLD = frozenset({"n", "u", "--no-clobber", "--update", "--ignore-existing",
                        "--existing"})
_CP_LINKS = frozenset({"s", "l", "--symbolic-link", "--link"})  # cp -s/-l: links
STDIN_PATHS = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_RESERVE = 16384  # of the run's work budget, left for nested code (copies never spend it)
_MAX_LEN = 10000  # a text grown by appends and concatenation is cut to this (cap_text)
_LAND_COST = 16  # work units of one file landing under a copied directory
_MAX_TEXTS = 64  # as everywhere run.file_text grows
_MAX_FILES = 256  # as _files
_MAX_SOURCES = 16
_MAX_HOPS = 8  # links followed along a chain (the kernel allows 40; a few are plenty)
_MAX_SAME = 32  # paths found to name one file
_V = TypeVar("_V")


def _flags(args: list[Field], values: str) -> set[str]:
    """The short option letters and long option names before ``--`` (values skipped
    roughly: a letter that takes a value ends its cluster)."""
    out: set[str] = set()
    for f in args:
        t = f.text
        if t == "--":
            break
        if not f.static or not t.startswith("-") or t == "-":
            continue
        if t.startswith("--"):
            out.add(t.partition("=")[0])
            continue
        for letter in t[1:]:
            out.add(letter)
            if letter in values:
                break
    return out


def _join(directory: str, name: str) -> str:
    if directory == ".":
        return name  # the working directory's files have relative keys
    return directory + name if directory.endswith("/") else directory + "/" + name


def appended(old: str | None, text: str, producer: str | None) -> str:
    """A file's text after ``>> F``/``tee -a F`` appends ``text`` to ``old``. The known
    text of ``echo X`` leaves out its final newline (as ``$( )`` does): the appended text
    starts a new line, unless printf (whose text is exact) appends it."""
    if not old:
        return text
    return cap_text(old + text if old.endswith("\n") or producer == "printf" else
                old + "\n" + text)


def cap_text(text: str) -> str:
    """``text`` within the length limit: appends and concatenation (``cat a a > b; cat b b
    > a``) cannot grow a text much beyond the input's size. Its first and last lines are
    kept (a line appended after padding still runs)."""
    if len(text) <= _MAX_LEN:
        return text
    half = _MAX_LEN // 2
    head = text[:half]
    tail = text[-half:]
    cut = head.rfind("\n")
    start = tail.find("\n")
    return (head[:cut] if cut > 0 else head) + "\n" + (tail[start + 1:] if start >= 0 else tail)


def land(run: Run, path: str, text: str | None, taint: Taint, keep_old: bool,
          span: tuple[int, int]) -> None:
    """``path`` now holds ``text`` (None: unknown, the old text stays) and ``taint``."""
    texts = run.file_text
    if text is not None:
        old = texts.get(path)
        if old is not None and keep_old and old not in text:
            # either may be there: both are checked
            texts[path] = old if text in old else cap_text(old + "\n" + text)
        elif old is not None or len(texts) < _MAX_TEXTS:
            texts[path] = text
    if taint and (path in run.files or len(run.files) < _MAX_FILES):
        run.files[path] = run.files.get(path, frozenset()) | taint
    if run.links:
        write_links(run, path, span)


def write_links(run: Run, path: str, span: tuple[int, int]) -> None:
    """``path`` was just written: a link to it (or the file a link at ``path`` names)
    holds the same text and taint (``ln -s t l; echo CODE > t; sh l`` runs CODE); so
    does a file under a linked directory (``ln -s ~/.ssh s; echo KEY >> s/authorized_keys``).
    """
    text = run.file_text.get(path)
    taint = run.files.get(path)
    for other, link in same_file(run, path):
        if link is not None:  # ln -s ~/.bashrc x; echo CODE >> x: writes ~/.bashrc
            check_write(run.add, run.cp.paths, Field(other, span), None,
                        f"writes through the link {link} into")
        if text is not None and (other in run.file_text or len(run.file_text) < _MAX_TEXTS):
            run.file_text[other] = text
        if taint and (other in run.files or len(run.files) < _MAX_FILES):
            run.files[other] = run.files.get(other, frozenset()) | taint


def same_file(run: Run, path: str) -> list[tuple[str, str | None]]:
    """The other paths that name the file at ``path`` through links (``run.links``),
    followed in both directions along chains (``ln -s a b; ln -s b c``: a, b and c are one
    file) up to a small depth, each path once (a cycle ``ln -s a b; ln -s b a`` ends).
    Each comes with the link it was reached through when that step followed a link to its
    target (a write there goes *through* the link), else None. Steps past the first spend
    the run's work budget (a script of thousands of writes beside long chains stays
    linear); when it runs low only one step is followed."""
    out: list[tuple[str, str | None]] = []
    seen = {path}
    frontier = [path]
    for hop in range(_MAX_HOPS):
        ahead: list[str] = []
        for here in frontier:
            if hop:  # the first step is free; further ones spend the run's work budget
                cost = len(run.links)
                if run.budget <= cost + _RESERVE:
                    return out
                run.budget -= cost
            for link, target in run.links.items():
                other = _through(here, link, target)
                through = other is not None
                if other is None:
                    other = _through(here, target, link)
                if other is None or other in seen or len(seen) >= _MAX_SAME:
                    continue
                seen.add(other)
                ahead.append(other)
                out.append((other, link if through else None))
        if not ahead:
            break
        frontier = ahead
    return out


def resolve_link(run: Run, path: str) -> str | None:
    """What ``path`` (or a path under it) names once links on the way are followed to the
    end of their chain (``ln -s ~ h; ln -s h g``: ``g/x`` is ``~/x``); None when no link is
    on its way."""
    seen = {path}
    now = path
    for _ in range(_MAX_HOPS):
        nxt = None
        for link, target in run.links.items():
            nxt = _through(now, link, target)
            if nxt is not None:
                break
        if nxt is None or nxt in seen:
            break
        seen.add(nxt)
        now = nxt
    return None if now == path else now


def _through(path: str, start: str, end: str) -> str | None:
    """``path`` seen from the other end of a link: ``end`` when it is ``start``, ``end/X``
    when it is ``start/X``; None when it is not under ``start``."""
    if path == start:
        return end
    if start == "/":
        rest = path if path[:1] == "/" else None
    else:
        rest = path[len(start):] if path.startswith(start) and \
            path[len(start):len(start) + 1] == "/" else None
    return None if rest is None else end.rstrip("/") + rest


def delete_through_links(run: Run, inv: Invocation) -> None:
    """``ln -s ~ h; rm -rf h/`` deletes the home directory's files: an operand under a link
    (or the link with a trailing slash, which rm follows) is checked as its target."""
    args: list[Field] = []
    for f in inv.args:
        path = norm_path(f.text, run.cwd) if f.text[:1] != "-" else None
        seen = None
        if path is not None:
            for link, target in run.links.items():
                if path != link or f.text.endswith(("/", "/.", "/*")):
                    seen = _through(path, link, target)
                if seen is not None:
                    seen = resolve_link(run, seen) or seen  # ln -s ~ h; ln -s h g; rm -rf g/
                    break
        if seen is not None:
            args.append(Field(seen + ("/*" if f.text.endswith("/*") and
                                      not seen.endswith("/*") else ""), f.span))
        elif f.text[:1] == "-":
            args.append(f)
    if len(args) > sum(f.text[:1] == "-" for f in args):
        check_rm(run.add, Invocation(inv.name, inv.word, args), None)


def copy_files(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``cp``/``mv``/``install``/``ln``/local ``rsync``/``scp``: each source's known text
    and taint (and those of the files under it) land at its destination."""
    name = _ALIASES.get(inv.name, inv.name)
    args = inv.args
    if name in SHELL_COPIERS:
        shell_copy(run, inv)  # ln -s "$(which sh)" /tmp/ls: ls runs sh (_shellcopy)
    if not (run.file_text or run.files or run.links) and name != "ln" and (
            stdin is None or (stdin.text is None and not stdin.taint)) and not any(
            f.proc or (f.text[:1] == "-" and name == "cp" and (
                "s" in f.text or "l" in f.text)) for f in args):
        return  # nothing known to carry (cp .env.example .env); cp -s/-l make links
    if name == "find":  # find D -name x -exec cp {} E \; (_findcopy)
        for sub in find_copies(run, inv):
            copy_files(run, sub, None)
        return
    if name in ARCHIVERS:  # tar c a | tar x -C d, cpio -p d (_archives)
        archive_copy(run, inv, stdin)
        return
    if name in MORE_COPIERS:  # git mv, ditto: as mv, cp -R (_copymore)
        more = more_copy(inv)
        if more is None:
            return
        inv, name, args = more, more.name, more.args
    if name in ("rsync", "scp"):
        if any(":" in f.text.split("/", 1)[0] for f in args if f.text[:1] != "-"):
            return  # a remote end (track_writes records a fetch): not a local copy
        if name == "rsync":
            args = _rsync_args(args)
    letters = _LETTERS[name]
    flags = _flags(args, letters)
    if name == "install" and ("d" in flags or "--directory" in flags):
        return  # install -d DIR...: creates directories
    target, operands = copy_operands(Invocation(name, inv.word, args), letters)
    if target is not None:
        sources, dest, into = operands, target, True
    elif len(operands) < 2:
        return
    else:
        sources, dest = operands[:-1], operands[-1]
        into = len(sources) > 1 or dest.text.endswith(("/", "/.", "/..")) or \
            dest.text in (".", "..", "~")  # cp x . / cp x ~: a directory
    dest_path = norm_path(dest.text, run.cwd)
    if dest_path is None:
        return
    as_file = "T" in flags or "--no-target-directory" in flags or (
        name == "install" and "D" in flags)
    symlink = name == "ln" and ("s" in flags or "--symbolic" in flags) and \
        "r" not in flags and "--relative" not in flags
    keep_old = not _KEEPS_OLD.isdisjoint(flags)
    backup = backup_suffix(run, inv.args, letters, name == "rsync") if "b" in flags or \
        "--backup" in flags else None  # cp -b: the old destination moves to DEST~
    link_dir = dest_path if into else (dest_path.rpartition("/")[0] if "/" in dest_path
                                       else ".")
    parents = "--parents" in flags and name == "cp"
    links = name == "ln" or (name == "cp" and not _CP_LINKS.isdisjoint(flags))
    for src in sources[:_MAX_SOURCES]:
        streamed = _streamed(run, src, stdin)
        if streamed is not None:  # cp <(echo CODE) f, echo CODE | cp /dev/stdin f
            if not into:
                land(run, dest_path, streamed.text, streamed.taint, keep_old, inv.word.span)
            continue
        text = src.text
        if symlink and text and not text.startswith(("/", "~")) and link_dir != ".":
            text = _join(link_dir, text)  # ln -s ../x DIR/link: ../x from DIR
        path = norm_path(text, run.cwd)
        if path is None:
            continue
        base = path.rpartition("/")[2]
        places = [] if into else [dest_path]
        if parents and not path.startswith("~"):
            places = [_join(dest_path, path.lstrip("/"))]  # cp --parents a/b d: d/a/b
        elif not as_file and base and base not in (".", "..", "~"):
            places.append(_join(dest_path, base))
        # rsync d/ e: the files under d land in e itself
        tree = places if not src.text.endswith("/") or dest_path in places else \
            [*places, dest_path]
        if name != "cp":
            for place in places:
                run.links.pop(place, None)  # ln -sf, mv, install: a link there is replaced
        if backup is not None:
            for place in places:
                move_to_backup(run, place, backup)
        if tree:
            _carry(run, path, places, tree, keep_old, inv.word.span)
        if links and len(run.links) < _MAX_SOURCES:
            for place in places:  # the link reads as its target from now on
                run.links[place] = path
        if name == "mv" and not keep_old and path != ".":
            _forget(run, path)


def _streamed(run: Run, f: Field, stdin: Flow | None) -> Flow | None:
    """What a source that is a stream reads: a process substitution's output, or stdin
    named as a file (``/dev/stdin``); None for any other source."""
    if f.proc:
        return Flow(f.taint, "a process substitution", f.span, run.proc_output(f.span))
    if f.text in STDIN_PATHS:
        return stdin if stdin is not None else Flow()
    return None


def _carry(run: Run, path: str, places: list[str], tree: list[str], keep_old: bool,
           span: tuple[int, int]) -> None:
    """The text and taint of ``path`` land at each of ``places``, those of the files under
    it under each of ``tree``."""
    text = run.file_text.get(path)
    taint = file_taint(run.files, path)
    for place in places:
        land(run, place, text, taint, keep_old, span)
    cost = len(run.file_text) + len(run.files)
    if run.budget <= cost + _RESERVE:  # a script of thousands of copies stays linear
        return
    run.budget -= cost
    under = _under(run.file_text, path)
    tainted = _under(run.files, path)
    cost = _LAND_COST * (len(under) + len(tainted)) * len(tree)
    if run.budget <= cost + _RESERVE:
        return
    run.budget -= cost
    prefix = "" if path == "." else path.rstrip("/") + "/"
    for place in tree:
        for key, value in under:
            land(run, _join(place, key[len(prefix):]), value, frozenset(), keep_old, span)
        for key, taint in tainted:
            land(run, _join(place, key[len(prefix):]), None, taint, keep_old, span)


def _under(entries: dict[str, _V], path: str) -> list[tuple[str, _V]]:
    """The entries of files under directory ``path`` (``.``: the unknown working directory,
    whose files have relative keys)."""
    if path == ".":
        return [(k, v) for k, v in entries.items() if not k.startswith(("/", "~"))]
    prefix = path.rstrip("/") + "/"
    return [(k, v) for k, v in entries.items() if k.startswith(prefix)]


def _forget(run: Run, path: str) -> None:
    """``mv`` took the file (and what is under it) away: no text is left there."""
    run.file_text.pop(path, None)
    for key, _ in _under(run.file_text, path):
        del run.file_text[key]


def _rsync_args(args: list[Field]) -> list[Field]:
    """rsync's arguments without its long options' separate values (``--exclude .git``)."""
    out: list[Field] = []
    skip = False
    for f in args:
        if skip:
            skip = False
        elif f.text == "--":
            out.append(f)
            skip = False
        elif f.text in _RSYNC_VALUES:
            skip = True
        else:
            out.append(f)
    return out
