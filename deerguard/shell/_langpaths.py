"""How interpreter code spells paths, read as plain literals.

:func:`spell_paths` rewrites the expressions a language spells the home directory with
(``os.path.expanduser('~')``, ``Path.home()``, ``os.homedir()``, ``process.env.HOME``,
``$ENV{HOME}``, ``Dir.home``, ``ENV['HOME']``, ``getenv('HOME')``...) as the literal ``"~"``
and the root directory (``os.sep``, ``path.sep``, ``File::Spec->rootdir``) as ``"/"``; unwraps
path spellers around a literal (``expanduser('~/x')``, ``str('~')``); folds path joins and
concatenations of literals (``os.path.join('~', '.ssh')``, ``"rm -rf " . "~"``,
``Path.home() / "x"``) into one literal; and reads JavaScript template literals and Python
f-strings as plain literals whose interpolations are ``~`` or unknown (``DYN``). The literal
scanners of ``_code`` then see ``shutil.rmtree("~")`` and ``["rm", "-rf", "~"]``.

Only static text is read; every scan is linear (bounded windows, bounded occurrence counts).
"""

from __future__ import annotations

import bisect
import re

from ._code import literals
from ._edits import apply_edits
from ._fstr import PY_GATE, read_templates
from ._gate import word_gate
from ._strfold import fold_strings
from ._words import DYN

__all__ = ["chain_start", "name_before", "spell_paths", "spell_self"]

_HOME = '"~"'
# One C-level search says whether any of a language's spellings may be in the code.
_SELF_GATES = {"python": re.compile("executable"), "node": re.compile("execPath|argv"),
               "ruby": re.compile(r"\.ruby"), "perl": re.compile(r"\$\^X|\$EXECUTABLE_NAME")}
_PY_SYS_ALIAS = re.compile(
    r"import[ \t]{1,8}(?:[\w \t,.]{0,64},[ \t]{0,8})?sys[ \t]{1,8}as[ \t]{1,8}(\w{1,32})"
    r"|from[ \t]{1,8}sys[ \t]{1,8}import[ \t]{1,8}(?:[\w \t,]{0,64},[ \t]{0,8})?executable"
    r"(?:[ \t]{1,8}as[ \t]{1,8}(\w{1,32}))?|(\w{1,32})[ \t]{0,8}=[ \t]{0,8}sys\.executable\b")
# The running interpreter's own path, by language: ``[sys.executable, "-c", CODE]`` runs
# CODE as Python, as ``["python3", "-c", CODE]`` does.
_SELF: dict[str, tuple[tuple[str, str], ...]] = {
    "python": (("sys.executable", '"python3"'),),
    "node": (("process.execPath", '"node"'), ("process.argv0", '"node"'),
             ("process.argv[0]", '"node"')),
    "ruby": (("RbConfig.ruby", '"ruby"'), ("Gem.ruby", '"ruby"')),
    "perl": (("$^X", '"perl"'), ("$EXECUTABLE_NAME", '"perl"')),
}
_MAX_HITS = 32

# Method or call tails that are the home directory whatever the chain before them holds
# (``require('os').homedir()``, ``pathlib.Path.home()``): tail -> names the chain may end in.
_HOME_TAILS: tuple[tuple[str, frozenset[str] | None], ...] = (
    (".homedir()", None), ("homedir()", None), (".home()", frozenset({"path", "dir"})),
    ("Dir.home", None), ("File::HomeDir->my_home", None), ("get_home_dir()", None),
    ("$ENV{HOME}", None), ("process.env.HOME", None), ("process.env.USERPROFILE", None),
    ('System.getProperty("user.home")', None),  # Java, Kotlin, Scala, Groovy
)
# The root directory spelled as a constant: os.sep, path.sep, File::Spec->rootdir.
_ROOT_TAILS = ("os.sep", "os.path.sep", "path.sep", "File::Spec->rootdir()",
               "File::Spec->rootdir", "require('path').sep", 'require("path").sep',
               "require('node:path').sep", 'require("node:path").sep')
# ``X['HOME']``-like lookups: what precedes the key literal, what follows it.
_ENV_LOOKUPS = ("environ[", "environ.get(", "getenv(", "env[", "ENV[", "ENV.fetch(", "ENV{",
                "_SERVER[", "_ENV[", "env.get(")
_HOME_KEYS = frozenset({"HOME", "USERPROFILE"})
# Calls that only spell the path they are given.
_SPELLERS = frozenset({"expanduser", "expand_path", "abspath", "realpath", "normpath", "fspath",
                       "str", "String", "resolve", "Path", "PurePath", "File.expand_path",
                       "path.resolve", "os.fspath", "os.path.expanduser", "os.path.abspath",
                       "os.path.realpath", "os.path.normpath", "pathlib.Path"})
_JOINS = frozenset({"join", "File.join", "path.join", "os.path.join", "catfile",
                    "File::Spec->catfile", "File::Spec->catdir", "catdir"})


def chain_start(code: str, end: int, floor: int) -> int:
    """Start of the dotted call chain ending at ``end``, not before ``floor``
    (``require('os').homedir``, ``__import__('b').b64decode``, ``$ua->get``,
    ``Base64::decode64``): balanced ``(..)`` and ``[..]`` groups followed by ``.``, ``:`` or
    ``->`` are part of the chain."""
    j = end
    while j > floor:
        c = code[j - 1]
        if c.isalnum() or c in "_$.:":
            j -= 1
        elif c == ">" and j - 2 >= floor and code[j - 2] == "-":
            j -= 2
        elif c in ")]" and j < len(code) and code[j] in ".:-":
            depth = 0
            k = j
            while k > floor:
                ch = code[k - 1]
                k -= 1
                if ch in ")]":
                    depth += 1
                elif ch in "([":
                    depth -= 1
                    if depth == 0:
                        break
            if depth != 0:
                return j
            j = k
        else:
            break
    return j


def _chain_back(code: str, end: int) -> int:
    """:func:`chain_start` bounded to the 160 characters before ``end``."""
    return chain_start(code, end, max(0, end - 160))


def name_before(code: str, pos: int) -> tuple[str, int]:
    """The dotted name ending right before ``pos`` (spaces skipped) and where it starts."""
    j = pos
    while j > 0 and pos - j < 64 and code[j - 1] in " \t":
        j -= 1
    end = j
    while j > 0 and end - j < 96 and (code[j - 1].isalnum() or code[j - 1] in "_.:$>-"):
        if code[j - 1] in ">-" and not (j >= 2 and code[j - 2:j] == "->"):
            break
        j -= 2 if code[j - 1] == ">" else 1
    return code[j:end], j


def _in_literal(spans: list[tuple[int, int]], pos: int) -> tuple[int, int] | None:
    """The literal span holding ``pos`` (spans are sorted and disjoint): a bisection."""
    k = bisect.bisect_right(spans, (pos, 1 << 62)) - 1
    if k >= 0 and spans[k][0] <= pos < spans[k][1]:
        return spans[k]
    return None


def _home_edits(code: str, language: str) -> list[tuple[int, int, str]]:
    """(start, end, replacement) for each home-directory expression of ``code``."""
    lits = literals(code, language in ("perl", "ruby", "php"))
    spans = [(s, e) for s, e, _v in lits[:512]]
    edits: list[tuple[int, int, str]] = []
    for tail, owners in _HOME_TAILS:
        at = code.find(tail)
        hits = 0
        while at != -1 and hits < _MAX_HITS:
            hits += 1
            end = at + len(tail)
            if end < len(code) and (code[end].isalnum() or code[end] == "_"):
                at = code.find(tail, end)
                continue  # Dir.homes, process.env.HOMEPAGE
            lit = _in_literal(spans, at)
            if lit is not None:
                # "$ENV{HOME}/x" in Perl, "#{Dir.home}" in Ruby: interpolated text.
                if language in ("perl", "ruby", "php") and code[lit[0]] == '"':
                    start = at
                    if code[max(0, at - 2):at] == "#{" and code[end:end + 1] == "}":
                        start, end = at - 2, end + 1
                    edits.append((start, end, "~"))
                at = code.find(tail, end)
                continue
            start = at if tail[0] != "." else _chain_back(code, at)
            if owners is not None:
                owner = code[start:at].rsplit(".", 1)[-1].lower()
                if owner not in owners:
                    at = code.find(tail, end)
                    continue
            if tail == "homedir()" and at > 0 and (code[at - 1].isalnum() or
                                                   code[at - 1] in "_."):
                at = code.find(tail, end)
                continue
            edits.append((start, end, _HOME))
            at = code.find(tail, end)
    for tail in _ROOT_TAILS:
        at = code.find(tail)
        hits = 0
        while at != -1 and hits < _MAX_HITS:
            hits += 1
            end = at + len(tail)
            if (end < len(code) and (code[end].isalnum() or code[end] in "_.(")) or (
                    at > 0 and (code[at - 1].isalnum() or code[at - 1] in "_.")) or \
                    _in_literal(spans, at) is not None:
                at = code.find(tail, end)
                continue  # os.sep.join(..), os.separator, a string
            edits.append((at, end, '"/"'))
            at = code.find(tail, end)
    for start, end, value in lits[:512]:
        if value[1:] not in _HOME_KEYS:
            continue
        head = code[max(0, start - 16):start].rstrip(" \t")
        lookup = next((k for k in _ENV_LOOKUPS if head.endswith(k)), None)
        if lookup is None:
            continue
        after = code[end:end + 8].lstrip(" \t")
        if after[:1] not in ("]", ")", "}", ","):
            continue
        close = end + code[end:end + 8].index(after[0])
        if after[0] == ",":  # os.environ.get('HOME', default): to the call's close
            close = code.find(")", end, end + 160)
            if close == -1:
                continue
        bracket = len(code[:start].rstrip(" \t")) - 1  # the [ ( { of the lookup
        begin = _chain_back(code, bracket)
        if language in ("perl", "php"):
            while begin < bracket and code[begin] == ".":
                begin += 1  # "rm -rf ".getenv("HOME"): the dot joins, it is no chain
        edits.append((begin, close + 1, _HOME))
    return edits


def _unwrap(code: str, language: str) -> list[tuple[int, int, str]]:
    """``expanduser('~/x')`` -> ``'~/x'``; ``os.path.join('~', '.ssh')`` -> ``'~/.ssh'``."""
    lits = literals(code, language in ("perl", "ruby", "php"))[:512]
    edits: list[tuple[int, int, str]] = []
    k = 0
    while k < len(lits):
        start, end, value = lits[k]
        j = start
        while j > 0 and start - j < 16 and code[j - 1] in " \t":
            j -= 1
        if j == 0 or code[j - 1] != "(":
            k += 1
            continue
        paren = j - 1
        while paren > 0 and code[paren - 1] in " \t":
            paren -= 1
        nstart = _chain_back(code, paren)
        name = code[nstart:paren]
        short = name.rsplit(".", 1)[-1].rsplit("->", 1)[-1].rsplit("::", 1)[-1]
        if name in _JOINS or short in ("join", "catfile", "catdir"):
            parts = [value[1:]]
            last_end = end
            m = k + 1
            while m < len(lits) and code[last_end:lits[m][0]].strip(" \t") == ",":
                parts.append(lits[m][2][1:])
                last_end = lits[m][1]
                m += 1
            close = code[last_end:last_end + 16].lstrip(" \t")
            if close[:1] == ")" and (name in _JOINS or short != "join" or len(parts) > 1) \
                    and not (short == "join" and name in ("join", "", ".join")):
                joined = "/".join(p.rstrip("/") for p in parts[:-1]) + "/" + parts[-1] \
                    if len(parts) > 1 else parts[0]
                edits.append((nstart, code.find(")", last_end) + 1,
                              _quote(joined)))
                k = m
                continue
        if name in _SPELLERS or short in _SPELLERS:
            close = code[end:end + 16].lstrip(" \t")
            if close[:1] == ")":
                edits.append((nstart, code.find(")", end) + 1, code[start:end]))
        k += 1
    return edits


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _concat(code: str, language: str) -> list[tuple[int, int, str]]:
    """``"rm -rf " . "~"`` (Perl, PHP), ``'rm -rf ' + '~'`` and Python's ``"~" / "x"``
    (a Path join): one literal."""
    # Python's Path / "x" joins with a slash (the home directory is a Path: Path.home()).
    ops = ".+" if language in ("perl", "php") else "+/" if language == "python" else "+"
    lits = literals(code, language in ("perl", "ruby", "php"))[:512]
    edits: list[tuple[int, int, str]] = []
    k = 0
    while k < len(lits):
        start, end, value = lits[k]
        parts = [value[1:]]
        m = k + 1
        while m < len(lits) and lits[m][2][:1] != "`":
            gap = code[lits[m - 1][1]:lits[m][0]].strip(" \t")
            if len(gap) != 1 or gap not in ops:
                break
            parts.append(("/" if gap == "/" else "") + lits[m][2][1:])
            m += 1
        if m > k + 1 and value[:1] != "`":
            edits.append((start, lits[m - 1][1], _quote("".join(parts))))
        k = m
    return edits


_HOME_GATE = ("home", "HOME", "USERPROFILE", "expanduser", "expand_path", "join", "catfile",
              "catdir", "sep", "rootdir")
_HOME_GATE_RE = word_gate(_HOME_GATE)


_JS = frozenset({"node", "deno", "bun"})


def _interpolated(expr: str, language: str) -> str:
    """What an interpolated expression stands for in a string: ``~`` for the home
    directory, a constant string expression's value (``f"{'r' + 'm'} -rf ~"``, escaped for
    the literal it goes into), else a value not known statically."""
    spelled = spell_paths(expr, language).strip()
    if spelled in (_HOME, "'~'"):
        return "~"
    if len(spelled) <= 400 and spelled[:1] in ("'", '"', "c", "S", "[", "("):
        folded = fold_strings(spelled, language)
        lits = literals(folded, False)
        if len(lits) == 1 and lits[0][0] == 0 and lits[0][1] == len(folded) and \
                lits[0][2][:1] in ("'", '"') and DYN not in lits[0][2]:
            value = lits[0][2][1:]
            return value.replace("\\", "\\\\").replace('"', '\\"').replace("'", "\\'")
    return DYN


def spell_paths(code: str, language: str) -> str:
    """``code`` with its home-directory expressions, path spellers and literal path joins
    written as plain literals (template literals and f-strings as plain literals too);
    ``code`` itself when it holds none (the common case)."""
    if len(code) > 20000:
        return code
    if (language in _JS and "`" in code) or (language == "ruby" and "#{" in code) or (
            language == "python" and PY_GATE.search(code) is not None):
        code = read_templates(code, language, _interpolated, _spell_home)
    return _spell_home(code, language)


def _spell_home(code: str, language: str) -> str:
    if _HOME_GATE_RE.search(code) is None:
        return code
    for _ in range(3):  # join(expanduser('~'), '.ssh'): inner rewrites enable outer ones
        edits = _home_edits(code, language)
        new = apply_edits(code, edits)
        new = apply_edits(new, _unwrap(new, language))
        if "+" in new or "/" in new or (language in ("perl", "php") and "." in new):
            new = apply_edits(new, _concat(new, language))
        if new == code:
            break
        code = new
    return code


def spell_self(code: str, language: str) -> str:
    """``code`` with the interpreter's own path (``sys.executable``, ``process.execPath``,
    ``$^X``, ``RbConfig.ruby``) written as the program name: a literal (``"python3"``)
    outside string literals, the bare name inside one (``f"{sys.executable} -c .."``), so
    ``subprocess.run([sys.executable, "-c", CODE])`` reads as running ``python3 -c CODE``;
    ``code`` itself when it holds none (the common case). Linear."""
    gate = _SELF_GATES.get(language)
    if gate is None or gate.search(code) is None or len(code) > 20000:
        return code
    names = _SELF[language]
    if language == "python":
        names = (*names, *_py_aliases(code))
    lits = literals(code, language in ("perl", "ruby", "php"))
    starts = [start for start, _end, _value in lits]
    edits: list[tuple[int, int, str]] = []
    for name, spelled in names:
        at = code.find(name)
        while at != -1 and len(edits) < _MAX_HITS:
            end = at + len(name)
            k = bisect.bisect_right(starts, at) - 1
            after = code[end:end + 1]
            before = code[at - 1:at] if at else ""
            if not (after.isalnum() or after == "_") and not (
                    before.isalnum() or before in ("_", ".", "$")) and \
                    code[max(0, at - 7):at] not in ("import ", "mport, ") and \
                    not _assigned(code, end):
                if k < 0 or at >= lits[k][1]:
                    edits.append((at, end, spelled))
                elif before == "{" and after == "}":
                    edits.append((at - 1, end + 1, spelled.strip('"')))  # f"{sys.executable}"
            at = code.find(name, end)
    return apply_edits(code, edits) if edits else code


def _py_aliases(code: str) -> list[tuple[str, str]]:
    """``import sys as s`` (``s.executable``), ``from sys import executable [as py]``."""
    out: list[tuple[str, str]] = []
    for m in _PY_SYS_ALIAS.finditer(code[:20000]):
        if m.group(1):
            out.append((m.group(1) + ".executable", '"python3"'))
        elif m.group(3):
            out.append((m.group(3), '"python3"'))  # py = sys.executable: py is the same
        else:
            out.append((m.group(2) or "executable", '"python3"'))
        if len(out) >= 4:
            break
    return out


def _assigned(code: str, end: int) -> bool:
    """Whether the name ending at ``end`` is assigned to (``py = ...``, not ``==``)."""
    k = end
    while k < len(code) and k < end + 8 and code[k] in " \t":
        k += 1
    return code[k:k + 1] == "=" and code[k + 1:k + 2] != "="
