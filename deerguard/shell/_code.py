"""Looking inside code the shell hands to other languages, and inside raw text.

Interpreters (``python -c``, ``perl -e``, ``awk '{system(...)}'``...) run shell commands
through a handful of calls; :func:`shell_strings` finds the string literals given to those
calls so the classifier can parse them as shell (risky path markers in text that is not
shell, or that did not parse, are :mod:`._rawmarkers`'s). Single linear passes: no
backtracking regular expressions run over hostile text (only single-character-class
searches).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from dataclasses import dataclass

from ._barecalls import bare_dynamic_call
from ._gate import word_gate
from ._receiver import data_call

__all__ = ["Snippet", "destructive_paths", "dynamic_call", "eval_sources", "literals",
           "shell_strings", "tcl_commands", "written_paths"]


@dataclass(frozen=True, slots=True)
class Snippet:
    """A shell command string found in another language's code, with its offsets there."""

    text: str
    start: int
    end: int
    pipe_in: bool = False  # awk ``print | "cmd"``: the program's output is the command's stdin


# Calls whose (first) string argument is a shell command, by language family. ``exec`` is
# Python code in Python, a shell command in PHP, Ruby, Perl and Node's child_process.
_CALLS_COMMON = ("system", "popen", "spawn", "spawnSync", "execSync", "shell_exec",
                 "passthru", "proc_open", "check_output", "check_call", "call", "run",
                 "Popen", "getoutput", "getstatusoutput", "capture2", "capture3",
                 "capture2e", "popen3", "pipe_open", "qx", "execute", "execv", "execvp",
                 "execvpe", "execl", "execlp", "execle", "execve", "spawnl", "spawnlp",
                 "spawnv", "spawnvp", "execFileSync", "execa", "execaSync", "check_call")
_CALLS_NOT_PYTHON = ("exec", "execFile")


def _calling(names: tuple[str, ...]) -> re.Pattern[str]:
    """``NAME(`` for any of ``names`` (call and run aside: a non-literal argument to them
    does not make code dynamic). One pass finds every ``(`` that ends an occurrence of
    some ``NAME(``: each holds a single ``(``, at its end, so occurrences can only overlap
    when they end at the same ``(`` (as ``shell_exec(`` and ``exec(`` do), and the check
    reads only what follows that ``(``."""
    kept = dict.fromkeys(re.escape(n + "(") for n in names if n not in ("call", "run"))
    return re.compile("|".join(kept))


_CALLING = _calling(_CALLS_COMMON)
_CALLING_NOT_PYTHON = _calling(_CALLS_COMMON + _CALLS_NOT_PYTHON)
_CALLING_OSASCRIPT = _calling((*_CALLS_COMMON, *_CALLS_NOT_PYTHON, "script"))


_STARTS = re.compile(r"['\"#]")  # what can open a literal or a comment
_STARTS_BACKTICK = re.compile(r"['\"`]")
_ENDS = {q: re.compile("[\\\\" + q + "]") for q in "'\"`"}  # a backslash or the closing quote
_UNESCAPE = {"n": "\n", "t": "\t"}


@functools.lru_cache(maxsize=4)
def _literals(code: str, backtick: bool) -> tuple[tuple[int, int, str], ...]:
    """Return (start, end, value) of each quoted literal; unescapes ``\\x`` as ``x``.

    Linear: each step jumps (C-level search, single character classes) to the next
    character that matters. Cached (a few entries): one interpreter's code is scanned by
    :func:`shell_strings`, :func:`destructive_paths` and :func:`written_paths` in turn.
    """
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(code)
    starts = _STARTS_BACKTICK if backtick else _STARTS
    while True:
        m = starts.search(code, i)
        if m is None:
            break
        i = m.start()
        ch = code[i]
        if ch == "#":
            if i == 0 or code[i - 1] in " \t\n;":
                # A comment (Python/Ruby/Perl/awk): skip to the end of the line.
                nl = code.find("\n", i)
                i = n if nl < 0 else nl
            else:
                i += 1
            continue
        ends = _ENDS[ch]
        j = i + 1
        buf: list[str] = []
        while True:
            e = ends.search(code, j)
            if e is None:
                buf.append(code[j:])
                j = n
                break
            k = e.start()
            buf.append(code[j:k])
            if code[k] != "\\":
                j = k  # the closing quote
                break
            if k + 1 < n:
                nxt = code[k + 1]
                buf.append(_UNESCAPE.get(nxt, nxt))
                j = k + 2
            else:
                buf.append("\\")
                j = n
                break
        out.append((i, min(j + 1, n), ch + "".join(buf)))
        i = j + 1
    return tuple(out)


def literals(code: str, backtick: bool) -> tuple[tuple[int, int, str], ...]:
    """(start, end, opening quote + value) of each quoted literal in ``code``."""
    return _literals(code, backtick)


def _ident_before(code: str, pos: int) -> str:
    """The identifier (dots allowed) ending right before ``pos`` (spaces skipped)."""
    j = pos
    while j > 0 and code[j - 1] in " \t":
        j -= 1
    end = j
    while j > 0 and (code[j - 1].isalnum() or code[j - 1] in "_.:"):
        j -= 1
    return code[j:end].rsplit(".", 1)[-1].rsplit(":", 1)[-1]


# Calls that only spell a path (os.path.expanduser('~')): the call around them is the one
# that acts on it (shutil.rmtree(os.path.expanduser('~')), open(Path('~/.x'), 'a')).
_PATH_WRAPPERS = frozenset({"expanduser", "expandvars", "abspath", "realpath", "normpath",
                            "fspath", "resolve"})


def _call_of(code: str, start: int) -> tuple[str, int]:
    """The call a literal at ``start`` is the argument of, seen through path wrappers; and
    the offset where that wrapper chain's opening parentheses begin."""
    j = start
    call = ""
    for _ in range(4):
        while j > 0 and code[j - 1] in " \t([":
            j -= 1
        call = _ident_before(code, j)
        if call not in _PATH_WRAPPERS:
            return call, j
        k = j
        while k > 0 and code[k - 1] in " \t":
            k -= 1
        while k > 0 and (code[k - 1].isalnum() or code[k - 1] in "_.:"):
            k -= 1
        j = k
    return call, j


_BARE_WORD = re.compile(r"[\w./~*:=@%+,-]+")  # a word that needs no quoting in a shell


def _argv_join(values: list[str]) -> str:
    """An argument vector as one shell command: ``['sh', '-c', 'rm -rf ~']`` keeps its
    third element as one word (``~`` and globs stay unquoted: they name the same paths)."""
    if len(values) == 1:
        return values[0]
    out: list[str] = []
    for v in values:
        if _BARE_WORD.fullmatch(v):
            out.append(v)
        else:
            out.append("'" + v.replace("'", "'\\''") + "'")
    return " ".join(out)


def shell_strings(code: str, /, *, language: str) -> tuple[list[Snippet], bool]:
    """Find shell command strings in ``code``; also say whether a shell call had no literal.

    ``language`` is ``python``, ``perl``, ``ruby``, ``node``, ``php``, ``awk`` or another
    interpreter name. Lists of literals (``subprocess.run(["rm", "-rf", "/"])``) are joined
    with spaces. The second value is true when a shell-running call takes a non-literal
    argument (dynamic code). Linear in ``len(code)``.
    """
    backtick = language in ("perl", "ruby", "php", "julia")  # julia: run(`cmd`)
    calls: tuple[str, ...] = _CALLS_COMMON if language == "python" else \
        _CALLS_COMMON + _CALLS_NOT_PYTHON
    if language == "osascript":
        calls = (*calls, "script")  # do shell script "cmd"
    lits = _literals(code, backtick)
    out: list[Snippet] = []
    group: list[tuple[int, int, str]] = []
    in_list = False

    def flush() -> None:
        if group:
            text = _argv_join([v[1:] for _, _, v in group])
            out.append(Snippet(text, group[0][0], group[-1][1]))
            group.clear()

    prev_end = 0
    for start, end, value in lits:
        between = code[prev_end:start]
        prev_end = end
        if value[0] == "`":
            flush()
            in_list = False
            out.append(Snippet(value[1:], start, end))
            continue
        gap = between.strip()
        if in_list and gap.replace(" ", "").replace("\t", "") in (",", ",[", "],", "],[", "]+["):
            group.append((start, end, value))
            continue
        flush()
        in_list = False
        if language == "awk":
            after = code[end:end + 20].lstrip()
            if gap.endswith("|"):
                out.append(Snippet(value[1:], start, end, pipe_in=True))
            elif after.startswith("|") and not after.startswith("||"):
                out.append(Snippet(value[1:], start, end))
            elif gap.endswith("(") and _ident_before(
                    code, start - len(between) + between.rindex("(")) == "system":
                out.append(Snippet(value[1:], start, end))
            continue
        if language in ("perl", "ruby", "osascript") and between[-1:] in (" ", "\t") and \
                _ident_before(code, start) in calls and not data_call(code, start):
            group.append((start, end, value))  # perl/ruby: system "cmd" or exec "rm", "/"
            in_list = True
            continue
        tail = gap.replace(" ", "").replace("\t", "")
        if tail.endswith(("cmd:[", "cmd=[", "args:[")) and language in ("node", "deno", "bun"):
            group.append((start, end, value))  # Deno.run({cmd: ["rm", "-rf", "/"]})
            in_list = True
            continue
        if tail.endswith(("(", "([")):
            paren = start - len(between) + between.rindex("(")
            ident = _ident_before(code, paren)
            if ident in calls and not data_call(code, paren):
                # Literal arguments that follow are one command: system("rm", "-rf", "/"),
                # subprocess.run(["rm", "-rf", "/"]); popen("cmd", "r") takes a mode after
                # its command string, not another argument.
                group.append((start, end, value))
                in_list = ident != "popen" or tail.endswith("([")
    flush()
    return out, dynamic_call(code, language=language)


def dynamic_call(code: str, /, *, language: str) -> bool:
    """Whether a shell-running call in ``code`` takes a non-literal argument (dynamic
    code): :func:`shell_strings`' second value, without reading the literals' snippets."""
    lits = _literals(code, language in ("perl", "ruby", "php", "julia"))
    calling = _CALLING if language == "python" else _CALLING_NOT_PYTHON \
        if language != "osascript" else _CALLING_OSASCRIPT
    starts = [start for start, _end, _value in lits]
    for m in calling.finditer(code):
        at = bisect_right(starts, m.start()) - 1
        if at >= 0 and m.start() < lits[at][1]:
            continue  # inside a string literal: "qx(...) is text" calls nothing
        if data_call(code, m.end() - 1):
            continue  # cur.execute(sql), $pdo->exec($q), re.exec(line): not a process call
        k = m.end()
        while k < len(code) and code[k] in " \t[":
            k += 1
        if k < len(code) and code[k] not in "'\"`)":
            return True
    return language in ("perl", "ruby") and bare_dynamic_call(code, starts, lits)


_TCL_RUN = frozenset({"exec", "spawn", "system", "open"})


def tcl_commands(code: str, /) -> list[Snippet]:
    """Tcl/expect commands that run programs: ``exec rm -rf ~``, ``spawn sh``,
    ``system cmd``, ``open "|cmd"``; the words up to the end of the Tcl command."""
    out: list[Snippet] = []
    pos = 0
    for piece in code.replace("[", "\n").replace("]", "\n").replace(";", "\n").split("\n"):
        start = pos
        pos += len(piece) + 1
        words = piece.strip().split(None, 1)
        if len(words) < 2 or words[0] not in _TCL_RUN:
            continue
        rest = words[1].strip().strip("{}\"")
        if words[0] == "open":
            if not rest.startswith("|"):
                continue
            rest = rest[1:]
        if rest.startswith("-") and words[0] != "system":
            rest = rest.partition(" ")[2].strip()  # spawn -noecho CMD
        if rest:
            out.append(Snippet(rest, start, pos - 1))
        if len(out) >= 64:
            break
    return out


_DELETE_CALLS = frozenset({"rmtree", "rm_rf", "rm_r", "remove_dir_all", "rmSync", "rmdirSync",
                           "remove_tree", "remove_dir", "remove_entry", "remove_entry_secure", "rm",
                           "removeSync", "emptyDirSync", "emptyDir", "rimraf", "rimrafSync",
                           "unlink", "unlinkSync", "rmdir", "remove", "removedirs", "glob",
                           "delete", "deleteRecursively", "RemoveAll"})


def destructive_paths(code: str, /, *, language: str) -> list[tuple[str, int, int]]:
    """Path literals given to delete calls (``shutil.rmtree("/")``, ``unlink glob "/*"``)."""
    out: list[tuple[str, int, int]] = []
    for start, end, value in _literals(code, language in ("perl", "ruby", "php")):
        if _call_of(code, start)[0] in _DELETE_CALLS:
            out.append((value[1:], start, end))
    return out


_WRITE_CALLS = frozenset({"writeFileSync", "appendFileSync", "writeFile", "appendFile",
                          "file_put_contents", "write_text", "write_bytes", "write",
                          "createWriteStream", "WriteFile", "copyfile", "copy", "copy2",
                          "copyFileSync", "symlink", "symlinkSync", "link", "chmod",
                          "chmodSync", "chown", "truncate"})
_OPEN_CALLS = frozenset({"open", "fopen", "File.open", "sysopen", "Path", "openSync"})


def written_paths(code: str, /, *, language: str, relative: bool = False
                  ) -> list[tuple[str, int, int]]:
    """Path literals another language's code writes: ``open("/etc/x", "a")``,
    ``fs.writeFileSync("~/.bashrc", ...)``, Perl ``open(F, ">>", "/etc/x")`` or
    ``open(F, ">/etc/x")``, ``Path("/etc/x").write_text(...)``. Linear in ``code``.
    """
    out: list[tuple[str, int, int]] = []
    lits = _literals(code, language in ("perl", "ruby", "php"))
    for k, (start, end, value) in enumerate(lits):
        path = value[1:]
        call, _ = _call_of(code, start)
        head = code[max(0, start - 40):start]
        at = head.rfind("open")
        if path.startswith((">", "+>", "+<")) and at != -1 and ")" not in head[at:]:
            out.append((path.lstrip(">+< "), start, end))  # perl open(F, ">>/etc/x")
            continue
        if not path.startswith(("/", "~")) and not (relative and path and " " not in path):
            continue  # relative: only when the caller knows the working directory
        if call in _WRITE_CALLS:
            out.append((path, start, end))
            continue
        if k > 0 and lits[k - 1][2][1:] in (">", ">>", "+<", "+>", "+>>") and \
                not code[lits[k - 1][1]:start].strip(" \t,"):
            out.append((path, start, end))  # perl open(my $f, '>>', '/etc/x')
            continue
        if call in _OPEN_CALLS and k + 1 < len(lits):
            between = code[end:lits[k + 1][0]]
            mode = lits[k + 1][2][1:]
            if between.replace("mode", "").strip(" \t,=:>)") == "" and mode[:1] in "wax" \
                    and mode and all(c in "wabxt+" for c in mode):
                out.append((path, start, end))
                continue
        if call == "Path" and code[end:end + 24].lstrip(") ").startswith(
                (".write_text", ".write_bytes", ".open('w", '.open("w', ".open('a",
                 '.open("a', ".symlink_to", ".chmod")):
            out.append((path, start, end))
    return out


_EVAL_TOKENS = ("exec(", "eval(", "eval ", ".then(eval", "new function(", "instance_eval",
                "module_eval", "execfile(", "loadstring(", "dostring(", "invoke-expression",
                "iex(", "iex ", "|iex", "| iex", "runpy.", "vm.runin", "require_once('http",
                "include('http", "scriptblock]::create", "assembly]::load")
_EVAL_TOKENS_RE = word_gate(_EVAL_TOKENS)
_FETCH_TOKENS = ("urlopen", "requests.get", "requests.post", "httpx.", "urllib.request",
                 "fetch(", "http.get(", "https.get(", "net::http", "open-uri", "uri.open",
                 "file_get_contents('http", 'file_get_contents("http', "curl_exec", "lwp::",
                 "get('http", 'get("http', "downloadstring", "invoke-webrequest", "iwr ",
                 "iwr(", "(iwr", "invoke-restmethod", "irm ", "(irm", "start-bitstransfer",
                 "net.webclient", "socket.http", "http.request(", "axios.",
                 "wget.download", "urlretrieve", "downloaddata(")
_FETCH_TOKENS_RE = word_gate(_FETCH_TOKENS)
_STDIN_TOKENS = ("sys.stdin", "process.stdin", "$stdin", "<stdin>", "php://stdin",
                 "io.read(", "io.stdin", "fileinput.input", "/dev/stdin", "readline(",
                 "input(", "stdin.read", "stdin.gets", "stdin.each", "readfilesync(0",
                 "stream_get_contents(stdin", "fgets(stdin", "arg0.read")
_STDIN_TOKENS_RE = word_gate(_STDIN_TOKENS)


def eval_sources(code: str, /) -> tuple[bool, bool]:
    """(downloads then evaluates, evaluates stdin) for another language's code; linear.

    ``exec(urlopen(u).read())``, ``IEX (iwr u)``, ``eval(file_get_contents('http://u'))``
    are download cradles; ``exec(sys.stdin.read())`` runs whatever is piped in.

    >>> eval_sources("exec(__import__('urllib.request').request.urlopen(u).read())")
    (True, False)
    """
    lowered = code.lower()
    if "literal_eval(" in lowered:  # ast.literal_eval parses a literal and runs nothing
        lowered = lowered.replace("literal_eval(", "literal_parse(")
    if _EVAL_TOKENS_RE.search(lowered) is None:
        return False, False
    return (_FETCH_TOKENS_RE.search(lowered) is not None,
            _STDIN_TOKENS_RE.search(lowered) is not None)
