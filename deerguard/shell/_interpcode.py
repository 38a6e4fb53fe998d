"""Inline code of another language (``python -c``, ``perl -e``, ``node -e``, awk programs...).

:func:`interp_code` reads the code the way the language runs it: constant strings folded
(``"r" + "m"``), paths spelled by the language (``os.homedir()``), the shell commands it runs
(``os.system``, backticks, list-form ``subprocess.run``, each language's own calls), code it
decodes or fetches and evaluates, files it writes or deletes, sockets that start a process;
each shell command found is classified as nested shell code. Split from :mod:`._sinks`
(which re-exports it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._awkconst import fold_awk
from ._awkpipe import awk_piped
from ._checks import check_write
from ._code import (
    Snippet,
    destructive_paths,
    dynamic_call,
    eval_sources,
    literals,
    shell_strings,
    tcl_commands,
    written_paths,
)
from ._comments import COMMENTED, blank_comments
from ._evalcode import eval_code
from ._fetchrun import fetch_runs
from ._flow import Flow
from ._interp import (
    awk_assigns,
    awk_dynamic_pipe,
    constant_commands,
    deletes_home,
    interpolated,
    package_install_call,
    requote,
    socket_shell,
    string_constants,
)
from ._interpx import code_extras, rewrite_code
from ._juliarun import julia_snippets
from ._langapi import api_findings, argv_commands
from ._langargv import LANG_ARGV, lang_argv
from ._langpaths import spell_paths, spell_self
from ._loadrun import LOADING_LANGUAGES, loaded_files
from ._morecalls import MORE_LANGS, more_snippets
from ._paths import is_critical, norm_path
from ._pwshcode import pwsh_snippets
from ._rawmarkers import scan_markers
from ._resolve import Invocation
from ._shellpipe import shell_writer
from ._words import DYN, NO_TAINT, Field, Source, Taint, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["interp_code"]


def interp_code(run: Run, code: Field, language: str, inv: Invocation,
                 stdin: Flow | None = None) -> Taint:
    """Inline code of another language: its shell-outs, risky paths and sockets. Returns
    the secret sources of the shell commands it runs (``os.system("env")``: what the code
    may print)."""
    src = first_source(code.taint)
    if src is not None:
        run.add("shell.tainted-exec", code.span, f"fetched or decoded data runs as "
                f"{inv.name} code", f"{src.describe()} reaches "
                f"{run._desc(inv.name, inv.word.span)}")
    text = code.text
    if text == DYN and src is None:
        run.add("shell.dynamic-code", code.span, f"{inv.name} runs code that is not known "
                "statically", None)
    if not text or text == DYN:
        return NO_TAINT
    call = package_install_call(text, language)
    if call is not None:
        run.add("shell.package-install", code.span, f"{inv.name} code installs packages "
                f"({call})", None)
    if language in COMMENTED and (bare := blank_comments(text, language)) != text:
        interp_code(run, Field(bare, code.span, code.taint), language, inv, stdin)  # "# don't"
    if language in ("perl", "ruby"):
        inner = interpolated(text, language) if "{" in text else []
        text = requote(text, language)
        if inner:  # "#{`rm -rf ~`}": code a string runs, read as lines of its own
            text = "\n".join((text, *inner))
    text = spell_self(text, language)  # [sys.executable, "-c", CODE]: python3 -c CODE
    text = spell_paths(text, language)  # os.homedir() -> "~", path.join('~', 'x') -> "~/x"
    several: list[str] = []
    if language == "awk":  # cmd = "date"; cmd | getline: the literal it holds (_awkconst)
        text, several = fold_awk(text, inv.args)
    built = rewrite_code(text, language)  # "r" + "m", chr(114), getattr(os, "sys" + "tem")
    was_dynamic = built != text and dynamic_call(text, language=language)
    text = built
    snippets, dynamic = shell_strings(text, language=language)
    snippets += [Snippet(c, 0, 0) for c in several]
    dynamic = dynamic or was_dynamic  # built at run time still, whatever it folds to
    if language == "pwsh":
        snippets = [*snippets, *(Snippet(c, 0, 0) for c in pwsh_snippets(text))]
    snippets += [Snippet(c, 0, 0) for c in argv_commands(text, language)
                 if all(c != s.text for s in snippets)]  # run(['rm', '-rf', x])
    if language in MORE_LANGS:  # R system2, erl os:cmd, groovy "cmd".execute(), ghc callCommand
        snippets, dynamic = more_snippets(text, language, snippets, dynamic)
    if language in LANG_ARGV:  # julia `rm -rf $(homedir())`, exec(arrayOf("sh", "-c", ..))
        snippets = lang_argv(text, language, snippets)
    if language == "julia":  # run(pipeline(`curl u`, `sh`)), download(u, f); include(f)
        snippets = julia_snippets(run, code, text, inv, snippets)
    if language in ("tclsh", "expect", "wish"):
        snippets = [*snippets, *tcl_commands(text)]
    if language == "awk" and not dynamic:
        dynamic = awk_dynamic_pipe(text)
    if language == "awk" and "|" in text:  # print | c, c a constant or -v c=sh (_awkpipe)
        snippets, dynamic = awk_piped(text, inv.args, snippets, dynamic)
    fetch_runs(run, code, language, inv)  # os.system(urlopen(u).read()), run(x, shell=True)
    shell_writer(run, code, text, language, inv)  # open(P, "|sh"); print P "CMD" (_shellpipe)
    if (run.files or run.file_text) and language in LOADING_LANGUAGES:
        loaded_files(run, code, text, language, inv)  # import m, require('./x') (_loadrun)
    if dynamic:
        consts = string_constants(text, literals(text, language in ("perl", "ruby", "php")))
        if language == "awk":
            consts.update(awk_assigns(inv.args))
        snippets = [*snippets, *(Snippet(c, 0, 0) for c in constant_commands(text, consts))]
    fed: set[Source] = set(stdin.taint) if stdin is not None else set()
    flows: list[tuple[Snippet, Flow | None]] = []
    ran: set[Source] = set()
    # awk's print | "cmd": the records it reads (secret data on stdin) reach cmd's stdin.
    piped = frozenset(x for x in stdin.taint if x.kind == "secret") if stdin else NO_TAINT
    for snip in snippets:
        sub = Field(snip.text, code.span, code.taint)
        flow = Flow(piped, producer=inv.name, span=inv.word.span) if snip.pipe_in else None
        out = run.run_code(sub, f"{inv.name} shell call", inv.word.span, flow, positional=[])
        flows.append((snip, out))
        if out is not None:
            fed.update(out.taint)
            ran.update(s for s in out.taint if s.kind == "secret")
    eval_code(run, code, text, language, inv, flows, interp_code)  # exec(b64decode('..'))
    code_extras(run, code, text, language, inv, stdin, interp_code)  # exec(".."), per-line
    if dynamic:
        src = first_source(frozenset(fed))
        if src is not None:
            run.add("shell.tainted-exec", code.span, f"{inv.name} runs fetched data as a "
                    "shell command", f"{src.describe()} reaches a shell call in "
                    f"{run._desc(inv.name, inv.word.span)}")
        else:
            run.add("shell.dynamic-code", code.span, f"{inv.name} code runs a shell command "
                    "built at run time", None)
    if deletes_home(text):
        run.add("shell.recursive-delete", code.span, f"{inv.name} code deletes ~", None)
    for path, _start, _end in destructive_paths(text, language=language):
        norm = norm_path(path, run.cwd)
        if norm is not None and is_critical(norm):
            run.add("shell.recursive-delete", code.span, f"{inv.name} code deletes {norm}",
                    None)
    fetches, reads_stdin = eval_sources(text)
    if fetches:
        run.add("shell.tainted-exec", code.span, f"{inv.name} code downloads code and "
                "evaluates it", None)
    if reads_stdin and stdin is not None:
        src = first_source(stdin.taint)
        if src is not None:
            run.add("shell.tainted-exec", code.span, f"{inv.name} code evaluates its "
                    "stdin, which is fetched or decoded data",
                    f"{src.describe()} reaches {run._desc(inv.name, inv.word.span)}")
    for path, _start, _end in written_paths(text, language=language,
                                            relative=run.cwd is not None):
        check_write(run.add, run.cp.paths, Field(path, code.span), run.cwd,
                    f"{inv.name} code writes")
    markers = scan_markers(text)
    api_findings(run, code, text, inv, markers)  # the environment posted, fork loops
    if socket_shell(text, language):
        run.add("shell.reverse-shell", code.span, f"{inv.name} code connects a network "
                "socket and starts a process (reverse shell)", None)
    for marker in markers:
        run.add(marker.rule_id, code.span, f"{inv.name} code {marker.what}", None)
    return frozenset(ran)
