"""Interpreter code that reaches the shell's targets through language APIs, not shell strings.

* :func:`spell_paths` rewrites the expressions a language spells the home directory with
  (``os.path.expanduser('~')``, ``Path.home()``, ``os.homedir()``, ``process.env.HOME``,
  ``$ENV{HOME}``, ``Dir.home``, ``ENV['HOME']``, ``getenv('HOME')``...) as the literal ``"~"``,
  unwraps path spellers around a literal (``expanduser('~/x')``, ``str('~')``) and folds a
  path join of literals (``os.path.join('~', '.ssh')``) into one literal, so the literal
  scanners of ``_code`` see ``shutil.rmtree("~")`` and ``["rm", "-rf", "~"]``.
* :func:`argv_commands` reads list-form process calls whose arguments are not all literals
  (``subprocess.run(['rm', '-rf', x])``, ``execFileSync('rm', ['-rf', dir])``, Perl
  ``system("rm", "-rf", $d)``) and the ``exec*``/``spawn*`` families whose list starts with
  argv[0] (``os.execvp('sh', ['sh', '-c', CMD])``): the argv they run, an unknown argument
  standing as unknown (``DYN``), so ``rm -rf <unknown>`` warns like ``rm -rf "$x"``.
* :func:`env_sent` finds the whole environment (``os.environ``, ``process.env``, ``%ENV``,
  ``ENV.to_h``, ``getenv()``) given to a network call (``urlopen(u, data=..)``,
  ``requests.post``, ``fetch(u, {body: ..})``), directly or through one variable.
* :func:`fork_loop` finds a process-creating call inside an unbounded loop (``fork while 1``,
  ``while True: os.fork()``, ``loop { fork }``, ``for(;;) pcntl_fork()``).

Only static text is read; every scan is linear (bounded windows, bounded occurrence counts).
"""

from __future__ import annotations

import bisect
import re

from ._code import _CALLS_COMMON, _CALLS_NOT_PYTHON, literals
from ._words import DYN

__all__ = ["argv_commands", "env_sent", "fork_loop", "spell_paths"]

_HOME = '"~"'
_MAX_HITS = 32

# Method or call tails that are the home directory whatever the chain before them holds
# (``require('os').homedir()``, ``pathlib.Path.home()``): tail -> names the chain may end in.
_HOME_TAILS: tuple[tuple[str, frozenset[str] | None], ...] = (
    (".homedir()", None), ("homedir()", None), (".home()", frozenset({"path", "dir"})),
    ("Dir.home", None), ("File::HomeDir->my_home", None), ("get_home_dir()", None),
    ("$ENV{HOME}", None), ("process.env.HOME", None), ("process.env.USERPROFILE", None),
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


def _chain_back(code: str, end: int) -> int:
    """Start of the dotted name chain ending at ``end``, skipping balanced ``(..)`` groups
    (``require('os')`` in ``require('os').homedir``); bounded to 160 characters."""
    floor = max(0, end - 160)
    j = end
    while j > floor:
        c = code[j - 1]
        if c.isalnum() or c in "_$.:":
            j -= 1
        elif c == ">" and j - 2 >= floor and code[j - 2] == "-":
            j -= 2
        elif c == ")" and j < len(code) and code[j] in ".-":
            depth = 0
            k = j
            while k > floor:
                k -= 1
                if code[k] == ")":
                    depth += 1
                elif code[k] == "(":
                    depth -= 1
                    if depth == 0:
                        break
            if depth != 0:
                return j
            j = k
        else:
            break
    return j


def _name_before(code: str, pos: int) -> tuple[str, int]:
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
        edits.append((begin, close + 1, _HOME))
    return edits


def _apply(code: str, edits: list[tuple[int, int, str]]) -> str:
    if not edits:
        return code
    edits.sort()
    out: list[str] = []
    last = 0
    for start, end, text in edits:
        if start < last:
            continue  # overlapping: the first (outermost-starting) edit wins
        out.append(code[last:start])
        out.append(text)
        last = end
    out.append(code[last:])
    return "".join(out)


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


_JS = frozenset({"node", "deno", "bun"})


def _interpolated(expr: str, language: str) -> str:
    """What an interpolated expression stands for in a string: ``~`` for the home
    directory, else a value not known statically."""
    return "~" if spell_paths(expr, language).strip() in (_HOME, "'~'") else DYN


def _templates(code: str, language: str) -> str:
    """JavaScript template literals (`` `rm -rf ${os.homedir()}` ``) and Python f-strings
    (``f"rm -rf {path}"``) as plain double-quoted literals, each interpolation written as
    ``~`` (the home directory) or ``DYN`` (unknown). Linear: one pass, bounded segments."""
    out: list[str] = []
    last = 0
    n = len(code)
    if language in _JS:
        i = code.find("`")
        while i != -1 and len(out) < 256:
            j = i + 1
            buf: list[str] = []
            while j < n:
                c = code[j]
                if c == "\\" and j + 1 < n:
                    buf.append(code[j:j + 2])
                    j += 2
                    continue
                if c == "`":
                    break
                if c == "$" and code[j + 1:j + 2] == "{":
                    close = code.find("}", j + 2, j + 2 + 400)
                    if close == -1:
                        break
                    buf.append(_interpolated(code[j + 2:close], language))
                    j = close + 1
                    continue
                buf.append(c)
                j += 1
            if j >= n or code[j] != "`":
                break
            text = "".join(buf).replace('"', '\\"')
            out.append(code[last:i])
            out.append('"' + text + '"')
            last = j + 1
            i = code.find("`", last)
    else:
        for start, end, value in literals(code, False)[:512]:
            if value[:1] not in "'\"" or start == 0 or code[start - 1] not in "fF" or (
                    start > 1 and (code[start - 2].isalnum() or code[start - 2] == "_")
                    and code[start - 2] not in "rR"):
                continue
            body = code[start + 1:end - 1]
            if "{" not in body:
                continue
            buf = []
            k = 0
            while k < len(body):
                c = body[k]
                if c in "{}" and body[k + 1:k + 2] == c:
                    buf.append(c)
                    k += 2
                    continue
                if c == "{":
                    close = body.find("}", k + 1, k + 401)
                    if close == -1:
                        break
                    buf.append(_interpolated(body[k + 1:close].split("!", 1)[0]
                                             .split(":", 1)[0], language))
                    k = close + 1
                    continue
                buf.append(c)
                k += 1
            out.append(code[last:start - 1])
            out.append(code[start] + "".join(buf) + code[start])
            last = end
    if not out:
        return code
    out.append(code[last:])
    return "".join(out)


def spell_paths(code: str, language: str) -> str:
    """``code`` with its home-directory expressions, path spellers and literal path joins
    written as plain literals (template literals and f-strings as plain literals too);
    ``code`` itself when it holds none (the common case)."""
    if len(code) > 20000:
        return code
    if (language in _JS and "`" in code) or (language == "python" and ("f'" in code or
                                                                       'f"' in code)):
        code = _templates(code, language)
    if not any(g in code for g in _HOME_GATE):
        return code
    for _ in range(3):  # join(expanduser('~'), '.ssh'): inner rewrites enable outer ones
        edits = _home_edits(code, language)
        new = _apply(code, edits)
        new = _apply(new, _unwrap(new, language))
        if "+" in new or "/" in new or (language in ("perl", "php") and "." in new):
            new = _apply(new, _concat(new, language))
        if new == code:
            break
        code = new
    return code


# Process calls taking an argument vector, by how it is laid out:
#   "list": CALL([argv...]) or CALL(prog, [args...]) or CALL(argv...)
#   "v": CALL(path, [argv0, args...])          (execv, execvp, posix_spawn)
#   "l": CALL(path, argv0, args...)            (execl, execlp)
#   "sv"/"sl": spawnv/spawnl with a mode first
_ARGV_CALLS = {
    "run": "list", "call": "list", "check_call": "list", "check_output": "list",
    "Popen": "list", "create_subprocess_exec": "list", "system": "list", "exec": "list",
    "spawn": "list", "spawnSync": "list", "execFile": "list", "execFileSync": "list",
    "execa": "list", "execaSync": "list", "pcntl_exec": "list", "proc_open": "list",
    "capture2": "list", "capture3": "list", "capture2e": "list", "popen3": "list",
    "popen": "list", "pipeline_r": "list",
    "execv": "v", "execvp": "v", "execve": "v", "execvpe": "v", "posix_spawn": "v",
    "posix_spawnp": "v", "execl": "l", "execlp": "l", "execle": "l", "execlpe": "l",
    "spawnv": "sv", "spawnvp": "sv", "spawnve": "sv", "spawnvpe": "sv", "spawnl": "sl",
    "spawnlp": "sl", "spawnle": "sl", "spawnlpe": "sl",
}
# NAME( or, for Perl and Ruby, NAME "literal": one alternation (no nested quantifiers).
_CALL_RE = re.compile(r"(?<![\w$])(" + "|".join(sorted(_ARGV_CALLS, key=len, reverse=True))
                      + r")(?!\w)[ \t]{0,8}(?:(\()|(?=[\"']))")
_READ = frozenset(_CALLS_COMMON + _CALLS_NOT_PYTHON)  # lists of literals _code joins itself
_PY_EXEC_SHELL = frozenset({"exec"})  # Python's exec() runs Python code, not a program


def _elements(code: str, pos: int, lits: dict[int, tuple[int, str]], bare: bool
              ) -> tuple[list[object], int]:
    """Top-level elements from ``pos`` to the closing bracket (or, ``bare``, to the end of
    the statement): each a literal's value, a nested list of elements, or ``DYN``. Keyword
    arguments (``shell=True``) and option objects (``{stdio: 'inherit'}``) are left out:
    they are not argv words."""
    out: list[object] = []
    cur: list[object] = []
    keyword = False
    n = len(code)
    j = pos
    limit = min(n, pos + 1000)
    while j < limit and len(out) < 64:
        c = code[j]
        if j in lits:
            end, value = lits[j]
            cur.append(value)
            j = end
            continue
        if c == "[":
            inner, j = _elements(code, j + 1, lits, False)
            cur.append(inner)
            continue
        if c in "({":
            if c == "{" and not cur:
                keyword = True  # an options object
            depth = 1
            j += 1
            cur.append(DYN)
            while j < limit and depth:
                if j in lits:
                    j = lits[j][0]
                    continue
                depth += {"(": 1, "{": 1, "[": 1, ")": -1, "}": -1, "]": -1}.get(code[j], 0)
                j += 1
            continue
        if c == ",":
            if cur and not keyword:
                out.append(_element(cur))
            cur = []
            keyword = False
        elif c in ")]}" or (bare and c in ";\n"):
            break
        elif c == "#" and bare:
            break
        elif c == "=" and code[j + 1:j + 2] not in ("=", ">") and code[j - 1:j] not in "=!<>":
            keyword = True  # shell=True, check=True
        elif not c.isspace():
            cur.append(DYN)
        j += 1
    if cur and not keyword:
        out.append(_element(cur))
    return out, j + 1


def _element(parts: list[object]) -> object:
    """One element: a lone literal or list; anything else (a name, a call, a concatenation,
    an f-string) is not known statically."""
    return parts[0] if len(parts) == 1 else DYN


def _words(items: list[object]) -> list[str] | None:
    out: list[str] = []
    for item in items:
        if isinstance(item, str):
            out.append(item)
        else:
            return None if not out else [*out, DYN]
    return out


def _join(argv: list[str]) -> str:
    out: list[str] = []
    for v in argv:
        if v == DYN:
            out.append(DYN)
        elif v and all(c.isalnum() or c in "._/~*:=@%+,-" for c in v):
            out.append(v)
        else:
            out.append("'" + v.replace("'", "'\\''") + "'")
    return " ".join(out)


def argv_commands(code: str, language: str) -> list[str]:
    """Shell command lines for the list-form process calls of ``code`` that the literal
    scanner cannot read (an unknown argument, or an argv[0] to drop); an unknown argument
    is ``DYN``. At most 16 commands from at most 32 calls; linear in ``code``."""
    if len(code) > 20000:
        return []
    first = _CALL_RE.search(code)
    if first is None:
        return []
    raw = literals(code, language in ("perl", "ruby", "php"))[:1024]
    lits = {s: (e, v[1:]) for s, e, v in raw if v[:1] != "`"}
    out: list[str] = []
    calls = 0  # calls read: bounded work on hostile code
    for m in _CALL_RE.finditer(code, first.start()):
        name = m.group(1)
        if language == "python" and name in _PY_EXEC_SHELL:
            continue
        k = m.end()
        if m.group(2):
            items, _ = _elements(code, k, lits, False)
        elif language in ("perl", "ruby") and k > m.end(1) and k in lits:
            items, _ = _elements(code, k, lits, True)  # system "rm", "-rf", $d
        else:
            continue
        calls += 1
        argv = _argv(items, _ARGV_CALLS[name])
        if argv is not None and (DYN in argv or _ARGV_CALLS[name] != "list" or
                                 name not in _READ):
            out.append(_join(argv))
        if len(out) >= 16 or calls >= 32:
            break
    return out


def _argv(items: list[object], shape: str) -> list[str] | None:
    """The argv a call with these top-level elements runs, or None when its program is not
    a literal (or the call is a shell string, which ``_code`` reads)."""
    if shape in ("sv", "sl"):
        items = items[1:]  # the mode (os.P_WAIT)
        shape = shape[1]
    if not items:
        return None
    first = items[0]
    if isinstance(first, list):
        return _words(first) if shape == "list" and first and isinstance(first[0], str) \
            and first[0] != DYN else None
    if not isinstance(first, str) or first == DYN:
        return None
    rest = items[1:]
    if shape == "v":
        vec = rest[0] if rest and isinstance(rest[0], list) else None
        tail = _words(vec[1:]) if vec else []
        return [first, *(tail or [])] if vec is not None else None
    if shape == "l":
        tail = _words(rest[1:])
        return [first, *(tail or [])]
    if rest and isinstance(rest[0], list):
        tail = _words(rest[0])  # execFileSync('rm', ['-rf', d]), pcntl_exec
        return [first, *(tail or [])]
    if len(rest) == 0:
        return None  # a single string: a shell command line, read by _code
    tail = _words(rest)
    return [first, *(tail or [])]


# The whole environment, by language: the expression and what may not follow it (a lookup
# of one variable is not the environment).
_ENV_DUMPS = (("os.environ", ("[", ".get", ".setdefault", ".pop", ".update", ".__", " =",
                              "=")),
              ("process.env", (".", "[", " =", "=")),
              ("%ENV", ()), ("\\%ENV", ()), ("ENV.to_h", ()), ("ENV.to_a", ()),
              ("ENV.to_hash", ()), ("ENV.inspect", ()), ("ENV.map", ()), ("ENV.each", ()),
              ("getenv()", ()), ("$_ENV", ("[",)), ("$_SERVER", ("[",)),
              ("environ.copy()", ()), ("Deno.env.toObject()", ()))
# Network calls (last name of the callee) that send their arguments.
_SENDERS = frozenset({"urlopen", "Request", "post", "put", "patch", "request", "fetch",
                      "sendall", "sendto", "send", "get", "post_form", "ajax", "axios",
                      "got", "file_get_contents", "curl_setopt", "urlencode", "write", "end"})
_NET_GATE = ("urllib", "urlopen", "requests", "httpx", "http", "fetch(", "axios", "socket",
             "lwp", "LWP", "HTTP::Tiny", "Net::HTTP", "curl_", "got(", "aiohttp", "smtplib",
             "ftplib", "Net::")


def _env_spots(code: str) -> list[int]:
    spots: list[int] = []
    for expr, not_after in _ENV_DUMPS:
        at = code.find(expr)
        hits = 0
        while at != -1 and hits < _MAX_HITS:
            hits += 1
            end = at + len(expr)
            after = code[end:end + 12]
            before = code[max(0, at - 8):at].replace(" ", "")
            if not (after[:1].isalnum() or after[:1] == "_") and not any(
                    after.startswith(x) for x in not_after) and not before.endswith(
                    ("env=", "env:", "environ=", "=>")):
                spots.append(at)
            at = code.find(expr, end)
    return spots


def _statement_var(code: str, pos: int) -> str | None:
    """``NAME = ...<pos>`` on the statement holding ``pos``: NAME."""
    floor = max(0, pos - 200)
    start = max(code.rfind(";", floor, pos), code.rfind("\n", floor, pos)) + 1
    head = code[start:pos].lstrip(" \t")
    for kw in ("const ", "let ", "var ", "my ", "local "):
        head = head.removeprefix(kw)
    name, eq, _ = head.partition("=")
    name = name.strip(" \t")
    if eq and name and all(c.isalnum() or c in "_$" for c in name):
        return name
    return None


def env_sent(code: str) -> bool:
    """True when the whole environment is an argument of a network call, directly
    (``requests.post(u, json=dict(os.environ))``) or through a variable
    (``d = json.dumps(dict(os.environ)); urlopen(u, d.encode())``)."""
    if len(code) > 20000 or not any(g in code for g in _NET_GATE):
        return False
    spots = _env_spots(code)
    if not spots:
        return False
    names = {n for n in (_statement_var(code, s) for s in spots[:8]) if n}
    at = code.find("(")
    hits = 0
    sends = 0
    while at != -1 and hits < 256 and sends < 24:
        hits += 1
        name, _ = _name_before(code, at)
        short = name.rsplit(".", 1)[-1].rsplit("->", 1)[-1].rsplit("::", 1)[-1]
        if short in _SENDERS:
            sends += 1
            depth = 0
            j = at
            limit = min(len(code), at + 2000)
            while j < limit:
                ch = code[j]
                depth += 1 if ch in "([{" else -1 if ch in ")]}" else 0
                if depth == 0:
                    break
                j += 1
            region = code[at:j]
            if any(at < s < j for s in spots):
                return True
            for var in names:
                k = region.find(var)
                for _ in range(16):
                    if k == -1:
                        break
                    if not (region[k - 1:k].isalnum() or region[k - 1:k] in ("_", "$")) \
                            and not (region[k + len(var):k + len(var) + 1].isalnum()
                                     or region[k + len(var):k + len(var) + 1] == "_"):
                        return True
                    k = region.find(var, k + 1)
        at = code.find("(", at + 1)
    return False


# Unbounded loop headers (spaces removed, lowercased) and the fork calls they may hold.
_LOOPS = ("while1:", "whiletrue:", "while(1)", "while(true)", "while1{", "whiletrue{",
          "whiletruedo", "while1do", "for(;;)", "loop{", "loopdo", "while:", "until0",
          "untilfalse", "do{")
_FORKS = ("fork(", "fork;", "fork}", "forkend", "forkwhile", "fork\n", "fork)")
_MODIFIERS = ("forkwhile1", "forkwhile(1)", "forkwhiletrue", "forkwhile(true)",
              "forkuntil0", "forkuntil(0)", "forkuntilfalse", "1whilefork", "forkwhile!0",
              "forkwhilefork", "forkforever", "forkwhile\"1\"")


def fork_loop(code: str) -> bool:
    """True when ``code`` creates processes in a loop that never ends: ``fork while 1``,
    ``while True: os.fork()``, ``loop { fork }``, ``for(;;) pcntl_fork();``."""
    lowered = code.lower()
    if "fork" not in lowered or len(code) > 20000:
        return False
    squeezed = "".join(lowered.split(" ")).replace("\t", "")
    flat = squeezed.replace("\n", "")
    if any(m in flat for m in _MODIFIERS):
        return True
    for loop in _LOOPS:
        at = flat.find(loop)
        hits = 0
        while at != -1 and hits < _MAX_HITS:
            hits += 1
            window = flat[at + len(loop):at + len(loop) + 24]
            k = window.find("fork")
            if k != -1 and "break" not in window[:k] and "=" not in window[:k].replace(
                    "$pid=", "").replace("pid=", ""):
                tail = window[k:] + "\n"
                if any(tail.startswith(f) for f in _FORKS) or tail.startswith("fork"):
                    return True
            at = flat.find(loop, at + 1)
    return False
