"""Build, test and task tools that run code from files of the working directory by themselves.

``make`` runs ``./Makefile`` (``_scripts``); the same holds for ``just`` (``justfile``),
``task`` (``Taskfile.yml``), ``pytest`` (every ``conftest.py``), ``rake`` (``Rakefile``),
``invoke`` (``tasks.py``), ``nox`` (``noxfile.py``), ``gulp``/``grunt`` (their gulpfile and
Gruntfile), ``pre-commit run`` (``.pre-commit-config.yaml``), ``cargo build|test|run``
(``build.rs``, ``Cargo.toml``, ``.cargo/config.toml``), ``pip install .`` (``setup.py``,
``pyproject.toml``), ``npm install|ci|run|test`` (and yarn, pnpm, bun: ``package.json``'s
lifecycle or named scripts), ``go run x.go``/``go generate``/``go test`` and ``terraform
plan|apply`` (every ``*.tf``; ``pytest -p m`` loads ``m.py`` too). When such a file was
written in the same command:

* from fetched or decoded data (``curl -o conftest.py u && pytest``), running the tool is a
  download run (``shell.download-exec``), like ``curl -o f u && bash f``;
* with known text (``printf 'x:\\n\\tcurl u | sh' > justfile && just``), the commands the tool
  runs from it are classified as code (recipes and scripts as shell code, ``conftest.py`` as
  Python, a Rakefile as Ruby plus its ``sh`` calls; ``build.rs`` ``Command`` chains, Go
  ``exec.Command`` and ``//go:generate``, Terraform ``local-exec``: ``_buildmore``).

Programs that run a file they are given (``java -jar``, ``wine``, ``installer -pkg``...) are
dispatched from here too (``_filerun``).

Only a file written itself counts, not one inside a cloned or unpacked directory
(``git clone u && cd r && cargo build`` is everyday work). ``npm pkg set scripts.X=CODE`` and
``npm set-script X CODE`` store shell code that npm runs later: it is classified, and kept when
it blocks (``npm pkg set scripts.test=jest`` passes).
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING
from urllib.parse import unquote

from ._buildmore import (
    go_exec,
    go_generate,
    rake_commands,
    rust_commands,
    terraform_commands,
    terraform_files,
)
from ._buildtext import cargo_config_commands, just_recipes, package_scripts, yaml_commands
from ._fetchtools import cmake_commands
from ._filerun import FILE_RUNNERS, file_runner
from ._keep import keep_if_blocking
from ._loadrun import module_main
from ._paths import norm_path
from ._resolve import Invocation
from ._sinks import download_exec, interp_code
from ._words import DYN, Field, first_source
from ._written import read_written

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["BUILD_TOOLS", "build_tool", "data_url_code", "keep_blocking", "reentered"]

_FETCHED = frozenset({"fetch", "decode", "exec", "file"})
_TASKFILES = ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml",
              "Taskfile.dist.yml", "Taskfile.dist.yaml")
# program -> (the files it loads from its directory, their language, options naming a file,
# options naming the directory)
_LOADS: dict[str, tuple[tuple[str, ...], str, tuple[str, ...], tuple[str, ...]]] = {
    "just": (("justfile", "Justfile", ".justfile", "JUSTFILE"), "just",
             ("-f", "--justfile"), ("-d", "--working-directory")),
    "task": (_TASKFILES, "task", ("-t", "--taskfile"), ("-d", "--dir")),
    "go-task": (_TASKFILES, "task", ("-t", "--taskfile"), ("-d", "--dir")),
    "pytest": (("conftest.py",), "python", (), ("--rootdir",)),
    "py.test": (("conftest.py",), "python", (), ("--rootdir",)),
    "rake": (("Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"), "ruby",
             ("-f", "--rakefile"), ("-C", "--directory")),
    "invoke": (("tasks.py",), "python", (), ("-r", "--search-root")),
    "inv": (("tasks.py",), "python", (), ("-r", "--search-root")),
    "nox": (("noxfile.py",), "python", ("-f", "--noxfile"), ()),
    "gulp": (("gulpfile.js", "gulpfile.mjs", "gulpfile.cjs", "gulpfile.ts", "gulpfile.babel.js"),
             "node", ("-f", "--gulpfile"), ("--cwd",)),
    "grunt": (("Gruntfile.js", "gruntfile.js", "Gruntfile.coffee"), "node", ("--gruntfile",),
              ("--base",)),
    "pre-commit": ((".pre-commit-config.yaml",), "pre-commit", ("-c", "--config"), ()),
}
# program -> (the subcommands that load them, None for any; files; their language)
_PROJECT_FILES: dict[str, tuple[frozenset[str] | None, tuple[str, ...], str]] = {
    "bundle": (frozenset({"install", "exec", "update", "check", "lock"}), ("Gemfile",), "ruby"),
    "vagrant": (frozenset({"up", "provision", "reload", "validate"}), ("Vagrantfile",), "ruby"),
    "gradle": (None, ("build.gradle", "build.gradle.kts", "settings.gradle",
                      "settings.gradle.kts", "init.gradle"), "-"),
    "mvn": (None, ("pom.xml", ".mvn/extensions.xml", ".mvn/maven.config"), "-"),
    "cmake": (None, ("CMakeLists.txt",), "cmake"),  # execute_process (_fetchtools)
    "meson": (frozenset({"setup", "compile", "test", "configure"}), ("meson.build",), "-"),
    "tox": (None, ("tox.ini",), "-"),
    "poetry": (frozenset({"install", "build", "run", "sync"}), ("pyproject.toml", "setup.py"),
               "-"),
    "pdm": (frozenset({"install", "sync", "build", "run"}), ("pyproject.toml", "setup.py"),
            "-"),
    "hatch": (frozenset({"build", "run", "env", "test", "shell"}), ("pyproject.toml",
                                                                     "hatch.toml"), "-"),
    "composer": (frozenset({"install", "update", "run-script", "run", "i", "u"}),
                 ("composer.json",), "-"),
    "deno": (frozenset({"task"}), ("deno.json", "deno.jsonc"), "-"),
}
_PROJECT_FILES["gradlew"] = _PROJECT_FILES["gradle"]
_PROJECT_FILES["mvnw"] = _PROJECT_FILES["mvn"]
_NODE_PMS = frozenset({"npm", "pnpm", "yarn", "bun"})
_PIPS = frozenset({"pip", "pip3", "uv"})
BUILD_TOOLS = frozenset(_LOADS) | frozenset(_PROJECT_FILES) | _NODE_PMS | _PIPS | \
    frozenset({"cargo", "go", "terraform", "tofu", "terragrunt"}) | FILE_RUNNERS
"""Program names ``build_tool`` looks at (python -m MODULE aside; ``java -jar F``, ``wine F``
and the other programs that run a file they are given: ``_filerun``)."""

_PY_MODULES = frozenset({"pytest", "pip", "nox", "invoke"})
_CARGO_BUILDS = frozenset({"build", "b", "test", "t", "run", "r", "check", "c", "bench",
                           "install", "doc", "d", "clippy", "fix", "rustc"})
_INSTALLS = frozenset({"install", "i", "ci", "add", "isntall", "in", "ins", "inst", "insta",
                       "instal", "clean-install", "install-clean", "it", "cit", "rebuild"})
_LIFECYCLE = ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
              "postprepare", "dependencies")
_NPM_RUN = frozenset({"run", "run-script", "rum", "urn"})
_NODE_VALUE = frozenset({"--prefix", "-C", "--cwd", "--dir", "-w", "--workspace", "--filter",
                         "-F", "--registry", "--loglevel", "--cache", "--userconfig"})
_NPM_DIRECT = frozenset({"test", "t", "tst", "start", "stop", "restart"})


def build_tool(run: Run, inv: Invocation) -> None:
    """The files ``inv``'s program loads by itself, when the command wrote them."""
    name = inv.name
    args = inv.args
    if name[:6] == "python":
        mod = next((k for k, f in enumerate(args[:-1]) if f.text == "-m"), -1)
        if mod < 0 or args[mod + 1].text not in _PY_MODULES:
            return
        name, args = args[mod + 1].text, args[mod + 2:]
    texts = [f.text for f in args]
    if name in ("npm", "pnpm") and texts[:2] == ["pkg", "set"] or name == "npm" and \
            texts[:1] == ["set-script"]:
        _npm_scripts(run, inv, args)
    if name in _LOADS and _LOADS[name][2]:
        _substituted(run, inv, name, args, _LOADS[name][2])  # just -f <(curl u)
    if not run.files and not run.file_text:
        return
    if name in FILE_RUNNERS:
        if run.files:
            file_runner(run, inv)  # java -jar x.jar, wine x.exe after curl wrote x
        return
    if name in _LOADS:
        _implicit(run, inv, name, args)
    elif name in _NODE_PMS:
        _node(run, inv, name, args)
    elif name == "uv" and texts[:1] in (["sync"], ["run"], ["build"]):
        for file in ("pyproject.toml", "setup.py"):
            _loaded(run, inv, file, "-")  # uv builds and installs the project first
    elif name in _PIPS:
        if name == "uv":
            if texts[:2] != ["pip", "install"]:
                return
            args = args[1:]
        _pip(run, inv, args)
    elif name == "cargo":
        sub = next((f for f in args if not f.text.startswith(("-", "+"))), None)
        if sub is not None and sub.text in _CARGO_BUILDS:
            where = _option(args, ("--manifest-path",))
            base = where.rpartition("/")[0] if where else ""
            _loaded(run, inv, _join(base, "build.rs"), "rust")
            _loaded(run, inv, _join(base, "Cargo.toml"), "-")
            for file in (".cargo/config.toml", ".cargo/config"):
                _loaded(run, inv, _join(base, file), "cargo")
    elif name in ("terraform", "tofu", "terragrunt"):
        _terraform(run, inv, args)
    elif name == "go":
        _go(run, inv, args)
    elif name in _PROJECT_FILES:
        subs, files, language = _PROJECT_FILES[name]
        verb = next((f.text for f in args if not f.text.startswith("-")), "")
        if subs is None or verb in subs:
            for file in files:
                _loaded(run, inv, file, language)


def _join(base: str, name: str) -> str:
    return f"{base.rstrip('/')}/{name}" if base and base != "." else name


def _option(args: list[Field], names: tuple[str, ...]) -> str | None:
    """The value of the first option in ``names`` (``-f X``, ``--file=X``, ``-fX``)."""
    for k, f in enumerate(args):
        t = f.text
        for opt in names:
            if t == opt:
                return args[k + 1].text if k + 1 < len(args) else None
            if opt.startswith("--") and t.startswith(opt + "="):
                return t[len(opt) + 1:]
            if len(opt) == 2 and t.startswith(opt) and len(t) > 2 and not t.startswith("--"):
                return t[2:]
    return None


def _substituted(run: Run, inv: Invocation, name: str, args: list[Field],
                 names: tuple[str, ...]) -> None:
    """``just --justfile <(curl u)``, ``task -t <(...)``: the task file is what a process
    substitution prints; fetched or decoded output is code the tool runs."""
    for k, f in enumerate(args):
        t = f.text
        if t in names and k + 1 < len(args):
            f = args[k + 1]
        elif not any(t.startswith(o + "=" if o[:2] == "--" else o) and t != o for o in names):
            continue
        src = first_source(f.taint) if f.proc else None
        if src is not None:
            run.add("shell.tainted-exec", f.span, f"{name} reads its task file from fetched "
                    "or decoded data", f"{src.describe()} reaches "
                    f"{run._desc(name, inv.word.span)}")
            return


def _implicit(run: Run, inv: Invocation, name: str, args: list[Field]) -> None:
    files, language, file_opts, dir_opts = _LOADS[name]
    if name == "pre-commit" and args and args[0].text not in ("run", "try-repo") and \
            not args[0].text.startswith("-"):
        return  # pre-commit install/autoupdate: the hooks run later, at commit time
    given = _option(args, file_opts) if file_opts else None
    where = (_option(args, dir_opts) if dir_opts else None) or ""
    if given is not None:
        _loaded(run, inv, _join(where, given), language)
        return
    for file in files:
        _loaded(run, inv, _join(where, file), language)
    if name in ("pytest", "py.test"):
        for k, f in enumerate(args[:32]):  # pytest -p m: the plugin module m.py is imported
            value = f.text[2:] if f.text.startswith("-p") and len(f.text) > 2 else \
                args[k + 1].text if f.text == "-p" and k + 1 < len(args) else ""
            if value and not value.startswith("no:"):
                module_main(run, inv, Field(value, f.span))
    if name in ("pytest", "py.test") and _spend(run, inv):
        # pytest loads every conftest.py of the directories it collects.
        for path in [p for p in (*run.files, *run.file_text) if p.endswith("/conftest.py")
                     and not p.startswith(("/", "~"))][:16]:
            _loaded(run, inv, path, language)


def _spend(run: Run, inv: Invocation) -> bool:
    """Charge a scan of the written files to the run's work budget (a tool run many times
    stays linear overall); False, after a fail-closed finding, once it is spent."""
    run.budget -= len(run.files) + len(run.file_text) + 8
    if run.budget >= 0:
        return True
    run.add("shell.nesting-too-deep", inv.word.span, "more written-file checks than the "
            "classifier follows", None)
    return False


def _node(run: Run, inv: Invocation, name: str, args: list[Field]) -> None:
    """npm/yarn/pnpm/bun: an install runs package.json's lifecycle scripts (and installs its
    dependencies); ``run X``/``test``/``yarn X`` runs script X with its pre/post scripts."""
    words: list[str] = []
    skip = False
    for f in args:
        if f.text in ("-g", "--global", "--location=global"):
            return  # a global install does not read the working directory's package.json
        if skip:
            skip = False
        elif f.text in _NODE_VALUE:
            skip = True  # npm --prefix app install: "app" is the option's value
        elif not f.text.startswith("-"):
            words.append(f.text)
    sub = words[0] if words else ("install" if name in ("yarn", "bun") else "")
    where = _option(args, ("--prefix", "-C", "--cwd", "--dir")) or ""
    if sub in _INSTALLS or sub == "rebuild":
        scripts: tuple[str, ...] = _LIFECYCLE
    elif sub in _NPM_RUN and len(words) > 1:
        scripts = (words[1],)
    elif sub in _NPM_DIRECT or (name != "npm" and sub and sub not in ("exec", "dlx", "x",
                                                                       "create", "init")):
        scripts = ({"t": "test", "tst": "test"}.get(sub, sub),)
    else:
        return
    path = _join(where, "package.json")
    if not _fetched(run, inv, path):
        text = read_written(run, path, inv.word.span)
        found = package_scripts(text) if text is not None else None
        if found and reentered(run, list(found.values())):
            return
        for script in scripts:
            for key in (f"pre{script}", script, f"post{script}") if len(scripts) == 1 \
                    else (script,):
                code = (found or {}).get(key)
                if code:
                    run.run_code(Field(code, inv.word.span), f"{name} script {key}",
                                 inv.word.span, None, positional=[])


def _pip(run: Run, inv: Invocation, args: list[Field]) -> None:
    """``pip install .``/``-e DIR``/``-r FILE``: a local project's setup.py runs, and the
    requirements name what gets installed."""
    if not args or args[0].text not in ("install", "wheel", "download"):
        return
    for k, f in enumerate(args[1:], 1):
        t = f.text
        prev = args[k - 1].text
        if prev in ("-r", "--requirement", "-c", "--constraint"):
            _fetched(run, inv, t)
        elif t.startswith("-") or prev in ("-i", "--index-url", "--extra-index-url", "-t",
                                           "--target", "--prefix", "-f", "--find-links"):
            continue
        elif t in (".", "./") or t.startswith(("./", "../", "/")) or prev in (
                "-e", "--editable"):
            base = t.split("[", 1)[0]
            _loaded(run, inv, _join(base, "setup.py"), "python")
            _fetched(run, inv, _join(base, "pyproject.toml"))


def _go(run: Run, inv: Invocation, args: list[Field]) -> None:
    """``go run x.go`` runs x.go; ``go generate`` runs the ``//go:generate`` lines of the
    package's files; ``go test`` runs its ``_test.go`` files."""
    sub = args[0].text if args else ""
    if sub == "run":
        for f in args[1:]:
            if f.text.endswith(".go"):
                _loaded(run, inv, f.text, "gocode", f)
            elif f.text in (".", "./") and _spend(run, inv):
                for path in [p for p in run.file_text if p.endswith(".go") and "/" not in p][:16]:
                    _loaded(run, inv, path, "gocode")
    elif sub in ("generate", "test") and _spend(run, inv):
        end = ".go" if sub == "generate" else "_test.go"
        for path in [p for p in run.files if p.endswith(end) and "/" not in p][:16]:
            _fetched(run, inv, path)
        deep = any(f.text.endswith("...") for f in args[1:])
        for path in [p for p in run.file_text if p.endswith(end) and (
                deep or "/" not in p)][:16]:  # //go:generate lines, or test code's commands
            _loaded(run, inv, path, "go" if sub == "generate" else "gocode")


def _terraform(run: Run, inv: Invocation, args: list[Field]) -> None:
    """``terraform plan|apply``: the ``*.tf`` files written in its directory (_buildmore)."""
    paths = terraform_files(args, run.cwd, [*run.files, *run.file_text])
    if paths and _spend(run, inv):
        for path in paths:
            _loaded(run, inv, path, "terraform")


# Languages of files whose commands _buildmore reads.
_READERS = {"rust": rust_commands, "go": go_generate, "gocode": go_exec,
            "terraform": terraform_commands, "cargo": cargo_config_commands,
            "cmake": cmake_commands}


def _fetched(run: Run, inv: Invocation, text: str, word: Field | None = None) -> bool:
    """A download run when ``text`` names a file the command wrote with fetched data."""
    path = norm_path(text, run.cwd)
    taint = run.files.get(path or "")
    if not taint or first_source(taint, _FETCHED) is None or path is None:
        return False
    download_exec(run, Field(path, word.span if word is not None else inv.word.span), taint,
                  inv.name)
    return True


def _loaded(run: Run, inv: Invocation, text: str, language: str,
            word: Field | None = None) -> None:
    """``inv`` loads the file ``text``: fetched data is a download run, known text is the
    code it runs."""
    if _fetched(run, inv, text, word):
        return
    path = norm_path(text, run.cwd)
    body = read_written(run, path, inv.word.span) if path is not None else None
    if body is None:
        return
    span = inv.word.span
    if language in ("python", "ruby", "node"):
        if DYN not in body:
            interp_code(run, Field(body, span), language, inv)
        if language != "ruby" or inv.name != "rake":
            return
        codes = rake_commands(body)  # sh "CMD" in a Rakefile
    elif language in _READERS:
        codes = _READERS[language](body)
    elif language == "just":
        codes = just_recipes(body)
    elif language == "task":
        codes = yaml_commands(body, frozenset({"cmds", "cmd"}))
    elif language == "pre-commit":
        codes = yaml_commands(body, frozenset({"entry"}))
    else:
        return
    if reentered(run, codes):
        return
    for code in codes:
        if DYN not in code:
            run.run_code(Field(code, span), f"{inv.name} recipe", span, None, positional=[])


def reentered(run: Run, codes: list[str]) -> bool:
    """True when one of ``codes`` is being walked already: a recipe running the tool again
    (``just --list`` in a justfile, ``make -C sub`` in a Makefile) does not read the file
    again (that would recurse until the nesting limit)."""
    stack = run.text_stack
    return len(stack) > 1 and any(code in stack[1:] for code in codes)


def _npm_scripts(run: Run, inv: Invocation, args: list[Field]) -> None:
    """``npm pkg set scripts.X=CODE`` / ``npm set-script X CODE``: CODE is shell code npm
    runs later (a lifecycle script on the next install): kept when it blocks."""
    pairs: list[tuple[str, Field]] = []
    if args[0].text == "set-script":
        if len(args) >= 3:
            pairs.append((args[1].text, args[2]))
    else:
        for f in args[2:34]:
            key, eq, code = f.text.partition("=")
            if eq and key.startswith(("scripts.", "scripts[")):
                pairs.append((key, Field(code, f.span, f.taint)))
            elif eq and key == "scripts" and f.static:
                # npm pkg set --json 'scripts={"postinstall":"CODE"}'
                for name, text in list((package_scripts(f'{{"scripts":{code}}}') or {}
                                        ).items())[:32]:
                    pairs.append((f"scripts.{name}", Field(text, f.span)))
    for key, script in pairs:
        keep_blocking(run, script, f"the npm script {key}", inv.word.span)


def keep_blocking(run: Run, code: Field, owner: str, span: tuple[int, int],
                  language: str | None = None, inv: Invocation | None = None,
                  rules: frozenset[str] | None = None, skip: frozenset[str] = frozenset()
                  ) -> bool:
    """Classify ``code`` as code run later (shell code, or ``language`` code run by
    ``inv``); keep its findings only when one blocks (one of ``rules``, when given, and
    none of ``skip``)."""
    if language is None or inv is None:
        return keep_if_blocking(run, run.run_code, code, owner, span, None, positional=[],
                                rules=rules, skip=skip)
    return keep_if_blocking(run, interp_code, run, code, language, inv, rules=rules, skip=skip)


def data_url_code(run: Run, value: Field, span: tuple[int, int]) -> None:
    """Classify the JavaScript of a ``data:`` URL module in a node option value (the rest of
    the value from ``data:``: the code may hold blanks)."""
    at = value.text.find("data:")
    if at < 0 or DYN in value.text:
        return
    head, _, body = value.text[at:at + 20_000].partition(",")
    if head.endswith(";base64"):
        try:
            body = base64.b64decode(body.split()[0] if body.split() else "").decode(
                "utf-8", "replace")
        except (binascii.Error, ValueError):
            return
    else:
        body = unquote(body)
    if body.strip():
        interp_code(run, Field(body, span), "node", Invocation("node", Field("node", span)))
