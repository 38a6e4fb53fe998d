"""Interpreter code that reaches the shell's targets through language APIs, not shell strings.

(Paths spelled by the language, ``os.homedir()`` or ``Path.home()``, are rewritten as literals
first: ``_langpaths``.)

* :func:`argv_commands` reads list-form process calls whose arguments are not all literals
  (``subprocess.run(['rm', '-rf', x])``, ``execFileSync('rm', ['-rf', dir])``, Perl
  ``system("rm", "-rf", $d)``) and the ``exec*``/``spawn*`` families whose list starts with
  argv[0] (``os.execvp('sh', ['sh', '-c', CMD])``): the argv they run, an unknown argument
  standing as unknown (``DYN``), so ``rm -rf <unknown>`` warns like ``rm -rf "$x"``; a
  secret-named variable's look-up stands as that variable (``run(["curl", "-d",
  os.environ["GITHUB_TOKEN"], u])`` is ``curl -d "$GITHUB_TOKEN" u``, judged as such).
* a secret-named variable sent by a network call (:mod:`._codetoken`) warns or blocks.
* :func:`env_sent` finds the whole environment (``os.environ``, ``process.env``, ``%ENV``,
  ``ENV.to_h``, ``getenv()``) given to a network call (``urlopen(u, data=..)``,
  ``requests.post``, ``fetch(u, {body: ..})``), directly or through one variable: it blocks
  as ``shell.exfiltration`` (``env | curl`` in another language).
* :func:`api_findings` also blocks a cloud metadata credential URL in the code
  (``urlopen("http://169.254.169.254/latest/meta-data/iam/security-credentials/")``,
  ``fetch(..)``, ``Net::HTTP.get(..)``: :func:`._metadata.code_metadata`).
* :func:`fork_loop` finds a process-creating call inside an unbounded loop (``fork while 1``,
  ``while True: os.fork()``, ``loop { fork }``, ``for(;;) pcntl_fork()``): a fork bomb.

Only static text is read; every scan is linear (bounded windows, bounded occurrence counts).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._code import _CALLS_COMMON, _CALLS_NOT_PYTHON, literals
from ._codeenv import lookup_ends, pwsh_env_sent
from ._gate import word_gate
from ._langpaths import name_before
from ._metadata import code_metadata
from ._rawmarkers import Marker
from ._receiver import DATA_METHODS, data_receiver
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["api_findings", "argv_commands", "env_sent", "env_spots", "fork_loop"]

_MAX_HITS = 32


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
_ENV_REF = "\x00$"  # an argv element that is a secret variable's look-up (then its name)
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
        elif v.startswith(_ENV_REF) and v[2:].isidentifier():
            out.append(f'"${v[2:]}"')  # the secret variable itself, as the shell sees it
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
    if "env" in code or "ENV" in code:  # run(["curl", "-d", os.environ["TOKEN"], u])
        lits.update({s: (e, _ENV_REF + name) for s, (e, name) in lookup_ends(code).items()})
    out: list[str] = []
    calls = 0  # calls read: bounded work on hostile code
    for m in _CALL_RE.finditer(code, first.start()):
        name = m.group(1)
        if language == "python" and name in _PY_EXEC_SHELL:
            continue
        if name in DATA_METHODS and data_receiver(code, m.start(1)):
            continue  # db.run(sql, [x]), stmt.run(..): a statement, not a process
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
                                 name not in _READ or any(a[:2] == _ENV_REF for a in argv)):
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
              ("environ.copy()", ()), ("Deno.env.toObject()", ()),
              ("`env`", ()), ("`printenv`", ()), ("qx(env)", ()), ("qx{env}", ()),
              ("qx/env/", ()), ("%x(env)", ()), ("popen(\"env\")", ()), ("popen('env')", ()))
# Network calls (last name of the callee) that send their arguments.
_SENDERS = frozenset({"urlopen", "Request", "post", "put", "patch", "request", "fetch",
                      "sendall", "sendto", "send", "get", "post_form", "ajax", "axios",
                      "got", "file_get_contents", "curl_setopt", "urlencode", "write", "end",
                      "sendmail", "send_message", "storbinary", "storlines",
                      "gethostbyname", "gethostbyname_ex", "getaddrinfo", "dns_get_record"})
_NET_GATE = ("urllib", "urlopen", "requests", "httpx", "http", "fetch(", "axios", "socket",
             "lwp", "LWP", "HTTP::Tiny", "Net::HTTP", "curl_", "got(", "aiohttp", "smtplib",
             "ftplib", "Net::", "dns", "gethostbyname", "getaddrinfo", "Resolv", "inet_aton",
             "httr", "URI", "download.file")
_NET_GATE_RE = word_gate(_NET_GATE)


def env_spots(code: str) -> list[int]:
    """Where ``code`` reads the whole environment (not one variable of it, not ``env=``)."""
    spots: list[int] = []
    for expr, not_after in _ENV_DUMPS:
        at = code.find(expr)
        hits = 0
        while at != -1 and hits < _MAX_HITS:
            hits += 1
            end = at + len(expr)
            after = code[end:end + 12]
            before = code[max(0, at - 16):at].replace(" ", "")
            if not (after[:1].isalnum() or after[:1] == "_") and not any(
                    after.startswith(x) for x in not_after) and not _env_option(before):
                spots.append(at)
            at = code.find(expr, end)
    return spots


def _env_option(before: str) -> bool:
    """The text before an environment expression passes it as a child's environment
    (``env=os.environ``, ``{env: process.env}``, ``env => \\%ENV``, ``:env=>ENV.to_h``)."""
    before = before.rstrip("\\(")
    if before.endswith("=>"):
        before = before[:-2].rstrip("\"'")
    elif before.endswith(("=", ":")):
        before = before[:-1].rstrip("\"'")
    else:
        return False
    return before.lower().endswith(("env", "environ", "environment"))


def _statement_var(code: str, pos: int) -> str | None:
    """``NAME = ...<pos>`` (or R's ``NAME <- ...``) on the statement holding ``pos``: NAME."""
    floor = max(0, pos - 200)
    start = max(code.rfind(";", floor, pos), code.rfind("\n", floor, pos)) + 1
    head = code[start:pos].lstrip(" \t")
    for kw in ("const ", "let ", "var ", "my ", "local "):
        head = head.removeprefix(kw)
    arrow = head.find("<-")  # R: x <- readLines(".env")
    name, eq, _ = head.partition("=") if arrow == -1 or "=" in head[:arrow] else \
        head.partition("<-")
    name = name.strip(" \t")
    if eq and name and all(c.isalnum() or c in "_$" for c in name):
        return name
    return None


def env_sent(code: str) -> bool:
    """True when the whole environment is an argument of a network call, directly
    (``requests.post(u, json=dict(os.environ))``) or through a variable
    (``d = json.dumps(dict(os.environ)); urlopen(u, d.encode())``)."""
    if len(code) > 20000 or _NET_GATE_RE.search(code) is None:
        return False
    spots = env_spots(code)
    if not spots:
        return False
    names = {n for n in (_statement_var(code, s) for s in spots[:8]) if n}
    at = code.find("(")
    hits = 0
    sends = 0
    while at != -1 and hits < 256 and sends < 24:
        hits += 1
        name, _ = name_before(code, at)
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


def _token(text: str, raw: str, name: str) -> tuple[str, str] | None:
    """A secret environment variable sent by the code (:mod:`._codetoken`; PowerShell's
    headers: :func:`._pwshenv.header_token`, the rest of PowerShell is translated)."""
    if name.startswith("pw"):
        from ._pwshenv import header_token

        return header_token(text)
    from ._codetoken import token_sent  # late: it imports this module

    return token_sent(text) or (token_sent(raw) if raw != text else None)


def api_findings(run: Run, code: Field, text: str, inv: Invocation,
                 markers: list[Marker]) -> None:
    """The environment sent over the network, and fork loops (unless the raw markers
    already found one), in ``inv``'s code ``text``."""
    from ._codesecrets import secret_file_sent  # late: it imports this module

    if env_sent(text) or (inv.name.startswith("pw") and pwsh_env_sent(text)):
        run.add("shell.exfiltration", code.span, f"{inv.name} code sends the whole "
                "environment over the network", None)
    elif kind := secret_file_sent(text):  # requests.post(u, data=open('.env').read())
        run.add("shell.exfiltration", code.span, f"{inv.name} code sends a secret file "
                "over the network" if kind == "net" else f"{inv.name} code puts a secret "
                "file's data in a DNS look-up's host name", None)
    elif (sent := _token(text, code.text, inv.name)) is not None:
        run.add(sent[0], code.span, f"{inv.name} code {sent[1]}", None)  # _codetoken
    if code_metadata(text, "`" in text):  # urlopen("http://169.254.169.254/../security-cr..")
        run.add("shell.sensitive-read", code.span, f"{inv.name} code asks the cloud metadata "
                "service for credentials (the instance role's keys or an access token)", None)
    if fork_loop(text) and not any(m.rule_id == "shell.fork-bomb" for m in markers):
        run.add("shell.fork-bomb", code.span, f"{inv.name} code forks in a loop that never "
                "ends", None)
