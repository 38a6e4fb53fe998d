"""Execution sinks: where shell code (or another language's code) gets run.

Shells and interpreters run code reaching them through ``-c``, a script argument, a process
substitution, a here-document or stdin. Static code is parsed and classified recursively
(with spans mapped back into the outer command); dynamic code is judged by its taint:
fetched or decoded data reaching a sink blocks, unknown but untainted code warns.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import _rules as R
from ._checks import check_args, check_package, interpreter_family
from ._codeout import code_flow, inline_code, prints_secrets
from ._expose import python_server
from ._files import file_taint
from ._flow import Flow
from ._hookvars import hook_options
from ._interpcode import interp_code
from ._loadrun import module_main
from ._nucode import nu_bash
from ._parse import parse
from ._paths import norm_path
from ._pwsh import command_flag, decode_encoded, encoded_flag, value_flag
from ._raw import raw_scan
from ._resolve import Invocation
from ._secrets import secret_file
from ._traps import check_traps, rehome_traps
from ._words import DYN, NO_TAINT, Field, Source, Taint, Var, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["code_variable", "download_exec", "exec_flow", "interp_code",
           "interpreter_program", "run_code", "script_sink", "shell_program", "stdin_sink",
           "su_program"]

STDIN_PATHS = frozenset({"-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"})
_DYN_VAR = "__deerguard_dynamic"
AWKS = frozenset({"awk", "gawk", "mawk", "nawk", "busybox-awk"})


def exec_flow(run: Run, inv: Invocation) -> Flow:
    src = Source("exec", inv.name or "a command", run.map_span(inv.word.span))
    return Flow(frozenset({src}), inv.name, inv.word.span)


# Standard modules whose command line prints, encodes or archives the files it is given
# (python -m pytest, pip, venv...: their arguments are the project's own).
_PRINTING_MODULES = frozenset({"json.tool", "json", "base64", "gzip", "zipfile", "tarfile",
                               "uu", "quopri", "pickletools", "tokenize", "ast", "dis",
                               "zipapp", "binhex", "sqlite3", "mimetypes"})


def module_flow(run: Run, inv: Invocation, module: str, rest: list[Field], flow: Flow) -> Flow:
    """``python -m MODULE ARGS`` for a module that prints or packs the files it is given
    (json.tool, base64, gzip, zipfile): ARGS are checked like ``cat``'s, and a secret file
    among them makes ``flow`` (the module's output) secret (``python3 -m json.tool
    ~/.docker/config.json``)."""
    if not rest or module not in _PRINTING_MODULES:
        return flow
    if not (check_args(run.add, run.cp.paths, inv.name, rest, run.cwd) or secret_file(rest)):
        return flow
    src = Source("secret", inv.name, run.map_span(inv.word.span))
    return Flow(flow.taint | {src}, inv.name, inv.word.span)


def download_exec(run: Run, word: Field, taint: frozenset[Source], name: str) -> None:
    src = first_source(taint, frozenset({"fetch", "decode", "exec", "file"}))
    if src is None:
        return  # only secrets were written there (cp .env.example .env; source .env)
    detail = f"{src.describe()} was written to {word.text}" if src else None
    run.add("shell.download-exec", word.span, f"runs {word.text}, a file written with "
            "fetched or decoded data in the same command", detail)


def code_variable(run: Run, name: str, value: Field, span: tuple[int, int]) -> None:
    """``PROMPT_COMMAND=CODE``, ``PS4='$(CODE)'``, ``BASH_ENV=FILE``: classify what runs."""
    src = first_source(value.taint)
    if src is not None:
        run.add("shell.tainted-exec", span, f"{name} runs fetched or decoded code",
                f"{src.describe()} reaches {name}")
        return
    if name in ("BASH_ENV", "ENV"):
        # A startup file: BASH_ENV=<(echo CODE) or a file written with known text runs it.
        text = run.proc_output(value.span) if value.proc else None
        path = norm_path(value.text, run.cwd)
        taint = file_taint(run.files, path)
        if taint:
            download_exec(run, Field(value.text, span), taint, name)
        text = text if text is not None else run.file_text.get(path or "")
        if text is not None:
            run.run_code(Field(text, span), name, span, None, positional=[])
        return
    if DYN in value.text:
        return
    text = value.text
    if name != "PROMPT_COMMAND":
        if "$(" not in text and "`" not in text:
            return
        text = ": " + text  # a prompt string: only its substitutions run
    run.run_code(Field(text, span), name, span, None, positional=[])


def startup_files(run: Run, inv: Invocation) -> None:
    """A shell starting reads ``$BASH_ENV``/``$ENV``: set earlier, the file they name may have
    been downloaded since (``export BASH_ENV=/tmp/x; curl -o /tmp/x u; bash s.sh``)."""
    for name in ("BASH_ENV", "ENV"):
        var = run.env.get(name)
        if var is None:
            continue
        for value in var.alts:
            taint = file_taint(run.files, norm_path(value, run.cwd))
            if taint:
                download_exec(run, Field(value, inv.word.span), taint, f"{name} of {inv.name}")
                return


# Per shell, the options besides -c whose value is code (bash's -C is noclobber, not this).
_FISH_CODE = frozenset({"--command", "-C", "--init-command"})
_NU_CODE = frozenset({"--commands", "-e", "--execute"})
_CODE_OPTIONS = {"fish": _FISH_CODE, "nu": _NU_CODE, "nushell": _NU_CODE}


# Sigils that make the next word an external program: nushell ``^rm``, elvish ``e:rm``.
_EXTERNAL_SIGILS = {"nu": re.compile(r"(?<![\w$^])\^(?=[\w./~-])"),
                    "elvish": re.compile(r"(?<![\w:$])e:(?=[\w./~-])")}
_EXTERNAL_SIGILS["nushell"] = _EXTERNAL_SIGILS["nu"]


def _dialect(shell: str, code: Field) -> Field:
    """Code for nushell or elvish with their external-command sigils dropped, so ``^rm -rf
    /`` reads as ``rm -rf /`` (other shells' code is returned as it is)."""
    if shell in ("nu", "nushell"):
        return nu_bash(code)  # blocks and closures are code too: each { ^rm -rf ~ }
    sigil = _EXTERNAL_SIGILS.get(shell)
    if sigil is None:
        return code
    text = sigil.sub("", code.text)
    code = code if text == code.text else Field(text, code.span, code.taint)
    return nu_bash(code, elvish=True) if shell == "elvish" else code  # lambdas too


def shell_program(run: Run, inv: Invocation, stdin: Flow | None) -> Flow:
    if run.files:
        startup_files(run, inv)
    args = inv.args
    i = 0
    want_code = False
    read_stdin = False
    while i < len(args):
        f = args[i]
        t = f.text
        if not f.static:
            break
        if t == "--":
            i += 1
            break
        if t in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        name, eq, value = t.partition("=")
        if name in _CODE_OPTIONS.get(inv.name, ()):
            # fish --command CODE, nu --commands CODE, fish -C/--init-command and nu -e
            # CODE (run before the rest): the option's value is code, like -c's operand.
            code = Field(value, f.span, f.taint) if eq else \
                args[i + 1] if i + 1 < len(args) else None
            if code is not None:
                run.run_code(_dialect(inv.name, code), inv.name, inv.word.span, stdin,
                             positional=[])
            i += 1 if eq else 2
            continue
        if t.startswith("--") and t[2:].replace("-", "").isalpha():
            i += 1
            continue
        if t[:1] in "-+" and len(t) > 1 and t[1:].isalpha():
            if t[0] == "-" and "n" in t[1:] and "c" not in t[1:]:
                return exec_flow(run, inv)  # -n: read commands without running them
            want_code = want_code or "c" in t[1:]
            read_stdin = read_stdin or "s" in t[1:]
            i += 1
            continue
        break
    operands = args[i:]
    if want_code and operands and inv.from_stdin and "{}" in operands[0].text:
        _xargs_splice(run, operands[0], inv, stdin)
    leaked = NO_TAINT  # bash -c 'env' | curl -d @- URL: what the code prints is secret
    if want_code:
        if operands:
            out = run.run_code(_dialect(inv.name, operands[0]), inv.name, inv.word.span, stdin,
                               positional=operands[1:])
            leaked = frozenset(s for s in out.taint if s.kind == "secret") if out else NO_TAINT
    elif operands and not read_stdin:
        leaked = script_sink(run, operands[0], inv, stdin, shell=True)
    elif stdin is not None:
        leaked = stdin_sink(run, stdin, inv, language="sh")  # bash <<'EOF' .. env .. EOF
    if leaked:  # what the code prints is secret data: it blocks where it reaches a network
        flow = exec_flow(run, inv)
        return flow._replace(taint=flow.taint | leaked)
    return exec_flow(run, inv)


def _xargs_splice(run: Run, code: Field, inv: Invocation, stdin: Flow | None) -> None:
    """``xargs -I{} sh -c 'cmd {}'``: each input line is spliced into shell code."""
    if code.text.strip() == "{}" and stdin is not None and stdin.via == "pipe":
        stdin_sink(run, stdin, inv, language="sh")  # each piped line *is* the code
        return
    if stdin is not None and stdin.text is not None:
        for line in stdin.text.splitlines()[:16]:
            spliced = Field(code.text.replace("{}", line), code.span, code.taint | stdin.taint)
            run.run_code(spliced, inv.name, inv.word.span, None, positional=[])
        return
    src = first_source(stdin.taint if stdin is not None else frozenset().union(
        *(f.taint for f in inv.args)))  # xargs -a FILE: the words carry the file's taint
    if src is not None:
        run.add("shell.tainted-exec", code.span, "fetched data is spliced into shell code by "
                "xargs", f"{src.describe()} reaches {run._desc(inv.name, inv.word.span)}")
    else:
        run.add("shell.dynamic-code", code.span, "xargs splices its input lines into shell "
                "code (names with $(...) would run)", None)


def su_program(run: Run, inv: Invocation, stdin: Flow | None) -> Flow:
    args = inv.args
    for index, f in enumerate(args):
        if f.text in ("-c", "--command") and index + 1 < len(args):
            run.run_code(args[index + 1], inv.name, inv.word.span, stdin, positional=[])
            break
        if f.text.startswith("--command="):
            run.run_code(Field(f.text.split("=", 1)[1], f.span, f.taint), inv.name,
                         inv.word.span, stdin, positional=[])
            break
    else:
        if stdin is not None and stdin.via == "pipe":
            stdin_sink(run, stdin, inv, language="sh")
    return exec_flow(run, inv)


def script_sink(run: Run, f: Field, inv: Invocation, stdin: Flow | None, *, shell: bool
                ) -> Taint:
    """A script argument of a shell, interpreter or ``source``; returns the secret sources
    of what a script written earlier prints (``echo env > s.sh; bash s.sh | curl ..``)."""
    src = first_source(f.taint)
    if f.proc or not f.static:
        if src is not None:
            run.add("shell.tainted-exec", f.span, f"{inv.name} runs fetched or decoded code",
                    f"{src.describe()} reaches {run._desc(inv.name, inv.word.span)} as a "
                    "script")
        elif f.proc:
            text = run.proc_output(f.span)
            if text is not None:
                code = Field(text, f.span)
                if shell:
                    run.run_code(code, inv.name, inv.word.span, None, positional=[])
                else:
                    interp_code(run, code, inv.name, inv)
                return NO_TAINT
            run.add("shell.dynamic-code", f.span, f"{inv.name} runs code generated by a "
                    "process substitution", None)
        elif inv.name in ("source", ".") and not f.text.strip(DYN):
            # source "$f": the current shell runs a script that is not known at all
            # (source "$VENV/bin/activate" names its script; only the directory varies).
            run.add("shell.dynamic-code", f.span, f"{inv.name} runs a script whose path is "
                    "not known statically", None)
        return NO_TAINT
    if f.text in STDIN_PATHS:
        if stdin is not None:
            return stdin_sink(run, stdin, inv, language="sh" if shell else inv.name)
        return NO_TAINT
    path = norm_path(f.text, run.cwd)
    taint = file_taint(run.files, path)
    if taint:
        download_exec(run, f, taint, inv.name)
    text = run.file_text.get(path or "")
    if text is None:
        return NO_TAINT
    if shell:
        out = run.run_code(Field(text, f.span), inv.name, inv.word.span, None, positional=[])
        return frozenset(s for s in out.taint if s.kind == "secret") if out else NO_TAINT
    ran = interp_code(run, Field(text, f.span), interpreter_family(inv.name) or inv.name, inv)
    if prints_secrets(text):  # echo 'print(os.environ)' > x.py; python3 x.py | curl ..
        ran = ran | {Source("secret", inv.name, run.map_span(inv.word.span))}
    return ran


def stdin_sink(run: Run, stdin: Flow, inv: Invocation, *, language: str) -> Taint:
    """Code arrives on stdin of a shell or interpreter; returns the secret sources of what
    the code prints (``bash <<EOF .. env``), when it is known."""
    owner = run._desc(inv.name, inv.word.span)
    src = first_source(stdin.taint)
    if stdin.via in ("pipe", "process substitution"):
        origin = src.describe() if src is not None else \
            f"output of {run._desc(stdin.producer or 'a command', stdin.span)}"
        run.add("shell.pipe-to-shell", inv.word.span, f"pipes data into {inv.name}, which "
                "runs it as code", f"{origin} reaches {owner} through a {stdin.via}")
    elif stdin.via == "file":
        if stdin.taint:
            run.add("shell.download-exec", inv.word.span, f"{inv.name} runs a file written "
                    "with fetched data", f"{src.describe() if src else 'a file'} reaches "
                    f"{owner} through a redirection")
    elif src is not None:
        run.add("shell.tainted-exec", stdin.span, f"fetched or decoded data runs as code "
                f"in {inv.name}", f"{src.describe()} reaches {owner} through a {stdin.via}")
    if stdin.text is None and stdin.via != "heredoc" and stdin.via != "here-string":
        return NO_TAINT
    code = Field(stdin.text if stdin.text is not None else DYN, stdin.span, stdin.taint)
    if language == "sh":
        out = run.run_code(code, inv.name, inv.word.span, None, positional=[])
        return frozenset(s for s in out.taint if s.kind == "secret") if out else NO_TAINT
    return interp_code(run, code, language, inv)


def run_code(run: Run, code: Field, owner: str, owner_span: tuple[int, int],
             stdin: Flow | None, *, positional: list[Field], shared_env: bool = False
             ) -> Flow | None:
    """Classify shell code given as a string (``sh -c``, ``eval``, heredoc into ``bash``)."""
    src = first_source(code.taint)
    if src is not None:
        run.add("shell.tainted-exec", code.span, f"fetched or decoded data runs as code in "
                f"{owner}", f"{src.describe()} reaches {run._desc(owner, owner_span)}")
    text = code.text
    if not text.strip(" \t\n" + DYN):
        if DYN in text and src is None:
            run.add("shell.dynamic-code", code.span, f"{owner} runs code that is not known "
                    "statically", None)
        return None
    run.budget -= len(text) + 32
    if run.code_depth >= 12 or run.budget < 0:
        run.add("shell.nesting-too-deep", code.span, "nested code deeper or larger than the "
                "classifier follows", None)
        return None
    cur = run.text_stack[-1]
    offset = -1
    if DYN not in text and code.span[0] < code.span[1]:
        offset = cur.find(text, code.span[0], code.span[1])
    frame_offset = offset if offset >= 0 else None
    dyn_text = text.replace(DYN, "$" + _DYN_VAR) if DYN in text else text
    script = parse(dyn_text)
    run.keep.append(script)  # caches key on node ids: keep nodes alive so ids never recur
    mark = None if shared_env else run.env.checkpoint()
    run.env[_DYN_VAR] = Var(alts=(DYN,), taint=code.taint)
    if not shared_env:
        for index, f in enumerate(positional):
            run.env[str(index)] = Var(alts=(f.text,), taint=f.taint)
        run.env["@"] = Var(items=tuple(f.text for f in positional[1:]))
    run.push_frame(frame_offset, code.span, None, dyn_text)
    run.code_depth += 1
    try:
        out = run.body(script.statements, stdin)
        if run.traps and shared_env:
            rehome_traps(run, len(run.frames))  # eval 'trap CODE EXIT': the shell's trap
        elif run.traps:
            check_traps(run, len(run.frames))  # bash -c 'trap CODE EXIT; ...' ends here
        if script.issues or run.too_deep:
            issue = script.issues[0] if script.issues else None
            if issue is not None:
                run.add("shell.parse-incomplete", (issue.offset, len(dyn_text)),
                        f"nested code in {owner} does not parse cleanly: {issue.message}",
                        None)
            raw_scan(run, dyn_text)
    finally:
        run.code_depth -= 1
        run.pop_frame()
        if mark is not None:
            run.env.rollback(mark)
    return out


# Short options whose argument is attached to the rest of their cluster (perl -Mstrict,
# -i.bak; ruby -rjson; python -Wall): the scan of a cluster stops there.
_ATTACHED_ARG = {"perl": "MmIixdDC", "ruby": "rIEKCFTxi", "python": "WXm", "node": "r",
                 "php": "dcz", "lua": "lil"}


def _cluster_code(t: str, family: str, flags: frozenset[str]) -> str | None:
    """For a short-option cluster holding the code flag: the attached code ("" when the
    code is the next argument); None when the cluster holds no code flag."""
    if not t.startswith("-") or t.startswith("--") or len(t) < 2:
        return None
    attached = _ATTACHED_ARG.get(family, "")
    k = 1
    while k < len(t):
        letter = t[k]
        if "-" + letter in flags:
            rest = t[k + 1:]
            # node -pe CODE: the rest is more code flags, so the code is the next word.
            return "" if all("-" + c in flags for c in rest) else rest
        if letter in "l0" and family in ("perl", "ruby"):
            k += 1
            while k < len(t) and t[k].isdecimal():
                k += 1  # -l and -0 take optional digits only: -l0ne is -l0 -n -e
            continue
        if letter in attached or not letter.isalnum():
            return None
        k += 1
    return None


def encoded_code(run: Run, arg: Field, inv: Invocation, stdin: Flow | None) -> None:
    """``pwsh -EncodedCommand B64``: hidden code warns; decoded, it is classified as code."""
    text = decode_encoded(arg.text) if arg.text != DYN else None
    run.add("shell.dynamic-code", arg.span, f"{inv.name} runs an encoded command (base64 of "
            "UTF-16 text), hidden from review" if text is not None else
            f"{inv.name} runs an encoded command that does not decode", None)
    interp_code(run, Field(text if text is not None else DYN, arg.span, arg.taint), "pwsh",
                inv, stdin)


def interpreter_program(run: Run, inv: Invocation, stdin: Flow | None, family: str) -> Flow:
    flags = R.INTERPRETER_CODE_FLAGS.get(family, frozenset())
    args = inv.args
    if run.files:
        hook_options(run, family, args, inv.word.span)  # node -r FILE: FILE's code runs
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        if not f.static:
            break
        if t in flags or (family == "pwsh" and command_flag(t)):
            if i + 1 < len(args) and family == "pwsh" and args[i + 1].text == "-":
                if stdin is not None:  # pwsh -Command -: the commands are read from stdin
                    stdin_sink(run, stdin, inv, language=family)
            elif i + 1 < len(args):
                return inline_code(run, inv, args[i + 1], args[i + 2:], stdin, family)
            return exec_flow(run, inv)
        if family == "pwsh" and encoded_flag(t):
            if i + 1 < len(args):
                encoded_code(run, args[i + 1], inv, stdin)
            return exec_flow(run, inv)
        # pwsh has no option clusters (-ExecutionPolicy is not -E -x -e ... -c).
        code = _cluster_code(t, family, flags) if family != "pwsh" else None
        if code is not None:
            # -pe CODE, -e'CODE', -lne CODE, -c'CODE': the code flag inside a cluster.
            if code:
                return inline_code(run, inv, Field(code, f.span, f.taint), args[i + 1:],
                                   stdin, family)
            if i + 1 < len(args):
                return inline_code(run, inv, args[i + 1], args[i + 2:], stdin, family)
            return exec_flow(run, inv)
        if family == "python" and t == "-m" and i + 1 < len(args):
            module = args[i + 1].text
            if module in ("pip", "pip3", "ensurepip"):
                check_package(run.add, Invocation("pip", args[i + 1], args[i + 2:]))
            python_server(run, module, args[i + 2:], inv.word.span)
            if run.files or run.file_text:
                module_main(run, inv, args[i + 1])  # python -m m: a written m.py (_loadrun)
            flow = code_flow(run, inv, None, args[i + 2:], stdin)  # -m json.tool .env
            return module_flow(run, inv, module, args[i + 2:], flow)
        if t == "-":
            break
        if t.startswith("-") and len(t) > 1:
            takes = t in R.INTERPRETER_ARG_FLAGS or (family == "pwsh" and value_flag(t))
            i += 2 if takes else 1
            continue
        break
    if family in ("deno", "bun") and i < len(args) and args[i].text == "run":
        i += 1  # deno run [OPTIONS] SCRIPT: the script (- is stdin) follows the options
        while i < len(args) and args[i].text.startswith("-") and args[i].text != "-":
            i += 1
    operands = args[i:]
    if not operands or operands[0].text in STDIN_PATHS:
        if stdin is not None:
            ran = stdin_sink(run, stdin, inv, language=family)
            if stdin.text is not None:  # python3 <<'EOF' .. print(os.environ) .. EOF
                return code_flow(run, inv, Field(stdin.text, stdin.span), operands[1:], None,
                                 ran)
    else:
        ran = script_sink(run, operands[0], inv, stdin, shell=False)
        check_args(run.add, run.cp.paths, inv.name, operands[1:], run.cwd)
        return code_flow(run, inv, None, operands[1:], stdin, ran)
    return exec_flow(run, inv)
