"""Redirections: what a command reads on stdin, and the files it writes.

Input: here-documents and here-strings (their text, static or tainted), ``< file`` (a file
written earlier with fetched data keeps its taint), ``< <(cmd)`` (a process substitution's
output). Output: every target is checked (disk devices, startup files, system paths,
protected paths, ``/dev/tcp``), and a file written with tainted or static data is remembered
so running it later in the same command is caught.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import ast
from ._checks import check_args, check_write
from ._files import file_taint
from ._flow import EMPTY, Flow
from ._paths import norm_path

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["redirect_input", "redirect_output"]


def redirect_input(run: Run, redirects: tuple[ast.Redirect, ...], stdin: Flow | None
                   ) -> Flow | None:
    for r in redirects:
        if r.op in ("<<", "<<-") and r.heredoc is not None:
            hd = r.heredoc
            if hd.quoted:
                stdin = Flow(text=hd.text, via="heredoc", span=hd.span, producer="heredoc")
            else:
                b = ast.Word(hd.span, hd.parts)
                f = run.exp.expand_one(b)
                stdin = Flow(f.taint, "heredoc", hd.span, f.text,
                             "heredoc")
        elif r.op == "<<<" and r.target is not None:
            f = run.exp.expand_one(r.target)
            stdin = Flow(f.taint, "here-string", r.target.span,
                         f.text, "here-string")
        elif r.op == "<&" and r.target is not None and r.fd in (None, "0") and \
                r.target.literal_value() in run.fds:
            # exec 3< <(curl u); bash <&3: stdin is what descriptor 3 was opened on.
            stdin = run.fds[r.target.literal_value() or ""]
        elif r.op in ("<", "<>") and r.target is not None and r.fd is not None and \
                r.fd.isdigit() and r.fd != "0" and len(run.fds) < 16:
            opened = redirect_input(run, (ast.Redirect(r.span, r.op, r.target),), None)
            if opened is not None:
                run.fds[r.fd] = opened
        elif r.op in ("<", "<>") and r.target is not None and r.fd in (None, "0"):
            for f in run.exp.expand(r.target):
                check_args(run.add, run.cp.paths, "<", [f], run.cwd)
                if f.proc:
                    # < <(cmd): the substitution's output is this command's stdin.
                    text = run.proc_output(f.span)
                    stdin = Flow(f.taint, "a process substitution", f.span, text,
                                 "process substitution")
                    continue
                path = norm_path(f.text, run.cwd)
                taint = file_taint(run.files, path)
                stdin = Flow(taint, f"file {f.text}" if taint else None, f.span,
                             run.file_text.get(path or ""), "file")
        elif r.target is not None and r.op in ("<", "<>", "<&"):
            for f in run.exp.expand(r.target):
                check_args(run.add, run.cp.paths, "<", [f], run.cwd)
    return stdin

def redirect_output(run: Run, redirects: tuple[ast.Redirect, ...], out: Flow) -> Flow:
    for r in redirects:
        if r.target is None or r.op not in (">", ">>", ">|", "&>", "&>>", "<>", ">&"):
            continue
        for f in run.exp.expand(r.target):
            if r.op == ">&" and (f.text.isdigit() or f.text == "-"):
                continue
            check_write(run.add, run.cp.paths, f, run.cwd, "redirection writes")
            if r.fd in (None, "1") or r.op.startswith("&"):
                path = norm_path(f.text, run.cwd)
                if path is not None and out.taint:
                    run.files[path] = out.taint
                if path is not None and out.text is not None and len(run.file_text) < 64:
                    run.file_text[path] = out.text
                if path not in ("/dev/stdout", "/dev/stderr", None):
                    out = EMPTY
    return out

# --- simple commands --------------------------------------------------------------------
