"""What interpreter code does beyond its literal shell strings: the extra readings.

* :func:`rewrite_code` folds constant string expressions (``"r" + "m -rf ~"``, ``chr(114)``,
  ``sprintf("%c", 114)``, ``"..."[::-1]``: ``_strfold``) and writes computed call names as
  plain calls (``getattr(os, "system")``, ``Kernel.send(:system, ..)``, ``$f = "system";
  $f(..)``: ``_callnames``), so the literal readers of ``_code`` see ``os.system("rm -rf ~")``.
* :func:`code_extras` classifies the constant code strings the language evaluates itself
  (``exec(compile("..", "f", "exec"))``, ``eval "..."``) as code of that language; treats a
  loop that hands each input line to a shell call (``perl -ne 'system $_'``,
  ``awk '{system($0)}'``) as a shell reading that input (``| sh`` or ``sh FILE``); resolves
  relative file paths of file calls against the shell's working directory
  (``cd /etc; python3 -c 'open("shadow")'``); and finds a walk of the home directory (or
  another critical directory) that deletes what it finds (``Path.home().rglob("*")`` with
  ``unlink()``, ``os.walk(home)`` with ``os.remove``).

Every reading is linear and bounded (see the modules named above).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ._callnames import eval_literals, rename_calls
from ._checks import check_args, check_write
from ._code import destructive_paths, written_paths
from ._flow import Flow
from ._gate import word_gate
from ._paths import is_critical, norm_path
from ._perline import line_operands
from ._plinterp import interpolate
from ._strfold import FOLDED, Tok, fold_strings, tokens
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["code_extras", "rewrite_code"]

Interp = Callable[["Run", Field, str, "Invocation"], object]


def rewrite_code(text: str, language: str) -> str:
    """``text`` with constant string expressions folded and computed call names plain."""
    if language not in FOLDED:
        return text
    text = fold_strings(text, language)
    if language in ("perl", "php") and "$" in text:
        text = interpolate(text, language)  # $d = "/"; system("rm -rf $d")
    for _ in range(2):  # f = getattr(os, "system") becomes f = os.system, then f(..) system(..)
        new = rename_calls(text, language)
        if new == text:
            break
        text = new
    return text


def code_extras(run: Run, code: Field, text: str, language: str, inv: Invocation,
                stdin: Flow | None, interp: Interp) -> None:
    """The extra findings of ``text`` (``language`` code of ``code``, run by ``inv``)."""
    if language not in FOLDED:
        return
    _evaluated(run, code, text, language, inv, interp)
    _line_runner(run, code, text, language, inv, stdin)
    lowered = text.lower()
    walks = _WALK_GATE_RE.search(lowered) is not None and \
        _DELETE_GATE_RE.search(lowered) is not None
    if (run.cwd is None and "chdir" not in text and not walks) or len(text) > 20000:
        return  # the common case: no working directory to follow, no walk to read
    toks = tokens(text, language)
    if not toks:
        return
    moves = _chdirs(toks) if "chdir" in text else []
    if run.cwd is not None or moves:
        _relative_files(run, code, toks, language, inv, moves)
    if moves:
        _moved_targets(run, code, text, toks, language, inv, moves)
    if walks:
        _home_walk(run, code, text, toks, inv, moves)


_WALK_GATE = ("glob", "walk", "iterdir", "listdir", "scandir", "find", "readdir", "children",
              "entries", "directoryiterator", "sync(")
_WALK_GATE_RE = word_gate(_WALK_GATE)
_DELETE_GATE = ("unlink", "remove", "rmtree", "rmdir", "rmsync", "rm_", "rm(", "delete",
                "rimraf")
_DELETE_GATE_RE = word_gate(_DELETE_GATE)


def _moved_targets(run: Run, code: Field, text: str, toks: list[Tok], language: str,
                   inv: Invocation, moves: list[tuple[int, str]]) -> None:
    """Deletes and writes after the code's own ``chdir``: ``os.chdir("/");
    shutil.rmtree("etc")`` deletes /etc, ``Dir.chdir(Dir.home); File.write(".bashrc", ..)``
    writes ~/.bashrc."""
    starts = [(toks[at][2], path) for at, path in moves]  # by offset in the text
    for path, start, _end in destructive_paths(text, language=language):
        norm = norm_path(path, _cwd_at(run, starts, start))
        if norm is not None and is_critical(norm):
            run.add("shell.recursive-delete", code.span, f"{inv.name} code deletes {norm}",
                    None)
    for path, start, _end in written_paths(text, language=language, relative=True):
        cwd = _cwd_at(run, starts, start)
        if cwd is not None and path[:1] not in "/~":
            check_write(run.add, run.cp.paths, Field(path, code.span), cwd,
                        f"{inv.name} code writes")


def _chdirs(toks: list[Tok]) -> list[tuple[int, str]]:
    """(token index, directory) of the code's own moves to a literal directory:
    ``os.chdir("/etc")``, ``Dir.chdir("/etc")``, ``process.chdir(..)``, Perl ``chdir "/etc"``
    (at most 8)."""
    out: list[tuple[int, str]] = []
    n = len(toks)
    for k, tok in enumerate(toks):
        if tok[0] != "name" or tok[1] != "chdir":
            continue
        j = k + 2 if k + 1 < n and toks[k + 1][1] == "(" else k + 1
        if j < n and toks[j][0] == "str":
            out.append((k, toks[j][1]))
            if len(out) >= 8:
                break
    return out


def _cwd_at(run: Run, moves: list[tuple[int, str]], k: int) -> str | None:
    """The code's working directory at position ``k`` (a token index, or a text offset:
    as ``moves`` are given): the shell's, then each move before."""
    cwd = run.cwd
    for at, path in moves:
        if at >= k:
            break
        cwd = norm_path(path, cwd) if path[:1] in "/~" or cwd is not None else None
    return cwd


def _evaluated(run: Run, code: Field, text: str, language: str, inv: Invocation,
               interp: Interp) -> None:
    """``exec("..")``, ``eval "..."``: the constant string is code of the same language."""
    for source in eval_literals(text, language):
        run.budget -= len(source) + 32
        if run.code_depth >= 12 or run.budget < 0:
            run.add("shell.nesting-too-deep", code.span, "nested code deeper or larger than "
                    "the classifier follows", None)
            return
        run.code_depth += 1  # each string is shorter than the code holding it
        try:
            interp(run, Field(source, code.span, code.taint), language, inv)
        finally:
            run.code_depth -= 1


def _line_runner(run: Run, code: Field, text: str, language: str, inv: Invocation,
                 stdin: Flow | None) -> None:
    """A loop handing each input line to a shell call: the input is shell code."""
    kind, files = line_operands(inv.args, code, text, language)
    if kind is None:
        return
    from ._sinks import script_sink, stdin_sink  # _sinks imports this module

    if stdin is not None:
        stdin_sink(run, stdin, inv, language=kind)
    for f in files:
        script_sink(run, f, inv, None, shell=kind == "sh")
    if stdin is None and not files:
        run.add("shell.dynamic-code", code.span, f"{inv.name} code runs its input as "
                + ("shell commands" if kind == "sh" else f"{language} code"), None)


# File calls whose first path argument is read or copied (the last name of the callee).
_FILE_CALLS = frozenset({"open", "fopen", "file_get_contents", "file", "readfile",
                         "readfilesync", "createreadstream", "read_text", "read_bytes", "path",
                         "purepath", "read", "readlines", "copy", "copyfile", "copy2",
                         "copyfilesync", "cp", "cpsync", "move", "rename", "renamesync",
                         "slurp", "read_file", "binread", "foreach", "sysopen", "loadtxt",
                         "read_csv", "lines", "new", "copytree", "make_archive", "add",
                         "write", "readlink", "stat"})


def _callee(toks: list[Tok], k: int) -> tuple[str, int]:
    """The last name of the call whose argument list holds token ``k``, and which argument
    (0 first); ("", -1) when ``k`` is not in a call's parentheses (24 tokens back at most)."""
    depth = 0
    index = 0
    for j in range(k - 1, max(-1, k - 24), -1):
        t = toks[j]
        if t[0] != "op":
            continue
        if t[1] in ")]}":
            depth += 1
        elif t[1] in "([{":
            if depth == 0:
                if t[1] != "(" or j == 0 or toks[j - 1][0] != "name":
                    return "", -1
                return toks[j - 1][1].lower(), index
            depth -= 1
        elif t[1] == "," and depth == 0:
            index += 1
    return "", -1


def _relative_files(run: Run, code: Field, toks: list[Tok], language: str,
                    inv: Invocation, moves: list[tuple[int, str]]) -> None:
    """Relative paths of file calls resolved against the shell's working directory:
    ``cd ~/.ssh && node -e 'fs.readFileSync("id_rsa")'`` reads ``~/.ssh/id_rsa``."""
    seen = 0
    for k, tok in enumerate(toks):
        if tok[0] != "str" or k == 0 or toks[k - 1][1] not in ("(", ","):
            continue
        value = tok[1]
        if language == "perl":
            value = value.lstrip("<+> ")
        if not value or value[0] in "/~-" or len(value) > 255 or DYN in value or \
                "://" in value or "|" in value or any(c.isspace() for c in value):
            continue
        seen += 1  # at most 64 calls looked up
        if seen > 64:
            return
        name, index = _callee(toks, k)
        if name not in _FILE_CALLS or index > (2 if language == "perl" else 0):
            continue
        cwd = _cwd_at(run, moves, k)
        if cwd is not None:
            check_args(run.add, run.cp.paths, inv.name, [Field(value, code.span)], cwd)


# Calls and methods that list a directory (recursively or not), by last name.
_WALKERS = frozenset({"rglob", "glob", "iglob", "walk", "iterdir", "listdir", "scandir",
                      "find", "readdirsync", "readdir", "children", "each_child", "entries",
                      "recursivedirectoryiterator", "directoryiterator", "globsync", "sync",
                      "finddepth", "walkdir", "walksync"})
_DELETERS = frozenset({"unlink", "unlinksync", "remove", "rmtree", "rmdir", "rmsync",
                       "rmdirsync", "rm", "rm_rf", "rm_r", "rm_f", "delete", "removedirs",
                       "rimraf", "unlink!", "remove_dir_all", "remove_file", "removesync"})
# Words of a filter that narrows a walk to some files: a cleanup, not a wipe.
_NARROWING = ("endswith", "suffix", "fnmatch", ".match(", "extname", "=~", "preg_match",
              "startswith", "str_ends_with", "end_with?", "start_with?", "include?",
              "re.search", "re.match", ".test(", "includes(", "/\\.", "mtime", "st_size",
              "getmtime", "stat(")


def _narrow(pattern: str) -> bool:
    """A glob pattern that picks some names (``*.pyc``), not all (``*``, ``**/*``, ``.*``)."""
    last = pattern.rstrip("/").rsplit("/", 1)[-1]
    return bool(last.strip("*.")) and last not in ("**",)


def _walk_root(value: str, cwd: str | None) -> str | None:
    """The directory a walk literal names (``~/**/*`` -> ``~``), when critical."""
    root = value
    while root.endswith(("/*", "/**", "/.*")):
        root = root.rsplit("/", 1)[0]
    if root != value and _narrow(value):
        return None
    path = norm_path(root or "/", cwd)
    return path if path is not None and is_critical(path) else None


def _home_walk(run: Run, code: Field, text: str, toks: list[Tok], inv: Invocation,
               moves: list[tuple[int, str]]) -> None:
    lowered = text.lower()
    if not any(d in lowered for d in ("unlink", "remove", "rm", "delete")) or any(
            w in lowered for w in _NARROWING):
        return
    if not any(t[0] == "name" and t[1].lstrip("@&").lower() in _DELETERS for t in toks):
        return
    n = len(toks)
    for k, tok in enumerate(toks[:2048]):
        if tok[0] != "str":
            continue
        root: str | None = None
        if k + 3 < n and toks[k + 1][1] == "." and toks[k + 2][1].lower() in _WALKERS and \
                toks[k + 3][1] == "(":
            # "~".rglob("*"): a Path (spelled as a literal by _langpaths) walked.
            pattern = toks[k + 4][1] if k + 4 < n and toks[k + 4][0] == "str" else ""
            if not _narrow(pattern):
                root = _walk_root(tok[1], _cwd_at(run, moves, k))
        else:
            name, _index = _callee(toks, k)
            if name in _WALKERS:
                root = _walk_root(tok[1], _cwd_at(run, moves, k))
        if root is not None:
            run.add("shell.recursive-delete", code.span, f"{inv.name} code walks {root} and "
                    "deletes what it finds", None)
            return
