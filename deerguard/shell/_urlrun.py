"""Runners whose script operand is a URL: they download the script and run it.

``uv run https://host/s.py``, ``pipx run https://host/s.py``, ``deno run -A https://host/m.ts``
(also ``deno https://...``, ``deno serve``) and ``bun run https://...`` fetch the code and
execute it: ``bash <(curl u)`` for another language, so they block as fetched code run
(``shell.tainted-exec``). Deno is the one runner with a sandbox: a remote script run with no
permission flag (``deno run https://docs.deno.com/.../hello.ts``, Deno's own examples) cannot
read, write, spawn or reach the network, so it only warns (``shell.dynamic-code``); any
``-A``/``--allow-*`` (or a short permission flag) grants it real power and blocks. Registry
specifiers (``deno run jsr:@std/http/file-server``, ``npm:cowsay``) run a package the way
``npx PKG`` does, and warn the same (``shell.package-install``). ``go run MOD@VERSION``
downloads a module and runs it (``go run golang.org/x/tools/cmd/stringer@latest``): an
install, so it warns; ``go run .`` and ``go run ./cmd/x`` build local code and pass.

Only the programs in :data:`URL_RUNNERS` reach this module; each is one linear pass over its
own arguments.
"""

from __future__ import annotations

from collections.abc import Callable

from ._words import DYN, Field
from ._wrappers import WRAPPERS

__all__ = ["URL_RUNNERS", "check_url_runner"]

Add = Callable[[str, tuple[int, int], str, "str | None"], None]

URL_RUNNERS = frozenset({"uv", "pipx", "deno", "bun", "go", "npm"})

# deno options that take a separate argument (the rest are flags or use ``--opt=value``).
_DENO_ARG = frozenset({"-c", "--config", "--import-map", "--lock", "--cert", "--location",
                       "--seed", "--ext", "--env-file", "--frozen", "--unstable-sloppy-imports",
                       "--port", "--host"})
_DENO_ARG_OPTIONAL = frozenset({"--env-file", "--frozen", "--unstable-sloppy-imports"})
# Permission flags (deno 2 short forms: -A all, -R read, -W write, -E env, -S sys, -P a
# permission set from the config) that reach local files, processes or secrets. Network or
# import access alone (-N, --allow-net, --allow-import) leaves nothing local to take.
_DENO_PERMS = frozenset({"-A", "-R", "-W", "-E", "-S", "-P"})
_DENO_WEAK = frozenset({"--allow-net", "--allow-import", "--allow-hrtime"})
# bun run options with a separate argument.
_BUN_ARG = frozenset({"--cwd", "--config", "-c", "--env-file", "--filter", "-F", "--preload",
                      "-r", "--require", "--import", "--define", "-d", "--loader", "-l",
                      "--tsconfig-override", "--main-fields", "--conditions", "--jsx-factory",
                      "--jsx-fragment", "--jsx-import-source", "--jsx-runtime", "--port",
                      "--inspect", "--elide-lines", "--shell"})
# go build flags with a separate argument (go also accepts -flag=value).
_GO_ARG = frozenset({"-C", "-p", "-asmflags", "-buildmode", "-buildvcs", "-compiler",
                     "-gccgoflags", "-gcflags", "-installsuffix", "-ldflags", "-mod",
                     "-modfile", "-overlay", "-pgo", "-pkgdir", "-tags", "-toolexec", "-exec",
                     "-coverpkg", "-covermode", "-o"})
_URL_PREFIXES = ("http://", "https://", "HTTP://", "HTTPS://")
_REGISTRY_PREFIXES = ("jsr:", "npm:")
# Package specs naming code outside a registry: a URL, a git remote, a hosted-git shorthand.
_REMOTE_SPECS = ("http://", "https://", "git+", "git://", "github:", "gitlab:", "bitbucket:",
                 "gist:", "ssh://", "file:")
_UV_WITH = frozenset({"--with", "-w", "--with-requirements", "--with-editable"})


def _is_url(text: str) -> bool:
    return text.startswith(_URL_PREFIXES) and DYN not in text[:8]


def _wrapper_operand(args: list[Field], start: int, name: str) -> int:
    """Index of the first operand from ``start`` under ``name``'s wrapper option arity."""
    spec = WRAPPERS[name]
    i = start
    while i < len(args):
        t = args[i].text
        if t == "--":
            return i + 1
        if not t.startswith("-") or t == "-":
            return i
        if t.startswith("--"):
            i += 2 if t in spec.long_arg else 1
        elif len(t) == 2 and t[1] in spec.short_arg:
            i += 2
        else:
            i += 1
    return i


def _subcommand(args: list[Field], name: str, sub: str) -> int:
    """Index just after ``sub`` when it is ``name``'s first operand (global options before it
    use the wrapper arity), else -1."""
    k = _wrapper_operand(args, 0, name)
    return k + 1 if k < len(args) and args[k].text == sub else -1


def _fetched(add: Add, name: str, word: Field, how: str) -> None:
    add("shell.tainted-exec", word.span, f"{name} downloads {word.text} and runs it",
        f"the script at {word.text} (fetched) reaches {name} {how}")


def _remote_spec(text: str, *, npm: bool = False) -> bool:
    """A package spec fetched from outside a registry (``git+https://..``, a tarball URL,
    ``pkg @ https://..``; for npm also ``github:u/r`` and the ``user/repo`` shorthand)."""
    if DYN in text:
        return False
    if text.startswith(_REMOTE_SPECS) or "@ http" in text or "@http" in text:
        return True
    return npm and "/" in text and not text.startswith(("@", ".", "/", "~")) and \
        not any(c in text for c in " \t\n;|&$`")


def _install_warn(add: Add, name: str, word: Field, spec: str) -> None:
    add("shell.package-install", word.span, f"{name} fetches the package {spec} from outside "
        "a registry and runs it", None)


def _uv_pipx(add: Add, inv_name: str, args: list[Field]) -> None:
    start = _subcommand(args, inv_name, "run")
    if start < 0:
        return
    k = _wrapper_operand(args, start, inv_name)
    if inv_name == "uv":
        # uv run --with git+https://.. CMD: a remote package joins the run's environment.
        for j in range(start, k):
            t = args[j].text
            head, eq, value = t.partition("=")
            if eq and head in _UV_WITH and _remote_spec(value):
                _install_warn(add, "uv run", args[j], value)
            elif t in _UV_WITH and j + 1 < k and _remote_spec(args[j + 1].text):
                _install_warn(add, "uv run", args[j + 1], args[j + 1].text)
    if k < len(args) and _is_url(args[k].text):
        _fetched(add, inv_name, args[k], "as its script")


def _deno(add: Add, args: list[Field]) -> None:
    i = 0
    if args and args[0].text in ("run", "serve"):
        i = 1
    elif not args or not args[0].text.startswith(("-", *_URL_PREFIXES)):
        return  # deno SUBCOMMAND (eval, test, install...) or deno main.ts: not a URL run
    perms: list[str] = []
    while i < len(args):
        t = args[i].text
        if t == "--" or not t.startswith("-") or t == "-":
            break
        head = t.split("=", 1)[0]
        if (head.startswith("--allow-") and head not in _DENO_WEAK) or head in _DENO_PERMS or (
                len(head) > 2 and head[1] != "-" and any("-" + c in _DENO_PERMS
                                                          for c in head[1:])):
            perms.append(head)
        if "=" not in t and t in _DENO_ARG and t not in _DENO_ARG_OPTIONAL:
            i += 2
            continue
        i += 1
    if i < len(args) and args[i].text == "--":
        i += 1
    if i >= len(args):
        return
    word = args[i]
    if _is_url(word.text):
        if perms:
            _fetched(add, "deno", word, f"with permissions {' '.join(perms[:4])}")
        else:
            add("shell.dynamic-code", word.span, f"deno runs the remote script {word.text} "
                "(in its permission sandbox: no local file, process or env access)", None)
    elif word.text.startswith(_REGISTRY_PREFIXES):
        add("shell.package-install", word.span, f"deno fetches and runs the package "
            f"{word.text}", None)


def _bun(add: Add, args: list[Field]) -> None:
    i = 1 if args and args[0].text == "run" else 0
    while i < len(args):
        t = args[i].text
        if t == "--" or not t.startswith("-") or t == "-":
            break
        i += 2 if t in _BUN_ARG else 1
    if i < len(args) and args[i].text == "--":
        i += 1
    if i < len(args) and _is_url(args[i].text):
        _fetched(add, "bun", args[i], "as its script")


def _go(add: Add, args: list[Field]) -> None:
    if not args or args[0].text != "run":
        return
    i = 1
    while i < len(args):
        t = args[i].text
        if not t.startswith("-") or t == "-":
            break
        if t == "--":
            i += 1
            break
        i += 2 if t in _GO_ARG or ("=" not in t and "-" + t.lstrip("-") in _GO_ARG) else 1
    if i >= len(args):
        return
    word = args[i]
    t = word.text
    if "@" in t and not t.startswith((".", "/", "@")) and DYN not in t:
        add("shell.package-install", word.span, f"go run downloads the module {t} and runs "
            "it", None)


def _npm(add: Add, args: list[Field]) -> None:
    """npm exec/x with a remote spec (``npm exec https://../x.tgz``, ``npm x user/repo``,
    ``--package=git+https://..``): npx's install warning, which npm exec lacks."""
    start = _subcommand(args, "npm", "exec")
    if start < 0:
        start = _subcommand(args, "npm", "x")
    if start < 0:
        return
    for j in range(start, len(args)):
        t = args[j].text
        if t == "--":
            break
        value = t.partition("=")[2] if t.startswith("--package=") else \
            args[j + 1].text if t in ("--package", "-p") and j + 1 < len(args) else None
        if value is not None and _remote_spec(value, npm=True):
            _install_warn(add, "npm exec", args[j], value)
            return
    k = _wrapper_operand(args, start, "npm")
    if any(f.text in ("-c", "--call") or f.text.startswith("--call=") for f in args[start:k]):
        return  # npm exec -c 'CMD': a command line, no package operand
    if k < len(args) and _remote_spec(args[k].text, npm=True):
        _install_warn(add, "npm exec", args[k], args[k].text)


def check_url_runner(add: Add, name: str, args: list[Field]) -> None:
    """Findings for a runner (``name`` in :data:`URL_RUNNERS`) whose script is a URL, or
    which fetches a package or module to run it."""
    if name in ("uv", "pipx"):
        _uv_pipx(add, name, args)
    elif name == "deno":
        _deno(add, args)
    elif name == "bun":
        _bun(add, args)
    elif name == "go":
        _go(add, args)
    elif name == "npm":
        _npm(add, args)
