"""Settings that change where packages and repositories come from (warn band).

``pip config set global.index-url URL``, ``npm config set registry URL``, ``export
PIP_EXTRA_INDEX_URL=URL``, ``git config url.URL.insteadOf https://github.com/``: every later
install or clone then fetches from the new source, which is how a dependency-confusion or
typosquat attack persists past the command that set it. ``shell.package-source`` warns so a
human confirms the source; the public default registries pass. ``npm config set
script-shell``/``node-options`` choose what runs every ``npm run``: the same warning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._netredirect import NET_PROGRAMS, net_setting
from ._values import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["SOURCE_PROGRAMS", "SOURCE_VARS", "package_source", "source_variable"]

SOURCE_PROGRAMS = frozenset({"pip", "pip3", "npm", "pnpm", "yarn", "git", "gem", "conda",
                             "mamba", "bundle", "cargo"})
SOURCE_VARS = frozenset({"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "UV_INDEX_URL",
                         "UV_EXTRA_INDEX_URL", "UV_INDEX", "UV_DEFAULT_INDEX",
                         "NPM_CONFIG_REGISTRY", "npm_config_registry", "YARN_REGISTRY",
                         "YARN_NPM_REGISTRY_SERVER", "PIP_TRUSTED_HOST",
                         "NPM_CONFIG_SCRIPT_SHELL", "npm_config_script_shell",
                         "CARGO_REGISTRIES_CRATES_IO_PROTOCOL", "GOPROXY", "GONOSUMDB",
                         "GONOSUMCHECK", "GOFLAGS", "GOSUMDB", "GOINSECURE",
                         "BUN_CONFIG_REGISTRY", "PIP_FIND_LINKS", "UV_FIND_LINKS",
                         "UV_INSECURE_HOST"})
"""Environment variables that choose a package source (or turn off its checksums)."""

_OFFICIAL = ("https://pypi.org/simple", "https://registry.npmjs.org",
             "https://registry.yarnpkg.com", "https://rubygems.org",
             "https://proxy.golang.org", "https://files.pythonhosted.org")
_PIP_KEYS = ("index-url", "extra-index-url", "trusted-host", "find-links")
_NPM_KEYS = ("registry", "script-shell", "node-options", "shell", "npmregistryserver",
             "unsafe-perm", "ignore-scripts")


def _host(url: str) -> str:
    """The host of ``https://user@host/x``, ``git@host:x`` or ``ssh://host:22/x``."""
    rest = url.partition("://")[2] or url
    rest = rest.rpartition("@")[2]
    for stop in ":/":
        rest = rest.partition(stop)[0]
    return rest.lower()


def _official(value: str) -> bool:
    return value.rstrip("/").startswith(_OFFICIAL) and "@" not in value


def package_source(run: Run, name: str, args: list[Field], span: tuple[int, int]) -> None:
    """Report a config command that points package installs at another source."""
    texts = [f.text for f in args]
    if name in _NPMS and any(t.startswith(("--script-shell", "--node-options")) for t in texts):
        _npm_options(run, args, span)
    if "config" not in texts and "set" not in texts and "sources" not in texts:
        return  # the common case (pip install, git status): one scan at C speed
    if name in NET_PROGRAMS:
        net_setting(run, name, texts, span)  # proxies and CA bundles (_netredirect)
    words = [t for t in texts if not t.startswith("-")]
    what: str | None = None
    if name in ("pip", "pip3") and words[:2] == ["config", "set"] and len(words) >= 4:
        key, value = words[2].lower(), words[3]
        if key.rpartition(".")[2] in _PIP_KEYS and not _official(value):
            what = f"pip config sets {key} to {value}"
    elif name in ("npm", "pnpm", "yarn") and (
            words[:2] == ["config", "set"] or words[:1] == ["set"]):
        rest = words[2:] if words[0] == "config" else words[1:]
        key, _, inline = rest[0].partition("=") if rest else ("", "", "")
        value = inline or (rest[1] if len(rest) > 1 else "")
        base = key.lower().rpartition(":")[2]  # @scope:registry
        if base in _NPM_KEYS and not (base == "registry" and _official(value)) and not (
                base == "ignore-scripts" and value == "true"):
            what = f"{name} config sets {key} to {value or '?'}"
    elif name == "git" and "config" in words:
        rest = words[words.index("config") + 1:]
        for index, t in enumerate(rest):
            low = t.lower()
            if low.startswith("url.") and low.endswith((".insteadof", ".pushinsteadof")):
                # url.git@github.com:.insteadOf https://github.com/ (ssh instead of https
                # to the same host) is everyday; another host takes over every clone.
                base = t[4:t.lower().rindex(".")]
                old = rest[index + 1] if index + 1 < len(rest) else ""
                if not old or _host(base) != _host(old):
                    what = f"git config rewrites repository addresses ({t} {old})"
                break
    elif name == "gem" and words[:1] == ["sources"] and any(
            t in ("--add", "-a") or t.startswith("--add=") for t in texts):
        what = "gem sources adds a gem source"
    elif name in ("conda", "mamba") and words[:1] == ["config"] and any(
            t in ("--add", "--prepend", "--append") for t in texts) and "channels" in words:
        what = f"{name} config adds a package channel"
    if what is not None:
        run.add("shell.package-source", span, what.replace(DYN, "?"), None)


_NPMS = frozenset({"npm", "pnpm", "yarn"})


def _npm_options(run: Run, args: list[Field], span: tuple[int, int]) -> None:
    """``npm run --script-shell=/tmp/x build`` (what runs the script, as the variable
    ``npm_config_script_shell`` chooses), ``--node-options='--require /tmp/h.js'`` (checked
    as ``NODE_OPTIONS``)."""
    from ._hookvars import hook_variable  # _hookvars imports _files, which imports this
    for index, f in enumerate(args):
        opt, eq, value = f.text.partition("=")
        if opt not in ("--script-shell", "--node-options"):
            continue
        if not eq:
            value = args[index + 1].text if index + 1 < len(args) else ""
        if opt == "--script-shell":
            run.add("shell.package-source", span, "--script-shell makes npm run its scripts "
                    f"with {value.replace(DYN, '?') or '?'}", None)
        else:
            hook_variable(run, "NODE_OPTIONS", Field(value, f.span, f.taint), span)


def source_variable(run: Run, name: str, value: Field, span: tuple[int, int]) -> None:
    """``PIP_INDEX_URL=URL``, ``GOFLAGS=-insecure``, ``GONOSUMDB=*``: a package source."""
    text = value.text
    if not text or _official(text):
        return
    if name == "GOFLAGS" and "insecure" not in text:
        return
    if name == "GOPROXY" and all(_official(p) or p in ("direct", "off")
                                 for p in text.replace("|", ",").split(",")):
        return
    run.add("shell.package-source", span, f"{name} points package installs at "
            f"{text.replace(DYN, '?')}", None)
