"""Package managers' subcommands that fetch a package from a registry and run it.

``npm init X`` / ``npm create X`` (``npm exec create-X``), ``pnpm create X``, ``yarn create
X``, ``bun create X`` and ``deno init --npm X`` download the initializer package
``create-X`` and run it; ``npm exec --package=X CMD`` / ``npm exec X@VERSION`` name a
registry package to fetch; ``gem exec X`` installs the gem when missing and runs it
(RubyGems' npx). Each warns like ``npx X`` (``shell.package-install``, the spec's install
band). ``npm init``/``npm init -y`` only write a ``package.json``, ``npm exec vitest`` runs
the project's own binary, ``bun create ./Comp.tsx`` uses a local file: they pass.

Called from ``_checks.check_package`` for the wrapper chain and the program alike (a
finding reported twice is kept once); option arity per tool keeps an option's value
(``npm -w pkg init``, ``npm init --scope @me``) from being read as an operand.
"""

from __future__ import annotations

from collections.abc import Callable

from ._urlrun import _remote_spec
from ._words import DYN, Field

__all__ = ["RUNNER_CHECKS", "check_runner"]

Add = Callable[[str, tuple[int, int], str, "str | None"], None]

RUNNER_CHECKS = frozenset({"npm", "pnpm", "yarn", "bun", "deno", "gem"})
"""Package managers whose run-a-package subcommands :func:`check_runner` knows."""

# npm options (npm config keys) that take a separate value: `npm -w pkg init` /
# `npm init --scope @me` keep the value from being read as a subcommand or initializer.
# (npm's parser reads an unknown --flag as a boolean.)
_NPM_VALUE = frozenset({"-w", "--workspace", "--prefix", "-C", "--registry", "--cache",
                        "--userconfig", "--globalconfig", "--loglevel", "--scope",
                        "--init-author-name", "--init-author-email", "--init-author-url",
                        "--init-license", "--init-module", "--init-version",
                        "--init-type", "--package", "-p", "--node-options", "--script-shell",
                        "--call", "-c", "--location", "--tag", "--otp"})
_PNPM_VALUE = frozenset({"-C", "--dir", "--filter", "-F", "--reporter", "--loglevel",
                         "--workspace-dir", "--config-dir", "--store-dir", "--virtual-store-dir"})
_YARN_VALUE = frozenset({"--cwd", "--registry", "--modules-folder", "--cache-folder",
                         "--global-folder", "--link-folder", "--mutex", "--network-timeout"})
_BUN_VALUE = frozenset({"--cwd", "--config", "-c"})
_CREATE_SUBS = {
    "npm": frozenset({"init", "create", "innit"}),
    "pnpm": frozenset({"create"}),
    "yarn": frozenset({"create"}),
    "bun": frozenset({"create", "c"}),
}
_VALUE_OPTS = {"npm": _NPM_VALUE, "pnpm": _PNPM_VALUE, "yarn": _YARN_VALUE, "bun": _BUN_VALUE,
               "deno": frozenset({"--npm", "--jsr"}), "gem": frozenset({"-v", "--version",
                                                                       "-g", "--gem"})}


def _words(args: list[Field], start: int, values: frozenset[str]
           ) -> list[tuple[int, Field]]:
    """The operands of ``args[start:]`` (index, word), skipping option values; ``--``
    ends them."""
    out: list[tuple[int, Field]] = []
    k = start
    n = len(args)
    while k < n:
        t = args[k].text
        if t == "--":
            break
        if t.startswith("-") and len(t) > 1:
            k += 2 if t in values else 1
            continue
        out.append((k, args[k]))
        k += 1
    return out


def _initializer(name: str, spec: str) -> str:
    """The package an initializer spec runs: ``vite@latest`` -> ``create-vite``,
    ``@scope/x`` -> ``@scope/create-x``, ``@scope`` -> ``@scope/create``."""
    if name == "bun" and "/" in spec and not spec.startswith("@"):
        return f"the GitHub repository {spec}"
    if spec.startswith("@"):
        scope, slash, rest = spec.partition("/")
        return f"{scope}/create-{rest}" if slash and rest else f"{scope}/create"
    return f"create-{spec}"


def check_runner(add: Add, name: str, args: list[Field]) -> None:
    """``npm init X``, ``yarn create X``, ``npm exec --package=X``, ``gem exec X``...:
    a package fetched from a registry runs (``name`` in :data:`RUNNER_CHECKS`)."""
    values = _VALUE_OPTS[name]
    ops = _words(args, 0, values)
    if not ops:
        return
    k, sub = ops[0]
    verb = sub.text
    if name == "deno":
        if verb == "init":
            _deno_init(add, args, k + 1)
        return
    if name == "gem":
        if verb == "exec":
            rest = _words(args, k + 1, values)
            what = rest[0][1].text if rest else "a gem"
            add("shell.package-install", (sub.span[0], (rest[0][1] if rest else sub).span[1]),
                f"gem exec installs {what.replace(DYN, '?')} when it is missing and runs it",
                None)
        return
    if name == "npm" and verb in ("exec", "x"):
        _npm_exec(add, args, k + 1)
        return
    if verb not in _CREATE_SUBS.get(name, ()):
        return
    rest = _words(args, k + 1, values)
    if not rest:
        return  # npm init, npm init -y: writes package.json only
    word = rest[0][1]
    spec = word.text
    if name == "bun" and spec.startswith((".", "/", "~")):
        return  # bun create ./Component.tsx: a local file or template
    add("shell.package-install", (sub.span[0], word.span[1]),
        f"{name} {verb} {spec.replace(DYN, '?')} downloads "
        f"{_initializer(name, spec).replace(DYN, '?')} and runs it", None)


def _deno_init(add: Add, args: list[Field], start: int) -> None:
    """``deno init --npm vite`` runs ``npm:create-vite`` (``--jsr`` a jsr package)."""
    for k in range(start, len(args) - 1):
        t = args[k].text
        if t in ("--npm", "--jsr"):
            spec = args[k + 1].text
            add("shell.package-install", (args[k].span[0], args[k + 1].span[1]),
                f"deno init {t} {spec.replace(DYN, '?')} downloads an initializer package "
                "and runs it", None)
            return


def _npm_exec(add: Add, args: list[Field], start: int) -> None:
    """``npm exec --package=X CMD`` / ``-p X``: X is fetched from the registry when it is
    not installed (npx's warning); ``npm exec X@1.2``: a version names a registry package.
    A remote spec is ``_urlrun``'s (its own message)."""
    k = start
    n = len(args)
    while k < n:
        t = args[k].text
        if t == "--" or not t.startswith("-") or t == "-":
            break
        value: Field | None = None
        if t.startswith("--package="):
            value = Field(t[len("--package="):], args[k].span)
        elif t in ("--package", "-p") and k + 1 < n:
            value = args[k + 1]
        if value is not None and not _remote_spec(value.text, npm=True):
            add("shell.package-install", (args[k].span[0], value.span[1]),
                f"npm exec fetches the package {value.text.replace(DYN, '?')} and runs it",
                None)
            return
        if t in ("-c", "--call"):
            return  # a command line follows, no package operand
        k += 2 if t in _NPM_VALUE else 1
    if k < n and args[k].text == "--":
        k += 1
    if k >= n:
        return
    word = args[k]
    text = word.text
    at = text.find("@", 1)
    if at > 0 and DYN not in text and not _remote_spec(text, npm=True) and \
            not text.startswith((".", "/", "~")):
        add("shell.package-install", word.span, f"npm exec fetches the package {text} and "
            "runs it", None)
