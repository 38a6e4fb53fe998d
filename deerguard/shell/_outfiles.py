"""Files that ordinary programs write through an output option or operand.

``sort -o ~/.bashrc x``, ``openssl enc -d -in x -out /tmp/i.sh``, ``xxd -r x.hex ~/.bashrc``,
``gpg -d x.gpg -o ~/.profile``, ``uniq in ~/.ssh/authorized_keys``, ``patch ~/.bashrc fix.diff``,
``gcc -o /usr/bin/ls x.c``, ``sd OLD NEW ~/.zshrc``, ``yq -i EXPR /etc/x.yaml``,
``sqlite3 db '.output ~/.bashrc'`` and ``scp a ~/.bashrc`` (both operands local) write those
files as surely as ``>`` or ``tee`` does. :func:`written_files` names the words that are such
outputs, read from each tool's option table (so ``sort -k 2 -o F``, ``--output=F``,
``-oF`` and ``-uo F`` all name ``F`` and ``sort -k o`` does not); the caller checks each as a
write (startup files, sudoers, cron, system paths, protected paths) and records what the
file now holds (the data the tool read, and decoded data when it decodes), so a file
decoded and then run is decoded data reaching a shell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._checks import check_write
from ._dests import copy_dests
from ._files import put_file
from ._optwalk import operand_fields, walk_options
from ._paths import candidate_paths, norm_path
from ._resolve import Invocation
from ._words import Field, Taint

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["OUTFILE_TOOLS", "REMOTE_COPIERS", "not_written", "record_written",
           "remote_check", "remote_persistence", "remote_writes", "written_files"]

# A write on another machine is judged by the files that make code run later there
# (startup files, authorized_keys, cron, sudoers, systemd units): deploying to its /etc or
# /usr/local/bin is ordinary operations work.

# GNU-style tools: (short letters that take a value, long options that take the next word,
# letters whose value is a written file, long options whose value is one, the index of the
# operand that is written or None).
_GNU: dict[str, tuple[str, frozenset[str], str, frozenset[str], int | None]] = {
    "sort": ("kotTS", frozenset({"--key", "--output", "--field-separator", "--buffer-size",
                                 "--temporary-directory", "--files0-from", "--batch-size",
                                 "--parallel", "--compress-program", "--random-source",
                                 "--sort"}), "o", frozenset({"--output"}), None),
    "uniq": ("fsw", frozenset({"--skip-fields", "--skip-chars", "--check-chars"}), "",
             frozenset(), 1),
    "iconv": ("fto", frozenset({"--from-code", "--to-code", "--output"}), "o",
              frozenset({"--output"}), None),
    # BSD/macOS base64 -i IN -o OUT (GNU's -w N takes a value too)
    "base64": ("iow", frozenset({"--input", "--output", "--wrap"}), "o",
               frozenset({"--output"}), None),
    "uudecode": ("o", frozenset({"--output-file"}), "o", frozenset({"--output-file"}), None),
    "zstd": ("oD", frozenset(), "o", frozenset(), None),
    "pg_dump": ("fFjnNtTZdhpUE", frozenset({"--file", "--format", "--jobs", "--schema",
                                            "--table", "--dbname", "--host", "--port",
                                            "--username", "--encoding"}), "f",
                frozenset({"--file"}), None),
    "pg_dumpall": ("fdhlpU", frozenset({"--file", "--dbname", "--host", "--port",
                                        "--username", "--database"}), "f",
                   frozenset({"--file"}), None),
    "sponge": ("", frozenset(), "", frozenset(), 0),
}
_PATCH_VALUES = "BDdFgioprVYz"
_PATCH_LONG = frozenset({"--prefix", "--ifdef", "--directory", "--fuzz", "--get", "--input",
                         "--output", "--strip", "--reject-file", "--version-control",
                         "--basename-prefix", "--suffix"})
# Tools whose options are whole words (no clusters): the words that are followed by the
# written file, and the prefixes that hold it (``-oFILE``, ``--output=FILE``).
_WORDS: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "openssl": (frozenset({"-out"}), ()),
    "gpg": (frozenset({"-o", "--output"}), ("--output=",)),
    "gpg2": (frozenset({"-o", "--output"}), ("--output=",)),
    "pandoc": (frozenset({"-o", "--output"}), ("--output=",)),
    "exiftool": (frozenset({"-o", "-out"}), ()),
    "git": (frozenset({"--output"}), ("--output=",)),
    "go": (frozenset({"-o", "--o"}), ("-o=", "--o=")),
    **{cc: (frozenset({"-o"}), ("-o",)) for cc in (
        "gcc", "cc", "g++", "c++", "clang", "clang++", "tcc", "rustc", "ld", "as")},
}
_XXD_VALUED = frozenset({"-c", "-cols", "-g", "-groupsize", "-l", "-len", "-n", "-name",
                         "-o", "-offset", "-s", "-seek", "-R"})
_SCP_VALUED = frozenset({"-c", "-F", "-i", "-J", "-l", "-o", "-P", "-S", "-X", "-D"})
_SQLITE_WRITES = frozenset({".output", ".once", ".save", ".backup"})
_YQ_VALUES = "opIfs"
_YQ_LONG = frozenset({"--output-format", "--input-format", "--indent", "--front-matter",
                      "--split-exp", "--expression"})
_YQ_SUBS = frozenset({"e", "eval", "ea", "eval-all"})

# Copy tools whose destination may be another machine or a container (HOST:PATH, CTR:PATH).
REMOTE_COPIERS = frozenset({"scp", "rsync", "kubectl", "oc", "docker", "podman"})
_RSYNC_VALUED = frozenset({"-e", "--rsh", "-f", "--filter", "--exclude", "--include", "-T",
                           "--temp-dir", "--chmod", "--chown", "-B", "--block-size",
                           "--partial-dir", "--log-file", "--password-file", "--port",
                           "--exclude-from", "--include-from", "--files-from", "-M",
                           "--remote-option", "--rsync-path", "--backup-dir", "--suffix",
                           "--compare-dest", "--copy-dest", "--link-dest", "--timeout",
                           "--bwlimit", "--max-size", "--min-size", "--out-format"})
_CONTAINER_VALUED = frozenset({"-c", "--container", "-n", "--namespace", "--context",
                               "--kubeconfig", "--retries"})

OUTFILE_TOOLS = frozenset({*_GNU, *_WORDS, "xxd", "patch", "sd", "yq", "sqlite3", "scp"})
"""Every program :func:`written_files` reads."""


def written_files(inv: Invocation, cwd: str | None = None) -> list[Field]:
    """The files ``inv`` writes through its output options or operands (static or not:
    the write check reads what is known)."""
    name = inv.name
    args = inv.args
    if name in _GNU:
        short, long, out_short, out_long, operand = _GNU[name]
        return _gnu_outputs(args, short, long, out_short, out_long, operand)
    if name in _WORDS:
        return _word_outputs(args, *_WORDS[name])
    if name == "xxd":  # xxd [options] [INFILE [OUTFILE]]
        ops = operand_fields(args, _XXD_VALUED)
        return ops[1:2]
    if name == "patch":
        return _patch_outputs(args)
    if name == "sd":  # sd [-p] FIND REPLACE FILES...: in place unless previewing
        if any(f.text in ("-p", "--preview") for f in args):
            return []
        return _walk_operands(args, "fn", frozenset({"--flags", "--max-replacements"}))[2:]
    if name == "yq":
        return _yq_outputs(args)
    if name == "sqlite3":
        return _sqlite_outputs(args)
    if name == "scp":
        ops = operand_fields(args, _SCP_VALUED)
        if len(ops) >= 2 and not any(":" in f.text for f in ops):  # both ends on this host
            return copy_dests(Invocation("cp", inv.word, ops), cwd)[0]
    return []


def remote_writes(inv: Invocation) -> list[tuple[str, Field]]:
    """``(where, path)`` for each file ``inv`` copies onto another machine or into a
    container: ``scp F host:.bashrc`` writes the remote ``~/.bashrc`` (a relative remote
    path is under the login's home), ``rsync F host:.ssh/authorized_keys``, ``kubectl cp F
    pod:/etc/x``, ``docker cp F ctr:/etc/profile.d/x.sh`` (absolute container paths only:
    a relative one is under a working directory not known here). A destination directory
    also names ``DIR/*`` and each source's name in it, as for ``cp``."""
    name = inv.name
    args = inv.args
    container = name not in ("scp", "rsync")
    if container:
        if not args or args[0].text != "cp":
            return []
        ops = operand_fields(args[1:], _CONTAINER_VALUED)
    else:
        ops = operand_fields(args, _SCP_VALUED if name == "scp" else _RSYNC_VALUED)
    if len(ops) < 2:
        return []
    dest = ops[-1]
    text = dest.text
    head, colon, path = text.partition(":")
    if not colon or "/" in head or not head or "://" in text or path.startswith(":"):
        return []  # a local destination, rsync://host or host::module (a daemon's module)
    if container:
        if not path.startswith("/"):
            return []
    elif not path.startswith(("/", "~")):
        path = "~/" + path if path else "~"
    where = head.rpartition("@")[2]
    remote = Field(path, dest.span, dest.taint, dest.proc)
    sources = [f for f in ops[:-1] if ":" not in f.text.split("/", 1)[0]]
    if len(sources) == 1 and not path.endswith("/"):
        # scp F host:PATH: PATH, or PATH/NAME when PATH is a folder (DIR/* matters only
        # for a folder copied whole, which names no file here)
        name = sources[0].text.rstrip("/").rpartition("/")[2]
        return [(where, remote), (where, Field(path.rstrip("/") + "/" + name, dest.span,
                                               dest.taint, dest.proc))]
    dests = copy_dests(Invocation("cp", inv.word, [*sources, remote]))[0] if sources else [
        remote]
    return [(where, f) for f in dests if not f.text.endswith("/*")]


def remote_persistence(run: Run, inv: Invocation) -> None:
    """Report the files :func:`remote_writes` names that make code run later there."""
    for where, f in remote_writes(inv):
        remote_check(run, f, f"{inv.name} writes on {where}")


def remote_check(run: Run, path: Field, how: str) -> None:
    """Check a write of ``path`` on another machine (a path under ``~`` is under the
    login's home there) against the files that make code run later (persistence)."""
    rules = run.cp.paths
    for p in candidate_paths(path.text, None):
        if rules.match(p, "persistence"):
            run.add("shell.persistence", path.span, f"{how} {p}, which makes code run later "
                    "there", None)
            return


def not_written(args: list[Field], written: list[Field]) -> list[Field]:
    """``args`` less the words that only name a written file (``sort -o /etc/sudoers x``
    reads ``x``, not ``/etc/sudoers``)."""
    spans = {f.span for f in written}
    return [f for f in args if f.span not in spans] if spans else args


def record_written(run: Run, inv: Invocation, written: list[Field], taint: Taint) -> None:
    """Check each written file as a write, and remember what it now holds: ``taint``, the
    tool's output flow (what it read, fetched or decoded)."""
    for f in written:
        check_write(run.add, run.cp.paths, f, run.cwd, f"{inv.name} writes")
        if taint:
            put_file(run.files, norm_path(f.text, run.cwd), taint)


def _gnu_outputs(args: list[Field], short: str, long: frozenset[str], out_short: str,
                 out_long: frozenset[str], operand: int | None) -> list[Field]:
    out: list[Field] = []
    operands: list[Field] = []
    for opt, value, _ in walk_options(args, short, long):
        if opt is None:
            if value is not None:
                operands.append(value)
        elif value is not None and ((len(opt) == 1 and opt in out_short) or opt in out_long):
            out.append(value)
    if operand is not None and len(operands) > operand:
        out.append(operands[operand])
    return out


def _walk_operands(args: list[Field], short: str, long: frozenset[str]) -> list[Field]:
    return [v for opt, v, _ in walk_options(args, short, long) if opt is None and v is not None]


def _word_outputs(args: list[Field], words: frozenset[str], prefixes: tuple[str, ...]
                  ) -> list[Field]:
    out: list[Field] = []
    for k, f in enumerate(args):
        t = f.text
        if t == "--":
            break
        if t in words:
            if k + 1 < len(args):
                out.append(args[k + 1])
        else:
            for p in prefixes:
                if t.startswith(p) and len(t) > len(p):
                    out.append(Field(t[len(p):], f.span, f.taint, f.proc))
                    break
    return out


def _patch_outputs(args: list[Field]) -> list[Field]:
    """``patch -o OUT``; else ``patch ORIGFILE [PATCHFILE]`` edits ORIGFILE in place (not
    with ``--dry-run``). Files named inside the diff are not known here."""
    out: list[Field] = []
    operands: list[Field] = []
    for opt, value, _ in walk_options(args, _PATCH_VALUES, _PATCH_LONG):
        if opt is None:
            if value is not None:
                operands.append(value)
        elif opt == "--dry-run":
            return []
        elif value is not None and opt in ("o", "--output"):
            out.append(value)
    if not out and operands:
        out.append(operands[0])
    return out


def _yq_outputs(args: list[Field]) -> list[Field]:
    """``yq -i EXPR FILE...`` (``yq e -i``, ``--inplace``): every file after the expression
    is rewritten (all operands when ``--expression`` gives it)."""
    inplace = given = False
    operands: list[Field] = []
    for opt, value, _ in walk_options(args, _YQ_VALUES, _YQ_LONG):
        if opt is None:
            if value is not None:
                operands.append(value)
        elif opt in ("i", "--inplace"):
            inplace = True
        elif opt == "--expression":
            given = True
    if not inplace:
        return []
    if operands and operands[0].text in _YQ_SUBS:
        operands = operands[1:]
    return operands if given else operands[1:]


def _sqlite_outputs(args: list[Field]) -> list[Field]:
    """``sqlite3 DB '.output FILE'``, ``.once``, ``.save``, ``.backup`` (also through
    ``-cmd``): dot-commands that write FILE."""
    out: list[Field] = []
    for f in args:
        for line in f.text.split("\n"):
            words = line.split()
            if len(words) >= 2 and words[0] in _SQLITE_WRITES:
                target = words[-1].strip("'\"")
                if target and not target.startswith("-"):
                    out.append(Field(target, f.span, f.taint, f.proc))
    return out
