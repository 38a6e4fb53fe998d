"""Command-position resolution: which program actually runs, through any wrappers.

``sudo -u root env -i FOO=1 nice -n 5 timeout -s KILL 10 xargs -0 rm -rf`` runs ``rm``. Each
wrapper is described by its option arity (which options take a separate argument, how many
operands precede the command, which options mean "no command follows"), and resolution loops
until a non-wrapper is reached, so nesting depth is unbounded (``env env env ... cmd``) while
the work stays linear in the number of words. An option we do not know is taken as a flag:
the word after it is then treated as the command, which errs towards classifying more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ._argv import MULTICALL, REWRITERS, TERMINALS, rewrite, terminal_code
from ._container import rebind
from ._muxrun import MUX_NAMES, mux_step
from ._remote import CONTAINER_PROGRAMS, parse_remote
from ._runners import PACKAGE_RUNNERS, runner_program, runner_shell_code, runner_stops
from ._words import DYN, Field
from ._wrappers import WRAPPERS, Wrapper
from ._xargs import xargs_replace

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ._flow import Flow

__all__ = ["Invocation", "resolve", "program_name"]


class Invocation:
    """One program that would run: its normalized name, its fields and how it was reached.

    ``name`` is ``""`` when the program name is not static. ``wrappers`` lists the wrapper
    programs it was reached through. ``args`` are the fields after the name (computed on
    demand, so a chain of thousands of wrappers stays linear).
    """

    __slots__ = ("name", "word", "_fields", "_start", "_args", "_chain", "_depth", "assigns",
                 "privileged", "from_stdin")

    def __init__(self, name: str, word: Field, args: list[Field] | None = None,
                 wrappers: tuple[str, ...] = (), assigns: list[tuple[str, Field]] | None = None,
                 privileged: bool = False, from_stdin: bool = False, *,
                 fields: list[Field] | None = None, start: int = 0,
                 chain: list[str] | None = None, depth: int = 0) -> None:
        self.name = name
        self.word = word
        self._args = args
        self._fields = fields
        self._start = start
        self._chain = chain if chain is not None else list(wrappers)
        self._depth = depth if chain is not None else len(wrappers)
        self.assigns = assigns if assigns is not None else []
        self.privileged = privileged
        self.from_stdin = from_stdin

    @property
    def args(self) -> list[Field]:
        """The fields after the program name."""
        if self._args is None:
            self._args = (self._fields or [])[self._start:]
        return self._args

    def args_until(self, stop: str) -> list[Field]:
        """The fields after the program name up to the first ``stop`` (without copying the
        rest: ``gdb -ex CMD --args PROG ...`` reads only its own options)."""
        if self._args is not None or self._fields is None:
            args = self.args
            end = next((k for k, f in enumerate(args) if f.text == stop), len(args))
            return args[:end]
        fields = self._fields
        end = next((k for k in range(self._start, len(fields)) if fields[k].text == stop),
                   len(fields))
        return fields[self._start:end]

    def iter_args(self) -> Iterator[Field]:
        """The fields after the program name, one at a time and without copying the rest
        (``sudo -u USER`` reads only its own options before a chain of thousands)."""
        if self._args is not None or self._fields is None:
            return iter(self.args)
        fields = self._fields
        return (fields[k] for k in range(self._start, len(fields)))

    @property
    def wrappers(self) -> tuple[str, ...]:
        """The wrapper programs crossed to reach this one, outermost first."""
        return tuple(self._chain[:self._depth])


def program_name(text: str) -> str:
    """Normalize a static program word: ``/usr/bin/python3.11`` -> ``python3.11``."""
    if "/" in text:
        if text.startswith("/proc/") and text.endswith("/exe"):
            return "bash"  # /proc/self/exe, /proc/1234/exe: the running shell's own binary
        text = text.rstrip("/").rsplit("/", 1)[-1]
    return text


def _known_base(text: str) -> str:
    """The program of ``$DIR/rm`` or ``${PATH:0:1}bin/rm``: a static last path component
    names the program whatever the directory is (like ``/usr/bin/rm``); else ``""``."""
    if "/" not in text:
        return ""
    base = text.rstrip("/").rsplit("/", 1)[-1]
    if base == "exe" and text.startswith("/proc/"):
        return "bash"  # /proc/$$/exe: the shell's own binary
    return base if base and DYN not in base and base not in (".", "..") else ""


def _is_assignment(text: str) -> bool:
    eq = text.find("=")
    if eq <= 0:
        return False
    name = text[:eq]
    if name.startswith("BASH_FUNC_") and name.endswith("%%"):
        return True  # env 'BASH_FUNC_f%%=() { ...; }': an exported function
    return (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name)


@dataclass(slots=True)
class Resolution:
    """The wrappers crossed and the final program (or code string) of one command."""

    chain: list[Invocation]
    code: Field | None = None  # a command string run by sh -c on the wrapper's behalf
    code_owner: str = ""


def resolve(fields: list[Field], stdin: Flow | None = None) -> Resolution:
    """Follow wrappers from ``fields[0]`` to the program that runs; linear in ``len(fields)``.

    Returns every program on the way (wrappers first). The last invocation is the program;
    when a wrapper runs a command *string* instead (``watch 'a; b'``), ``code`` holds it.
    ``stdin`` is what the command reads (text or DYN, with its taint): ``xargs -I R`` puts
    each input line where ``R`` is written.
    """
    if fields:
        # Fast path: a static program that is neither a wrapper nor a container tool (the
        # first pass of the loop below, without its bookkeeping).
        first = fields[0]
        if DYN not in first.text:
            name = program_name(first.text)
            if name not in WRAPPERS and name not in CONTAINER_PROGRAMS and \
                    name not in _SPECIAL:
                return Resolution([Invocation(name, first, None, (), [], False, False,
                                              fields=fields, start=1, chain=[], depth=0)])
    chain: list[Invocation] = []
    wrappers: list[str] = []
    privileged = False
    from_stdin = False
    pending_assigns: list[tuple[str, Field]] = []
    owned = False
    rebound = False
    i = 0
    n = len(fields)
    while i < n:
        word = fields[i]
        name = program_name(word.text) if word.static else _known_base(word.text)
        inv = Invocation(name, word, None, (), pending_assigns, privileged, from_stdin,
                         fields=fields, start=i + 1, chain=wrappers, depth=len(wrappers))
        chain.append(inv)
        if name in MULTICALL and i + 1 < n and fields[i + 1].static \
                and not fields[i + 1].text.startswith("-"):
            wrappers.append(name)
            i += 1
            continue
        step = mux_step(name, fields, i) if name in MUX_NAMES else None
        if step is not None:  # screen -X stuff, nix run nixpkgs#P, kitty @ launch (_muxrun)
            wrappers.append(name)
            pending_assigns = []
            owned = owned or step[2] is not fields  # a new list (nix run's program word)
            i, code, fields = step
            n = len(fields)
            if code is not None or i < 0:
                return Resolution(chain, code, name)
            continue
        if name in REWRITERS:
            found = rewrite(name, fields, i)
            if found is None:
                return Resolution(chain)
            wrappers.append(name)
            pending_assigns = []
            i, program = found
            if name in TERMINALS:
                code = terminal_code(name, fields, i, program)
                if code is not None:
                    return Resolution(chain, code, name)  # xterm -e 'curl u | sh'
            if program is not None:
                if not owned:
                    fields, owned = list(fields), True  # copied once: linear overall
                fields[i] = program
            continue
        spec = WRAPPERS.get(name)
        if spec is None:
            if name not in CONTAINER_PROGRAMS:
                return Resolution(chain)
            # docker run IMAGE CMD, kubectl exec POD -- CMD: CMD runs (in a container);
            # ssh HOST CMD...: a command string for the remote shell.
            remote = parse_remote(name, fields, i + 1)
            if remote is None:
                return Resolution(chain)
            if remote.code is not None:
                return Resolution(chain, remote.code, name)
            start = remote.start
            if remote.entrypoint is not None:
                start = n if start is None else start
                fields = [*fields[:start], remote.entrypoint, *fields[start:]]
                n = len(fields)
            if start is None or start >= n:
                return Resolution(chain)
            if remote.binds and not rebound:  # docker run -v /etc/kubernetes:/k IMG cat /k/x
                # (the first container only: each rebind copies the rest, kept linear)
                fields, owned, rebound = [*fields[:start], *rebind(remote.binds,
                                                                   fields[start:])], True, True
            wrappers.append(name)
            pending_assigns = []
            i = start
            continue
        start = i + 1
        if spec.subcommands:
            # poetry run CMD, bundle exec CMD: a wrapper only through its subcommand.
            start = _subcommand(fields, start, spec)
            if start < 0:
                return Resolution(chain)
        elif name == "runuser" and not _has_user_option(fields, i + 1):
            return Resolution(chain)  # runuser [-l] USER -c CMD: su's syntax
        wrappers.append(name)
        privileged = privileged or spec.privileged
        from_stdin = from_stdin or name == "xargs"
        pending_assigns = []
        j, code, stop = _skip_options(fields, start, spec, name, pending_assigns)
        if code is not None:
            return Resolution(chain, code, name)
        if name == "parallel" and j < n and fields[j].text in (":::", ":::+"):
            # parallel ::: CMD1 CMD2: no command template, so each argument is a command
            # line run by a shell (up to the next input source).
            ops = []
            for f in fields[j + 1:]:
                if f.text in (":::", ":::+", "::::", "::::+"):
                    break
                ops.append(f)
            if not ops:
                return Resolution(chain)
            text = "\n".join(f.text for f in ops)
            taint = frozenset().union(*(f.taint for f in ops))
            return Resolution(chain, Field(text, (ops[0].span[0], ops[-1].span[1]), taint),
                              name)
        if name == "parallel":
            return Resolution(chain)  # its template and input sources: _parallel
        if name in PACKAGE_RUNNERS and not stop and j < n:
            # npx @scope/pkg@1 ARGS runs pkg; pnpm dlx -c 'a | b' runs a command line.
            shell = runner_shell_code(name, fields, i + 1, j)
            if shell is not None:
                return Resolution(chain, shell, name)
            if runner_stops(fields[j], fields[start - 1].text):
                return Resolution(chain)  # bun create ./Comp.tsx: a template, not a program
            program = runner_program(fields[j], fields[start - 1].text)
            if program is not None:
                if not owned:
                    fields, owned = list(fields), True
                fields[j] = program
        if spec.code_operands and not stop and j < n:
            # trap 'CODE' SIG, hyperfine 'CMD1' 'CMD2': operands are command strings.
            ops = fields[j:] if spec.code_operands < 0 else fields[j:j + spec.code_operands]
            text = "\n".join(f.text for f in ops)
            taint = frozenset().union(*(f.taint for f in ops))
            return Resolution(chain, Field(text, (ops[0].span[0], ops[-1].span[1]), taint),
                              name)
        if stop or j >= n:
            if name == "watch" and j < n:
                break
            return Resolution(chain)
        if name == "xargs":
            repl = xargs_replace(fields, start, j)
            if repl:
                # xargs -I R CMD R: each input line replaces R in CMD. Any R is spelled {}
                # for the rules that splice lines into code (sh -c 'rm {}'); in the program
                # position the line itself is the program (xargs -I{} {}).
                if not owned:
                    fields, owned = list(fields), True
                for k in range(j, n):
                    f = fields[k]
                    if repl not in f.text:
                        continue
                    if k == j:
                        given = stdin.text if stdin is not None else None
                        line = given.strip() if given is not None and \
                            "\n" not in given.strip() else DYN
                        taint = f.taint | stdin.taint if stdin is not None else f.taint
                        fields[k] = Field(f.text.replace(repl, line), f.span, taint)
                    elif repl != "{}":
                        fields[k] = Field(f.text.replace(repl, "{}"), f.span, f.taint)
        if (name == "watch" and "-x" not in {f.text for f in fields[i + 1:j]}) or \
                name in _JOINS or (name == "env-cmd" and any(
                    f.text == "--use-shell" for f in fields[i + 1:j])):
            # watch joins its operands and runs them with sh -c; so do sg GROUP CMD,
            # cross-env-shell A=1 CMD and env-cmd --use-shell CMD.
            joined = " ".join(f.text for f in fields[j:])
            span = (fields[j].span[0], fields[-1].span[1])
            taint = frozenset().union(*(f.taint for f in fields[j:]))
            return Resolution(chain, Field(joined, span, taint), name)
        i = j
    return Resolution(chain)


_SPECIAL = MULTICALL | REWRITERS | MUX_NAMES
_JOINS = frozenset({"sg", "cross-env-shell"})


def _skip_options(fields: list[Field], j: int, spec: Wrapper, name: str,
                  assigns: list[tuple[str, Field]]) -> tuple[int, Field | None, bool]:
    """Skip a wrapper's options/operands; return (command index, code string, no-command)."""
    n = len(fields)
    positional = spec.positional
    while j < n:
        f = fields[j]
        text = f.text
        if spec.assigns and _is_assignment(text):
            eq = text.index("=")
            assigns.append((text[:eq], Field(text[eq + 1:], f.span, f.taint)))
            j += 1
            continue
        if not f.static:
            if _static_option(text, spec):
                j += 1  # --arg-file=<(...), -a<(...): the option is known, its value is not
                continue
            if text.startswith(DYN) or positional == 0:
                return j, None, False
            positional -= 1
            j += 1
            continue
        if text == "--":
            # timeout -- DUR CMD, chroot -- DIR CMD: leading operands still come first.
            j += 1 + (positional if positional <= 2 else 0)
            break
        if text in spec.no_command:
            return j, None, True
        if name == "runcon" and text.startswith(("-u", "-r", "-t", "-l", "--u", "--ro", "--t",
                                                  "--ra")):
            positional = 0  # runcon -t TYPE CMD: these options replace the CONTEXT operand
        if text.startswith("--") and len(text) > 2:
            opt = text.split("=", 1)[0]
            if opt in spec.no_command:
                return j, None, True
            if name == "env" and opt == "--split-string":
                return _env_split(fields, j, text)
            if name == "nix" and opt == "--command":
                j += 1
                break  # nix develop --command CMD ARGS: an argument vector follows
            if opt in spec.code_long or (opt == "--command" and spec.code_flag):
                if "=" in text:
                    return j, Field(text.split("=", 1)[1], f.span, f.taint), False
                return j, fields[j + 1] if j + 1 < n else None, j + 1 >= n
            if "=" not in text and opt in spec.long_arg2:
                j += 3
                continue
            j += 2 if opt in spec.long_arg and "=" not in text else 1
            continue
        if name == "nix" and text == "-c":
            j += 1
            break
        if text.startswith("-") and len(text) > 1 and not (name == "su"):
            k = 1
            consumed = 1
            while k < len(text):
                letter = text[k]
                if spec.code_flag == "-" + letter:
                    if k + 1 < len(text):
                        return j, Field(text[k + 1:], f.span, f.taint), False
                    return j, fields[j + 1] if j + 1 < n else None, j + 1 >= n
                if name == "env" and letter == "S":
                    return _env_split(fields, j, text[k + 1:] or None)
                if letter in spec.short_arg:
                    if k + 1 == len(text):
                        consumed = 2
                    break
                k += 1
            j += consumed
            continue
        if spec.assigns and _is_assignment(text):
            eq = text.index("=")
            assigns.append((text[:eq], Field(text[eq + 1:], f.span, f.taint)))
            j += 1
            continue
        if positional > 0:
            positional -= 1
            j += 1
            continue
        break
    return j, None, j >= n


def _static_option(text: str, spec: Wrapper) -> bool:
    """``--opt=VALUE`` or ``-xVALUE`` whose option is static and takes the (partly unknown)
    value attached to it; code options are left to the caller (their value is code)."""
    if not text.startswith("-") or text.startswith(("-" + DYN, "--" + DYN)):
        return False
    if text.startswith("--"):
        opt, eq, _ = text.partition("=")
        return bool(eq) and DYN not in opt and opt not in spec.code_long and \
            opt not in ("--command", "--split-string")
    for letter in text[1:]:
        if letter == DYN or spec.code_flag == "-" + letter or letter == "S":
            return False
        if letter in spec.short_arg:
            return True
    return False


def _has_user_option(fields: list[Field], j: int) -> bool:
    """``runuser -u USER CMD`` (a wrapper) rather than ``runuser [-l] USER -c CMD``."""
    while j < len(fields) and fields[j].text.startswith("-") and fields[j].text != "--":
        t = fields[j].text
        if t in ("-u", "--user") or t.startswith(("--user=", "-u")):
            return True
        j += 2 if t in ("-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w",
                        "--whitelist-environment") else 1
    return False


def _subcommand(fields: list[Field], j: int, spec: Wrapper) -> int:
    """Index after the wrapper's subcommand (``run`` of ``poetry -C d run``), or -1."""
    n = len(fields)
    while j < n:
        t = fields[j].text
        if not fields[j].static:
            return -1
        if t.startswith("-") and len(t) > 1:
            opt = t.split("=", 1)[0]
            takes = (opt in spec.long_arg) if t.startswith("--") else (
                len(t) == 2 and t[1] in spec.short_arg)
            j += 2 if takes and "=" not in t else 1
            continue
        return j + 1 if t in spec.subcommands else -1
    return -1


def _env_split(fields: list[Field], j: int, attached: str | None
               ) -> tuple[int, Field | None, bool]:
    """``env -S 'cmd args'``: the string is split into words and run (as a command string)."""
    f = fields[j]
    if attached is not None and attached.startswith("--split-string="):
        attached = attached.split("=", 1)[1]
    if attached is None:
        if j + 1 >= len(fields):
            return j, None, True
        code = fields[j + 1]
        rest = fields[j + 2:]
    else:
        code = Field(attached, f.span, f.taint)
        rest = fields[j + 1:]
    # The operands after the string are appended as whole words (env -S sh -c 'rm -rf ~'
    # runs sh with the two arguments -c and 'rm -rf ~'): quote them.
    text = " ".join([code.text, *(_quoted(r.text) for r in rest)])
    return j, Field(text, code.span, code.taint), False


def _quoted(text: str) -> str:
    """``text`` as one shell word (left as is when plain, or partly dynamic)."""
    if DYN in text or (text and all(c.isalnum() or c in "-_./=:,+@%" for c in text)):
        return text
    return "'" + text.replace("'", "'\\''") + "'"
