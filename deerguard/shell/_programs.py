"""What a resolved program does with its input: execution sinks, nested code, data flow.

Shells and interpreters are *sinks*: code reaching them through ``-c``, a script argument, a
process substitution, a here-document or stdin is parsed and classified recursively when it
is static, and judged by its taint when it is not. Fetchers and decoders are *sources*: their
output carries taint through pipes, variables and files. Everything else passes its stdin
taint through (filters such as ``tr``, ``sed``, ``gunzip``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _rules as R
from ._checks import (
    candidate_paths,
    check_args,
    check_package,
    check_program,
    interpreter_family,
    is_critical,
    norm_path,
)
from ._code import destructive_paths, scan_markers, shell_strings
from ._embedded import decode_escapes, embedded_code
from ._flow import EMPTY, Flow
from ._parse import parse
from ._resolve import Invocation
from ._words import DYN, NO_TAINT, Field, Source, Var, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["call_function", "program", "run_code"]

_STDIN_PATHS = frozenset({"-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"})
_DYN_VAR = "__deerguard_dynamic"
_DECODE_FLAGS = frozenset({"-d", "--decode", "-D", "-r", "-revert", "--revert", "-u",
                          "--decrypt"})
_AWKS = frozenset({"awk", "gawk", "mawk", "nawk", "busybox-awk"})


def _exec_flow(run: Run, inv: Invocation) -> Flow:
    src = Source("exec", inv.name or "a command", run.map_span(inv.word.span))
    return Flow(frozenset({src}), inv.name, inv.word.span)


def program(run: Run, inv: Invocation, stdin: Flow | None) -> Flow:
    """Apply the rules and sinks of one resolved program; return its output flow."""
    name = inv.name
    word = inv.word
    if not name:
        src = first_source(word.taint)
        if src is not None:
            run.add("shell.tainted-exec", word.span, "fetched or decoded data runs as a "
                    "command", f"{src.describe()} reaches command position "
                    f"{run._desc('', word.span).strip()}")
        else:
            run.add("shell.dynamic-command", word.span, "the program name is not known "
                    "statically", None)
            if run.cp.allow or run.cp.allow_globs:
                run.add("shell.not-allowed", word.span, "a program that cannot be resolved "
                        "is not on the allow list", None)
        check_args(run.add, run.cp.paths, "?", inv.args, run.cwd)
        return _exec_flow(run, inv) if src is not None else Flow(producer="a command",
                                                                  span=word.span)
    if "/" in word.text:
        if "/dev/tcp/" in word.text or "/dev/udp/" in word.text:
            run.add("shell.reverse-shell", word.span, "runs a /dev/tcp network socket path",
                    None)
        path = norm_path(word.text, run.cwd)
        taint = run.files.get(path or "")
        if taint:
            _download_exec(run, word, taint, name)
        text = run.file_text.get(path or "")
        if text is not None:
            run.run_code(Field(text, word.span), word.text, word.span, stdin, positional=[])
    if name in run.aliases and not inv.wrappers:
        body = run.aliases[name] + " " + " ".join(f.text for f in inv.args)
        run.run_code(Field(body, word.span), f"alias {name}", word.span, stdin, positional=[],
                     shared_env=True)
        return EMPTY
    if name in run.funcs and not inv.wrappers:
        run.called.add(name)
        return run.call_function(run.funcs[name], inv.args)
    if name in R.SHELLS:
        return _shell(run, inv, stdin)
    if name in ("su", "runuser", "sg"):
        return _su(run, inv, stdin)
    if name == "eval":
        fields = inv.args
        if fields:
            text = " ".join(f.text for f in fields)
            taint = frozenset().union(*(f.taint for f in fields))
            code = Field(text, (fields[0].span[0], fields[-1].span[1]), taint)
            run.run_code(code, "eval", word.span, stdin, positional=[], shared_env=True)
        return EMPTY
    if name in ("source", "."):
        if inv.args:
            _script(run, inv.args[0], inv, stdin, shell=True)
        return EMPTY
    family = interpreter_family(name)
    if family is not None:
        return _interpreter(run, inv, stdin, family)
    if name in _AWKS:
        return _awk(run, inv, stdin)
    if name in ("export", "declare", "typeset", "local", "readonly"):
        return _declare(run, inv)
    if name == "alias":
        for f in inv.args:
            key, eq, value = f.text.partition("=")
            if eq and key and len(run.aliases) < 64:
                run.aliases[key] = value
                run.run_code(Field(value, f.span, f.taint), f"alias {key}", word.span, None,
                             positional=[], shared_env=True)
        return EMPTY
    if name == "read":
        _read(run, inv, stdin)
        return EMPTY
    if name in ("sudo", "doas", "run0") and stdin is not None and any(
            f.text in ("-s", "-i", "--shell", "--login") for f in inv.args):
        stdin_sink(run, stdin, inv, language="sh")  # sudo -s: a root shell reading stdin
        return EMPTY
    if name in ("cd", "pushd"):
        target = inv.args[-1].text if inv.args else "~"
        run.cwd = norm_path(target, run.cwd) if not target.startswith("-") else None
        if run.cwd is not None and not run.cwd.startswith(("/", "~")):
            run.cwd = None
        return EMPTY
    for sub in check_program(run.add, run.cp.paths, inv, run.cwd):
        run.invoke(sub, None, [])
    for code in embedded_code(inv):
        run.run_code(code, f"{name} option", word.span, None, positional=[])
    if name in R.DATA_COMMANDS:
        return _echo(inv)
    secret = check_args(run.add, run.cp.paths, name, _path_args(inv), run.cwd)
    return _output(run, inv, stdin, secret)


_GREPS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "git-grep"})


def _path_args(inv: Invocation) -> list[Field]:
    """Arguments that may name files: a grep's pattern is data, not a path."""
    args = inv.args
    if inv.name not in _GREPS:
        return args
    if any(f.text in ("-e", "-f", "--regexp", "--file") or f.text.startswith("--regexp=")
           for f in args):
        return args
    for index, f in enumerate(args):
        if f.text == "--":
            return args[:index] + args[index + 2:]
        if not f.text.startswith("-") or not f.static:
            return args[:index] + args[index + 1:]
    return args


def _download_exec(run: Run, word: Field, taint: frozenset[Source], name: str) -> None:
    src = first_source(taint, frozenset({"fetch", "decode", "exec", "file"}))
    detail = f"{src.describe()} was written to {word.text}" if src else None
    run.add("shell.download-exec", word.span, f"runs {word.text}, a file written with "
            "fetched or decoded data in the same command", detail)


def _echo(inv: Invocation) -> Flow:
    taint = frozenset().union(*(f.taint for f in inv.args)) if inv.args else NO_TAINT
    args = inv.args
    text: str | None = None
    if inv.name == "echo":
        escapes = False
        while args and args[0].text in ("-n", "-e", "-E", "-ne", "-en"):
            escapes = escapes or "e" in args[0].text
            args = args[1:]
        text = " ".join(f.text for f in args)
        if escapes:
            text = decode_escapes(text)
    elif inv.name == "printf" and args:
        text = _printf(args[0].text, [f.text for f in args[1:]])
    if text is None:
        return Flow(taint, inv.name, inv.word.span) if taint else EMPTY
    return Flow(taint, inv.name, inv.word.span, text if DYN not in text else None)


def _printf(fmt: str, values: list[str]) -> str | None:
    """printf's output when the format only uses %s (and %%), else None."""
    pieces = fmt.replace("%%", "\x25").split("%s")
    if "%" in "".join(pieces):
        return None
    if len(pieces) == 1:
        return decode_escapes(fmt.replace("%%", "%"))
    out: list[str] = []
    index = 0
    while True:
        for k, piece in enumerate(pieces):
            out.append(decode_escapes(piece))
            if k < len(pieces) - 1:
                out.append(values[index] if index < len(values) else "")
                index += 1
        if index >= len(values) or len(out) > 4096:
            return "".join(out)


def _output(run: Run, inv: Invocation, stdin: Flow | None, secret: bool) -> Flow:
    name = inv.name
    args = inv.args
    texts = [f.text for f in args]
    taint = set(stdin.taint) if stdin is not None else set()
    if run.files:
        for f in args:
            for named in candidate_paths(f.text, run.cwd):
                if named in run.files:
                    taint.update(run.files[named])
    if name in R.NETWORK_SENDERS:
        leaked = [s for s in taint if s.kind == "secret"]
        leaked += [s for f in args for s in f.taint if s.kind == "secret"]
        if leaked:
            src = min(leaked, key=lambda s: s.span)
            run.add("shell.exfiltration", inv.word.span, f"secrets reach the network tool "
                    f"{name}", f"{src.describe()} reaches {run._desc(name, inv.word.span)}")
    span = run.map_span(inv.word.span)
    if name in R.FETCHERS and (name not in ("openssl", "ssh") or stdin is None):
        src = Source("fetch", name, span)
        target = _download_target(name, texts, args)
        if target is not None:
            path = norm_path(target, run.cwd)
            if path is not None:
                run.files[path] = frozenset({src})
            return EMPTY
        return Flow(frozenset({*taint, src}), name, inv.word.span)
    if name in R.DECODERS and (name in ("rev", "gunzip", "zcat", "bunzip2", "unxz", "tr")
                               or any(t in _DECODE_FLAGS or t == "enc" for t in texts)):
        taint.add(Source("decode", name, span))
        return Flow(frozenset(taint), name, inv.word.span)
    if (name in R.ENV_DUMPERS and not args) or (name in ("export", "declare") and
                                                 texts in (["-p"], ["-x"], ["-px"])):
        taint.add(Source("secret", name, span))
    if secret:
        taint.add(Source("secret", name, span))
    passed: str | None = None
    if name in ("cat", "tee") and stdin is not None and stdin.text is not None and \
            all(f.text.startswith("-") for f in args if name == "cat"):
        passed = stdin.text  # cat <<'EOF' > f: the heredoc's text is what gets written
    return Flow(frozenset(taint), name, inv.word.span, passed)


def _download_target(name: str, texts: list[str], args: list[Field]) -> str | None:
    """The file curl/wget writes (``-o F``, ``-O``, wget's default), or None for stdout."""
    url = next((t for t in texts if "://" in t or t.startswith("www.")), None)
    remote = (url.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] if url else "") or \
        "index.html"
    for index, t in enumerate(texts):
        nxt = texts[index + 1] if index + 1 < len(texts) else None
        if name == "curl":
            if t in ("-o", "--output") and nxt is not None:
                return None if nxt == "-" else nxt
            if t.startswith("--output="):
                return t.split("=", 1)[1]
            if t in ("-O", "--remote-name") or (t.startswith("-") and not t.startswith("--")
                                                and t.endswith("O")):
                return remote
            if t.startswith("-") and not t.startswith("--") and "o" in t[1:] and \
                    t.endswith("o") and nxt is not None:
                return None if nxt == "-" else nxt
        elif name == "wget":
            if t.startswith("--output-document="):
                value = t.split("=", 1)[1]
                return None if value == "-" else value
            if t.startswith("-") and not t.startswith("--") and "O" in t:
                attached = t[t.index("O") + 1:]
                value = attached or (nxt or "-")
                return None if value == "-" else value
    return remote if name == "wget" else None


def _shell(run: Run, inv: Invocation, stdin: Flow | None) -> Flow:
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
        if t.startswith("--"):
            i += 1
            continue
        if t[:1] in "-+" and len(t) > 1:
            if t[0] == "-" and "n" in t[1:] and "c" not in t[1:]:
                return _exec_flow(run, inv)  # -n: read commands without running them
            want_code = want_code or "c" in t[1:]
            read_stdin = read_stdin or "s" in t[1:]
            i += 1
            continue
        break
    operands = args[i:]
    if want_code and operands and inv.from_stdin and "{}" in operands[0].text:
        # xargs -I{} sh -c '{}': each input line becomes shell code.
        stdin_sink(run, stdin or Flow(producer="xargs input", span=inv.word.span), inv,
                   language="sh")
    if want_code:
        if operands:
            run.run_code(operands[0], inv.name, inv.word.span, stdin,
                         positional=operands[1:])
    elif operands and not read_stdin:
        _script(run, operands[0], inv, stdin, shell=True)
    elif stdin is not None:
        stdin_sink(run, stdin, inv, language="sh")
    return _exec_flow(run, inv)


def _su(run: Run, inv: Invocation, stdin: Flow | None) -> Flow:
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
    return _exec_flow(run, inv)


def _script(run: Run, f: Field, inv: Invocation, stdin: Flow | None, *, shell: bool) -> None:
    """A script argument of a shell, interpreter or ``source``."""
    src = first_source(f.taint)
    if f.proc or not f.static:
        if src is not None:
            run.add("shell.tainted-exec", f.span, f"{inv.name} runs fetched or decoded code",
                    f"{src.describe()} reaches {run._desc(inv.name, inv.word.span)} as a "
                    "script")
        elif f.proc:
            text = next((t for sp, t in run.proc_text.items()
                         if f.span[0] <= sp[0] and sp[1] <= f.span[1]), None)
            if text is not None:
                code = Field(text, f.span)
                if shell:
                    run.run_code(code, inv.name, inv.word.span, None, positional=[])
                else:
                    _interp_code(run, code, inv.name, inv)
                return
            run.add("shell.dynamic-code", f.span, f"{inv.name} runs code generated by a "
                    "process substitution", None)
        return
    if f.text in _STDIN_PATHS:
        if stdin is not None:
            stdin_sink(run, stdin, inv, language="sh" if shell else inv.name)
        return
    path = norm_path(f.text, run.cwd)
    taint = run.files.get(path or "")
    if taint:
        _download_exec(run, f, taint, inv.name)
    text = run.file_text.get(path or "")
    if text is not None:
        if shell:
            run.run_code(Field(text, f.span), inv.name, inv.word.span, None, positional=[])
        else:
            _interp_code(run, Field(text, f.span), interpreter_family(inv.name) or inv.name,
                         inv)


def stdin_sink(run: Run, stdin: Flow, inv: Invocation, *, language: str) -> None:
    """Code arrives on stdin of a shell or interpreter."""
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
        return
    code = Field(stdin.text if stdin.text is not None else DYN, stdin.span, stdin.taint)
    if language == "sh":
        run.run_code(code, inv.name, inv.word.span, None, positional=[])
    else:
        _interp_code(run, code, language, inv)


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
    saved = None if shared_env else dict(run.env)
    run.env[_DYN_VAR] = Var(alts=(DYN,), taint=code.taint)
    if not shared_env:
        for index, f in enumerate(positional):
            run.env[str(index)] = Var(alts=(f.text,), taint=f.taint)
        run.env["@"] = Var(items=tuple(f.text for f in positional[1:]))
    run.push_frame(frame_offset, code.span, None, dyn_text)
    run.code_depth += 1
    try:
        out = run.body(script.statements, stdin)
        if script.issues:
            issue = script.issues[0]
            run.add("shell.parse-incomplete", (issue.offset, len(dyn_text)),
                    f"nested code in {owner} does not parse cleanly: {issue.message}", None)
    finally:
        run.code_depth -= 1
        run.pop_frame()
        if saved is not None:
            run.env.clear()
            run.env.update(saved)
    return out


def _interp_code(run: Run, code: Field, language: str, inv: Invocation,
                 stdin: Flow | None = None) -> None:
    """Inline code of another language: its shell-outs, risky paths and sockets."""
    src = first_source(code.taint)
    if src is not None:
        run.add("shell.tainted-exec", code.span, f"fetched or decoded data runs as "
                f"{inv.name} code", f"{src.describe()} reaches "
                f"{run._desc(inv.name, inv.word.span)}")
    text = code.text
    if not text or text == DYN:
        return
    snippets, dynamic = shell_strings(text, language=language)
    fed: set[Source] = set(stdin.taint) if stdin is not None else set()
    for snip in snippets:
        sub = Field(snip.text, code.span, code.taint)
        flow = Flow(producer=inv.name, span=inv.word.span) if snip.pipe_in else None
        out = run.run_code(sub, f"{inv.name} shell call", inv.word.span, flow, positional=[])
        if out is not None:
            fed.update(out.taint)
    if dynamic:
        src = first_source(frozenset(fed))
        if src is not None:
            run.add("shell.tainted-exec", code.span, f"{inv.name} runs fetched data as a "
                    "shell command", f"{src.describe()} reaches a shell call in "
                    f"{run._desc(inv.name, inv.word.span)}")
        else:
            run.add("shell.dynamic-code", code.span, f"{inv.name} code runs a shell command "
                    "built at run time", None)
    for path, _start, _end in destructive_paths(text, language=language):
        norm = norm_path(path)
        if norm is not None and is_critical(norm):
            run.add("shell.recursive-delete", code.span, f"{inv.name} code deletes {norm}",
                    None)
    for marker in scan_markers(text):
        run.add(marker.rule_id, code.span, f"{inv.name} code {marker.what}", None)


def _interpreter(run: Run, inv: Invocation, stdin: Flow | None, family: str) -> Flow:
    flags = R.INTERPRETER_CODE_FLAGS.get(family, frozenset())
    args = inv.args
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        if not f.static:
            break
        letter_flag = "-" + t[-1:] if t.startswith("-") and not t.startswith("--") else ""
        if t in flags or (letter_flag in flags and len(t) <= 4 and family == "perl"):
            if i + 1 < len(args):
                _interp_code(run, args[i + 1], family, inv)
                check_args(run.add, run.cp.paths, inv.name, args[i + 2:], run.cwd)
            return _exec_flow(run, inv)
        if family == "python" and t.startswith("-c") and len(t) > 2:
            _interp_code(run, Field(t[2:], f.span, f.taint), family, inv)
            return _exec_flow(run, inv)
        if family == "python" and t == "-m" and i + 1 < len(args):
            module = args[i + 1].text
            if module in ("pip", "pip3", "ensurepip"):
                check_package(run.add, Invocation("pip", args[i + 1], args[i + 2:]))
            return _exec_flow(run, inv)
        if t == "-":
            break
        if t.startswith("-") and len(t) > 1:
            i += 2 if t in R.INTERPRETER_ARG_FLAGS else 1
            continue
        break
    operands = args[i:]
    if not operands or operands[0].text in _STDIN_PATHS:
        if stdin is not None:
            stdin_sink(run, stdin, inv, language=family)
    else:
        _script(run, operands[0], inv, stdin, shell=False)
        check_args(run.add, run.cp.paths, inv.name, operands[1:], run.cwd)
    return _exec_flow(run, inv)


def _awk(run: Run, inv: Invocation, stdin: Flow | None) -> Flow:
    args = inv.args
    i = 0
    program_field: Field | None = None
    while i < len(args):
        t = args[i].text
        if t in ("-F", "-v", "-f", "--field-separator", "--assign", "--file"):
            if t in ("-f", "--file"):
                program_field = None
                i = len(args)
                break
            i += 2
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
        if i < len(args):
            program_field = args[i]
            i += 1
        break
    if program_field is not None:
        _interp_code(run, program_field, "awk", inv, stdin)
    check_args(run.add, run.cp.paths, inv.name, args[i:], run.cwd)
    return _output(run, inv, stdin, False)


def _read(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``read [-r] [-a arr] NAME...``: the names take (tainted) data from stdin."""
    taint = stdin.taint if stdin is not None else NO_TAINT
    args = inv.args
    i = 0
    names: list[str] = []
    while i < len(args):
        t = args[i].text
        if t in ("-a", "-d", "-p", "-n", "-N", "-t", "-u", "-i"):
            if t == "-a" and i + 1 < len(args):
                names.append(args[i + 1].text)
            i += 2
            continue
        if not t.startswith("-"):
            names.append(t)
        i += 1
    for name in names or ["REPLY"]:
        run.env[name] = Var(alts=(DYN,), taint=taint)


def _declare(run: Run, inv: Invocation) -> Flow:
    dumped = True
    for f in inv.args:
        if f.text.startswith("-"):
            continue
        dumped = False
        name, eq, value = f.text.partition("=")
        if not eq or not name.replace("_", "a").isalnum():
            continue
        vf = Field(value, f.span, f.taint)
        run.check_assignment(name, vf, f.span)
        run.env[name] = Var(alts=(value,), taint=f.taint)
    if dumped and inv.name in ("export", "declare", "typeset"):
        return Flow(frozenset({Source("secret", inv.name, run.map_span(inv.word.span))}),
                    inv.name, inv.word.span)
    return EMPTY


def call_function(run: Run, fn: object, args: list[Field]) -> Flow:
    """Classify a function body at a call site, with the call's arguments as ``$1...``."""
    from . import ast

    assert isinstance(fn, ast.FunctionDef)
    if fn.name in run.active or len(run.active) >= 8:
        return EMPTY
    saved = {k: run.env.get(k) for k in ("@", *(str(i) for i in range(1, len(args) + 1)))}
    for index, f in enumerate(args, start=1):
        run.env[str(index)] = Var(alts=(f.text,), taint=f.taint)
    run.env["@"] = Var(items=tuple(f.text for f in args))
    run.active.append(fn.name)
    try:
        return run.command(fn.body, None)
    finally:
        run.active.pop()
        for k, v in saved.items():
            if v is None:
                run.env.pop(k, None)
            else:
                run.env[k] = v
