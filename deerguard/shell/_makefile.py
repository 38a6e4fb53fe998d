"""make: the recipes of ``./Makefile``, ``-f FILE`` (a file written in the command, fetched
data, or a process substitution's output) and ``--eval``/``-E 'x:;cmd'`` are shell code
make runs; ``-C DIR`` moves where the default makefiles are read."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._flow import Flow
from ._resolve import Invocation
from ._scripts import script_text
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["make_recipes", "make_tool"]

_MAKE_VALUE = frozenset("CfIjlowW")
_MAKE_VAR = re.compile(r"\$[({][A-Za-z_][A-Za-z0-9_.]*[)}]")


def make_tool(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args
    files: list[Field] = []
    evals: list[Field] = []
    where = "."
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        nxt = args[i + 1] if i + 1 < len(args) else None
        i += 1
        if t.startswith("--"):
            key, eq, value = t.partition("=")
            val = Field(value, f.span, f.taint, f.proc) if eq else None
            if key in ("--file", "--makefile", "--eval", "--directory") and not eq:
                val = nxt
                i += 1
            if val is None:
                continue
            if key in ("--file", "--makefile"):
                files.append(val)
            elif key == "--eval":
                evals.append(val)
            elif key == "--directory":
                where = val.text
            continue
        if t.startswith("-") and len(t) > 1:
            k = 1
            while k < len(t):
                letter = t[k]
                if letter in _MAKE_VALUE or letter == "E":
                    attached = t[k + 1:]
                    val2 = Field(attached, f.span, f.taint, f.proc) if attached else nxt
                    if not attached:
                        i += 1
                    if val2 is not None:
                        if letter == "f":
                            files.append(val2)
                        elif letter == "E":
                            evals.append(val2)
                        elif letter == "C":
                            where = val2.text
                    break
                k += 1
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
