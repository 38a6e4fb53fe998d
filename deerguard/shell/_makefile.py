"""make: the recipes of ``./Makefile``, ``-f FILE`` (a file written in the command, fetched
data, or a process substitution's output) and ``--eval``/``-E 'x:;cmd'`` are shell code
make runs; ``-C DIR`` moves where the default makefiles are read."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._flow import Flow
from ._optwalk import walk_options
from ._resolve import Invocation
from ._scripts import script_text
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["make_recipes", "make_tool"]

# The options whose value make_tool reads or must skip: -f FILE, -E/--eval CODE, -C DIR.
_MAKE_VALUE = "CfIjlowWE"
_MAKE_LONG = frozenset({"--file", "--makefile", "--eval", "--directory"})
_MAKE_VAR = re.compile(r"\$[({][A-Za-z_][A-Za-z0-9_.]*[)}]")


def make_tool(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    files: list[Field] = []
    evals: list[Field] = []
    where = "."
    for name, value, _ in walk_options(inv.args, _MAKE_VALUE, _MAKE_LONG, dashdash=False):
        if value is None or name is None:
            continue
        if name in ("f", "--file", "--makefile"):
            files.append(value)
        elif name in ("E", "--eval"):
            evals.append(value)
        elif name in ("C", "--directory"):
            where = value.text
    texts: list[Field] = []
    if not files:
        base = where.rstrip("/") + "/" if where != "." else ""
        for default in ("GNUmakefile", "makefile", "Makefile"):
            files.append(Field(base + default, inv.word.span))
    for f in files:
        text = script_text(run, inv, f, stdin, exact=True)
        if text is not None:
            texts.append(text)
    stack = run.text_stack
    for text in [*evals, *texts]:
        codes = make_recipes(text.text)
        if len(stack) > 1 and any(code in stack[1:] for code in codes):
            continue  # a recipe running make again (make sub): already being walked
        for code in codes:
            run.run_code(Field(code, text.span, text.taint), f"{inv.name} recipe",
                         inv.word.span, None, positional=[])


def make_recipes(text: str) -> list[str]:
    """The shell commands of a makefile: tab-indented recipe lines, ``target: ; cmd``, and
    ``$(shell cmd)``; make's own ``$(VAR)`` references become a plain word."""
    out: list[str] = []
    for line in text.splitlines()[:512]:
        at = line.find("$(shell ")
        if at != -1:
            end = line.find(")", at)
            out.append(line[at + 8:end if end != -1 else len(line)])
        if line.startswith("\t"):
            cmd = line[1:].lstrip("@-+ \t")
        elif ":" in line and ";" in line.split(":", 1)[1] and not line.startswith("#"):
            cmd = line.split(":", 1)[1].split(";", 1)[1].lstrip("@-+ \t")
        else:
            continue
        cmd = _MAKE_VAR.sub("x", cmd).replace("$$", "$")
        if cmd.strip():
            out.append(cmd)
    return out[:64]
