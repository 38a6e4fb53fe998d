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

from ._remote import CONTAINER_PROGRAMS, parse_remote
from ._words import DYN, Field

__all__ = ["Invocation", "resolve", "program_name"]


@dataclass(frozen=True, slots=True)
class Wrapper:
    """How a wrapper finds its command: options with arguments, leading operands, exits."""

    short_arg: str = ""
    long_arg: frozenset[str] = frozenset()
    positional: int = 0
    no_command: frozenset[str] = frozenset()
    assigns: bool = False
    privileged: bool = False
    code_flag: str | None = None  # option whose argument is a shell command string
    code_long: frozenset[str] = frozenset()  # long options whose argument is code (--run)
    long_arg2: frozenset[str] = frozenset()  # long options taking two arguments (bwrap)
    subcommands: frozenset[str] = frozenset()  # `poetry run CMD`: a wrapper only after these
    code_operands: int = 0  # operands that are code strings (trap: 1, hyperfine: all = -1)


def _w(short: str = "", long: str = "", positional: int = 0, none: str = "", *,
       code_long: str = "", long2: str = "", sub: str = "", **kw: object) -> Wrapper:
    return Wrapper(short, frozenset(long.split()), positional, frozenset(none.split()),
                   code_long=frozenset(code_long.split()), long_arg2=frozenset(long2.split()),
                   subcommands=frozenset(sub.split()), **kw)  # type: ignore[arg-type]


_BWRAP_1 = ("--dir --tmpfs --proc --dev --chdir --unsetenv --uid --gid --hostname --lock-file "
            "--sync-fd --remount-ro --mqueue --seccomp --exec-label --file-label --userns "
            "--userns2 --pidns --info-fd --json-status-fd --block-fd --userns-block-fd "
            "--cap-add --cap-drop --perms --size --args --argv0 --add-seccomp-fd")
_BWRAP_2 = ("--bind --ro-bind --dev-bind --bind-try --ro-bind-try --dev-bind-try --symlink "
            "--setenv --file --bind-data --ro-bind-data --chmod --overlay-src")


WRAPPERS: dict[str, Wrapper] = {
    "env": _w("uCSP", "--unset --chdir --split-string", assigns=True),
    "command": _w(none="-v -V"),
    "builtin": _w(),
    "exec": _w("a"),
    "nohup": _w(),
    "time": _w("fo", "--format --output"),
    "nice": _w("n", "--adjustment"),
    "ionice": _w("cn", "--class --classdata", none="-p -P -u --pid --pgid --uid"),
    "timeout": _w("sk", "--signal --kill-after", positional=1),
    "stdbuf": _w("ioe", "--input --output --error"),
    "setsid": _w(),
    "sudo": _w("ugpCDhrtTUR", "--user --group --prompt --close-from --chdir --host --role "
               "--type --command-timeout --other-user",
               none="-l -v -k -K -V -e --list --validate --version --edit",
               assigns=True, privileged=True),
    "doas": _w("uC", privileged=True),
    "run0": _w("u", "--user", privileged=True),
    "pkexec": _w("", "--user", privileged=True),
    "chroot": _w("", "--userspec --groups", positional=1),
    "nsenter": _w("tSGwr", "--target --setuid --setgid --wd --root"),
    "unshare": _w("R", "--root --wd"),
    "xargs": _w("ILnPsdEa", "--max-args --max-procs --delimiter --arg-file --max-lines "
                "--eof --max-chars --process-slot-var"),
    "watch": _w("n", "--interval"),
    "flock": _w("wEc", "--timeout --conflict-exit-code --command", positional=1,
                code_flag="-c"),
    "busybox": _w(none="--list --install --help"),
    "strace": _w("oepsuEIXbPS", none="-p"),
    "ltrace": _w("oepsuEn", none="-p"),
    "taskset": _w("", positional=1, none="-p --pid"),
    "chrt": _w("T", positional=1, none="-p --pid"),
    "numactl": _w("NmCiPp"),
    "runuser": _w("ugsgc", "--user --group --shell --command", privileged=True,
                  code_flag="-c"),
    "caffeinate": _w("tw"),
    "catchsegv": _w(),
    "rlwrap": _w("fhHlpPsSz"),
    "proxychains": _w("f"),
    "proxychains4": _w("f"),
    "torsocks": _w("uPpa"),
    "tsocks": _w(),
    "faketime": _w("", positional=1),
    "unbuffer": _w(),
    "firejail": _w(),
    "cpulimit": _w("lpe", "--limit --pid --exe"),
    "dbus-launch": _w(),
    "xvfb-run": _w("nsfep", "--server-num --server-args --auth-file --error-file"),
    "systemd-run": _w("pEuM", "--property --setenv --unit --machine --uid --gid"),
    "script": _w("c", "--command", code_flag="-c"),
    "screen": _w("ScplLRTtxXe", none="-ls -list -r -R -x -wipe"),
    "parallel": _w("jSPd", "--jobs --sshlogin --delimiter --joblog --arg-file"),
    "sg": _w("", positional=1, code_flag="-c"),
    # Privilege droppers and container init programs: `gosu USER CMD`, `tini -- CMD`.
    "gosu": _w(positional=1, privileged=True),
    "su-exec": _w(positional=1, privileged=True),
    "setpriv": _w("", "--reuid --regid --groups --inh-caps --ambient-caps --bounding-set "
                  "--securebits --selinux-label --apparmor-profile --landlock-access "
                  "--landlock-rule --pdeathsig --ruid --euid --rgid --egid"),
    "chpst": _w("ugUbnlLmdofcpe"),
    "fakeroot": _w("lsi", "--lib --faked --save-file --load-file"),
    "tini": _w("pe"),
    "dumb-init": _w("r", "--rewrite"),
    "chronic": _w(),
    "torify": _w(),
    "setarch": _w(positional=1),
    "linux32": _w(), "linux64": _w(), "i386": _w(), "x86_64": _w(),
    "dbus-run-session": _w("", "--config-file --dbus-daemon"),
    "ssh-agent": _w("aEtP", none="-k -D -d"),
    "bwrap": _w("", _BWRAP_1, long2=_BWRAP_2),
    "watchexec": _w("wWeEfspd", "--watch --exts --filter --ignore --signal --shell "
                    "--debounce --delay-run --workdir --env --project-origin --on-busy-update",
                    code_long="--shell-code"),
    "entr": _w(code_flag="-s"),
    "nodemon": _w("wem", "--watch --ext --ignore --signal --delay --config",
                  code_long="--exec", code_flag="-x"),
    "hyperfine": _w("wrmMpcsnLPuSNN", "--warmup --runs --min-runs --max-runs --prepare "
                    "--cleanup --setup --command-name --parameter-scan --parameter-step-size "
                    "--parameter-list --shell --time-unit --export-asciidoc --export-csv "
                    "--export-json --export-markdown --export-orgmode --output --style "
                    "--sort --input", code_long="--prepare --cleanup --setup",
                    code_operands=-1),
    "trap": _w(none="-l -p", code_operands=1),
    "nix-shell": _w("pIAE", "--packages --include --attr --expr --arg --argstr",
                    code_long="--run --command"),
    # Project runners: `poetry run CMD`, `uv run CMD`, `bundle exec CMD`, `op run -- CMD`.
    "poetry": _w("CP", "--directory --project", sub="run"),
    "uv": _w("pw", "--with --python --package --extra --group --env-file --directory "
             "--project --with-requirements --index --index-url --only-group",
             sub="run"),
    "pipenv": _w(sub="run"),
    "pdm": _w("p", "--project", sub="run"),
    "hatch": _w("e", "--env", sub="run"),
    "conda": _w("np", "--name --prefix --cwd", sub="run"),
    "mamba": _w("np", "--name --prefix --cwd", sub="run"),
    "micromamba": _w("np", "--name --prefix --cwd", sub="run"),
    "bundle": _w(sub="exec"),
    "direnv": _w(positional=1, sub="exec"),
    "aws-vault": _w("", "--duration --region --mfa-token --prompt", positional=1,
                    sub="exec"),
    "op": _w("", "--env-file --account", sub="run"),
    "doppler": _w("pc", "--project --config --token --fallback", sub="run",
                  code_long="--command"),
    "dotenv": _w("ecv", "--env-file"),
    "npm": _w("w", "--package --workspace", sub="exec", code_flag="-c",
              code_long="--call"),
    "yarn": _w(sub="exec"),
    "pnpm": _w("C", "--dir --filter", sub="exec dlx"),
    "bunx": _w("", "--bun"),
    "nix": _w("", "--command --inputs-from --override-input --arg --argstr --expr "
              "--file --impure", positional=64, sub="develop shell"),
    "then": _w(), "do": _w(), "else": _w(),
}
"""Wrappers by program name; each runs the command found after its options."""


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

    @property
    def wrappers(self) -> tuple[str, ...]:
        """The wrapper programs crossed to reach this one, outermost first."""
        return tuple(self._chain[:self._depth])


def program_name(text: str) -> str:
    """Normalize a static program word: ``/usr/bin/python3.11`` -> ``python3.11``."""
    if "/" in text:
        text = text.rstrip("/").rsplit("/", 1)[-1]
    return text


def _known_base(text: str) -> str:
    """The program of ``$DIR/rm`` or ``${PATH:0:1}bin/rm``: a static last path component
    names the program whatever the directory is (like ``/usr/bin/rm``); else ``""``."""
    if "/" not in text:
        return ""
    base = text.rstrip("/").rsplit("/", 1)[-1]
    return base if base and DYN not in base and base not in (".", "..") else ""


def _is_assignment(text: str) -> bool:
    eq = text.find("=")
    if eq <= 0:
        return False
    name = text[:eq]
    return (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name)


@dataclass(slots=True)
class Resolution:
    """The wrappers crossed and the final program (or code string) of one command."""

    chain: list[Invocation]
    code: Field | None = None  # a command string run by sh -c on the wrapper's behalf
    code_owner: str = ""


def resolve(fields: list[Field]) -> Resolution:
    """Follow wrappers from ``fields[0]`` to the program that runs; linear in ``len(fields)``.

    Returns every program on the way (wrappers first). The last invocation is the program;
    when a wrapper runs a command *string* instead (``watch 'a; b'``), ``code`` holds it.
    """
    chain: list[Invocation] = []
    wrappers: list[str] = []
    privileged = False
    from_stdin = False
    pending_assigns: list[tuple[str, Field]] = []
    i = 0
    n = len(fields)
    while i < n:
        word = fields[i]
        name = program_name(word.text) if word.static else _known_base(word.text)
        inv = Invocation(name, word, None, (), pending_assigns, privileged, from_stdin,
                         fields=fields, start=i + 1, chain=wrappers, depth=len(wrappers))
        chain.append(inv)
        if name == "busybox" and i + 1 < n and fields[i + 1].static \
                and not fields[i + 1].text.startswith("-"):
            wrappers.append(name)
            i += 1
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
        elif name == "runuser" and not any(
                f.text in ("-u", "--user") or f.text.startswith("--user=")
                for f in fields[i + 1:]):
            return Resolution(chain)  # runuser [-l] USER -c CMD: su's syntax
        wrappers.append(name)
        privileged = privileged or spec.privileged
        from_stdin = from_stdin or name == "xargs"
        pending_assigns = []
        j, code, stop = _skip_options(fields, start, spec, name, pending_assigns)
        if code is not None:
            return Resolution(chain, code, name)
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
        if name == "watch" and "-x" not in {f.text for f in fields[i + 1:j]}:
            # watch joins its operands and runs them with sh -c.
            joined = " ".join(f.text for f in fields[j:])
            span = (fields[j].span[0], fields[-1].span[1])
            taint = frozenset().union(*(f.taint for f in fields[j:]))
            return Resolution(chain, Field(joined, span, taint), name)
        i = j
    return Resolution(chain)


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
            if text.startswith(DYN) or positional == 0:
                return j, None, False
            positional -= 1
            j += 1
            continue
        if text == "--":
            j += 1
            break
        if text in spec.no_command:
            return j, None, True
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
    text = " ".join([code.text, *(r.text for r in rest)])
    return j, Field(text, code.span, code.taint), False
