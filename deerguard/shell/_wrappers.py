"""Wrapper programs as data: how each finds the command it runs (its option arity).

``sudo -u root env -i FOO=1 nice -n 5 timeout -s KILL 10 rm`` runs ``rm``: each wrapper is
described by which options take a separate argument (one or two), how many operands precede
the command, which options mean "no command follows", which options or operands are
shell command strings, and, for project runners (``poetry run``), the subcommand that makes
it a wrapper. :func:`~deerguard.shell._resolve.resolve` walks these.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._ldso import LOADER_ARG_OPTIONS, LOADER_NAMES, LOADER_NO_COMMAND
from ._sysdrun import SDRUN_LONG, SDRUN_SHORT

__all__ = ["WRAPPERS", "Wrapper"]


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


# npm exec/npx options with an argument (npm config keys given on the command line).
_NPM_CONFIG = ("--package --workspace --registry --cache --prefix --userconfig --globalconfig "
               "--loglevel --node-options --script-shell --shell --scope --init-author-name "
               "--init-author-email --init-author-url --init-license --init-module "
               "--init-version --init-type")


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
    # please (a sudo alternative): -c FILE, -d DIR, -r REASON, -t TARGET, -u USER.
    "please": _w("cdrtu", privileged=True),
    "run0": _w("u", "--user", privileged=True),
    "pkexec": _w("", "--user", privileged=True),
    "chroot": _w("", "--userspec --groups", positional=1),
    "nsenter": _w("tSGwr", "--target --setuid --setgid --wd --root"),
    "unshare": _w("R", "--root --wd"),
    # --eof[=S], --replace[=R], --max-lines[=N] take a value only with `=` (like -e -i -l).
    "xargs": _w("ILnPsdEa", "--max-args --max-procs --delimiter --arg-file --max-chars "
                "--process-slot-var", none="--help --version"),
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
    "systemd-run": _w(SDRUN_SHORT, SDRUN_LONG),
    # script [-q] [FILE [COMMAND...]]: FILE is the typescript (BSD runs COMMAND after it).
    "script": _w("cEIOTBm", "--command --log-io --log-in --log-out --log-timing --echo "
                 "--logging-format --output-limit", positional=1, code_flag="-c"),
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
    # Env-file loaders and setters from npm (`dotenv -e .env -- CMD`, `cross-env A=1 CMD`,
    # `env-cmd -f .env CMD`, `dotenvx run -f .env -- CMD`): like env, CMD runs.
    # cross-env-shell and env-cmd --use-shell join CMD ARGS into a shell command line.
    "dotenv": _w("ecv", "--env-file", none="-p"),
    "cross-env": _w(assigns=True),
    "cross-env-shell": _w(assigns=True),
    "env-cmd": _w("fre", "--file --rc-file --environments"),
    "dotenvx": _w("efl", "--env --env-file --env-vault-file --env-keys-file --convention "
                  "--ignore --log-level", sub="run"),
    # shx CMD ARGS runs a ShellJS command (shx rm -rf DIR); shx refuses `exec`.
    "shx": _w(),
    # Package runners (`npx PKG ARGS`, `pnpm dlx PKG`, `pipx run APP`): the command word
    # names a package, whose program runs (_runners.runner_program).
    "npm": _w("wp", _NPM_CONFIG, sub="exec x create init innit", code_flag="-c",
              code_long="--call"),
    "npx": _w("wp", _NPM_CONFIG, code_flag="-c", code_long="--call"),
    "yarn": _w("p", "--package --cwd", sub="exec dlx create"),
    "pnpm": _w("C", "--dir --filter --package --reporter --loglevel", sub="exec dlx create"),
    "pnpx": _w("", "--package --reporter --loglevel"),
    "bunx": _w("p", "--package --cwd --config"),
    "bun": _w("p", "--package --cwd --config", sub="x create c"),
    "uvx": _w("pwicfbPC", "--from --with --with-editable --with-requirements --python "
              "--index --default-index --index-url --extra-index-url --find-links "
              "--constraints --overrides --build-constraints --env-file --directory --project "
              "--config-file --cache-dir --python-preference --index-strategy "
              "--keyring-provider --resolution --prerelease --exclude-newer --python-platform "
              "--torch-backend --upgrade-package --reinstall-package --refresh-package "
              "--config-setting --link-mode --no-build-package --no-binary-package"),
    "pipx": _w("i", "--spec --python --pip-args --index-url --backend --preinstall",
               sub="run"),
    # gem exec [-v VERSION] [-g GEM] CMD ARGS: RubyGems' npx (installs GEM when missing).
    "gem": _w("vg", "--version --gem", sub="exec"),
    "nix": _w("", "--command --inputs-from --override-input --arg --argstr --expr "
              "--file --impure", positional=64, sub="develop shell"),
    # Version managers running a command with their tools (_pkgver has their installs):
    # `mise exec node@20 -- CMD` (tools up to `--`; -c CMD a command string), `asdf exec CMD`,
    # `pyenv exec CMD`, `rustup run TOOLCHAIN CMD`, `volta run CMD`, `fnm exec -- CMD`.
    "mise": _w("jCE", "--jobs --cd --env --profile", positional=64, sub="exec x",
               code_flag="-c", code_long="--command"),
    "rtx": _w("jCE", "--jobs --cd --env --profile", positional=64, sub="exec x",
              code_flag="-c", code_long="--command"),
    "asdf": _w(sub="exec"),
    "pyenv": _w(sub="exec"),
    "rbenv": _w(sub="exec"),
    "nodenv": _w(sub="exec"),
    "goenv": _w(sub="exec"),
    "rustup": _w(positional=1, sub="run"),
    "volta": _w("", "--node --npm --pnpm --yarn --env", sub="run"),
    "fnm": _w("", "--using", sub="exec"),
    "nvm": _w(positional=1, sub="exec"),
    # `lima CMD...` runs CMD in the default Lima VM (`limactl shell default CMD...`).
    "lima": _w(),
    # Secret injectors like `op run`: `railway run CMD`, `infisical run [--command CMD] -- CMD`.
    "railway": _w("se", "--service --environment", sub="run"),
    "infisical": _w("", "--env --path --projectId --token --domain --watch-path",
                    sub="run", code_long="--command"),
    # Tools that run a program under observation or limits: `valgrind -q CMD`,
    # `prlimit --nofile=10 CMD`, `perf stat -e E CMD`, `cgexec -g cpu:x CMD`.
    "valgrind": _w("", "--log-file --xml-file --suppressions"),
    "eatmydata": _w(),
    "prlimit": _w("o", "--output", none="-p --pid"),
    "perf": _w("eorpxGCItuMFcmjD", "--event --output --repeat --pid --tid --cpu --cgroup "
               "--field-separator --interval-print --metrics --freq --count --mmap-pages "
               "--delay --uid --pre --post --input", sub="stat record trace"),
    "cgexec": _w("g"),
    # runcon CONTEXT CMD, or runcon [-u U] [-r R] [-t T] [-l L] CMD (no CONTEXT then).
    "runcon": _w("urtl", "--user --role --type --range", positional=1),
    # machinectl shell [opts] [USER@]MACHINE [PATH ARGS...]: like su for the host (.host).
    "machinectl": _w("EMHp", "--setenv --uid --machine --host", positional=1, sub="shell",
                     privileged=True),
    "systemd-inhibit": _w("", "--what --who --why --mode", none="--list"),
    "flatpak-spawn": _w(),
    "ip": _w("n", "-netns", positional=2, sub="netns"),  # ip netns exec NAME CMD
    "lxc-attach": _w("nPsavfugLlo", "--name --lxcpath --namespaces --arch --set-var "
                     "--rcfile --uid --gid --logfile --logpriority --keep-var"),
    "schroot": _w("cud", "--chroot --user --directory --option", none="-l --list -i --info"),
    "ccache": _w("", none="-s -z -C -c -M -F -p -V -h --show-stats --zero-stats --clear "
                 "--cleanup --max-size --max-files --show-config --version --help"),
    "distcc": _w(),
    "nocache": _w(),
    "trickle": _w("duwtln"),
    "daemonize": _w("ceEoplu"),
    "heaptrack": _w("o", "--output", none="-p --pid -a --analyze"),
    "dtach": _w("cAnNer"),
    # daemontools / s6 / runit chain loaders: `setuidgid USER CMD`, `envdir DIR CMD`.
    "setuidgid": _w(positional=1),
    "s6-setuidgid": _w(positional=1),
    "envuidgid": _w(positional=1),
    "envdir": _w(positional=1),
    "s6-envdir": _w("ILnicf", positional=1),
    "softlimit": _w("mdsaloprtfc"),
    "setlock": _w(positional=1),
    "lckdo": _w("w", positional=1),
    "then": _w(), "do": _w(), "else": _w(),
    # Terminal emulators that run their first operand (`kitty sh -c CMD`, `foot CMD`); the
    # ones that take the command after an option are _argv's.
    "kitty": _w("cdoT", "--config --override --title --class --name --directory --session "
                "--listen-on --start-as --instance-group --watcher --position --logo "
                "--logo-position --logo-alpha --os-window-tag --replay-commands",
                none="+kitten +open +runpy @ --version -v --help -h"),
    "foot": _w("cotTawWDf", "--config --override --term --title --app-id "
               "--window-size-pixels --window-size-chars --working-directory --font "
               "--log-level --log-colorize", none="--version -v --help -h"),
    "footclient": _w("tTawWDso", "--term --title --app-id --window-size-pixels "
                     "--window-size-chars --working-directory --server-socket --override "
                     "--log-level --log-colorize", none="--version -v --help -h"),
    # abduco -c|-n|-A NAME CMD: a session running CMD (-a NAME attaches, no command).
    "abduco": _w("e", positional=1, none="-a -l -v -h"),
}
WRAPPERS["sudo-rs"] = WRAPPERS["sudo"]  # the Rust rewrite, same options
"""Wrappers by program name; each runs the command found after its options."""
# The dynamic loader run directly (ld-linux-x86-64.so.2 [--preload L] PROG): PROG runs
# (_ldso reports the options that load libraries into it).
WRAPPERS.update(dict.fromkeys(LOADER_NAMES, _w("", LOADER_ARG_OPTIONS, none=LOADER_NO_COMMAND)))
