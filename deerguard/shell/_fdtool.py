"""``fd PATTERN PATH... -x|-X CMD ARGS...``: the command fd runs on what it finds.

fd (``fdfind`` on Debian) runs ``-x/--exec CMD`` once per entry found and ``-X/--exec-batch
CMD`` once with all of them: ``{}`` is the path (``{/}``, ``{//}``, ``{.}``, ``{/.}`` parts
of it), and without a placeholder the path is appended. The command takes every argument
after the flag (up to ``;``). Like ``find -exec``, the command is returned to be run, with
the entries written as what they can be: everything under the search paths (``ROOT/*``)
when the pattern matches every name (``fd . ~ -X rm -rf`` deletes ``~/*``), and one entry
below them when the pattern or a filter narrows the search (``fd -t d node_modules ~ -X rm
-rf`` deletes some directories under ``~``, not ``~``).
"""

from __future__ import annotations

from ._words import DYN, Field

__all__ = ["FD_NAMES", "fd_commands"]

FD_NAMES = frozenset({"fd", "fdfind"})

# Options that take a value (as the next argument, or after "=").
_WITH_ARG = frozenset({
    "-d", "--max-depth", "--min-depth", "--exact-depth", "-t", "--type", "-e", "--extension",
    "-E", "--exclude", "-S", "--size", "--changed-within", "--changed-before",
    "--change-newer-than", "--change-older-than", "--newer", "--older", "-o", "--owner",
    "-c", "--color", "-j", "--threads", "--max-results", "--base-directory",
    "--path-separator", "--search-path", "--ignore-file", "--batch-size", "--format",
    "--max-buffer-time", "--and"})
# Options that narrow what is found (not every entry under the search paths).
_NARROWING = frozenset({"-t", "--type", "-e", "--extension", "-S", "--size",
                        "--changed-within", "--changed-before", "--change-newer-than",
                        "--change-older-than", "--newer", "--older", "-o", "--owner",
                        "--and", "-d", "--max-depth", "--exact-depth", "--min-depth",
                        "--max-results", "-1"})
_MATCH_ALL = frozenset({"", ".", "^", ".*", "*", "**", "^.*$", "^.*"})
_MAX_COMMANDS = 8
_EXECS = frozenset({"-x", "--exec", "-X", "--exec-batch"})
_PLACEHOLDERS = ("{}", "{/}", "{//}", "{.}", "{/.}")
# The name of an entry a narrowed search found: static (one entry somewhere below the search
# path, not the path itself), and no name any rule lists.
_FOUND = "\ue002"


def fd_commands(args: list[Field]) -> list[list[Field]]:
    """The commands ``fd`` with arguments ``args`` runs, entries filled in (see above)."""
    positional: list[str] = []
    roots: list[str] = []
    narrowed = False
    commands: list[list[Field]] = []
    k = 0
    n = len(args)
    while k < n:
        f = args[k]
        t = f.text
        if t in _EXECS:
            j = k + 1
            cmd: list[Field] = []
            while j < n and args[j].text != ";":
                cmd.append(args[j])
                j += 1
            if cmd and len(commands) < _MAX_COMMANDS:
                commands.append(cmd)
            k = j + 1
            continue
        opt, eq, value = t.partition("=")
        if t.startswith("-") and len(t) > 1:
            if opt in _WITH_ARG:
                if not eq:
                    value = args[k + 1].text if k + 1 < n else ""
                    k += 1
                if opt == "--search-path":
                    roots.append(value)
            narrowed = narrowed or opt in _NARROWING
        else:
            positional.append(t)
        k += 1
    if not commands:
        return []
    pattern = positional[0] if positional else ""
    roots.extend(positional[1:])
    narrowed = narrowed or pattern not in _MATCH_ALL
    entries = [(r.rstrip("/") or "/") + ("/*/" + _FOUND if narrowed else "/*")
               for r in roots or ["."]]
    entries = [e.replace("//", "/") for e in entries]
    out: list[list[Field]] = []
    for cmd in commands:
        if any(p in f.text for f in cmd[1:] for p in _PLACEHOLDERS):
            for entry in entries:
                out.append([cmd[0], *(_fill(f, entry) for f in cmd[1:])])
        else:
            out.append([*cmd, *(Field(e, cmd[0].span) for e in entries)])
    return out


def _fill(f: Field, entry: str) -> Field:
    text = f.text
    if not any(p in text for p in _PLACEHOLDERS):
        return f
    for p in ("{//}", "{/.}", "{/}", "{.}"):
        text = text.replace(p, entry.rsplit("/", 1)[0] or "/" if p == "{//}" else DYN)
    return Field(text.replace("{}", entry), f.span, f.taint)
