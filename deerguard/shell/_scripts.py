"""Script languages of tools: sed, awk and the ex/vi/ed editors (make: ``_makefile``).

``sed`` runs shell commands with ``e``/``s///e`` (the bare ``e`` runs each input line, so
``curl u | sed e`` is a pipe into a shell) from every ``-e``/``--expression`` and
``-f FILE`` (``-f /dev/stdin`` with a here-string is read too); awk's program comes from
its operand, ``-e``, or ``-f FILE``/``-f -``, and ``-i inplace`` edits its files; ``make``
runs the recipes of ``./Makefile``, ``-f FILE`` or ``-E 'x:;cmd'``; editors (``ed``,
``ex``, ``vim -c``/``+CMD``) run ``!cmd`` and ``system()`` and write the files they edit.
The text ``sed -i``, ``awk -i inplace`` and the editors put into those files becomes the
files' text (``_sedtext``, ``_inplacetext``, ``_edtext``), so running a file later runs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._checks import check_args, check_write
from ._edtext import buffer_flow, editor_inserted
from ._embedded import _split_unescaped as split_unescaped
from ._files import file_taint
from ._flow import Flow
from ._inplace import record_inserted
from ._inplacetext import awk_inserted
from ._optwalk import walk_options
from ._paths import norm_path
from ._resolve import Invocation
from ._secrets import secret_file
from ._sedargs import SED_LONG, SED_SHORT
from ._sedfiles import sed_files
from ._sedtext import sed_inserted
from ._sinks import STDIN_PATHS, download_exec, interp_code, stdin_sink
from ._textout import text_output
from ._words import DYN, NO_TAINT, Field, Source, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["awk_program", "ed_tool", "run_stdin", "script_text", "sed_exec", "sed_tool",
           "vim_tool"]


def run_stdin(run: Run, stdin: Flow, inv: Invocation) -> None:
    stdin_sink(run, stdin, inv, language="sh")


# --- sed ----------------------------------------------------------------------------------


def sed_tool(run: Run, inv: Invocation, stdin: Flow | None) -> bool:
    """The code and files of a sed run; True when its scripts read a secret file."""
    scripts: list[Field] = []
    operands: list[Field] = []
    named = False  # -e/-f given: every operand is an input file
    in_place = False
    for name, value, _ in walk_options(inv.args, SED_SHORT, SED_LONG, optional="i",
                                       dynamic="cluster"):
        if name is None and value is not None:
            operands.append(value)
        elif name in ("i", "--in-place"):
            in_place = True  # -i.bak: the rest is a suffix
        elif name in ("e", "f", "--expression", "--file") and value is not None:
            named = True
            _sed_script(run, inv, value, name in ("f", "--file"), stdin, scripts)
    if not named and operands:
        scripts.append(operands[0])
        operands = operands[1:]
    runs_input = False
    for script in scripts:
        src = first_source(script.taint)
        if src is not None:
            # sed -e "$(curl u)": fetched text as a script may hold e or s///e commands.
            run.add("shell.tainted-exec", script.span, f"{inv.name} runs fetched or decoded "
                    "data as its script", f"{src.describe()} reaches "
                    f"{run._desc(inv.name, inv.word.span)}")
            continue
        if script.text and not script.text.strip(DYN):
            # sed -e "$x": an unknown script may hold e or s///e commands.
            run.add("shell.dynamic-code", script.span, f"{inv.name} runs a script that is "
                    "not known statically", None)
            continue
        codes, pattern = sed_exec(script.text)
        runs_input = runs_input or pattern
        for code in codes:
            run.run_code(Field(code, script.span, script.taint), f"{inv.name} e command",
                         inv.word.span, None, positional=[])
    if runs_input:
        # e / s///e run the pattern space: each input line is a shell command.
        for f in operands:
            taint = file_taint(run.files, norm_path(f.text, run.cwd))
            if taint:
                download_exec(run, f, taint, inv.name)
        if not operands and stdin is not None:
            run_stdin(run, stdin, inv)
    if in_place:
        for f in operands:
            check_write(run.add, run.cp.paths, f, run.cwd, f"{inv.name} -i edits")
        sed_inserted(run, inv, scripts, operands)  # the text it adds (_sedtext)
    given = frozenset().union(*(file_taint(run.files, norm_path(f.text, run.cwd))
                                for f in operands[:16])) if operands and run.files else \
        (stdin.taint if stdin is not None and not operands else NO_TAINT)
    return sed_files(run, inv.name, scripts, given)  # w FILE writes, r FILE reads


def _sed_script(run: Run, inv: Invocation, val: Field, is_file: bool, stdin: Flow | None,
                scripts: list[Field]) -> None:
    if not is_file:
        scripts.append(val)
        return
    text = script_text(run, inv, val, stdin)
    if text is not None:
        scripts.append(text)


def script_text(run: Run, inv: Invocation, f: Field, stdin: Flow | None, *,
               exact: bool = False) -> Field | None:
    """A script file's text: ``-f /dev/stdin <<< CODE``, or a file written earlier; a file
    written with fetched data is a download run. ``exact``: only a file written itself
    (``curl u > Makefile``), not one inside a fetched directory (``git clone u && make``:
    building a cloned project is everyday work)."""
    if f.text in STDIN_PATHS:
        if stdin is None or (stdin.text is None and not stdin.taint):
            return None
        src = first_source(stdin.taint)
        if src is not None:  # curl u | make -f -: the script itself is fetched data
            run.add("shell.tainted-exec", stdin.span, f"{inv.name} reads its script from "
                    "fetched or decoded data", f"{src.describe()} reaches "
                    f"{run._desc(inv.name, inv.word.span)}")
        return Field(stdin.text if stdin.text is not None else DYN, stdin.span, stdin.taint)
    if f.proc:  # -f <(curl u): the script is what the substitution prints
        src = first_source(f.taint)
        if src is not None:
            run.add("shell.tainted-exec", f.span, f"{inv.name} reads its script from "
                    "fetched or decoded data", f"{src.describe()} reaches "
                    f"{run._desc(inv.name, inv.word.span)}")
        text = run.proc_output(f.span)
        return Field(text if text is not None else DYN, f.span, f.taint)
    path = norm_path(f.text, run.cwd)
    taint = run.files.get(path or "") if exact else file_taint(run.files, path)
    if taint:
        download_exec(run, f, taint, inv.name)
    text = run.file_text.get(path or "")
    return Field(text, f.span) if text is not None else None


def _sed_address_end(cmd: str) -> int:
    """Skip a sed address (``1``, ``$``, ``/re/``, ``\\cREc``, ranges, ``!``)."""
    k = 0
    n = len(cmd)
    for _ in range(4):
        while k < n and cmd[k] in "0123456789$~+, \t!":
            k += 1
        if k < n and cmd[k] in "/\\":
            delim = cmd[k]
            if delim == "\\" and k + 1 < n:
                k += 1
                delim = cmd[k]
            k += 1
            while k < n and cmd[k] != delim:
                k += 2 if cmd[k] == "\\" else 1
            k += 1
            while k < n and cmd[k] in "IM":
                k += 1
            continue
        break
    return min(k, n)


def sed_exec(script: str) -> tuple[list[str], bool]:
    """GNU sed's shell commands in ``script``: ``e CMD`` strings, and whether a bare ``e``
    or the ``e`` flag of ``s///e`` runs the pattern space (the input lines) as a command."""
    out: list[str] = []
    pattern = False
    for part in script.replace(";", "\n").splitlines()[:256]:
        part = part.strip().lstrip("{}")
        cmd = part[_sed_address_end(part):].lstrip(" \t{")
        if cmd == "e":
            pattern = True
        elif cmd.startswith("e") and cmd[1:2] in (" ", "\t") and cmd[2:].strip():
            out.append(cmd[2:].strip())
        elif cmd.startswith("s") and len(cmd) > 3:
            pieces = split_unescaped(cmd[2:], cmd[1])
            if len(pieces) >= 3 and "e" in pieces[2] and pieces[2].isalnum():
                if "&" not in pieces[1] and not any(f"\\{d}" in pieces[1] for d in "123456789"):
                    out.append(pieces[1])  # s/.*/CMD/e: the replacement is the command
                pattern = True
    return out, pattern


# --- editors ------------------------------------------------------------------------------

_VIM_VALUE = frozenset({"-c", "--cmd", "-S", "-u", "-U", "-i", "-T", "-w", "-W", "-s", "-t",
                        "-q", "-r", "--servername", "--remote", "--startuptime"})
_WRITES = ("w", "wq", "x", "wq!", "w!", "x!", "wall", "wa", "xa", "xall", "wqa", "wqall",
           "update", "up", "exit", "exi", "sav", "saveas")


def vim_tool(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``vim -c CMD``/``+CMD``/``ex -sc CMD`` (clusters too): ``!cmd`` and ``system()`` run
    shell code; ``:wq`` writes the edited files."""
    args = inv.args
    cmds: list[Field] = []
    files: list[Field] = []
    # In Ex mode (ex, vim -e/-es), -s is silent mode, not -s SCRIPTIN.
    ex_mode = inv.name == "ex" or any(a.text in ("-e", "-E", "-es", "-Es") for a in args[:16])
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        nxt = args[i + 1] if i + 1 < len(args) else None
        i += 1
        if t.startswith("+") and len(t) > 1:
            cmds.append(Field(t[1:], f.span, f.taint))
        elif t in _VIM_VALUE and not (t == "-s" and ex_mode):
            if nxt is not None:
                if t in ("-c", "--cmd"):
                    cmds.append(nxt)
                i += 1
        elif t.startswith("-c") and len(t) > 2:
            cmds.append(Field(t[2:], f.span, f.taint))  # ex -cx: the command attached
        elif t.startswith("-") and not t.startswith("--") and len(t) > 2 and t.endswith("c") \
                and t[1:].isalpha():
            if nxt is not None:  # ex -sc CMD
                cmds.append(nxt)
                i += 1
        elif t.startswith("-") and len(t) > 1:
            continue
        else:
            files.append(f)
    if ex_mode and stdin is not None and stdin.text is not None:
        cmds.extend(Field(line, stdin.span, stdin.taint) for line in stdin.text.splitlines())
    fed: set[Source] = set()
    writes = _editor_commands(run, inv, cmds, fed, files)
    if writes or (ex_mode and stdin is not None and stdin.via != "pipe"):
        for f in files:
            check_write(run.add, run.cp.paths, f, run.cwd, f"{inv.name} edits")
    if writes:
        editor_inserted(run, inv, cmds, files, frozenset(fed))  # normal GoCODE, 1i|CODE


def _editor_commands(run: Run, inv: Invocation, cmds: list[Field],
                     fed: set[Source] | None = None, files: list[Field] | None = None) -> bool:
    """Run the shell escapes of ex commands; True when one writes the file. The taint of
    what ``r !cmd`` and a filter (``%!cmd``) put into the buffer is added to ``fed``;
    ``w !cmd`` feeds cmd the buffer (the text added to ``files``, as far as known)."""
    writes = False
    for c in cmds[:64]:
        for piece in _ex_split(c.text):
            cmd = piece.strip().lstrip(":").strip()
            ranged = cmd[:1] in "0123456789$%,."
            cmd = cmd[_sed_address_end(cmd):].strip() if ranged else cmd
            cmd = cmd.lstrip("%").strip()
            for modifier in ("silent!", "silent", "sil!", "sil", "keepalt", "noautocmd"):
                if cmd.startswith((modifier + " ", modifier + "!")):
                    cmd = cmd[len(modifier):].strip()  # :silent !cmd
            out = None
            if cmd.startswith("!"):
                out = run.run_code(Field(cmd[1:], c.span, c.taint), f"{inv.name} command",
                                   inv.word.span, None, positional=[])
                out = out if ranged else None  # %!cmd: its output replaces the lines
            elif cmd.startswith(("r !", "r!", "w !", "w!", "read !", "write !")) and \
                    "!" in cmd:
                buffer = buffer_flow(run, cmds, files, c.span) \
                    if cmd[:1] == "w" and files is not None else None
                out = run.run_code(Field(cmd.split("!", 1)[1], c.span, c.taint),
                                   f"{inv.name} command", inv.word.span, buffer, positional=[])
                out = out if cmd.startswith("r") else None  # r !cmd: its output is read in
            elif "system(" in cmd or "systemlist(" in cmd or cmd.startswith(
                    ("exe", "execute", "call", "py", "lua", "perl", "ruby")):
                language = "python" if cmd.startswith("py") else "vim"
                interp_code(run, Field(cmd.split(" ", 1)[-1] if language == "python" else cmd,
                                       c.span, c.taint), language, inv)
            if out is not None and fed is not None:
                fed.update(out.taint)
            if cmd.split(" ", 1)[0] in _WRITES or cmd.startswith("normal") and ":w" in cmd:
                writes = True
    return writes


def _ex_split(text: str) -> list[str]:
    """Split ex commands on ``|`` outside quotes; ``!cmd`` takes the rest of the line."""
    if text.lstrip(": ").startswith(("!", "silent !", "silent!")):
        return [text]
    out: list[str] = []
    cur = 0
    quote = ""
    for k, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "|":
            out.append(text[cur:k])
            cur = k + 1
    out.append(text[cur:])
    return out


def ed_tool(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``ed FILE`` reads commands from stdin: ``!cmd`` runs shell code, ``w`` writes FILE."""
    files = [f for f in inv.args if not f.text.startswith("-")]
    cmds: list[Field] = []
    if stdin is not None and stdin.text is not None:
        cmds = [Field(line, stdin.span, stdin.taint) for line in stdin.text.splitlines()]
    fed: set[Source] = set()
    writes = _editor_commands(run, inv, cmds, fed, files) or any(
        c.text.strip()[:1] == "w" or c.text.strip() in ("wq", "x") for c in cmds)
    if writes or (stdin is not None and stdin.text is None):
        for f in files:
            check_write(run.add, run.cp.paths, f, run.cwd, f"{inv.name} edits")
    if writes:
        editor_inserted(run, inv, cmds, files, frozenset(fed))  # 1a, CODE, .: the text
    elif stdin is not None and stdin.taint:
        record_inserted(run, inv.name, [], [], files, stdin.taint, stdin.span)


def awk_program(run: Run, inv: Invocation, stdin: Flow | None) -> Flow:
    args = inv.args
    i = 0
    program_field: Field | None = None
    in_place = False
    from_file = False
    while i < len(args):
        t = args[i].text
        if t in ("-F", "-v", "-f", "--field-separator", "--assign", "--file", "-i",
                 "--include", "-l", "--load"):
            value = args[i + 1] if i + 1 < len(args) else None
            if t in ("-i", "--include") and value is not None and value.text in (
                    "inplace", "inplace.awk"):
                in_place = True  # gawk -i inplace: the files are edited in place
            if t in ("-f", "--file"):
                from_file = True
                if value is not None and program_field is None:
                    program_field = script_text(run, inv, value, stdin)
            i += 2
            continue
        if t in ("--include=inplace", "-iinplace", "--include=inplace.awk", "-iinplace.awk"):
            in_place = True
            i += 1
            continue
        if t.startswith("--file=") or (t[:2] == "-f" and len(t) > 2):  # -fF, --file=F
            from_file = True
            f = args[i]
            value = Field(t[7:] if t[1] == "-" else t[2:], f.span, f.taint, f.proc)
            program_field = program_field or script_text(run, inv, value, stdin)
            i += 1
            continue
        if t in ("-e", "--source") and i + 1 < len(args):
            program_field = args[i + 1]
            i += 2
            break
        if t.startswith("-") and len(t) > 1 and t != "--":
            i += 1
            continue
        if t == "--":
            i += 1
        if i < len(args) and not from_file:
            program_field = args[i]
            i += 1
        break
    taint = stdin.taint if stdin is not None else NO_TAINT
    operands = [f for f in args[i:] if "=" not in f.text and not f.text.startswith("-")]
    if secret_file(operands) or any(s.kind == "path" for f in operands for s in f.taint):
        # awk 1 .env, awk 1 $(find . -name .env): it prints the secret files it reads
        taint = taint | {Source("secret", inv.name, run.map_span(inv.word.span))}
    fed = stdin  # print | "nc h 80" gets the records it reads: the secret files' too
    if taint and (stdin is None or taint != stdin.taint):
        fed = stdin._replace(taint=taint) if stdin else Flow(taint, inv.name, inv.word.span)
    if program_field is not None:
        interp_code(run, program_field, "awk", inv, fed)
    check_args(run.add, run.cp.paths, inv.name, args[i:], run.cwd)
    if in_place:
        files = [f for f in args[i:] if not f.text.startswith("-") and "=" not in f.text]
        for f in files:
            check_write(run.add, run.cp.paths, f, run.cwd, f"{inv.name} -i inplace edits")
        if program_field is not None:
            awk_inserted(run, inv, program_field, files)  # {print "CODE"}: the text it adds
    return Flow(taint, inv.name, inv.word.span,
                text_output("awk", [f.text for f in args], stdin.text if stdin else None))
