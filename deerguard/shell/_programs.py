"""What a resolved program does: dispatch to sinks and rules, and the data it outputs.

Shells, interpreters, ``eval`` and ``source`` go to the execution sinks (``_sinks``); any
other program gets the plain-program rules, and its output flow comes from ``_outputs``
(fetchers and decoders are sources, ``echo``/``printf`` output is computed when static).
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from . import _rules as R
from . import ast
from ._arith import let_builtin, slot_builtin
from ._assign import declare_names, shift
from ._buildfiles import BUILD_TOOLS, build_tool
from ._checks import check_args, check_inplace, check_program, check_write, interpreter_family
from ._cmdcode import cmd_bash, start_argv
from ._copies import COPY_TOOLS, copy_files, delete_through_links
from ._copystreams import STREAM_TOOLS, stream_copy
from ._cwd import CWD_BUILTINS, change_dir, whole_dir_delete
from ._defense import DEFENSE_PROGRAMS, defense_program
from ._destroy import DESTROYERS, destroy
from ._digits import NUM
from ._embedded import OPTION_CODE_PROGRAMS, embedded_code
from ._expose import EXPOSERS, expose
from ._extras import PLAIN_EXTRAS, plain_extras
from ._files import dir_key, file_taint
from ._flow import EMPTY, Flow
from ._gitabbrev import expand_git_options
from ._gitpush import git_push
from ._globprog import glob_program, is_glob
from ._guardmore import GUARD_NAME, guard_shadow
from ._guardoff import GUARD_TOOLS, guard_tool
from ._hookvars import hook_files
from ._hostapi import HOST_API_PROGRAMS, host_api
from ._inplacetext import perl_inserted
from ._lexer import DECL_ARRAY_RE
from ._loadfiles import VIMS, rc_files
from ._morelangs import MORE_INTERPRETERS, more_program
from ._namesonly import prints_names_only
from ._outfiles import (
    OUTFILE_TOOLS,
    REMOTE_COPIERS,
    not_written,
    record_written,
    remote_persistence,
    written_files,
)
from ._outputs import echo_output, output
from ._pathrun import path_run
from ._paths import norm_path
from ._pidlists import PID_KIND, pids_filtered
from ._pkgrun import PKG_PROGRAMS, pkg_program
from ._pkgscripts import PKG_JSON_CODERS, PKG_JSON_EDITORS, package_json_edit
from ._pkgsource import SOURCE_PROGRAMS, package_source
from ._publish import EXPORT_PROGRAMS, export_program
from ._readvars import mapfile_builtin, printf_v, read_builtin
from ._remote import parse_remote
from ._resolve import Invocation
from ._scripts import awk_program
from ._secrets import (
    COPY_READERS,
    LOGIN_FILE_TOOLS,
    SHOWING_FILTERS,
    copied_sources,
    login_tool_args,
    socat_paths,
    store_copy,
)
from ._sedargs import SEDS, sed_path_args
from ._shellimage import IMAGE_TOOLS, image_output
from ._sinks import (
    AWKS,
    download_exec,
    exec_flow,
    interpreter_program,
    script_sink,
    shell_program,
    stdin_sink,
    su_program,
)
from ._sysproxy import SYSPROXY_PROGRAMS, system_proxy
from ._tools import TOOL_NAMES, tool
from ._vimargs import vim_path_args
from ._windestroy import WIN_DESTROYERS, win_destroy
from ._winfetch import WIN_RUNNABLE, WIN_RUNNERS, cmd_code, win_runner_target
from ._words import Field, Source, Var, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["call_function", "program"]


def program(run: Run, inv: Invocation, stdin: Flow | None) -> Flow:
    """Apply the rules and sinks of one resolved program; return its output flow."""
    if run.printed and stdin is not None and stdin.taint and (
            inv.name not in SHOWING_FILTERS or prints_names_only(inv)):
        run.printed.difference_update(stdin.taint)  # a token a program reads is not shown
    name = inv.name
    if stdin is not None and stdin.taint and any(s.kind == PID_KIND for s in stdin.taint):
        stdin = pids_filtered(name, inv.args, stdin)  # ps -e | grep node: not every pid
    if name == "git":
        inv = expand_git_options(inv)  # git reset --har is --hard
    word = inv.word
    if not name and word.static:
        return EMPTY  # an empty program name ("") runs nothing
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
        return exec_flow(run, inv) if src is not None else Flow(producer="a command",
                                                                  span=word.span)
    if NUM in name:  # $RANDOM, $$: a number chosen at run time names the program
        run.add("shell.dynamic-command", word.span, "the program name is not known "
                "statically", None)
    if word.static and is_glob(name):
        return glob_program(run, inv, stdin, program)  # /???/r? is /bin/rm
    if not word.static:
        # $DIR/rm: the program is rm (its rules apply), found in an unknown directory.
        src = first_source(word.taint)
        if src is not None:
            run.add("shell.tainted-exec", word.span, "fetched or decoded data chooses the "
                    "program's directory", f"{src.describe()} reaches command position")
        else:
            run.add("shell.dynamic-command", word.span, f"{name} runs from a directory that "
                    "is not known statically", None)
    if "/" in word.text:
        if "/dev/tcp/" in word.text or "/dev/udp/" in word.text:
            run.add("shell.reverse-shell", word.span, "runs a /dev/tcp network socket path",
                    None)
        path = norm_path(word.text, run.cwd)
        taint = file_taint(run.files, path)
        if taint:
            download_exec(run, word, taint, name)
        text = run.file_text.get(path or "")
        if text is not None:
            run.run_code(Field(text, word.span), word.text, word.span, stdin, positional=[])
    elif run.files and word.text.lower().endswith(WIN_RUNNABLE):
        # a.exe after certutil/curl wrote it: cmd.exe runs a bare name from the current
        # directory, so a Windows agent's shell runs the fetched file.
        taint = file_taint(run.files, norm_path(word.text, run.cwd))
        if taint:
            download_exec(run, word, taint, name)
    elif run.file_text or run.files:
        path_run(run, inv, stdin)  # PATH=/tmp/bin:..; echo CODE > /tmp/bin/up; up
    if run.files:
        hook_files(run, name, word.span)  # NODE_OPTIONS=-r FILE set before FILE was fetched
    if name in run.aliases and (not inv.wrappers or (  # sudo /tmp/x: a shell copy runs
            run.runner_copies and norm_path(word.text, run.cwd) in run.runner_copies)) and \
            "alias " + name not in run.active:
        # bash never expands an alias again inside its own expansion (alias ls='ls -F'), and
        # like a function call, each (alias, arguments, state) is classified once: a script
        # that uses an alias 200 times stays linear and within the nested-code budget.
        use = ("alias", name, tuple(f.text for f in inv.args), any(f.taint for f in inv.args),
               run.env_version, None if stdin is None else (stdin.via, bool(stdin.taint)))
        if use in run.calls_done:
            return EMPTY
        run.calls_done.add(use)
        body = run.aliases[name] + " " + " ".join(
            shlex.quote(f.text) if f.static else f.text for f in inv.args)  # its words
        run.active.append("alias " + name)
        try:
            run.run_code(Field(body, word.span), f"alias {name}", word.span, stdin,
                         positional=[], shared_env=True)
        finally:
            run.active.pop()
        return EMPTY
    if name in run.funcs and not inv.wrappers:
        return run.call_function(run.funcs[name], inv.args, stdin)
    if name in EXPOSERS:
        expose(run, name, inv.args, word.span)  # ssh -R, ngrok, php -S over ~
    if name in BUILD_TOOLS or (name[:6] == "python" and (run.files or run.file_text)):
        build_tool(run, inv)  # pytest loads conftest.py, npm install runs package.json
    if name in PKG_PROGRAMS:
        pkg_program(run, inv, stdin)  # git clone u && make install, docker build URL, at -f
    if name in PKG_JSON_EDITORS or name[:4] in PKG_JSON_CODERS:
        package_json_edit(run, inv, stdin)  # jq '.scripts.X=CODE' package.json (_pkgscripts)
    if name in GUARD_TOOLS:
        guard_tool(run, inv)  # ln -sf /bin/true ~/.local/bin/deerguard (_guardoff)
    if name in MORE_INTERPRETERS:
        return more_program(run, inv, stdin)  # gnuplot -e, erl -eval, ghc -e, | octave
    if name not in _DISPATCHED and interpreter_family(name) is None:
        return _plain(run, inv, stdin)
    if name in R.SHELLS:
        rc_files(run, inv)  # bash --rcfile FILE -i runs FILE
        return shell_program(run, inv, stdin)
    if name == "ssh" and stdin is not None:
        remote = parse_remote(name, inv.args, 0)
        if remote is not None and remote.stdin_shell:
            stdin_sink(run, stdin, inv, language="sh")  # ssh HOST: the remote shell reads stdin
            return EMPTY
    if name in ("at", "batch") and stdin is not None:
        stdin_sink(run, stdin, inv, language="sh")  # at reads the commands to schedule
        return EMPTY
    if name in ("su", "runuser", "sg"):
        return su_program(run, inv, stdin)
    if name == "eval":
        fields = inv.args
        if fields:
            text = " ".join(f.text for f in fields)
            taint = frozenset().union(*(f.taint for f in fields))
            # xargs eval: words read from stdin are appended with xargs' own span, which
            # comes before the literal arguments: the span covers all of them, in order.
            code = Field(text, (min(f.span[0] for f in fields), max(f.span[1] for f in fields)),
                         taint)
            out = run.run_code(code, "eval", word.span, stdin, positional=[], shared_env=True)
            return out if out is not None else EMPTY  # $(eval echo ~bob): what the code prints
        return EMPTY
    if name in ("source", "."):
        if inv.args:
            script_sink(run, inv.args[0], inv, stdin, shell=True)
        return EMPTY
    family = interpreter_family(name)
    if family in ("perl", "ruby"):
        check_inplace(run.add, run.cp.paths, inv, run.cwd)
        perl_inserted(run, inv, family)  # perl -pi -e 's/^/CODE\n/' f: the text it adds
    if family is not None:
        return interpreter_program(run, inv, stdin, family)
    if name in AWKS:
        return stream_copy(run, inv, stdin, awk_program(run, inv, stdin))  # awk 1 a > b
    if name in ("export", "declare", "typeset", "local", "readonly"):
        if declare_names(run, inv, _declare_array) and name != "local" and name != "readonly":
            return Flow(frozenset({Source("secret", name, run.map_span(word.span))}), name,
                        word.span)
        return EMPTY
    if name == "alias":
        for f in inv.args:
            key, eq, value = f.text.partition("=")
            if eq and key == GUARD_NAME:
                guard_shadow(run, f.span, "alias")  # alias deerguard=true (_guardmore)
            if eq and key and len(run.aliases) < 64:
                run.aliases[key] = value
                run.run_code(Field(value, f.span, f.taint), f"alias {key}", word.span, None,
                             positional=[], shared_env=True)
        return EMPTY
    if name == "read":
        read_builtin(run, inv, stdin)
        return EMPTY
    if name in ("mapfile", "readarray"):
        mapfile_builtin(run, inv, stdin)
        return EMPTY
    if name == "shift":
        shift(run, inv)
        return EMPTY
    if name == "let":
        let_builtin(run, inv)
        return EMPTY
    if name in ("test", "[", "unset", "wait"):
        slot_builtin(run, inv)
        return _plain(run, inv, stdin)
    if name == "set" and any(f.text == "--" for f in inv.args):
        _set_positional(run, inv)
        return EMPTY
    if name == "printf" and printf_v(run, inv):
        return EMPTY
    if name in ("sudo", "doas", "run0") and stdin is not None and any(
            f.text in ("-s", "-i", "--shell", "--login") for f in inv.args):
        stdin_sink(run, stdin, inv, language="sh")  # sudo -s: a root shell reading stdin
        return EMPTY
    if name == "enable" and any(f.text.startswith("-f") for f in inv.args):
        # enable -f lib.so name: bash loads a shared object into itself (a builtin).
        run.add("shell.loader-hijack", inv.word.span, "enable -f loads a shared library into "
                "the shell", None)
        return EMPTY
    if name == "sudoedit" or (name == "sudo" and any(f.text in ("-e", "--edit")
                                                      for f in inv.args)):
        # sudoedit FILE / sudo -e FILE: FILE is edited (written) as root.
        run.add("shell.privilege", inv.word.span, f"{name} edits files as root", None)
        for f in inv.args:
            if not f.text.startswith("-"):
                check_write(run.add, run.cp.paths, f, run.cwd, f"{name} edits")
        return EMPTY
    if name in CWD_BUILTINS:
        change_dir(run, inv)
        return EMPTY
    return _plain(run, inv, stdin)


# Every name the dispatch in program() tests before the plain-program rules (interpreters
# aside): any other name goes straight to _plain.
_DISPATCHED = frozenset({
    "ssh", "at", "batch", "su", "runuser", "sg", "eval", "source", ".", "export", "declare",
    "typeset", "local", "readonly", "alias", "read", "mapfile", "readarray", "set", "printf",
    "sudo", "doas", "run0", "cd", "pushd", "popd", "let", "test", "[", "unset",
    "wait", "shift", "sudoedit", "enable"}) | \
    frozenset(R.SHELLS) | frozenset(AWKS)


def _plain(run: Run, inv: Invocation, stdin: Flow | None) -> Flow:
    """The rules of a program that is not a shell, interpreter or builtin with a sink."""
    name = inv.name
    if run.cwd_text is not None and name == "rm":
        whole_dir_delete(run, inv)  # cd "$X" && rm -rf *: everything in $X
    if run.links and name == "rm":
        delete_through_links(run, inv)  # ln -s ~ h; rm -rf h/
    read = tool(run, inv, stdin) if name in TOOL_NAMES else False  # sed '1r /etc/shadow'
    for sub in check_program(run.add, run.cp.paths, inv, run.cwd,
                             stdin.text if name == "tee" and stdin is not None else None):
        run.invoke(sub, None, [])
    if name in OPTION_CODE_PROGRAMS:  # embedded_code finds none for any other program
        for code in embedded_code(inv):
            run.run_code(code, f"{name} option", inv.word.span, None, positional=[])
    if name in PLAIN_EXTRAS:
        plain_extras(run, inv)
    if name in EXPORT_PROGRAMS:  # npm publish --registry URL, docker push host/x, gh grants
        export_program(run, inv)
    if name in HOST_API_PROGRAMS:
        host_api(run, inv, stdin)  # docker API over curl, kubectl pod specs
    elif name == "git":
        git_push(run, inv)  # git remote add x URL && git push x --all
    if name in SOURCE_PROGRAMS:
        package_source(run, name, inv.args, inv.word.span)
    if name in SYSPROXY_PROGRAMS:
        system_proxy(run, inv)  # networksetup -setwebproxy, gsettings ... proxy (_sysproxy)
    if name in WIN_RUNNERS:
        cmd_line = cmd_code(name, inv.args)
        if cmd_line is not None:  # cmd /c CODE: its commands read like sh's (&&, |, > ...)
            run.run_code(cmd_bash(cmd_line), name, inv.word.span, None, positional=[])
        elif run.files:  # start a.exe: a fetched file?
            target = win_runner_target(name, [f.text for f in inv.args])
            taint = file_taint(run.files, norm_path(target, run.cwd)) if target else None
            if taint and target:
                download_exec(run, Field(target, inv.word.span), taint, name)
        if cmd_line is None and (started := start_argv(inv)):  # start [/opts] PROG ARGS runs PROG
            run.invoke(started, None, [])
    if name in DEFENSE_PROGRAMS:  # security controls off, log/history wipes, TLS off
        defense_program(run, inv, stdin.text if stdin is not None else None)
    if name in DESTROYERS:
        destroy(run, inv, stdin)
    if name in WIN_DESTROYERS:  # vssadmin delete shadows, format C:, reg add HKLM\...
        win_destroy(run, inv, stdin)
    if name in R.DATA_COMMANDS:
        return echo_output(inv)
    # _path_args only drops words of greps, socat and config options: else the args as is.
    config = run.config_options
    paths = _path_args(inv, config=config) if config or name in _GREPS or name in SEDS or \
        name == "socat" or name in VIMS else inv.args
    if name in COPY_READERS:  # cp kaggle.json ~/.kaggle/: the destination is written
        paths = copied_sources(inv)
    elif name in LOGIN_FILE_TOOLS:  # curl --netrc-file ~/.netrc; npm config get ..:_authToken
        paths, printed = login_tool_args(run, inv, paths)
        read = read or printed
    written = written_files(inv, run.cwd) if name in OUTFILE_TOOLS else None
    if name in REMOTE_COPIERS:  # scp F host:.bashrc, kubectl cp F pod:/etc/x (_outfiles)
        remote_persistence(run, inv)
    if written:  # sort -o ~/.bashrc x: a written file, not a read one (_outfiles)
        paths = not_written(paths, written)
    secret = check_args(run.add, run.cp.paths, name, paths, run.cwd) or read
    if name in COPY_TOOLS:
        copy_files(run, inv, stdin)  # echo CODE > a; cp a b: b holds CODE
    if name in COPY_READERS and (dest := store_copy(inv, run.cwd)) is not None:
        run.files[dest] = run.files[dir_key(dest)] = frozenset({Source(  # and what is under it
            "secret", name, run.map_span(inv.word.span))})
    if name in STREAM_TOOLS:  # cat a > b, cat a | tee b, dd if=a of=b
        out = stream_copy(run, inv, stdin, output(run, inv, stdin, secret))
        if written:
            record_written(run, inv, written, out.taint)
        # cat /bin/sh > x, dd if=/bin/sh of=x: x is a copy of the shell (_shellimage)
        return image_output(run, inv, stdin, out) if name in IMAGE_TOOLS else out
    out = output(run, inv, stdin, secret)
    if written:  # openssl enc -d -out i.sh: i.sh holds decoded data
        record_written(run, inv, written, out.taint)
    return out


_GREPS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "git-grep"})


# Options that point a tool at its own configuration (kubectl --kubeconfig ~/.kube/config,
# gpg --homedir ~/.gnupg, mysql --defaults-file ~/.my.cnf, rclone --config F): the tool
# reads it as it would by default, nothing is disclosed.
_CONFIG_OPTIONS = ("--kubeconfig", "--homedir", "--defaults-file", "--defaults-extra-file",
                   "--config")


def _path_args(inv: Invocation, *, config: bool) -> list[Field]:
    """Arguments that may name files: a grep's pattern is data, not a path. ``config`` says
    the command's text names a config option at all (a cheap test before the per-word one)."""
    args = inv.args if inv.name != "socat" else socat_paths(inv.args)
    if config and inv.name in _CONFIG_OPTIONS:
        args = args[1:]  # docker run IMG --kubeconfig F ...: the image's tool reads its own
    if config and any(f.text.startswith(_CONFIG_OPTIONS) for f in args):
        kept: list[Field] = []
        skip = False
        for f in args:
            if skip:
                skip = False
            elif f.text in _CONFIG_OPTIONS:
                skip = True
            elif not f.text.startswith(tuple(o + "=" for o in _CONFIG_OPTIONS)):
                kept.append(f)
        args = kept
    if inv.name in SEDS:
        return sed_path_args(args)
    if inv.name in VIMS:
        return vim_path_args(args)
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


def _set_positional(run: Run, inv: Invocation) -> None:
    """``set -- a b c`` sets ``$1``... and ``"$@"``."""
    texts = [f.text for f in inv.args]
    if "--" not in texts:
        return
    run.env_version += 1
    values = inv.args[texts.index("--") + 1:]
    run.env["@"] = Var(items=tuple(f.text for f in values))
    for index, f in enumerate(values, start=1):
        run.env[str(index)] = Var(alts=(f.text,), taint=f.taint)


def _declare_array(run: Run, f: Field) -> bool:
    """``declare -a a=(rm -rf /)``: an array, read element by element like ``a=(...)``.

    The parser keeps ``a=(...)`` after a declaration builtin as one argument word (bash
    hands the builtin its text); its source is parsed again as an assignment so the
    elements split, quote and expand exactly as in a plain array assignment.
    """
    text = run.text_stack[-1]
    start, end = f.span
    source = text[start:end] if 0 <= start < end <= len(text) else ""
    if not DECL_ARRAY_RE.match(source):
        return False
    from ._parse import parse  # late: the parser is only needed for this builtin form

    script = parse(source)
    statements = script.statements
    if script.issues or len(statements) != 1:
        return False
    command = statements[0].command
    if not isinstance(command, ast.SimpleCommand) or command.words or \
            len(command.assignments) != 1 or command.assignments[0].array is None:
        return False
    run.keep.append(script)  # node ids key the run's caches: keep the tree alive
    run.push_frame(start, f.span, None, source)
    try:
        run.assign(command.assignments[0], persist=True)
    finally:
        run.pop_frame()
    return True


def call_function(run: Run, fn: object, args: list[Field], stdin: Flow | None = None) -> Flow:
    """Classify a function body at a call site, with the call's arguments as ``$1...`` and
    the call's stdin (``curl u | f``: a shell in f's body reads the fetched data)."""
    assert isinstance(fn, ast.FunctionDef)
    if fn.name in run.active or len(run.active) >= 8:
        return EMPTY
    # Each (function, arguments, taint, variable state) is classified once: calls that fan
    # out to the same function stay linear instead of exponential; distinct calls draw on
    # the same work budget as nested code, so the total stays proportional to the input.
    key = (id(fn), tuple(f.text for f in args), any(f.taint for f in args), run.env_version,
           None if stdin is None else (stdin.via, bool(stdin.taint)))
    if key in run.calls_done:
        return EMPTY
    run.budget -= fn.span[1] - fn.span[0] + 32  # shared with nested code: linear overall
    if run.budget < 0:
        run.add("shell.nesting-too-deep", fn.span, "more function calls than the "
                "classifier follows", None)
        return EMPTY
    run.calls_done.add(key)
    run.called.add(fn.name)
    saved = {k: run.env.get(k) for k in ("@", *(str(i) for i in range(1, len(args) + 1)))}
    for index, f in enumerate(args, start=1):
        run.env[str(index)] = Var(alts=(f.text,), taint=f.taint)
    run.env["@"] = Var(items=tuple(f.text for f in args))
    run.active.append(fn.name)
    run.locals.append({})
    entry = (run.env_version, run.env.checkpoint())
    try:
        return run.command(fn.body, stdin)
    finally:
        run.active.pop()
        scope = run.locals.pop()
        for k, old in scope.items():  # local x: the global comes back
            if old is None:
                run.env.pop(k, None)
            else:
                run.env[k] = old
        same = run.env.release(entry[1])  # keeps the call's global writes
        if scope:
            # Only locals changed: the state is the caller's again, and so is its version
            # (calls memoized on it stay linear).
            run.env_version = entry[0] if same else run.env_version + 1
        for k, v in saved.items():
            if v is None:
                run.env.pop(k, None)
            else:
                run.env[k] = v
