"""Files written in the same command that a tool, editor or interpreter runs later by itself.

Once the command is walked, every file it wrote is looked at (like git hooks, ``_githooks``):

* project files a build, test or task tool loads from its directory (``Makefile``,
  ``justfile``, ``Taskfile.yml``, ``conftest.py``, ``package.json``, ``setup.py``,
  ``build.rs``, ``Rakefile``, ``.pre-commit-config.yaml``, ``.cargo/config.toml``, CI
  pipelines, ``.vscode/tasks.json``): written from fetched or decoded data they warn
  (``shell.deferred-exec``: the next ``make``/``pytest``/``npm install`` runs them; when the
  tool runs in the same command, ``_buildfiles`` already made it a download run); written with
  known text, the commands the tool would run from it are classified and kept when they block
  (``printf 'all:\\n\\tcurl u | sh' > Makefile``), while ``echo 'all: build' > Makefile``
  passes; CI pipelines keep only a step that sends secrets away or opens a reverse shell,
  ``devcontainer.json`` hooks are read like recipes, and a written ``.envrc`` whose code
  would block warns until ``direnv allow`` (``_ciplant``);
* files run automatically, without any tool being asked (``sitecustomize.py`` and ``.pth``
  files in site-packages on every Python start, direnv's ``direnvrc``, desktop autostart
  scripts, a ``.vscode/tasks.json`` task run on ``folderOpen``, and scripts every shell
  sources: ``~/.cargo/env``, ``~/.nvm/nvm.sh``, ``~/.sdkman/bin/sdkman-init.sh``, a virtual
  environment's ``bin/activate``): fetched data is a download run (block); known code blocks
  when it blocks and else warns;
* tools' startup files in their own language (``~/.tmux.conf``, ``~/.gdbinit``,
  ``~/.Rprofile``): the shell commands they run are classified and kept when they block
  (tmux's ``run '~/.tmux/plugins/tpm/tpm'`` passes), and a fetched one warns;
* programs under ``node_modules`` (``.bin/X``, ``*.js``) that npm scripts and ``npx`` run,
  ``//go:generate`` lines of Go files, and Terraform ``local-exec``/``external`` commands
  (``_buildmore`` reads them): known text is kept when it blocks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .._result import Verdict
from ._buildfiles import keep_blocking
from ._buildmore import (
    gdb_commands,
    go_exec,
    go_generate,
    rake_commands,
    rust_commands,
    terraform_commands,
    tmux_commands,
)
from ._buildtext import (
    cargo_config_commands,
    just_recipes,
    make_commands,
    package_scripts,
    vscode_tasks,
    yaml_commands,
)
from ._ciplant import (
    CI_KEYS,
    ci_commands,
    ci_keep,
    ci_kind,
    devcontainer_commands,
    devcontainer_file,
    envrc_keep,
    secret_env,
)
from ._named import file_span
from ._resolve import Invocation
from ._words import DYN, Field, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["check_deferred"]

_FETCHED = frozenset({"fetch", "decode", "exec", "file"})
_MAKEFILES = frozenset({"Makefile", "makefile", "GNUmakefile"})
_JUSTFILES = frozenset({"justfile", "Justfile", ".justfile", "JUSTFILE"})
_TASKFILES = frozenset({"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml",
                        "Taskfile.dist.yml", "Taskfile.dist.yaml"})
_PYTHON = frozenset({"conftest.py", "noxfile.py", "setup.py"})
_RUBY = frozenset({"Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"})
_NODE = frozenset({"gulpfile.js", "gulpfile.mjs", "gulpfile.cjs", "gulpfile.ts",
                   "gulpfile.babel.js", "Gruntfile.js", "gruntfile.js"})
_RUBY_PROJECT = frozenset({"Gemfile", "Vagrantfile"})
_FETCH_ONLY = frozenset({"build.gradle", "build.gradle.kts", "settings.gradle",
                         "settings.gradle.kts", "CMakeLists.txt", "meson.build", "tox.ini",
                         "composer.json", "deno.json", "deno.jsonc"})
_OTHER = _RUBY_PROJECT | _FETCH_ONLY | frozenset({
    "package.json", "build.rs", ".pre-commit-config.yaml", "sitecustomize.py",
    "usercustomize.py", "direnvrc"})
# .envrc is read apart (_ciplant): direnv revokes its allow whenever the file changes, so a
# written .envrc runs only after `direnv allow` (_tools runs it when that is in the command).
_NAMES = _MAKEFILES | _JUSTFILES | _TASKFILES | _PYTHON | _RUBY | _NODE | _OTHER
_AUTO_NAMES = frozenset({"sitecustomize.py", "usercustomize.py", "direnvrc"})
# A CI pipeline runs on a throwaway runner: installing tools with `curl u | sh` there is
# everyday; sending its secrets away is the risk (_ciplant).
# A project's install recipe copies its program to /usr/local/bin or a unit to /etc/systemd:
# written down for a later `make install`, that is everyday (run now, it still blocks).
_LATER_SKIP = frozenset({"shell.system-write"})
_AUTOSTART = ("/.config/autostart-scripts/", "/.config/autostart/",
              "/.config/plasma-workspace/env/")


# Sourced by every shell start (rustup, nvm, sdkman, asdf... add the line to ~/.bashrc), or
# by whoever activates a virtual environment: like ~/.bashrc, but not a persistence file
# (writing a project's own activate script is rarer than harmful).
_SOURCED = ("/.cargo/env", "/.nvm/nvm.sh", "/.sdkman/bin/sdkman-init.sh", "/.asdf/asdf.sh",
            "/.rvm/scripts/rvm", "/.ghcup/env", "/.local/bin/env", "/.deno/env",
            "/.bash_completion")
# Tools' startup files in their own language: only the commands they run count (settings
# pass), and a fetched one warns (curl -o ~/.gdbinit u is how gdb-dashboard installs).
_TOOL_RC = {".tmux.conf": "tmux", "tmux.conf": "tmux", ".gdbinit": "gdbinit",
            "gdbinit": "gdbinit", ".Rprofile": "Rprofile", "Rprofile.site": "Rprofile"}
_R_SHELL = re.compile(r"\b(?:system2?|shell|pipe|exec_wait|run)\s*\(")


def _kind(path: str) -> tuple[str, bool, str] | None:
    """(the file's format, whether it runs without being asked, what a fetched copy is:
    "block", "warn" or "" for nothing) for a file some tool runs later, else None."""
    folder, _, name = path.rpartition("/")
    if name in _NAMES:
        auto = name in _AUTO_NAMES
        return name, auto, "block" if auto else "warn"
    if name.endswith(".pth"):
        # site-packages/*.pth: its `import` lines run on every Python start (a .pth
        # elsewhere is data, such as PyTorch weights).
        return (".pth", True, "block") if folder.endswith(("site-packages", "dist-packages")) \
            else None
    if folder.endswith(".cargo") and name in ("config.toml", "config"):
        return "cargo", False, "warn"
    if folder.endswith(".vscode") and name == "tasks.json":
        return "vscode", False, "warn"
    ci = ci_kind(path)
    if ci is not None:
        return ci, False, "warn"
    if name == ".envrc" or devcontainer_file(folder, name):
        return name, False, "warn"  # direnv (once allowed), a dev container's hooks
    if any(mark in f"/{folder}/" for mark in _AUTOSTART):
        return "autostart", True, "block"
    return _more_kind(path, folder, name)


def _more_kind(path: str, folder: str, name: str) -> tuple[str, bool, str] | None:
    """Shell startup scripts, tools' rc files, node_modules programs, Go and Terraform."""
    if (name == "activate" and (folder == "bin" or folder.endswith("/bin"))) or \
            path.endswith(_SOURCED):
        return "sourced", True, "block"
    rc = _TOOL_RC.get(name)
    if rc is not None and (name[0] == "." or folder.endswith(("/tmux", "/gdb", "/etc"))):
        return rc, False, "warn"
    if "node_modules/" in f"/{path}":  # npm scripts and npx run them
        if folder.endswith("node_modules/.bin"):
            return "nodebin", False, "warn"
        if name.endswith((".js", ".cjs", ".mjs")):
            return "nodejs", False, "warn"
    if name.endswith(".go"):
        return "go", False, ""  # go generate runs its //go:generate lines
    if name.endswith(".tf"):
        return "tf", False, ""  # terraform plan/apply run local-exec and external programs
    return None


def _codes(kind: str, text: str) -> tuple[list[tuple[str, str]], bool]:
    """The code a tool runs from a file's text, each with its language, and whether it runs
    when the folder is opened (a VS Code task)."""
    if kind == "vscode":
        codes, auto = vscode_tasks(text)
        return [(c, "sh") for c in codes], auto
    if kind in _PYTHON or kind in ("sitecustomize.py", "usercustomize.py"):
        return [(text, "python")], False
    if kind in _RUBY:
        return [(text, "ruby"), *((c, "sh") for c in rake_commands(text))], False
    if kind in _RUBY_PROJECT:
        return [(text, "ruby")], False
    if kind in _NODE:
        return [(text, "node")], False
    if kind == ".pth":
        return [(line, "python") for line in text.splitlines()[:256]
                if line.startswith(("import ", "import\t"))], False
    if kind == "Rprofile":
        return ([(text, "R")] if _R_SHELL.search(text) else []), False
    if kind == "nodejs":
        return [(text, "node")], False
    if kind == "nodebin":  # node_modules/.bin/X: its #! line names the interpreter
        first = text.split("\n", 1)[0]
        return [(text, "node" if first.startswith("#!") and "node" in first else "sh")], False
    return [(c, "sh") for c in _shell_codes(kind, text)], False


def _shell_codes(kind: str, text: str) -> list[str]:
    """The shell commands of a file whose commands are shell code."""
    if kind in _MAKEFILES:
        return make_commands(text)
    if kind in _JUSTFILES:
        return just_recipes(text)
    if kind in _TASKFILES:
        return yaml_commands(text, frozenset({"cmds", "cmd"}))
    if kind == ".pre-commit-config.yaml":
        return yaml_commands(text, frozenset({"entry"}))
    if kind in CI_KEYS:
        return ci_commands(kind, text)
    if kind in ("devcontainer.json", ".devcontainer.json"):
        return devcontainer_commands(text)
    if kind == "package.json":
        return list((package_scripts(text) or {}).values())
    if kind == "cargo":
        return cargo_config_commands(text)
    if kind in ("direnvrc", "sourced", ".envrc"):
        return [text]
    if kind == "autostart":
        if "[Desktop Entry]" in text:
            return [line[5:] for line in text.splitlines()[:256] if line.startswith("Exec=")]
        return [text]
    return _SHELL_READERS[kind](text) if kind in _SHELL_READERS else []


def _go_commands(text: str) -> list[str]:
    return [*go_generate(text), *go_exec(text)]


_SHELL_READERS: dict[str, Callable[[str], list[str]]] = {
    "build.rs": rust_commands, "go": _go_commands, "tf": terraform_commands,
    "tmux": tmux_commands, "gdbinit": gdb_commands}


def check_deferred(run: Run) -> None:
    """After the walk: files written for a tool to run later (see the module doc)."""
    if not run.files and not run.file_text:
        return
    ran: set[str] | None = None  # paths a tool already ran as a download (_buildfiles)
    for path, taint in list(run.files.items())[:256]:
        kind = _kind(path)
        src = first_source(taint, _FETCHED) if kind is not None else None
        if kind is None or src is None:
            continue
        if ran is None:
            ran = {f.message[5:].rpartition(", a file written with ")[0]
                   for f in run.findings if f.rule_id == "shell.download-exec"}
        if path in ran:
            continue
        if not kind[2]:
            continue
        span = file_span(run, path)
        detail = f"{src.describe()} was written to {path}"
        if kind[2] == "block":
            run.add("shell.download-exec", span, f"writes fetched or decoded data into "
                    f"{path}, which runs by itself later", detail)
        else:
            run.add("shell.deferred-exec", span, f"writes fetched or decoded data into "
                    f"{path}, which a build or task tool runs later", detail)
    for path, text in list(run.file_text.items())[:64]:
        kind = _kind(path)
        if kind is None:
            continue
        pairs, opened = _codes(kind[0], text)
        codes = [(c, lang) for c, lang in pairs[:64] if c.strip() and DYN not in c]
        if not codes:
            continue
        auto = kind[1] or opened
        if not auto and any(f.severity is Verdict.BLOCK for f in run.findings):
            continue  # already blocked: the verdict cannot rise
        span = file_span(run, path)
        owner = Invocation(path.rpartition("/")[2], Field(path, span))
        blocked = False
        skip = frozenset() if auto else _LATER_SKIP
        aliases = secret_env(text) if kind[0] in CI_KEYS else frozenset()
        for code, language in codes:
            if kind[0] in CI_KEYS:
                blocked = ci_keep(run, Field(code, span), f"the file {path}", span,
                                  aliases) or blocked
            elif kind[0] == ".envrc":
                envrc_keep(run, Field(code, span), path, span)
            elif language == "sh":
                blocked = keep_blocking(run, Field(code, span), f"the file {path}", span,
                                        skip=skip) or blocked
            else:
                blocked = keep_blocking(run, Field(code, span), f"the file {path}", span,
                                        language, owner, skip=skip) or blocked
        if auto and not blocked:
            run.add("shell.deferred-exec", span, f"writes code into {path}, which runs by "
                    "itself later", None)
