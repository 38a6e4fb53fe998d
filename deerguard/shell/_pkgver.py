"""Version managers: installing a toolchain or a plugin is a package install.

``asdf install``, ``asdf plugin add NAME URL``, ``mise use -g node@20``, ``mise install``,
``rtx install``, ``proto install node``, ``volta install node``, ``nvm install 20``, ``pyenv
install 3.12``, ``rustup toolchain install nightly``, ``sdk install java``, ``uv python
install``... download and install programs (and a plugin is code the manager runs on every
later use), so they warn ``shell.package-install`` like ``npm install``. A plugin given by
URL (``asdf plugin add x https://...``, ``mise plugins install x URL``, ``proto plugin add
id https://...``) is named in the message, and warns like a package from a URL (``npm
install URL``, ``pip install git+URL``). Reading and selecting subcommands (``asdf list``,
``mise ls``, ``nvm use``, ``pyenv global``, ``rustup show``) pass.

Each manager is described by its subcommands that change what is installed, a group of
nested ones (``rustup toolchain install``, ``asdf plugin add``), and the options of its own
that take a value (so an option's value is not taken for the subcommand). Linear in the
number of words.
"""

from __future__ import annotations

from collections.abc import Callable

from ._resolve import Invocation

__all__ = ["VERSION_MANAGERS", "check_version_manager"]

Add = Callable[[str, tuple[int, int], str, "str | None"], None]

_Spec = tuple[frozenset[str], dict[str, frozenset[str]], frozenset[str]]


def _s(direct: str, nested: dict[str, str] | None = None, takes: str = "") -> _Spec:
    return (frozenset(direct.split()), {k: frozenset(v.split()) for k, v in
                                        (nested or {}).items()}, frozenset(takes.split()))


_MISE = _s("install i use u upgrade up uninstall self-update sync",
           {"plugins": "install i add a link ln update up upgrade uninstall remove rm",
            "plugin": "install i add a link ln update up upgrade uninstall remove rm",
            "p": "install i add a link ln update up upgrade uninstall remove rm"},
           "-C --cd -E --env -j --jobs --profile")
_ENV = _s("install uninstall update")  # pyenv, rbenv, nodenv, goenv, plenv...

VERSION_MANAGERS: dict[str, _Spec] = {
    "asdf": _s("install uninstall update plugin-add plugin-update plugin-remove",
               {"plugin": "add update remove"}),
    "mise": _MISE,
    "rtx": _MISE,
    "proto": _s("install i uninstall ui upgrade up use", {"plugin": "add remove"},
                "--config-mode --log"),
    "volta": _s("install fetch pin uninstall"),
    "nvm": _s("install i uninstall install-latest-npm reinstall-packages"),
    "fnm": _s("install i uninstall uni", takes="--fnm-dir --node-dist-mirror --arch "
              "--version-file-strategy --log-level"),
    "pyenv": _ENV, "rbenv": _ENV, "nodenv": _ENV, "goenv": _ENV, "plenv": _ENV,
    "phpenv": _ENV, "tfenv": _ENV, "jenv": _s("add remove"),
    "rustup": _s("install uninstall update upgrade",
                 {"toolchain": "install add uninstall remove link",
                  "target": "add install remove uninstall",
                  "component": "add remove", "self": "update uninstall"}),
    "sdk": _s("install i uninstall rm upgrade ug selfupdate update"),
    "ghcup": _s("install upgrade rm"),
    "juliaup": _s("add update up remove rm"),
    "uv": _s("", {"python": "install uninstall upgrade"}),
    "gvm": _s("install uninstall"),
    "elan": _s("", {"toolchain": "install uninstall", "self": "update"}),
    # Language package tools of the same shape (`opam install dune`, `raco pkg install x`).
    "corepack": _s("install prepare use up"),
    "opam": _s("install reinstall remove uninstall upgrade"),
    "cabal": _s("install"),
    "stack": _s("install"),
    "tlmgr": _s("install remove update"),
    "vcpkg": _s("install remove upgrade"),
    "raco": _s("", {"pkg": "install remove update"}),
}
"""Version managers and a few language package tools: (subcommands that install or remove,
{group: its subcommands that do}, options taking a value)."""


def check_version_manager(add: Add, inv: Invocation) -> None:
    """Warn when ``inv`` installs or removes a toolchain or a plugin."""
    spec = VERSION_MANAGERS.get(inv.name)
    if spec is None:
        return
    direct, nested, takes = spec
    args = inv.args
    operands: list[int] = []
    k = 0
    n = len(args)
    while k < n and len(operands) < 4:
        t = args[k].text
        if t == "--":
            break
        if t.startswith("-") and len(t) > 1:
            k += 2 if t in takes else 1
            continue
        if not t.startswith("+"):  # rustup +nightly: a toolchain override, not a command
            operands.append(k)
        k += 1
    if not operands:
        return
    first = args[operands[0]]
    if first.text in direct:
        end = first
        what = f"{inv.name} {first.text} installs or removes toolchains"
    elif first.text in nested and len(operands) > 1 and \
            args[operands[1]].text in nested[first.text]:
        end = args[operands[1]]
        what = f"{inv.name} {first.text} {end.text} installs or removes toolchains or plugins"
    else:
        return
    url = next((args[i].text for i in operands[1:] if "://" in args[i].text or
                args[i].text.startswith("git@")), None)
    if url is not None:
        what += f"; from {url}, code the manager runs on every later use"
    add("shell.package-install", (inv.word.span[0], end.span[1]), what, None)
