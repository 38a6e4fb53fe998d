"""Files written in the same command: which ones hold fetched, decoded or secret data.

``curl -o x u && sh x`` is tracked where curl writes; this module tracks every other way a
file (or a whole directory) gets its contents: ``tee F`` and ``dd of=F`` write their stdin,
``cp``/``mv``/``install`` carry a tainted source's taint to the destination, ``scp``/``rsync``
from a remote host and ``aria2c`` download, ``git clone`` fills a directory with fetched files,
and ``tar x``/``unzip`` of a tainted archive or stream fill the extraction directory;
``split``/``csplit`` of a tainted file or stream write pieces that each hold part of it.

A directory is recorded as ``DIR/*`` (``*`` alone for the unknown working directory), a
splitter's pieces as ``PREFIX*`` (a file ``PREFIXaa``, a glob ``PREFIX*`` or a loop over it
reads them); :func:`file_taint` finds a file's taint through its own entry, a pieces entry
or any ancestor's, in time proportional to the path's depth and the number of entries.
"""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatchcase

from ._dests import copy_dests, extract_dir
from ._paths import norm_path
from ._resolve import Invocation
from ._words import DYN, NO_TAINT, Field, Source, Taint, Var

__all__ = ["basename_output", "clone_target", "dir_key", "download_name", "download_target",
           "file_taint", "in_dir", "mktemp_output", "output_words", "put_file", "track_writes"]

_ARCHIVERS = frozenset({"tar", "bsdtar", "gtar", "unzip", "zip", "7z", "7za", "cpio", "unrar",
                        "busybox-tar"})
_MAX_FILES = 256
# Present when some key records a splitter's pieces (``PREFIX*``): only then does a lookup
# that misses scan for them. Absolute, so no working-directory walk (``_copies``) carries it.
_PIECES = "/\x00pieces"
_SPLITTERS = frozenset({"split", "gsplit", "csplit", "gcsplit"})
_SPLIT_VALUES = frozenset("abClnt") | frozenset({
    "--suffix-length", "--bytes", "--line-bytes", "--lines", "--number", "--separator",
    "--additional-suffix", "--filter"})
_CSPLIT_VALUES = frozenset("bfn") | frozenset({"--suffix-format", "--prefix", "--digits"})


def dir_key(path: str) -> str:
    """The ``files`` key that stands for everything under directory ``path``."""
    return "*" if path in (".", "") else path.rstrip("/") + "/*"


def file_taint(files: dict[str, Taint], path: str | None) -> Taint:
    """The taint of ``path``: its own entry or that of a directory containing it."""
    if not files or path is None:
        return NO_TAINT
    hit = files.get(path)
    if hit:
        return hit
    if "*" in path or "?" in path or "[" in path:
        hit = _glob_taint(files, path)
        if hit:
            return hit
    elif _PIECES in files:
        hit = _piece_taint(files, path)
        if hit:
            return hit
    p = path
    for _ in range(64):
        if "/" not in p:
            return files.get("*", NO_TAINT) if not p.startswith(("/", "~")) else NO_TAINT
        p = p.rsplit("/", 1)[0]
        hit = files.get(dir_key(p) if p else "/*")
        if hit:
            return hit
    return NO_TAINT


def _glob_taint(files: dict[str, Taint], pattern: str) -> Taint:
    """``sh *.sh`` after ``curl -O u/i.sh``: a glob that can match a written file's name
    (component by component, as bash's globs never cross ``/``) runs that file."""
    parts = pattern.split("/")
    out: set[Source] = set()
    for key, taint in files.items():
        if key == "*" or key.endswith("/*"):
            continue  # a directory entry: file_taint walks the glob's ancestors for these
        kparts = key.split("/")
        if len(kparts) == len(parts) and all(
                fnmatchcase(k, p) and (p.startswith(".") or not k.startswith("."))
                for k, p in zip(kparts, parts, strict=True)):
            out.update(taint)
    return frozenset(out)


def _piece_taint(files: dict[str, Taint], path: str) -> Taint:
    """``curl -F f=@part_ab`` after ``split .env part_``: the pieces a splitter wrote are
    recorded as ``PREFIX*`` (their count is not known); a path under that name is one."""
    for key, taint in files.items():
        if key[-1:] == "*" and key[-2:] != "/*" and key != "*" and \
                path.startswith(key[:-1]) and "/" not in path[len(key) - 1:]:
            return taint
    return NO_TAINT


def _split_prefix(inv: Invocation) -> str | None:
    """The name prefix of the pieces ``split [FILE [PREFIX]]`` / ``csplit [-f PREFIX] FILE
    PATTERN...`` write (``x`` and ``xx`` by default; ``-`` or no FILE reads stdin); None
    when it is not static."""
    csplit = inv.name.endswith("csplit")
    values = _CSPLIT_VALUES if csplit else _SPLIT_VALUES
    prefix: str | None = "xx" if csplit else "x"
    operands: list[str] = []
    skip = False
    t_opt = ""
    for f in inv.args:
        t = f.text
        if skip:
            skip = False
            if csplit and t_opt in ("-f", "--prefix"):
                prefix = t
            continue
        if t.startswith("--") and len(t) > 2:
            key, eq, value = t.partition("=")
            if csplit and key == "--prefix" and eq:
                prefix = value
            skip, t_opt = key in values and not eq, key
        elif t.startswith("-") and len(t) > 1:
            for k in range(1, len(t)):  # -sf P, -fP, -b 100
                if t[k] in values:
                    t_opt = "-" + t[k]
                    if k + 1 < len(t):
                        prefix = t[k + 1:] if csplit and t[k] == "f" else prefix
                    else:
                        skip = True
                    break
        else:
            operands.append(t)
    if not csplit and len(operands) > 1:
        prefix = operands[1]
    if prefix is None or DYN in prefix or any(c in prefix for c in "*?["):
        return None
    return prefix


def put_file(files: dict[str, Taint], path: str | None, taint: Taint) -> None:
    """Record that ``path`` now also holds ``taint`` (within the run's cap on files)."""
    if path is not None and taint and len(files) < _MAX_FILES:
        files[path] = files.get(path, NO_TAINT) | taint


def download_name(url: str) -> str:
    """The file name a download of ``url`` gets by default (its last path segment)."""
    return url.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]


def _operands(args: list[Field]) -> list[Field]:
    out: list[Field] = []
    ended = False
    for f in args:
        if not ended and f.text == "--":
            ended = True
        elif ended or not f.text.startswith("-") or f.text == "-":
            out.append(f)
    return out


def _is_remote(text: str) -> bool:
    """``host:path`` or ``user@host:path`` or ``rsync://``: a source on another machine."""
    if "://" in text:
        return True
    head = text.split("/", 1)[0]
    return ":" in head and not text.startswith(("/", "./", "~"))


def track_writes(run_files: dict[str, Taint], inv: Invocation, taint: Taint,
                 source: Source, cwd: str | None) -> None:
    """Record the files ``inv`` writes with ``taint`` (what it read) or fetched data.

    ``source`` names the program, used when it fetches (scp/rsync/git/aria2c).
    """
    name = inv.name
    args = inv.args
    fetched = frozenset({Source("fetch", source.program, source.span)})
    if name in ("tee", "sponge") and taint:
        for f in _operands(args):
            put_file(run_files, norm_path(f.text, cwd), taint)
    elif name == "dd" and taint:
        for f in args:
            if f.text.startswith("of="):
                put_file(run_files, norm_path(f.text[3:], cwd), taint)
    elif name in ("cp", "mv", "install", "ln") and taint:
        for f in copy_dests(inv, cwd, deep=True)[0]:
            if not f.text.endswith("/*"):  # the file itself, or DIR/BASENAME of a source
                put_file(run_files, norm_path(f.text, cwd), taint)
    elif name in ("scp", "rsync", "sftp"):
        ops = _operands(args)
        if len(ops) >= 2 and any(_is_remote(f.text) for f in ops[:-1]):
            dest = norm_path(ops[-1].text, cwd)
            if dest is not None and not _is_remote(ops[-1].text):
                put_file(run_files, dest, fetched)
                put_file(run_files, dir_key(dest), fetched)
    elif name == "git":
        _git_clone(run_files, args, fetched, cwd)
    elif name in _SPLITTERS and taint:  # split -b 100 .env part_: part_aa, part_ab...
        prefix = _split_prefix(inv)
        path = norm_path(prefix, cwd) if prefix else None
        if path is not None and not path.endswith("/"):
            put_file(run_files, path + "*", taint)
            put_file(run_files, _PIECES, taint)
    elif name in _ARCHIVERS and taint:
        if name != "zip":
            _extract(run_files, inv, taint, cwd)
        _archive_out(run_files, inv, taint, cwd)


def _git_clone(files: dict[str, Taint], args: list[Field], fetched: Taint,
               cwd: str | None) -> None:
    target = clone_target(args)
    if target is None:
        return
    path = norm_path(target.text, cwd)
    if path is not None:
        put_file(files, dir_key(path), fetched)


def clone_target(args: list[Field]) -> Field | None:
    """The directory ``git ... clone URL [DIR]`` creates (DIR, else the URL's last name),
    or None when ``args`` holds no clone. A name taken from the URL keeps the URL's span."""
    texts = [f.text for f in args]
    if "clone" not in texts:
        return None
    rest = args[texts.index("clone") + 1:]
    operands: list[Field] = []
    skip = False
    for f in rest:
        t = f.text
        if skip:
            skip = False
            continue
        if t in ("-b", "--branch", "-o", "--origin", "--depth", "-c", "--config",
                 "--reference", "--template", "-u", "--upload-pack", "--separate-git-dir",
                 "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--filter"):
            skip = True
            continue
        if not t.startswith("-"):
            operands.append(f)
    if not operands:
        return None
    if len(operands) > 1:
        return operands[1]
    url = operands[0]
    return Field(download_name(url.text).removesuffix(".git"), url.span, url.taint)


def _archive_out(files: dict[str, Taint], inv: Invocation, taint: Taint, cwd: str | None
                 ) -> None:
    """The archive ``tar cf FILE ...`` / ``zip FILE ...`` writes carries what it read."""
    texts = [f.text for f in inv.args]
    out: str | None = None
    if inv.name in ("unzip", "unrar", "cpio"):
        return
    if inv.name in ("zip", "7z", "7za"):
        ops = [t for t in texts if not t.startswith("-") and t not in ("a", "u")]
        out = ops[0] if ops else None
    else:
        for k, t in enumerate(texts):
            nxt = texts[k + 1] if k + 1 < len(texts) else None
            if t.startswith("--file="):
                out = t.split("=", 1)[1]
            elif (t == "--file" or (not t.startswith("--") and t.endswith("f") and (
                    t.startswith("-") or k == 0))) and nxt is not None:
                out = nxt
    if out and out != "-":
        put_file(files, norm_path(out, cwd), taint)


def _extract(files: dict[str, Taint], inv: Invocation, taint: Taint, cwd: str | None) -> None:
    where = extract_dir(inv)
    path = norm_path(where, cwd) if where is not None else None
    if path is not None:
        put_file(files, dir_key(path), taint)


def basename_output(name: str, texts: list[str]) -> str | None:
    """Static output of ``basename PATH [SUFFIX]`` / ``dirname PATH``; None for options."""
    if texts[0].startswith("-") or len(texts) > 2 or DYN in "".join(texts):
        return None
    path = texts[0].rstrip("/") or "/"
    if path == "~" or (path.startswith("~") and "/" not in path):
        # The home directory itself: its parent is /home, /Users or / (root's), its name
        # the user's; neither is known statically.
        return "/" + DYN if name == "dirname" else DYN
    if name == "dirname":
        return (path.rsplit("/", 1)[0] or "/") if "/" in path else "."
    if path in (".", ".."):
        return DYN  # $(basename $PWD): the working directory's name, not known statically
    base = path.rsplit("/", 1)[-1] or "/"
    if len(texts) == 2 and base != texts[1] and base.endswith(texts[1]):
        base = base[:-len(texts[1])]
    return base


def in_dir(texts: list[str], file: str) -> str:
    """aria2c's output file inside its ``-d DIR`` / ``--dir=DIR``."""
    for index, t in enumerate(texts):
        if t in ("-d", "--dir") and index + 1 < len(texts):
            return texts[index + 1].rstrip("/") + "/" + file
        if t.startswith("--dir="):
            return t.split("=", 1)[1].rstrip("/") + "/" + file
    return file


# Short options of curl/wget that take a value (the rest of the cluster, or the next word).
_CURL_VALUE = frozenset("AbcCdDeEFHKmoPQrTtuUwxXyYz")
_WGET_VALUE = frozenset("oaiBtOTwQPUelARDIX")


def _short_values(t: str, nxt: str | None, value_letters: frozenset[str]
                  ) -> tuple[list[tuple[str, str | None]], bool]:
    """The letters of a short-option cluster with their values, and whether the next word
    was taken as a value: ``-sLoi.sh`` is ``[(s, None), (L, None), (o, "i.sh")]``;
    ``-sSLo FILE`` takes FILE as o's value."""
    out: list[tuple[str, str | None]] = []
    k = 1
    while k < len(t):
        letter = t[k]
        if letter in value_letters:
            attached = t[k + 1:]
            out.append((letter, attached or nxt))
            return out, not attached
        out.append((letter, None))
        k += 1
    return out, False


def _download_options(texts: list[str], long_keys: tuple[str, str], flags: frozenset[str],
                      value_letters: frozenset[str], letters: tuple[str, str]
                      ) -> tuple[str | None, str | None, bool, list[str]]:
    """Scan curl/wget options: (output file, output directory, remote-name flag, operands).

    ``long_keys`` are the long options for the file and the directory (``--output``,
    ``--output-dir``), ``letters`` the short ones (``o``, none for curl's directory). The
    first output file wins (as both tools do); a later directory replaces an earlier one.
    """
    out: str | None = None
    out_dir: str | None = None
    remote_name = False
    operands: list[str] = []
    skip = False
    for index, t in enumerate(texts):
        if skip:
            skip = False
            continue
        nxt = texts[index + 1] if index + 1 < len(texts) else None
        if t.startswith("--"):
            key, eq, given = t.partition("=")
            if key in long_keys:
                val = given if eq else nxt
                skip = not eq
                if val is not None and key == long_keys[0]:
                    out = out if out is not None else val
                elif val is not None:
                    out_dir = val
            elif key in flags:
                remote_name = True
            continue
        if not t.startswith("-") or len(t) < 2:
            operands.append(t)  # a URL (curl takes host/path without a scheme too)
            continue
        pairs, skip = _short_values(t, nxt, value_letters)
        for letter, value in pairs:
            if letter == "O" and value is None:
                remote_name = True  # curl -O (wget's -O takes a file, handled below)
            elif letter == letters[0] and value is not None and out is None:
                out = value
            elif letter == letters[1] and value is not None:
                out_dir = value
    return out, out_dir, remote_name, operands


def _curl_target(texts: list[str], remote: str) -> str | None:
    out, out_dir, remote_name, operands = _download_options(
        texts, ("--output", "--output-dir"), frozenset({"--remote-name", "--remote-name-all"}),
        _CURL_VALUE, ("o", ""))
    if out is not None:
        if out == "-":
            return None
        return out if out_dir is None or out.startswith("/") else \
            out_dir.rstrip("/") + "/" + out
    if remote_name and remote == "index.html" and operands:
        remote = download_name(operands[0]) or remote
    if remote_name:
        return remote if out_dir is None else out_dir.rstrip("/") + "/" + remote
    return None


def _wget_target(texts: list[str], remote: str) -> str | None:
    out, prefix, _, _ = _download_options(
        texts, ("--output-document", "--directory-prefix"), frozenset(), _WGET_VALUE,
        ("O", "P"))
    if out is not None:
        return None if out == "-" else out
    return remote if prefix is None else prefix.rstrip("/") + "/" + remote


_OUTPUT_OPTION = {"curl": ("--output", "o", _CURL_VALUE),
                  "wget": ("--output-document", "O", _WGET_VALUE)}


def output_words(name: str, texts: list[str]) -> frozenset[int]:
    """The words that name the file curl/wget writes its download to (``-o F``, ``-sSLo F``,
    ``-oF``, ``--output=F``; wget's ``-O F``): written, never read or sent."""
    spec = _OUTPUT_OPTION.get(name)
    if spec is None:
        return frozenset()
    long_key, letter, value_letters = spec
    found: set[int] = set()
    skip = False
    for index, t in enumerate(texts):
        if skip:
            skip = False
            continue
        if t.startswith("--"):
            key, eq, _ = t.partition("=")
            if key == long_key:
                found.add(index if eq else index + 1)
                skip = not eq
            continue
        if not t.startswith("-") or len(t) < 2:
            continue
        nxt = texts[index + 1] if index + 1 < len(texts) else None
        pairs, skip = _short_values(t, nxt, value_letters)
        if pairs and pairs[-1][0] == letter and pairs[-1][1] is not None:
            found.add(index + 1 if skip else index)
    return frozenset(found)


def download_target(name: str, texts: list[str]) -> str | None:
    """The file curl/wget writes (``-o F``, ``-oF``, ``-sLoF``, ``-O`` with
    ``--output-dir``, wget's default under ``-P``), or None for stdout."""
    url = next((t for t in texts if "://" in t or t.startswith("www.")), None)
    if url is None:  # a URL without a scheme: the last operand that looks like host/path
        url = next((t for t in reversed(texts) if "/" in t and not t.startswith(("-", "@"))
                    and "." in t.split("/", 1)[0]), None)
    remote = (download_name(url) if url else "") or "index.html"
    if name == "curl":
        return _curl_target(texts, remote)
    if name == "wget":
        return _wget_target(texts, remote)
    if name == "aria2c":
        for index, t in enumerate(texts):
            nxt = texts[index + 1] if index + 1 < len(texts) else None
            if t in ("-o", "--out") and nxt is not None:
                return in_dir(texts, nxt)
            if t.startswith("--out="):
                return in_dir(texts, t.split("=", 1)[1])
        return in_dir(texts, remote)
    return None


def mktemp_output(texts: list[str], env: Mapping[str, Var]) -> str:
    """The path ``mktemp`` prints: a fresh name in ``-p DIR``/``--tmpdir``/``$TMPDIR``/``/tmp``
    (or the template's own directory), never an existing one. The random part is kept as the
    template's ``X`` characters: a static, fresh path (rm -rf "$(mktemp -d)" deletes nothing
    else)."""
    directory: str | None = None
    template = "tmp.XXXXXXXXXX"
    skip = False
    for k, t in enumerate(texts):
        if skip:
            skip = False
        elif t in ("-p", "--tmpdir"):
            directory = texts[k + 1] if k + 1 < len(texts) else None
            skip = True
        elif t.startswith("--tmpdir="):
            directory = t.partition("=")[2]
        elif t.startswith("-p") and len(t) > 2:
            directory = t[2:]
        elif not t.startswith("-"):
            template = t
    if "/" in template and directory is None:
        return template
    if not directory:
        tmpdir = env.get("TMPDIR")
        directory = tmpdir.alts[0] if tmpdir is not None and len(tmpdir.alts) == 1 else "/tmp"
    return directory.rstrip("/") + "/" + template.rsplit("/", 1)[-1]
