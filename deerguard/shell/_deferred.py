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
  passes;
* files run automatically, without any tool being asked (``sitecustomize.py`` and ``.pth``
  files in site-packages on every Python start, direnv's ``direnvrc``, desktop autostart
  scripts, a ``.vscode/tasks.json`` task run on ``folderOpen``): fetched data is a download
  run (block); known code blocks when it blocks and else warns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._result import Verdict
from ._buildfiles import keep_blocking
from ._buildtext import (
    cargo_config_commands,
    just_recipes,
    make_commands,
    package_scripts,
    vscode_tasks,
    yaml_commands,
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
    "package.json", "build.rs", ".pre-commit-config.yaml", ".gitlab-ci.yml", "sitecustomize.py",
    "usercustomize.py", "direnvrc"})
# Not .envrc: direnv revokes its allow whenever the file changes, so a written .envrc runs
# only after `direnv allow` (_tools checks that one).
_NAMES = _MAKEFILES | _JUSTFILES | _TASKFILES | _PYTHON | _RUBY | _NODE | _OTHER
_AUTO_NAMES = frozenset({"sitecustomize.py", "usercustomize.py", "direnvrc"})
# A CI pipeline runs on a throwaway runner: installing tools with `curl u | sh` there is
# everyday; sending its secrets away is the risk.
_CI = frozenset({".gitlab-ci.yml", "workflow"})
_CI_RULES = frozenset({"shell.exfiltration", "shell.reverse-shell"})
# A project's install recipe copies its program to /usr/local/bin or a unit to /etc/systemd:
# written down for a later `make install`, that is everyday (run now, it still blocks).
_LATER_SKIP = frozenset({"shell.system-write"})
_AUTOSTART = ("/.config/autostart-scripts/", "/.config/autostart/",
              "/.config/plasma-workspace/env/")


def _kind(path: str) -> tuple[str, bool] | None:
    """(the file's format, whether it runs without being asked) for a file some tool runs
    later, else None."""
    folder, _, name = path.rpartition("/")
    if name in _NAMES:
        return name, name in _AUTO_NAMES
    if name.endswith(".pth"):
        # site-packages/*.pth: its `import` lines run on every Python start (a .pth
        # elsewhere is data, such as PyTorch weights).
        return (".pth", True) if folder.endswith(("site-packages", "dist-packages")) else None
    if folder.endswith(".cargo") and name in ("config.toml", "config"):
        return "cargo", False
    if folder.endswith(".vscode") and name == "tasks.json":
        return "vscode", False
    if folder.endswith(".github/workflows") and name.endswith((".yml", ".yaml")):
        return "workflow", False
    if any(mark in f"/{folder}/" for mark in _AUTOSTART):
        return "autostart", True
    return None




def _codes(kind: str, text: str) -> tuple[list[str], str, bool]:
    """The code a tool runs from a file's text, its language, and whether it runs when the
    folder is opened (a VS Code task)."""
    if kind in _MAKEFILES:
        return make_commands(text), "sh", False
    if kind in _JUSTFILES:
        return just_recipes(text), "sh", False
    if kind in _TASKFILES:
        return yaml_commands(text, frozenset({"cmds", "cmd"})), "sh", False
    if kind == ".pre-commit-config.yaml":
        return yaml_commands(text, frozenset({"entry"})), "sh", False
    if kind == ".gitlab-ci.yml":
        return yaml_commands(text, frozenset({"script", "before_script", "after_script"})), \
            "sh", False
    if kind == "workflow":
        return yaml_commands(text, frozenset({"run"})), "sh", False
    if kind == "package.json":
        return list((package_scripts(text) or {}).values()), "sh", False
    if kind == "cargo":
        return cargo_config_commands(text), "sh", False
    if kind == "vscode":
        codes, auto = vscode_tasks(text)
        return codes, "sh", auto
    if kind in ("direnvrc", "autostart"):
        if kind == "autostart" and "[Desktop Entry]" in text:
            return [line[5:] for line in text.splitlines()[:256]
                    if line.startswith("Exec=")], "sh", False
        return [text], "sh", False
    if kind == ".pth":
        return [line for line in text.splitlines()[:256]
                if line.startswith(("import ", "import\t"))], "python", False
    if kind in _PYTHON or kind in ("sitecustomize.py", "usercustomize.py"):
        return [text], "python", False
    if kind in _RUBY or kind in _RUBY_PROJECT:
        return [text], "ruby", False
    if kind in _NODE:
        return [text], "node", False
    return [], "sh", False


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
        span = file_span(run, path)
        detail = f"{src.describe()} was written to {path}"
        if kind[1]:
            run.add("shell.download-exec", span, f"writes fetched or decoded data into "
                    f"{path}, which runs by itself later", detail)
        else:
            run.add("shell.deferred-exec", span, f"writes fetched or decoded data into "
                    f"{path}, which a build or task tool runs later", detail)
    for path, text in list(run.file_text.items())[:64]:
        kind = _kind(path)
        if kind is None:
            continue
        codes, language, opened = _codes(kind[0], text)
        codes = [c for c in codes[:64] if c.strip() and DYN not in c]
        if not codes:
            continue
        auto = kind[1] or opened
        if not auto and any(f.severity is Verdict.BLOCK for f in run.findings):
            continue  # already blocked: the verdict cannot rise
        span = file_span(run, path)
        owner = Invocation(path.rpartition("/")[2], Field(path, span))
        blocked = False
        rules = _CI_RULES if kind[0] in _CI else None
        skip = frozenset() if auto else _LATER_SKIP
        for code in codes:
            if language == "sh":
                blocked = keep_blocking(run, Field(code, span), f"the file {path}", span,
                                        rules=rules, skip=skip) or blocked
            else:
                blocked = keep_blocking(run, Field(code, span), f"the file {path}", span,
                                        language, owner, skip=skip) or blocked
        if auto and not blocked:
            run.add("shell.deferred-exec", span, f"writes code into {path}, which runs by "
                    "itself later", None)
