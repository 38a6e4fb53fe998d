"""Programs that print their own shell integration code, for ``eval`` or ``source``.

``eval "$(ssh-agent -s)"``, ``eval "$(pyenv init -)"``, ``eval "$(brew shellenv)"``,
``source <(kubectl completion bash)``: the output is code the installed program writes for
the shell (environment exports, shell functions, completion tables). Evaluating it trusts
that program exactly as much as running it does, and running it is what the walk already
classifies (a program fetched or written in the command is caught where it runs). So the
output of these invocations reads as known code with nothing to report, where it used to be
code "not known statically" (a warn on every agent's environment setup). Only the listed
subcommands count: ``direnv export``, ``pyenv exec``, ``kubectl get`` and any other use keep
an unknown output, and output that carries taint (the program's stdin or files it names were
fetched) is never trusted.
"""

from __future__ import annotations

from ._values import DYN

__all__ = ["SHELL_INIT", "prints_shell_init"]

_COMPLETION = ("completion", "completions", "generate-shell-completion")
_INIT = ("init",)

# Program: the first operands (or first two, "env activate") that print integration code.
# "" means options only (no operand); "*" means any arguments; "@" means plain program
# names only (the names are written into the code, so a name holding shell syntax would run).
SHELL_INIT: dict[str, tuple[str, ...]] = {
    "ssh-agent": ("",),
    "dircolors": ("",),
    "thefuck": ("",),
    "keychain": ("*",),
    "pyenv": ("init", "virtualenv-init"),
    "rbenv": _INIT, "nodenv": _INIT, "goenv": _INIT, "jenv": _INIT, "plenv": _INIT,
    "phpenv": _INIT, "luaenv": _INIT, "scalaenv": _INIT, "tfenv": _INIT,
    "direnv": ("hook",),
    "starship": _INIT, "zoxide": _INIT, "atuin": _INIT, "mcfly": _INIT, "oh-my-posh": _INIT,
    "brew": ("shellenv",),
    "conda": ("shell.bash", "shell.zsh", "shell.fish", "shell.posix", "shell.xonsh"),
    "mamba": ("shell",), "micromamba": ("shell",),
    "fnm": ("env", *_COMPLETION), "mise": ("activate", "env", *_COMPLETION),
    "rtx": ("activate", "env"),
    "minikube": ("docker-env", "podman-env", *_COMPLETION), "docker-machine": ("env",),
    "opam": ("env",),
    "luarocks": ("path",),  # LUA_PATH / LUA_CPATH / PATH exports
    "op": ("signin",),  # 1Password's export OP_SESSION_...=token
    "register-python-argcomplete": ("@",),  # a completion function for plain names
    # Poetry 2 and pdm print the line that activates the project's environment.
    "poetry": (*_COMPLETION, "env activate"), "pdm": (*_COMPLETION, "venv activate"),
    **{name: _COMPLETION for name in (
        "kubectl", "helm", "gh", "npm", "pnpm", "pip", "pip3", "rustup", "uv",
        "docker", "kind", "k3d", "deno", "bun", "just", "flux", "argocd", "istioctl",
        "kustomize", "eksctl", "doctl", "oc", "k9s", "tailscale", "chezmoi", "rclone", "hugo",
        "golangci-lint", "ruff", "task", "glab", "stern", "velero", "cilium", "talosctl",
        "kubeadm", "crictl", "nerdctl", "podman", "limactl", "colima")},
}

# Options whose value is the next word (before the subcommand: minikube -p dev docker-env).
# (Options naming another directory, mise -C DIR or docker-machine -s DIR, are not skipped:
# the code printed then comes from configuration found there.)
_VALUE_OPTIONS = {"ssh-agent": frozenset({"-a", "-E", "-t", "-P", "-O"}),
                  "minikube": frozenset({"-p", "--profile"})}


def _plain(t: str) -> bool:
    return bool(t) and all(c.isalnum() or c in "._-+/" for c in t)


def prints_shell_init(name: str, texts: list[str]) -> bool:
    """Whether ``name texts`` prints the program's own shell integration code."""
    accepted = SHELL_INIT.get(name)
    if accepted is None or any(DYN in t for t in texts):
        return False  # pyenv $x: which subcommand runs is not known
    if "*" in accepted:
        return True
    if "@" in accepted:
        return bool(texts) and all(t.startswith("-") or _plain(t) for t in texts)
    values = _VALUE_OPTIONS.get(name, frozenset())
    operands: list[str] = []
    skip = False
    for t in texts:
        if skip:
            skip = False
            continue
        if t.startswith("-") and t != "-":
            skip = t in values
            continue
        operands.append(t)
        if len(operands) == 2:
            break
    if not operands:
        return "" in accepted
    return operands[0] in accepted or " ".join(operands) in accepted  # "env activate"
