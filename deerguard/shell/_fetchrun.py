"""Fetched data reaching a shell call inside another language's code: ``curl u | sh`` spelled
in Python, Node (deno, bun), Ruby, Perl or PHP.

A *fetch* is a call of the language's HTTP clients (``urlopen``, ``requests.get``,
``fetch``, ``https.get``, ``Net::HTTP.get``, ``file_get_contents('http..')``, LWP ``get``),
and in Python also a client object's call (``s = requests.Session(); s.get(u)``) or a
helper's whose return is fetched data (``def get(u): return urlopen(u).read()``, see
:mod:`._fetchhelpers`).
Its data flows, within the code string, into:

* names bound to it: ``s = urlopen(u).read()``, ``with urlopen(u) as r``, ``for c in r``,
  ``d += c``, and the parameters of callbacks chained on it (``fetch(u).then(r =>
  r.text()).then(t => ..)``, ``https.get(u, res => res.on('data', c => ..))``, Ruby
  ``{ |body| .. }``). A binding whose value is a literal command with the data formatted in
  (``cmd = f"git checkout {tag}"``, ``'npm i ' + name``) or a list is not the data itself;
* a *shell call* whose first argument is that data (``os.system(s)``,
  ``subprocess.run(r.text, shell=True)``, ``execSync(t)``, ``system($t)``, `` `$t` ``), or an
  argument vector that hands it to a shell's or interpreter's code flag (``spawn('sh', ['-c',
  t])``), or the stdin of a shell the code starts (``run(['sh'], input=t)``,
  ``Popen(['sh'], stdin=PIPE).communicate(t)``): the fetched text runs as a command, a
  block (``shell.tainted-exec``); so does Python's ``exec``/``eval`` of it. Data only
  formatted into a literal command stays the dynamic-code warning of the generic reader;
* a file written with it (``urlretrieve(u, '/tmp/x')``, ``open('/tmp/x', 'wb').write(..)``,
  ``fs.writeFileSync(p, await r.text())``, ``r.body.pipe(fs.createWriteStream(p))``): the
  file is recorded as fetched (``run.files``), so running it, in the code or later in the
  command, is ``shell.download-exec`` as after ``curl -o``.

Also, Python's ``subprocess.run(x, shell=True)`` (any subprocess call) with a non-literal
``x`` warns as dynamic code, like ``os.system(x)``.

Data flow, not co-occurrence of tokens. Gated on substrings of the fetch API names and of a
shell call or file write (a few C-level searches per code string: code that only fetches and
prints costs a few microseconds); every scan is bounded (spots, names, references, windows),
so it is linear.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._fetchfiles import FetchFiles
from ._fetchflow import JS, MAX, WINDOW, word_before
from ._fetchhelpers import (
    CLIENT_METHODS,
    chained_client,
    client_receivers,
    helper_calls,
    returning_helpers,
)
from ._gate import word_gate
from ._paths import norm_path
from ._values import Source

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run
    from ._words import Field

__all__ = ["fetch_runs"]

_LANGS = frozenset({"python", "node", "deno", "bun", "ruby", "perl", "php"})
# HTTP client calls, by the callee's last name: the receivers it needs (None: any, or none).
_CLIENTS = frozenset({"requests", "httpx", "urllib3", "aiohttp", "axios", "got", "needle",
                      "superagent", "http", "https", "HTTParty", "Faraday", "RestClient",
                      "HTTP"})
_FETCH_CALLS: dict[str, frozenset[str] | None] = {
    "urlopen": None, "urlretrieve": None, "getstore": None, "curl_exec": None,
    "get": _CLIENTS, "post": _CLIENTS, "put": _CLIENTS, "patch": _CLIENTS,
    "request": _CLIENTS, "stream": _CLIENTS, "get_response": frozenset({"HTTP"}),
    "open": frozenset({"URI"}), "download": frozenset({"wget"}),
}
# Calls returning a command's output: a fetch when the command is curl or wget.
_OUTPUT_CALLS = frozenset({"check_output", "getoutput", "getstatusoutput", "popen", "run",
                           "execSync", "spawnSync", "execFileSync", "capture2", "capture2e",
                           "capture3", "shell_exec", "qx"})
_JS_FETCH = frozenset({"fetch", "axios", "got"})
_URL_ARG = frozenset({"open", "fopen", "file_get_contents", "get", "copy"})  # ("http://..
# Substrings one of which every fetch call above holds: the cheap gate.
_GATE = ("http", "HTTP", "url", "URI", "fetch", "requests", "getstore", "->get", "Faraday",
         "RestClient", "axios", "got", "needle", "superagent", "wget")
_GATE_RE = word_gate(_GATE)
# Substrings one of which every file-writing or downloading call of _fetchfiles holds.
_WRITING = ("write", "urlretrieve", "getstore", "download", "pipe", "copy", "mirror")
_WRITING_RE = word_gate(_WRITING)
# (No leading lookbehind or receiver group: a plain alternation scans several times faster;
# the word boundary and the receiver are read by hand at each match.)
_SINK = {
    "python": re.compile(r"(system|popen|run|call|check_call|check_output|Popen|getoutput|"
                         r"getstatusoutput|create_subprocess_shell|create_subprocess_exec|"
                         r"spawn|execv|execvp|execve|execvpe|execl|execlp|spawnv|spawnvp|"
                         r"spawnl|spawnlp|exec|eval)[ \t]*\("),
    "js": re.compile(r"(execSync|exec|execFile|execFileSync|spawn|spawnSync|execa|execaSync|"
                     r"execaCommand|execaCommandSync|Command)[ \t]*\("),
    "ruby": re.compile(r"(system|exec|spawn|popen|capture2|capture2e|capture3|popen3|"
                       r"pipeline_r)(?:[ \t]*\(|[ \t]+(?=[\w$@]))"),
    "perl": re.compile(r"(system|exec|qx)(?:[ \t]*\(|[ \t]+(?=[\w$@]))"),
    "php": re.compile(r"(system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)[ \t]*\("),
}
_PY_GENERIC = frozenset({"run", "call", "spawn"})
_PY_EVAL = frozenset({"exec", "eval"})
_PY_RECEIVERS = frozenset({"subprocess", "sp", "pty", "asyncio"})
_PY_SUBPROCESS = frozenset({"run", "call", "check_call", "check_output", "Popen"})
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "fish", "busybox", "python",
                     "python3", "node", "perl", "ruby", "php", "pwsh", "powershell", "cmd",
                     "cmd.exe", "osascript", "bun", "deno"})
_CODE_FLAGS = frozenset({"-c", "-lc", "-ec", "-ce", "-e", "-E", "-r", "/c", "/C", "--eval",
                         "-Command", "-command", "--command"})


def fetch_runs(run: Run, code: Field, language: str, inv: Invocation) -> None:
    """Report fetched data reaching a shell call in ``code`` (``language`` code run by
    ``inv``, read as written: before constant folding, which would put a variable's first
    value in place of the fetched data bound to it later) and record files written with
    fetched data; a Python subprocess call with ``shell=True`` and a non-literal command
    warns as dynamic code (only warns: the generic reader's "dynamic code and a command's
    output" escalation is not applied to it, so ``def sh(c): run(c, shell=True)`` next to
    ``run(['bash', 'build.sh'])`` is not read as fetched data reaching a shell)."""
    if language not in _LANGS:
        return
    text = code.text
    if language == "python" and "shell=True" in text and _shell_true_dynamic(text):
        run.add("shell.dynamic-code", code.span, f"{inv.name} code runs a shell command "
                "built at run time", None)
    if _GATE_RE.search(text) is None:
        return
    lang = "js" if language in JS else language
    if _SINK[lang].search(text) is None and "`" not in text and \
            _WRITING_RE.search(text) is None:
        return  # fetched and printed: nothing the data could reach
    python = language == "python"
    receivers = client_receivers(text) if python else frozenset()
    spots = _fetch_spots(text, language in JS, receivers, python)
    if not spots:
        return
    flow = _Flow(text, language, spots)
    if python and "return" in text:
        flow = _through_helpers(flow)
    where = run._desc(inv.name, inv.word.span)
    sink = flow.shell_sink()
    if sink is not None:
        what = "code" if sink.startswith(("exec ", "eval ")) else "a shell command"
        run.add("shell.tainted-exec", code.span, f"{inv.name} code runs fetched data as "
                f"{what}", f"data fetched in {where} reaches its call {sink}")
    paths = flow.fetched_files()
    if paths:
        src = frozenset({Source("fetch", f"{inv.name} code", run.map_span(inv.word.span))})
        for path in paths:
            local = norm_path(path, run.cwd)
            if local is not None:
                run.files[local] = run.files.get(local, frozenset()) | src


def _through_helpers(flow: _Flow) -> _Flow:
    """The flow with each call of a helper returning fetched data as one more fetch
    (``def get(u): return urlopen(u).read()``, then ``get(x)``; _fetchhelpers)."""
    for _ in range(2):
        names = returning_helpers(flow.text, sorted(
            {flow._callee_start(s) for s in flow.spots} | set(flow.refs)))
        calls = [c for c in helper_calls(flow.text, names)
                 if c not in flow.spots and not flow._in_literal(c)]
        if not calls:
            break
        flow = _Flow(flow.text, flow.language, sorted({*flow.spots, *calls})[:MAX * 2])
    return flow


def _fetch_spots(text: str, js: bool, receivers: frozenset[str], python: bool) -> list[int]:
    """Where each HTTP client call's ``(`` is (at most MAX): read at each ``(`` from the
    callee's last name and receiver (one pass over the parentheses, no regex alternation);
    ``receivers`` hold client objects (``s = requests.Session()``, _fetchhelpers)."""
    spots: list[int] = []
    at = text.find("(")
    while at != -1 and len(spots) < MAX:
        name, start = word_before(text, at)
        if name and _is_fetch(text, name, start, at, js, receivers, python):
            spots.append(at)
        at = text.find("(", at + 1)
    return spots


def _is_fetch(text: str, name: str, start: int, paren: int, js: bool,
              receivers: frozenset[str], python: bool) -> bool:
    """Whether the call of ``name`` (starting at ``start``, ``(`` at ``paren``) fetches."""
    dot = text[start - 1:start] == "."
    need = _FETCH_CALLS.get(name, frozenset())
    if need is None or (dot and need and word_before(text, start - 1)[0] in need):
        return True
    if python and not dot and receivers and name in receivers:
        return True  # from requests import get; get(u)
    if python and dot and name in CLIENT_METHODS:
        if text[start - 2:start - 1] == ")":
            if chained_client(text, start - 1, receivers):
                return True  # requests.Session().get(u)
        elif receivers and word_before(text, start - 1)[0] in receivers:
            return True  # s.get(u), s = requests.Session()
    if dot and name in ("get", "request") and text[start - 2:start - 1] == ")":
        head = text[max(0, start - 10):start - 2].rstrip("'\"")
        return head.endswith(("http", "https"))  # require('https').get(u, ..)
    if name == "get" and text[start - 2:start] == "->":
        return True  # Perl HTTP::Tiny / LWP::UserAgent, PHP Guzzle
    if js and name in _JS_FETCH and (not dot or name == "fetch"):
        return True
    if name in _URL_ARG and not dot:  # open("https://.."), file_get_contents('http://..')
        arg = text[paren + 1:paren + 16].lstrip(" \t")[1:]
        return arg.startswith(("http://", "https://", "ftp://"))
    if name in _OUTPUT_CALLS:  # check_output(['curl', u]), os.popen('wget -qO- u').read()
        arg = text[paren + 1:paren + 24].lstrip(" \t[")[1:]
        return arg.startswith(("curl ", "curl'", 'curl"', "wget ", "wget'", 'wget"'))
    return False


def _shell_true_dynamic(text: str) -> bool:
    """A subprocess call with ``shell=True`` whose command is not a literal."""
    at = text.find("shell=True")
    for _ in range(8):
        if at < 0:
            return False
        floor = max(0, at - WINDOW)
        depth = 0
        j = at - 1
        while j >= floor:  # back to the "(" of the call holding shell=True
            c = text[j]
            if c in ")]}":
                depth += 1
            elif c in "([{":
                if depth == 0:
                    break
                depth -= 1
            j -= 1
        if j >= floor and text[j] == "(":
            first = text[j + 1:j + 64].lstrip(" \t\n")
            prefix = first[:3].lstrip("bBrRuUfF")  # f"python{v} -V": the literal reader's
            if word_before(text, j)[0] in _PY_SUBPROCESS and first[:1] not in "'\"[)" \
                    and (len(first[:3]) - len(prefix) > 2 or prefix[:1] not in ("'", '"')):
                return True
        at = text.find("shell=True", at + 10)
    return False


class _Flow(FetchFiles):
    """A code string's fetched data, the files it writes and the shell calls it reaches."""

    # --- sinks -------------------------------------------------------------------------------

    def shell_sink(self) -> str | None:
        """The first shell call that runs the fetched data, as ``name (offset)``."""
        lang = "js" if self.language in JS else self.language
        pattern = _SINK[lang]
        text = self.text
        py_sub = lang == "python" and "from subprocess import" in text
        aliases = set(re.findall(r"import subprocess as (\w+)", text)) if lang == "python" \
            else set()
        hits = 0
        for m in pattern.finditer(text):
            if hits >= MAX:
                break
            at = m.start()
            if at > 0 and (text[at - 1].isalnum() or text[at - 1] in "_$") or \
                    self._in_literal(at):
                continue
            name = m.group(1)
            receiver = word_before(text, at - 1)[0] if text[at - 1:at] == "." else None
            if lang == "python" and name in _PY_GENERIC and not (
                    receiver in _PY_RECEIVERS or receiver in aliases or
                    (receiver is None and py_sub)):
                continue
            if lang == "python" and name in _PY_EVAL and receiver is not None:
                continue  # df.eval(expr): only the builtins run Python code
            hits += 1
            if text[m.end() - 1] == "(":
                args, close = self._args(m.end() - 1)
            else:  # Ruby/Perl without parentheses: to the end of the statement
                end = self._end(m.end())
                args = [(m.end(), end)]
            if not args or not self._tainted(args[0][0], args[-1][1]):
                continue  # no fetched data anywhere in the call
            a, b = args[0]
            if self._tainted(a, b) and self._whole(a, b):
                return f"{name} ({m.start()})"
            if self._argv_runs(args):
                return f"{name} ({m.start()})"
        if lang in ("ruby", "perl", "php"):
            for start, (_end, value) in self.lits.items():
                if value[:1] == "`" and self._interpolates_bound(value[1:]):
                    return f"backticks ({start})"
        return self._stdin_fed() if lang in ("python", "js") else None

    def _interpolates_bound(self, body: str) -> bool:
        """A backtick command that is one interpolated bound name: `$t`, `#{t}`, `{$t}`."""
        inner = body.strip()
        for left, right in (("#{", "}"), ("{", "}"), ("${", "}")):
            if inner.startswith(left) and inner.endswith(right):
                inner = inner[len(left):-len(right)].strip()
                break
        return inner in self.names or inner.lstrip("$") in self.names or \
            "$" + inner in self.names

    def _stdin_fed(self) -> str | None:
        """Fetched data written to the stdin of a shell started by the code:
        ``p = Popen(['sh'], stdin=PIPE); p.communicate(data)``, ``p.stdin.write(data)``."""
        text = self.text
        for call in (".communicate(", ".stdin.write("):
            at = text.find(call)
            for _ in range(8):
                if at < 0:
                    break
                args, _close = self._args(at + len(call) - 1)
                if args and self._tainted(*args[0]) and self._whole(*args[0]):
                    proc, _k = word_before(text, at)
                    bind = re.search(r"(?<![\w$.])" + re.escape(proc) + r"[ \t]*=(?!=)",
                                     text[:at]) if proc else None
                    opened = text.find("(", bind.end(), bind.end() + 80) if bind else -1
                    if opened > 0 and word_before(text, opened)[0] in ("Popen", "spawn"):
                        first = self._args(opened)[0]
                        elems = self._flatten(first[:1], 0)
                        value = self._literal(*elems[0]) if elems else None
                        if value is not None and value.rsplit("/", 1)[-1] in _SHELLS:
                            return f"{call.strip('.(')} ({at})"
                at = text.find(call, at + 1)
        return None

    def _argv_runs(self, args: list[tuple[int, int]]) -> bool:
        """An argument vector (lists flattened) giving bound data to a shell's code flag,
        or a shell given it as its input (``run(['sh'], input=data)``)."""
        elems = self._flatten(args, 0)
        first = self._literal(*elems[0]) if elems else None
        if first is not None and first.rsplit("/", 1)[-1] in _SHELLS:
            for a, b in args[1:]:
                kw = self.text[a:b].lstrip(" \t\n")
                if kw.startswith("input") and kw[5:].lstrip(" \t").startswith("=") and \
                        self._tainted(a, b) and self._whole(b - len(kw) + kw.index("=") + 1, b):
                    return True
        shell = False
        for k, (a, b) in enumerate(elems[:-1]):
            value = self._literal(a, b)
            if value is None:
                continue
            if value.rsplit("/", 1)[-1] in _SHELLS:
                shell = True
            elif shell and value in _CODE_FLAGS:
                c, d = elems[k + 1]
                if self._tainted(c, d) and self._whole(c, d):
                    return True
        return False

    def _flatten(self, spans: list[tuple[int, int]], level: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        text = self.text
        for a, b in spans[:32]:
            j = a
            while j < b and text[j] in " \t\n":
                j += 1
            key = re.match(r"[A-Za-z_]\w*[ \t]*[:=](?!=)", text[j:b])
            if key is not None:  # args: [..], shell=True
                j += key.end()
                while j < b and text[j] in " \t\n":
                    j += 1
            if level < 3 and j < b and text[j] in "[{":
                inner, _close = self._args(j)
                out.extend(self._flatten(inner, level + 1))
            else:
                out.append((j, b))
        return out
