"""Environment variables that make interpreters load code before the program they run.

``NODE_OPTIONS='--require /tmp/h.js'``, ``RUBYOPT=-r./h``, ``PERL5OPT=-Mh``,
``JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar`` and ``PYTHONSTARTUP=/tmp/h.py`` hook code into
every later run of the interpreter (and into every tool built on it: npm, bundler, gradle),
the way ``LD_PRELOAD`` hooks a library into every program. Module search paths
(``PYTHONPATH``, ``NODE_PATH``, ``PERL5LIB``, ``RUBYLIB``, ``CLASSPATH``, ``-I`` inside the
option variables; ``PYTHONHOME``'s standard library and ``PYTHONUSERBASE``'s site-packages
with their ``.pth`` files) decide which file an ``import`` loads.

What each finding means:

* a load of a *file* (a path, a code-file name, or a value not known statically) warns
  (``shell.interpreter-hook``); a bare package name (``-r dotenv/config``,
  ``--require @opentelemetry/auto-instrumentations-node/register``, ``-rbundler/setup``)
  loads an installed package the project chose, and passes;
* a debugger listening beyond localhost (``--inspect=0.0.0.0:9229``,
  ``-agentlib:jdwp=...address=*:5005``) lets anyone who connects run code: warns;
* a load or search path holding a file written with fetched or decoded data earlier in the
  same command blocks (``shell.download-exec``), whether the variable was set before the
  download or after it;
* a search path in a directory anyone can write to (``PYTHONPATH=/tmp/evil``,
  ``PERL5LIB=/dev/shm/x``, ``RUBYOPT=-I/tmp/x``) warns: whoever plants a module there
  shadows the one an ``import`` meant (``src``, ``.`` and the user's own directories pass).

Parsing is a split on blanks and ``:`` (search paths): linear in the value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import file_taint
from ._netredirect import temp_path
from ._paths import norm_path
from ._values import DYN, Field, Taint, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["HOOK_VARS", "hook_files", "hook_options", "hook_variable"]

_OPTION_VARS = {
    "NODE_OPTIONS": "node", "RUBYOPT": "ruby", "PERL5OPT": "perl",
    "JAVA_TOOL_OPTIONS": "java", "_JAVA_OPTIONS": "java", "JDK_JAVA_OPTIONS": "java",
    "JAVA_OPTS": "java", "MAVEN_OPTS": "java", "GRADLE_OPTS": "java",
}
_PATH_VARS = {"PYTHONPATH": "python", "NODE_PATH": "node", "PERL5LIB": "perl",
              "PERLLIB": "perl", "RUBYLIB": "ruby", "PYTHONHOME": "python",
              "PYTHONUSERBASE": "python", "CLASSPATH": "java"}
_STARTUP_VARS = frozenset({"PYTHONSTARTUP"})

HOOK_VARS = frozenset(_OPTION_VARS) | frozenset(_PATH_VARS) | _STARTUP_VARS
"""Variables whose value chooses code an interpreter loads at startup."""

# Per language: option -> "load" (its value is code to load) or "dir" (a search path).
# Long options also take ``--opt=value``; short ones their value attached (``-rfoo``).
_NODE = {"--require": "load", "-r": "load", "--import": "load", "--loader": "load",
         "--experimental-loader": "load"}
_RUBY = {"-r": "load", "-I": "dir"}
_PERL = {"-M": "load", "-m": "load", "-I": "dir"}
_TABLES = {"node": _NODE, "ruby": _RUBY, "perl": _PERL}

_CODE_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".rb", ".pm", ".pl", ".py",
                  ".jar", ".so", ".dylib", ".dll", ".node")
_LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


def _items(language: str, value: str) -> list[tuple[str, str]]:
    """``(kind, value)`` for each load, search dir or exposed debugger in an option list."""
    if language == "java":
        return _java_items(value)
    table = _TABLES[language]
    words = value.split()
    out: list[tuple[str, str]] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        opt, eq, attached = word.partition("=") if word.startswith("--") else (word, "", "")
        kind = table.get(opt)
        if kind is not None:
            if eq:
                out.append((kind, attached))
            elif index < len(words):
                out.append((kind, words[index]))
                index += 1
        elif language == "node" and opt.startswith("--inspect"):
            if eq:
                out.append(("debug", attached))
        elif len(word) > 2 and not word.startswith("--") and word[:2] in table:
            out.append((table[word[:2]], word[2:]))  # -rfoo, -Mfoo=bar, -I/dir
    return out


def _java_items(value: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for word in value.split():
        if word.startswith(("-javaagent:", "-agentpath:")):
            out.append(("agent", word.partition(":")[2].partition("=")[0]))
        elif word.startswith(("-agentlib:jdwp", "-Xrunjdwp")):
            for setting in word.partition(":")[2].partition("=")[2].split(","):
                if setting.startswith("address="):
                    out.append(("debug", setting[len("address="):]))
        elif word.startswith("-agentlib:"):
            out.append(("agent", word.partition(":")[2].partition("=")[0]))
    return out


def _is_file(spec: str, language: str) -> bool:
    """True when a load names a file (or cannot be known) rather than a package."""
    if not spec or DYN in spec:
        return True
    if language == "perl":
        spec = spec.partition("=")[0]  # -MFoo=bar imports bar from Foo
        return "/" in spec or spec.endswith((".pm", ".pl"))
    return spec.startswith(("/", "./", "../", "~", ".\\")) or spec in (".", "..") or \
        spec.lower().endswith(_CODE_SUFFIXES)


def _exposed(address: str) -> bool:
    """A debugger address that listens beyond this machine (``0.0.0.0:9229``, ``*:5005``)."""
    if DYN in address:
        return True
    host, sep, _port = address.rpartition(":")
    return bool(sep) and host not in _LOCAL_HOSTS


def _targets(name: str, text: str) -> list[tuple[str, str, str]]:
    """``(kind, value, language)`` for every code source the variable's value names."""
    if name in _PATH_VARS:
        return [("dir", part, "path") for part in text.split(":") if part]
    if name in _STARTUP_VARS:
        return [("load", text, "python")] if text else []
    language = _OPTION_VARS[name]
    return [(kind, value, language) for kind, value in _items(language, text)]


def hook_variable(run: Run, name: str, value: Field, span: tuple[int, int]) -> None:
    """Check an assignment to a :data:`HOOK_VARS` variable (prefix, ``env``, ``export``)."""
    for kind, target, language in _targets(name, value.text):
        if kind == "debug":
            if _exposed(target):
                run.add("shell.interpreter-hook", span, f"{name} opens a debugger to the "
                        "network: anyone who connects can run code", None)
            continue
        if kind == "load" and language == "node" and target.startswith("data:"):
            _data_import(run, name, value, span)
            continue
        if _tainted(run, f"{name} makes {_family(name)}", kind, target, span):
            return
        if kind == "dir" and temp_path(run, target):
            run.add("shell.interpreter-hook", span, f"{name} makes every later "
                    f"{_family(name)} run import modules from {target}, a directory anyone "
                    "can write to", None)
        elif kind == "agent" or (kind == "load" and _is_file(target, language)):
            what = "an agent library" if kind == "agent" else target.replace(DYN, "?")
            run.add("shell.interpreter-hook", span, f"{name} makes every later "
                    f"{_family(name)} run load {what} first", None)


def _data_import(run: Run, name: str, value: Field, span: tuple[int, int]) -> None:
    """``NODE_OPTIONS='--import=data:text/javascript,CODE'``: inline code every later node
    run executes first: warns, and the code (URL- or base64-decoded) is classified."""
    from ._buildfiles import data_url_code  # _sinks imports this module
    run.add("shell.interpreter-hook", span, f"{name} makes every later node run execute "
            "inline code first", None)
    data_url_code(run, value, span)


def _family(name: str) -> str:
    return _OPTION_VARS.get(name) or _PATH_VARS.get(name) or "python"


def _tainted(run: Run, who: str, kind: str, target: str, span: tuple[int, int]) -> bool:
    """Report a load or search path that holds a file written with fetched data."""
    if not run.files:
        return False
    path = norm_path(target, run.cwd)
    if path is None:
        return False
    taint: Taint = file_taint(run.files, path)
    if not taint and kind == "dir":
        if not _spend(run, len(run.files), span):
            return True
        prefix = path.rstrip("/") + "/"
        for written, written_taint in run.files.items():
            # A module (or a file of unknown name) under the search path; a downloaded
            # data file there (src/data/x.json) is not code.
            if written.startswith(prefix) and written_taint and \
                    written.lower().endswith((*_CODE_SUFFIXES, ".pth", "/*")):
                taint = written_taint
                break
    src = first_source(taint, frozenset({"fetch", "decode", "exec", "file"}))
    if src is None:
        return False
    under = kind == "dir" and path not in run.files
    held = "holds a file" if under else "is a file"
    written = "under" if under else "to"
    run.add("shell.download-exec", span, f"{who} load code from {target}, which {held} "
            "written with fetched or decoded data in the same command",
            f"{src.describe()} was written {written} {target}")
    return True


def _spend(run: Run, work: int, span: tuple[int, int]) -> bool:
    """Draw ``work`` from the run's budget (shared with nested code and function calls, so
    re-checking hooks at every program start stays linear overall); False, after a fail-closed
    finding, once it is spent."""
    run.budget -= work + 8
    if run.budget >= 0:
        return True
    run.add("shell.nesting-too-deep", span, "more interpreter-hook checks than the "
            "classifier follows", None)
    return False


def hook_files(run: Run, program: str, span: tuple[int, int]) -> None:
    """At a program's start: a hook variable set earlier may name a file downloaded since
    (``export NODE_OPTIONS=-r/tmp/h.js; curl -o /tmp/h.js u; node app``). Only programs of
    the variable's language are affected (python's console scripts have any name, so the
    python variables apply to every program)."""
    env = run.env
    for name in HOOK_VARS:
        var = env.get(name)
        if var is None or any(n == name for n, _ in run.prefix):
            continue  # unset, or a prefix of this very command (checked when assigned)
        family = _family(name)
        if family != "python" and program not in _PROGRAMS.get(family, ()):
            continue
        who = f"{name} makes {family}"
        for text in var.alts:
            if not _spend(run, len(text), span):
                return
            for kind, target, _language in _targets(name, text):
                if kind != "debug" and _tainted(run, who, kind, target, span):
                    return


_PROGRAMS = {
    "node": frozenset({"node", "nodejs", "npm", "npx", "yarn", "pnpm", "corepack", "tsx",
                       "ts-node", "next", "vite", "jest", "mocha", "eslint", "tsc"}),
    "ruby": frozenset({"ruby", "irb", "bundle", "bundler", "gem", "rake", "rails", "rspec"}),
    "perl": frozenset({"perl", "cpan", "cpanm", "prove"}),
    "java": frozenset({"java", "mvn", "gradle", "gradlew", "kotlin", "sbt", "lein", "ant"}),
}


def hook_options(run: Run, family: str, args: list[Field], span: tuple[int, int]) -> None:
    """``node -r /tmp/h.js app``, ``ruby -r/tmp/h``, ``perl -I/tmp/x -Mh``: the interpreter's
    own options before its script load a file; one written with fetched or decoded data in
    the same command blocks like running it."""
    table = _TABLES.get(family)
    if table is None or not run.files:
        return
    words: list[str] = []
    expect = False
    for f in args:
        text = f.text
        if expect:
            words.append(text)
            expect = False
            continue
        if not text.startswith("-") or text in ("-", "--"):
            break
        words.append(text)
        expect = text in table
    for kind, target in _items(family, " ".join(words)):
        if kind != "debug" and _tainted(run, f"an option of {family} makes it", kind, target,
                                        span):
            return
