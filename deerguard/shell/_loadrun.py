"""Files an interpreter's own code loads and runs: ``import m``, ``require("./x.js")``, ``load``.

``curl -o x.py u && python3 x.py`` runs the fetched file by name (``_sinks.script_sink``);
the same file also runs when the code of another run loads it:

* Python: ``import m`` / ``from m import x`` (``m.py`` or ``m/__init__.py`` in the working
  directory, which ``-c`` code puts first on ``sys.path``), ``importlib.import_module("m")``,
  ``__import__("m")``, ``runpy.run_module("m")``, ``python -m m`` (``m.py`` or
  ``m/__main__.py``), and a path given to ``runpy.run_path``, ``execfile``,
  ``spec_from_file_location`` or read and passed to ``exec``/``compile``;
* node: ``require("./x")``, ``import("./x.mjs")``, ``import ... from "./x.mjs"`` (a relative
  or absolute path; ``x``, ``x.js``, ``x.cjs``, ``x.mjs``, ``x/index.js``; not JSON, which is
  parsed), and a file read and passed to ``eval``/``vm``;
* Ruby ``load "x.rb"``, ``require_relative "x"``, ``require "./x"``; Perl ``do "x.pl"``,
  ``require "x.pl"``; PHP ``include``/``require``; Lua ``dofile``, ``loadfile``,
  ``require "m"``;
* modules found through a directory the code or its options put on the search path:
  ``sys.path.insert(0, "/tmp")``, ``perl -I. -MM`` / ``use lib "."; use M``,
  ``ruby -I. -rx`` / ``$LOAD_PATH.unshift "."; require "x"``.

A file written in the same command with fetched or decoded data is a download run
(``shell.download-exec``), and known text is classified as that language's code. A module
named (``import m``) counts only when that very file (or the package's own directory:
``git clone u pkg && python -m pkg``) was written, not when it lies in a fetched directory
(``git clone u && cd r && python -m pytest`` is everyday); a path written
out (``runpy.run_path("r/main.py")``) is judged like ``python3 r/main.py``. Callers gate
on the run having written files at all; the scan is linear in the code's length, bounded
in the names it follows, and a file that loads itself is read once.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._files import dir_key, file_taint
from ._paths import norm_path
from ._words import DYN, Field, first_source
from ._written import read_written

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["LOADING_LANGUAGES", "loaded_files", "module_main"]

_FETCHED = frozenset({"fetch", "decode", "exec", "file"})
_MAX_NAMES = 16
_MAX_PIECES = 512
_STR = r"""["']([^"'\\\n]{1,300})["']"""
# Calls whose first string argument is a module name (Python) or a path (the rest).
_PY_MODULE_CALL = re.compile(r"\b(?:import_module|__import__|run_module)\s*+\(\s*+"
                             r"(?:(?:name|mod_name)\s*+=\s*+)?" + _STR)
_PY_PATH_CALL = re.compile(r"\b(?:run_path|execfile)\s*+\(\s*+(?:path_name\s*+=\s*+)?" + _STR)
_PY_LOADERS = ("import_module", "__import__", "run_module")
_NODE_LOAD = re.compile(r"(?:\brequire|\bimport)\s*+\(\s*+" + _STR +
                        r"|\bfrom\s*+" + _STR + r"|\bimport\s*+" + _STR)
_RUBY_LOAD = re.compile(r"\b(load|require_relative|require)\b\s*+\(?\s*+" + _STR)
_PERL_LOAD = re.compile(r"\b(?:do|require)\b\s*+\(?\s*+" + _STR)
_PHP_LOAD = re.compile(r"\b(?:include|include_once|require|require_once)\b\s*+\(?\s*+" + _STR)
_LUA_LOAD = re.compile(r"\b(dofile|loadfile|require)\b\s*+\(?\s*+" + _STR)
_LITERAL = re.compile(_STR)
# Code that evaluates text it was given: a file read there and passed on runs.
_EVALUATORS = {
    "python": ("exec(", "exec (", "compile(", "spec_from_file_location", "SourceFileLoader",
               "load_source", "exec_module"),
    "node": ("eval(", "runInThisContext", "runInNewContext", "runInContext", "Function(",
             "vm.Script", "new Script"),
    "ruby": ("eval(", "eval ", "instance_eval", "class_eval", "module_eval"),
    "perl": ("eval ", "eval(", "eval{"),
    "php": ("eval(",),
    "lua": ("loadstring", "load("),
}
_CODE_EXT = {
    "python": (".py", ".pyw", ".pyc"),
    "node": (".js", ".cjs", ".mjs", ".ts"),
    "ruby": (".rb",),
    "perl": (".pl", ".pm"),
    "php": (".php", ".inc"),
    "lua": (".lua",),
}
LOADING_LANGUAGES = frozenset(_EVALUATORS)
"""Languages whose code :func:`loaded_files` reads for loads (a set lookup gates it)."""


def loaded_files(run: Run, code: Field, text: str, language: str, inv: Invocation) -> None:
    """The files ``text`` (``language`` code run by ``inv``) loads, when the command wrote
    them: fetched data is a download run, known text is classified as code.

    Never raises; linear in the code (the first 20,000 characters are scanned, at most 32
    candidate files are looked up); each written file is read once per run.
    """
    if language not in _EVALUATORS:
        return
    seen: set[str] = set()
    targets = _targets(text, language)
    if language in ("python", "perl", "ruby"):
        targets = [*targets, *_searched(text, language, inv)]
    for path, exact in targets[:2 * _MAX_NAMES]:
        norm = norm_path(path, run.cwd)
        if norm is None or norm in seen:
            continue
        seen.add(norm)
        _load(run, code, norm, exact, language, inv)


def module_main(run: Run, inv: Invocation, module: Field) -> None:
    """``python -m m``: ``m.py``, or ``m/__main__.py`` of a package, written in the command."""
    name = module.text
    if not module.static or not _is_module(name):
        return
    base = name.replace(".", "/")
    for path in (base + ".py", base + "/__main__.py", base + "/__init__.py"):
        norm = norm_path(path, run.cwd)
        if norm is not None and _load(run, module, norm, True, "python", inv):
            return


def _is_module(name: str) -> bool:
    return bool(name) and len(name) <= 200 and name.replace(".", "_").replace(
        "_", "a").isalnum() and not name[0].isdecimal() and ".." not in name


def _load(run: Run, code: Field, path: str, exact: bool, language: str, inv: Invocation
          ) -> bool:
    """Judge ``path`` run as ``language`` code; True when the command wrote it."""
    taint = run.files.get(path) if exact else file_taint(run.files, path)
    if exact and not taint and path.endswith(("/__init__.py", "/__main__.py")) and \
            run.cwd is None and not any(c in ("cd", "pushd") for c in run.commands):
        # git clone u pkg && python -m pkg: the package directory itself was fetched (a
        # module name inside a fetched directory, such as pytest, is not known to be there;
        # after a cd the written paths no longer say where the working directory is).
        taint = run.files.get(dir_key(path.rpartition("/")[0]))
    src = first_source(taint, _FETCHED) if taint else None
    found = False
    if src is not None and taint:
        from ._sinks import download_exec  # (_sinks imports this module)

        download_exec(run, Field(path, code.span), taint, inv.name)
        found = True
    key = "load " + path
    if path not in run.file_text or key in run.active:
        return found  # not known, or loading itself (import m inside m.py)
    done = ("load", path, language, run.file_text[path])
    if done in run.calls_done:
        return True  # read once per run: modules importing each other stay linear
    run.calls_done.add(done)
    body = read_written(run, path, code.span)
    if body is None or DYN in body:
        return True
    from ._interpcode import interp_code  # the loaded code is read like -c code (a cycle)

    run.active.append(key)
    try:
        interp_code(run, Field(body, code.span), language, inv)
    finally:
        if run.active and run.active[-1] == key:
            run.active.pop()
    return True


def _targets(text: str, language: str) -> list[tuple[str, bool]]:
    """(path, exact) for each file ``text`` may load: exact for a module name's candidate
    files (only that written file counts), not for a path written out."""
    out: list[tuple[str, bool]] = []
    if language == "python":
        for name in _py_imports(text):
            out.extend(_py_module(name))
        for m in _PY_MODULE_CALL.finditer(text[:20_000]):
            out.extend(_py_module(m.group(1)))
            if len(out) >= 4 * _MAX_NAMES:
                break
        out.extend((m.group(1), False) for m in _PY_PATH_CALL.finditer(text[:20_000]))
        if any(word in text for word in _PY_LOADERS):
            # import_module bound to another name (from importlib import import_module as
            # im; im("m")): every literal that spells a module may be the one loaded.
            for m in _LITERAL.finditer(text[:20_000]):
                out.extend(_py_module(m.group(1)))
                if len(out) >= 4 * _MAX_NAMES:
                    break
    elif language == "node":
        for m in _NODE_LOAD.finditer(text[:20_000]):
            spec = m.group(1) or m.group(2) or m.group(3) or ""
            if spec.startswith(("./", "../", "/")):
                out.extend(_node_files(spec))
            if len(out) >= 4 * _MAX_NAMES:
                break
    elif language == "ruby":
        for m in _RUBY_LOAD.finditer(text[:20_000]):
            verb, spec = m.group(1), m.group(2)
            if verb == "require" and not spec.startswith(("./", "../", "/")):
                continue  # require "json": the load path, not the working directory
            out.append((spec if spec.endswith(".rb") or verb == "load" else spec + ".rb",
                        False))
    elif language in ("perl", "php"):
        pattern = _PERL_LOAD if language == "perl" else _PHP_LOAD
        out.extend((m.group(1), False) for m in pattern.finditer(text[:20_000]))
    elif language == "lua":
        for m in _LUA_LOAD.finditer(text[:20_000]):
            if m.group(1) == "require":
                base = m.group(2).replace(".", "/")
                out.extend(((base + ".lua", True), (base + "/init.lua", True)))
            else:
                out.append((m.group(2), False))
    if any(word in text for word in _EVALUATORS[language]):
        out.extend(_read_literals(text, language))
    return out


_PY_DIR = re.compile(r"\b(?:sys\.path\.(?:insert\(\s*+-?\d+\s*+,|append\()|addsitedir\()\s*+"
                     + _STR)
_PERL_LIB = re.compile(r"\buse\s++lib\s++(?:qw\s*+[(\[{/]([^)\]}/\n]{1,300})|" + _STR + r")")
_PERL_USE = re.compile(r"\b(?:use|require)\s++([A-Za-z_][\w:]{0,200})")
_RUBY_DIR = re.compile(r"(?:\$LOAD_PATH|\$:)\s*+(?:<<|\.unshift\(?|\.push\(?)\s*+" + _STR)
_RUBY_REQUIRE = re.compile(r"\brequire\b\s*+\(?\s*+" + _STR)


def _searched(text: str, language: str, inv: Invocation) -> list[tuple[str, bool]]:
    """Modules found through directories the code or its options add to the search path:
    ``sys.path.insert(0, "/tmp")``, ``perl -I. -MM``, ``use lib "."``, ``ruby -I. -rx``,
    ``$LOAD_PATH.unshift "."``: each module's file in each such directory (exact)."""
    dirs: list[str] = []
    names: list[str] = []
    body = text[:20_000]
    if language == "python":
        if "sys.path" not in body and "addsitedir" not in body:
            return []
        dirs = [m.group(1) for m in _PY_DIR.finditer(body)][:4]
        names = [n.replace(".", "/") + ext for n in _py_imports(body)
                 for ext in (".py", "/__init__.py")]
    else:
        dirs, opts = _option_dirs(inv, "MmI" if language == "perl" else "rI")
        if language == "perl":
            for m in _PERL_LIB.finditer(body):
                dirs.extend((m.group(1) or m.group(2) or "").split()[:4])
            mods = [*opts, *(m.group(1) for m in _PERL_USE.finditer(body))]
            names = [m.split("=", 1)[0].replace("::", "/") + ".pm" for m in mods
                     if m and m not in _PERL_PRAGMAS]
        else:
            dirs.extend(m.group(1) for m in _RUBY_DIR.finditer(body))
            mods = [*opts, *(m.group(1) for m in _RUBY_REQUIRE.finditer(body))]
            names = [m if m.endswith(".rb") else m + ".rb" for m in mods
                     if not m.startswith(("./", "../", "/"))]
    return [(f"{d.rstrip('/')}/{n}" if d not in ("", ".") else n, True)
            for d in dirs[:8] for n in names[:_MAX_NAMES]][:2 * _MAX_NAMES]


_PERL_PRAGMAS = frozenset({"strict", "warnings", "utf8", "lib", "vars", "constant",
                           "parent", "base", "feature", "integer", "bytes", "open", "bigint"})


def _option_dirs(inv: Invocation, letters: str) -> tuple[list[str], list[str]]:
    """The ``-I DIR`` directories and the modules ``-M``/``-m``/``-r`` options load."""
    dirs: list[str] = []
    mods: list[str] = []
    args = inv.args
    for k, f in enumerate(args[:32]):
        t = f.text
        if len(t) < 2 or t[0] != "-" or t[1] not in letters:
            if t in ("-e", "-E", "--") or not t.startswith("-"):
                break
            continue
        value = t[2:] if len(t) > 2 else (args[k + 1].text if k + 1 < len(args) else "")
        (dirs if t[1] == "I" else mods).append(value.lstrip("-"))
    return dirs, mods


def _py_imports(text: str) -> list[str]:
    """The modules of ``import a, b.c as d`` and ``from a import x`` statements."""
    if "import" not in text:
        return []
    names: list[str] = []
    for piece in text.replace(";", "\n").split("\n")[:_MAX_PIECES]:
        words = piece.split()
        if len(words) < 2:
            continue
        if words[0] == "import":
            for part in piece.split(None, 1)[1].split(",")[:8]:
                name = part.split()[0] if part.split() else ""
                if _is_module(name):
                    names.append(name)
        elif words[0] == "from" and len(words) >= 3 and words[2] == "import":
            name = words[1].lstrip(".")
            if _is_module(name):
                names.append(name)
        if len(names) >= _MAX_NAMES:
            break
    return names


def _py_module(name: str) -> list[tuple[str, bool]]:
    if not _is_module(name):
        return []
    base = name.replace(".", "/")
    out = [(base + ".py", True), (base + "/__init__.py", True)]
    if "." in name:  # import a.b runs a/__init__.py first
        out.append((name.split(".", 1)[0] + "/__init__.py", True))
    return out


def _node_files(spec: str) -> list[tuple[str, bool]]:
    """The files node tries for ``require(spec)``: the path itself, with an extension, or
    its directory's index.js."""
    last = spec.rpartition("/")[2]
    if last.endswith((".json", ".css", ".txt", ".csv")):
        return []  # data: require("./x.json") parses it, runs nothing
    if last.endswith((".js", ".cjs", ".mjs", ".node", ".ts")):
        return [(spec, False)]
    base = spec.rstrip("/")
    return [(base, True), (base + ".js", True), (base + ".cjs", True), (base + ".mjs", True),
            (base + "/index.js", True)]


def _read_literals(text: str, language: str) -> list[tuple[str, bool]]:
    """Paths in string literals of code that evaluates text: a file of the language's
    extension (judged like running it by name), or any file written in the command."""
    out: list[tuple[str, bool]] = []
    ext = _CODE_EXT[language]
    for m in _LITERAL.finditer(text[:20_000]):
        spec = m.group(1)
        if " " in spec or "/" not in spec and "." not in spec:
            continue
        out.append((spec, not spec.endswith(ext)))
        if len(out) >= _MAX_NAMES:
            break
    return out
