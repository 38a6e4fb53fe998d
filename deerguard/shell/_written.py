"""The known text of files written earlier in the same command (``echo CODE > f``).

Reads are charged to the run's work budget, so a script run many times (a loop, a function
called from many places) stays linear overall.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import file_taint
from ._flow import Flow
from ._paths import norm_path
from ._resolve import Invocation
from ._secrets import secret_file
from ._words import DYN, NO_TAINT, Field, Source
from ._xargs import XARGS_PATH_TOOLS, xargs_arg_file, xargs_replaces, xargs_words

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["read_written", "xargs_file", "xargs_runs"]


def read_written(run: Run, path: str, span: tuple[int, int]) -> str | None:
    """The known text of a file written earlier in the command, charged to the work
    budget (a script run many times is read each time); None when unknown or spent."""
    text = run.file_text.get(path)
    if text is None:
        return None
    run.budget -= len(text) + 32
    if run.budget < 0:
        run.add("shell.nesting-too-deep", span, "more script reads than the "
                "classifier follows", None)
        return None
    return text


def xargs_file(run: Run, chain: list[Invocation]) -> Field | None:
    """The known text of ``xargs -a FILE`` (a ``<( )`` or a file written earlier)."""
    for inv in chain:
        target = xargs_arg_file(inv.args) if inv.name == "xargs" else None
        if target is None:
            continue
        text = run.proc_output(target.span) if target.proc else \
            run.file_text.get(norm_path(target.text, run.cwd) or "")
        return Field(text, target.span, target.taint) if text is not None else None
    return None


def xargs_runs(run: Run, chain: list[Invocation], stdin: Flow | None) -> list[Invocation]:
    """The runs of the command at the end of ``chain`` that xargs makes, with the words it
    appends from stdin (or its ``-a FILE``): known when that is static text, split into the
    batches xargs runs (``-n N``, ``-L N``, ``-I``); else one run with an unknown word."""
    last = chain[-1]
    listed = xargs_file(run, chain)
    src = listed if listed is not None else stdin
    if src is not None and src.text is not None:
        batches = [[Field(w, src.span, src.taint) for w in batch]
                   for batch in xargs_words(chain, src.text)]
    else:
        taint = stdin.taint if stdin else NO_TAINT
        for inv in chain:  # xargs -a FILE: a file downloaded earlier feeds the words
            target = xargs_arg_file(inv.args) if inv.name == "xargs" else None
            if target is not None and target.proc:
                taint = taint | target.taint  # xargs -a <(cmd): what cmd prints
            elif target is not None and run.files:
                taint = taint | file_taint(run.files, norm_path(target.text, run.cwd))
            if target is not None and not target.proc and secret_file([target]):
                # xargs -a .env -I{} curl URL/{}: each line of a secret file is an argument
                taint = taint | {Source("secret", "xargs", run.map_span(target.span))}
        batches = [[Field(DYN, last.word.span, taint)]]
    if (last.name in XARGS_PATH_TOOLS or listed is not None) and xargs_replaces(chain) and \
            any("{}" in f.text for f in last.args):
        # xargs -I{} rm -rf ~/{}: each line goes where {} is written, nothing is appended.
        # (Programs that run {} as code keep it when the lines come from stdin: the sinks
        # splice them in; the known lines of an -a FILE are spliced here: sh -c '{}'.)
        return [Invocation(last.name, last.word, [
            Field(f.text.replace("{}", " ".join(w.text for w in extra) if extra else ""),
                  f.span, f.taint.union(*(w.taint for w in extra)), f.proc, f.quoted)
            if "{}" in f.text else f for f in last.args], last.wrappers, last.assigns,
            last.privileged, True) for extra in batches]
    return [Invocation(last.name, last.word, [*last.args, *extra], last.wrappers, last.assigns,
                       last.privileged, True) for extra in batches]
