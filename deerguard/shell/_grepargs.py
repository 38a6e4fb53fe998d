"""One reading of the grep family's arguments (grep, egrep, rg, ag, ack...): the regexes,
the operands, the file-name globs, and the options that decide what is printed. Searches
for secrets (``_harvest``: home and root; ``_projsecrets``: a project) read commands with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ._values import Field

__all__ = ["RECURSIVE_GREPS", "GrepArgs", "read_grep"]

# Searchers that recurse by default (grep needs -r).
RECURSIVE_GREPS = frozenset({"rg", "ag", "ack", "ack-grep", "pt", "ripgrep"})
# Short options that take a value: grep's, and the recursive searchers' (rg -g GLOB, -E ENC).
_GREP_VALUE_SHORT = "efmABCdD"
_RG_VALUE_SHORT = "efmABCgtTEMjr"
_GREP_VALUE_LONG = frozenset({"--regexp", "--file", "--include", "--exclude", "--exclude-dir",
                              "--glob", "--iglob", "--type", "--type-not", "--max-count",
                              "--context", "--after-context", "--before-context",
                              "--max-depth", "--encoding", "--ignore-file", "--pre",
                              "--pre-glob", "--replace", "--sort", "--sortr", "--threads",
                              "--max-filesize", "--type-add", "--devices", "--directories",
                              "--binary-files", "--label", "--color", "--colors"})
_NAME_OPTIONS = frozenset({"--include", "--glob", "--iglob"})
# Options after which grep prints no line of the files it reads.
_NO_LINES_SHORT = frozenset("cqL")
_NO_LINES_LONG = frozenset({"--count", "--quiet", "--silent", "--files-without-match"})


@dataclass(slots=True)
class GrepArgs:
    """What a grep-family command searches and prints."""

    recursive: bool
    regexes: list[str] = field(default_factory=list)
    operands: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # --include/--glob/-g file-name globs
    lists: bool = False  # -l: prints the names of matching files
    no_lines: bool = False  # -c, -q, -L: prints no matching line


def read_grep(name: str, args: list[Field]) -> GrepArgs:
    """Read ``name args``; the first operand is the regex when no ``-e`` names one."""
    g = GrepArgs(recursive=name in RECURSIVE_GREPS)
    value_short = _RG_VALUE_SHORT if g.recursive else _GREP_VALUE_SHORT
    i = 0
    ended = False
    while i < len(args):
        t = args[i].text
        nxt = args[i + 1].text if i + 1 < len(args) else ""
        if ended or not t.startswith("-") or t == "-":
            g.operands.append(t)
        elif t == "--":
            ended = True
        elif t.startswith("--"):
            opt, eq, val = t.partition("=")
            if opt in ("--recursive", "--dereference-recursive") or t == "--directories=recurse":
                g.recursive = True
            g.lists = g.lists or opt == "--files-with-matches"
            g.no_lines = g.no_lines or opt in _NO_LINES_LONG
            if opt in _GREP_VALUE_LONG and not eq:
                val = nxt
                i += 1
            if opt == "--regexp":
                g.regexes.append(val)
            elif opt in _NAME_OPTIONS:
                g.names.append(val)
        else:
            for k in range(1, len(t)):
                c = t[k]
                if c in "rR" and (name not in RECURSIVE_GREPS or c == "R"):
                    g.recursive = True
                g.lists = g.lists or c == "l"
                g.no_lines = g.no_lines or c in _NO_LINES_SHORT
                if c in value_short:
                    val = t[k + 1:]
                    if not val:
                        val = nxt
                        i += 1
                    if c == "e":
                        g.regexes.append(val)
                    elif c == "g":
                        g.names.append(val)
                    break
        i += 1
    if not g.regexes and g.operands:
        g.regexes.append(g.operands.pop(0))
    return g
