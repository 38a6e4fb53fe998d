"""More interpreters: their code flags, script files, stdin, and the calls that run programs.

A script is read when it is known (written earlier in the command: its code is classified)
or fetched (it runs fetched code: a block). The handler only runs for the names in
:data:`MORE_INTERPRETERS` (one dict lookup in ``_programs``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ._checks import check_args
from ._loadfiles import script_file, stdin_script
from ._sinks import exec_flow, interp_code
from ._words import Field

if TYPE_CHECKING:
    from ._flow import Flow
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["MORE_INTERPRETERS", "more_program"]


@dataclass(frozen=True, slots=True)
class _Lang:
    """How a program takes code: its language, code options, script-file options, options
    with a value, whether the first operand is a script it runs, whether it reads stdin."""

    language: str
    code: frozenset[str] = frozenset()
    files: frozenset[str] = frozenset()
    takes: frozenset[str] = frozenset()
    script: bool = True
    stdin: bool = True
    quiet: frozenset[str] = frozenset()  # options that stop stdin being read as code


def _l(language: str, code: str = "", files: str = "", takes: str = "", *,
       script: bool = True, stdin: bool = True, quiet: str = "") -> _Lang:
    return _Lang(language, frozenset(code.split()), frozenset(files.split()),
                 frozenset(takes.split()), script, stdin, frozenset(quiet.split()))


_OCTAVE = _l("octave", "--eval", "--source", "-p --path --exec-path --image-path --info-file "
             "--info-program --doc-cache-file --texi-macros-file")
_ELIXIR = _l("elixir", "-e --eval", "-r --require -pr --parallel-require --dot-iex",
             "--erl --sname --name --cookie -pa -pz --app --boot --boot-var --logger-otp-reports "
             "--logger-sasl-reports --vm-args --rpc-eval --remsh")
_ERL = _l("erlang", "-eval", "", "-sname -name -setcookie -config -boot -args_file -mode "
          "-kernel -env -connect_all -hosts -id -code_path_choice", script=False,
          quiet="-noshell -noinput -detached")
MORE_INTERPRETERS: dict[str, _Lang] = {
    "gnuplot": _l("gnuplot", "-e --eval", "-c --call", "-d"),
    "octave": _OCTAVE, "octave-cli": _OCTAVE,
    "matlab": _l("matlab", "-r -batch", "", "-sd -logfile -c -licmode -useStartupFolderPref "
                 "-jdb -softwareopengl"),
    # ghc without -e compiles its operands; ghci and runghc run code.
    "ghc": _l("haskell", "-e", "", "-package -package-id -i -o -odir -hidir -outputdir",
              script=False, stdin=False),
    "ghci": _l("haskell", "-e", "", "-package -package-id -i", script=False),
    "runghc": _l("haskell", "", "", "-f --ghc-arg", stdin=False),
    "runhaskell": _l("haskell", "", "", "-f --ghc-arg", stdin=False),
    "scala": _l("scala", "-e --execute-scala", "", "-cp -classpath --classpath -d -J -O",
                stdin=False),
    "scala-cli": _l("scala", "-e --execute-scala --script-snippet", "",
                    "-cp --classpath -S --scala --dep -d --main-class", stdin=False),
    "amm": _l("scala", "-c --code", "", "-p --predef -h --home", stdin=False),
    "groovy": _l("groovy", "-e", "", "-cp -classpath --classpath -l -pa -D -a -i --encoding",
                 stdin=False),
    "kotlinc": _l("kotlin", "-e -expression", "-script", "-cp -classpath -d -jvm-target",
                  script=False, stdin=False),
    "erl": _ERL,
    "escript": _l("erlang", "", "", "", stdin=False),
    "elixir": _ELIXIR, "iex": _ELIXIR,
    "racket": _l("lisp", "-e --eval", "-f --load -t --require -r --script", "-l -I -S -X",
                 stdin=True),
    "guile": _l("lisp", "-c", "-l -s", "-L -C -e -x --language", stdin=True),
    "sbcl": _l("lisp", "--eval", "--load --script", "--core --dynamic-space-size "
               "--control-stack-size --userinit --sysinit"),
    "clisp": _l("lisp", "-x", "-i", "-M -B -K -E -L -m"),
    "ecl": _l("lisp", "-eval", "-load -shell", "-dir"),
    "clojure": _l("lisp", "-e --eval", "-i --init", "-Sdeps -A -M -X -T -J -Scp"),
    "clj": _l("lisp", "-e --eval", "-i --init", "-Sdeps -A -M -X -T -J -Scp"),
    "bb": _l("lisp", "-e --eval", "-f --file", "--classpath -cp --config --deps-root -m "
             "--main"),
    "raku": _l("raku", "-e", "", "-I -M --doc -c"),
    "rakudo": _l("raku", "-e", "", "-I -M --doc -c"),
    "perl6": _l("raku", "-e", "", "-I -M --doc -c"),
    "dc": _l("dc", "-e --expression", "-f --file", ""),
    # zx runs JavaScript whose $`cmd` template literals are shell commands (node's calls too).
    "zx": _l("node", "-e --eval", "", "--shell --prefix --postfix --cwd --registry --env --ext "
             "--prefer-local"),
    # crystal eval CODE / crystal run FILE / crystal FILE.
    "crystal": _l("crystal", "", "", "-o -D --define --emit --error-trace -s --stats"),
}
"""Interpreters this module reads, by program name."""

def more_program(run: Run, inv: Invocation, stdin: Flow | None) -> Flow:
    """The code ``inv`` runs: code options, script files, a script operand, or stdin."""
    spec = MORE_INTERPRETERS[inv.name]
    args = inv.args
    ran = False
    quiet = False
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        if not f.static or t == "--" or t == "-":
            break
        if not t.startswith(("-", "+")):
            if spec.script:
                break
            i += 1  # erl -s mod fun, ghc Main.hs -e ..: operands are not scripts
            continue
        opt, eq, value = t.partition("=")
        if opt in spec.code or opt in spec.files:
            code = Field(value, f.span, f.taint) if eq else \
                args[i + 1] if i + 1 < len(args) else None
            if code is not None:
                ran = True
                if opt in spec.code:
                    interp_code(run, code, spec.language, inv, stdin)
                else:
                    _script(run, inv, code, stdin, spec.language)
            i += 1 if eq else 2
            continue
        quiet = quiet or t in spec.quiet
        i += 2 if t in spec.takes and not eq else 1
    if i < len(args) and args[i].text == "--":
        i += 1
    if inv.name == "crystal" and i < len(args) and args[i].text in ("eval", "run", "i"):
        # crystal eval CODE (stdin without it), crystal run FILE.
        if args[i].text == "eval" and i + 1 < len(args):
            interp_code(run, args[i + 1], spec.language, inv, stdin)
            return exec_flow(run, inv)
        i += 1
    operands = args[i:] if spec.script or i >= len(args) or args[i].text == "-" else []
    if operands and operands[0].text != "-" and spec.script and not ran:
        _script(run, inv, operands[0], stdin, spec.language)
    elif spec.stdin and not quiet and (not ran or spec.language == "erlang") and \
            (not operands or operands[0].text == "-"):
        text = stdin_script(run, inv, stdin, sql=False)
        if text is not None:
            interp_code(run, text, spec.language, inv)
    # As any other program: protected paths and secrets named by the arguments.
    check_args(run.add, run.cp.paths, inv.name, args, run.cwd)
    return exec_flow(run, inv)


def _script(run: Run, inv: Invocation, f: Field, stdin: Flow | None, language: str) -> None:
    text = script_file(run, inv, f, stdin)
    if text is not None:
        interp_code(run, text, language, inv)
