"""Calls that run programs in more languages, read from the code given to an interpreter.

The languages of ``_morelangs`` (gnuplot, octave/matlab, Haskell, Scala, Groovy, Java and
Kotlin, Erlang, Elixir, Lisps, Raku, dc) and R, whose code the generic scanner in ``_code``
reads only for ``name("literal")`` calls:

* a command line (run by a shell): R ``system``/``pipe``/``shell``, gnuplot ``system``,
  backticks, ``!cmd`` lines, ``load "< cmd"``, ``set print "| cmd"``, ``plot "< cmd"``;
  octave/matlab ``system``/``unix``/``dos``/``popen`` and ``!cmd``; Haskell ``callCommand``,
  ``system``, ``spawnCommand``, ``shell`` (and ghci ``:!cmd``); Scala ``"cmd".!``/``.!!``,
  ``Process("cmd")``; Groovy ``"cmd".execute()``; Erlang ``os:cmd``, ``open_port({spawn,
  "cmd"}, ..)``; Elixir ``System.shell``, ``:os.cmd``; Lisps ``(system "cmd")``; Raku
  ``shell "cmd"``, ``qx{cmd}``; dc ``!cmd``;
* an argument vector: R ``system2("rm", c("-rf", "~"))``, ``processx::run``; Haskell
  ``rawSystem``/``callProcess``/``readProcess "rm" ["-rf", "~"]``; Scala ``Seq("rm", ..).!``;
  Groovy ``["rm", ..].execute()``; Elixir ``System.cmd("rm", ["-rf", "/"])``; Lisps
  ``(system* "rm" "-rf" "/")``, ``(sh "rm" ..)``, ``(run-program "/bin/rm" '("-rf" "/"))``;
  Raku ``run "rm", ..`` / ``run <rm -rf ~>``; Java-style ``ProcessBuilder("rm", ..)``.

A non-literal argument stands as unknown (``rm -rf <x>`` warns like ``rm -rf "$x"``); a call
given no literal at all is dynamic code. Every scan is one linear pass over the code (one
identifier search, bounded windows after each hit, bounded hit counts).
"""

from __future__ import annotations

import functools
import re

from ._code import Snippet, literals
from ._words import DYN

__all__ = ["MORE_LANGS", "more_snippets"]

MORE_LANGS = frozenset({"R", "Rscript", "gnuplot", "octave", "matlab", "haskell", "scala",
                        "groovy", "kotlin", "java", "erlang", "elixir", "lisp", "raku", "dc",
                        "julia", "node", "bun", "deno", "crystal", "jshell"})
"""Code languages :func:`more_snippets` reads (R through the main interpreter table)."""


# Calls whose first (literal) argument is a command line run by a shell.
_SHELL_CALLS: dict[str, frozenset[str]] = {
    "R": frozenset({"system", "pipe", "shell"}),
    "gnuplot": frozenset({"system"}),
    "octave": frozenset({"system", "unix", "dos", "shell_cmd", "popen", "popen2"}),
    "haskell": frozenset({"callCommand", "system", "spawnCommand", "shell", "runCommand",
                          "readCreateProcess", "createProcess"}),
    "scala": frozenset({"Process", "sys.process.Process", "exec"}),
    "groovy": frozenset({"exec"}),
    "kotlin": frozenset({"exec"}),
    "java": frozenset({"exec"}),
    "erlang": frozenset({"os:cmd", "open_port", "erlang:open_port"}),
    "elixir": frozenset({"System.shell", "os.cmd", "Port.open", "erlang.open_port"}),
    "lisp": frozenset({"system", "shell", "uiop:run-program", "run-program", "run-shell-command",
                       "open-pipe", "open-input-pipe", "open-output-pipe",
                       "uiop:launch-program", "launch-program", "ext:run-shell-command",
                       "babashka.process/shell", "ext:shell"}),
    "raku": frozenset({"shell", "qqx", "qx"}),
}
_SHELL_CALLS["matlab"] = _SHELL_CALLS["octave"]
_SHELL_CALLS["Rscript"] = _SHELL_CALLS["R"]
# Calls whose literal arguments (lists flattened) are one argument vector.
_ARGV_CALLS: dict[str, frozenset[str]] = {
    "R": frozenset({"system2", "processx::run", "run", "sys::exec_wait", "exec_wait",
                    "sys::exec_internal", "exec_internal", "processx::process$new"}),
    "haskell": frozenset({"rawSystem", "callProcess", "readProcess", "readProcessWithExitCode",
                          "spawnProcess", "proc", "runProcess"}),
    "scala": frozenset({"Process", "ProcessBuilder", "os.proc"}),
    "groovy": frozenset({"ProcessBuilder"}),
    "kotlin": frozenset({"ProcessBuilder"}),
    "java": frozenset({"ProcessBuilder"}),
    "elixir": frozenset({"System.cmd"}),
    "lisp": frozenset({"system*", "process*", "sh", "clojure.java.shell/sh", "shell/sh",
                       "sb-ext:run-program", "run-program", "uiop:run-program", "ext:run-program",
                       "babashka.process/process", "subprocess"}),
    "raku": frozenset({"run", "Proc::Async.new"}),
    "julia": frozenset({"Cmd"}),
    "node": frozenset({"Deno.Command"}),
    "crystal": frozenset({"Process.run", "Process.new"}),
}
_ARGV_CALLS["deno"] = _ARGV_CALLS["bun"] = _ARGV_CALLS["node"]
_ARGV_CALLS["jshell"] = _ARGV_CALLS["java"]  # jshell comes through the main table
_ARGV_CALLS["Rscript"] = _ARGV_CALLS["R"]
# Literal (or list) receivers that run: "cmd".execute(), Seq("rm", "/").!
_RECEIVERS: dict[str, tuple[str, ...]] = {
    "groovy": (".execute()", ".execute("),
    "scala": (".!!", ".!", ".run(", ".lazyLines", ".lineStream", " #|", ".call("),
}
_BANG_LINES = frozenset({"gnuplot", "octave", "matlab", "haskell", "dc"})
# gnuplot: commands whose file name '< cmd' reads cmd's output, and settings whose
# file name '| cmd' pipes into cmd (set print "| cmd", set output "| lpr").
_READ_PIPES = frozenset({"load", "plot", "splot", "replot", "fit", "stats"})
_WRITE_PIPES = frozenset({"print", "output", "table"})
_IDENT = re.compile(r"[A-Za-z_][\w.:/*$-]*")
_CONSTRUCTORS = frozenset({"c", "Seq", "List", "Array", "list", "vector", "Vector", "Arrays",
                           "asList", "of", "List.of", "Arrays.asList", "listOf", "arrayOf",
                           "quote"})
_MAX = 64


def more_snippets(text: str, language: str, snippets: list[Snippet], dynamic: bool
                  ) -> tuple[list[Snippet], bool]:
    """Add the commands ``language`` code runs (see the module docstring) to ``snippets``."""
    if language not in MORE_LANGS:
        return snippets, dynamic
    found: list[str] = []
    lits = literals(text, False)
    starts = {s: (e, v) for s, e, v in lits[:512]}
    shell = _SHELL_CALLS.get(language, frozenset())
    argv = _ARGV_CALLS.get(language, frozenset())
    hits = 0
    gate = _call_gate(language)
    for m in _IDENT.finditer(text) if gate is not None and gate.search(text) else ():
        if len(found) >= _MAX:
            break
        name = m.group()
        if m.start() > 0 and text[m.start() - 1] in "\"'":
            continue
        if language == "lisp" and (m.start() == 0 or text[m.start() - 1] != "("):
            continue  # a Lisp call is (NAME ARGS...)
        known_shell = name in shell or name.rsplit(".", 1)[-1] in shell
        known_argv = name in argv or name.rsplit(".", 1)[-1] in argv
        if not known_shell and not known_argv:
            continue
        hits += 1
        if hits > _MAX:
            break  # bounded work per code string (each hit reads a bounded window)
        k = _arg_start(text, m.end())
        if k < 0:
            continue
        k = _through_constructor(text, k, starts) if known_argv and k not in starts else k
        if k in starts:
            if known_argv and not (known_shell and _single(text, starts, k)):
                words, dyn = _argv(text, k, starts)
                if words:
                    found.append(_join(words))
                dynamic = dynamic or dyn
            else:
                found.append(starts[k][1][1:])
        elif text[k:k + 1] == "{" and language in ("erlang", "elixir"):
            spawn = _port_spawn(text, k, starts)  # open_port({spawn, "cmd"}, ..)
            if spawn is not None:
                found.append(spawn)
        else:
            arg = _IDENT.match(text, k)
            inner = arg.group() if arg else ""
            if arg and inner not in shell and inner not in argv and \
                    inner.rsplit(".", 1)[-1] not in shell | argv:
                dynamic = True  # system(cmd), os:cmd(Cmd), callCommand c
    for start, end, value in lits[:512]:
        if len(found) >= _MAX:
            break
        if start > 0 and text[start - 1] == "$" and language in ("node", "bun", "deno"):
            # zx and Bun Shell: $`rm -rf ${dir}` (spell_paths reads the template as a
            # literal whose interpolations are unknown).
            found.append(value[1:])
            continue
        after = text[end:end + 16]
        for suffix in _RECEIVERS.get(language, ()):
            if after.startswith(suffix):
                found.append(value[1:])
                break
        if language == "gnuplot" and value[1:2] in ("<", "|"):
            verb = text[max(0, start - 24):start].split()[-2:]
            if value[1] == "<" and verb[-1:] and verb[-1] in _READ_PIPES or \
                    value[1] == "|" and len(verb) == 2 and verb[0] == "set" and \
                    verb[1] in _WRITE_PIPES:
                found.append(value[2:])  # load "< cmd", plot '<cmd', set print "| cmd"
                # load '< cmd': cmd's output is read as more gnuplot code.
                dynamic = dynamic or verb[-1] == "load"
    if language in ("scala", "groovy"):
        found.extend(_list_receivers(text, starts, language))
    if language == "groovy" and ".execute()" in text:
        named, unknown = _named_receivers(text, starts)
        found.extend(named)
        dynamic = dynamic or unknown
    if language in _BANG_LINES:
        found.extend(_bang_lines(text, language))
    if language in ("gnuplot", "crystal"):
        found.extend(_backticks(text))
    if language == "raku":
        found.extend(_raku_words(text))
    known = {s.text for s in snippets}
    extra = [Snippet(c, 0, 0) for c in dict.fromkeys(found) if c.strip() and c not in known]
    return [*snippets, *extra], dynamic


@functools.cache
def _call_gate(language: str) -> re.Pattern[str] | None:
    """One C-level search for the last components of ``language``'s call names: code that
    names none of them skips the per-identifier scan (the common case: ``node -e`` code
    without ``$`cmd```, ``Deno.Command`` or a process call)."""
    names = _SHELL_CALLS.get(language, frozenset()) | _ARGV_CALLS.get(language, frozenset())
    lasts = sorted({n.rsplit(".", 1)[-1] for n in names if n}, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, lasts))) if lasts else None


def _arg_start(text: str, k: int) -> int:
    """Where a call's first argument starts after its name: ``(``, a space, ``$``."""
    j = k
    limit = min(len(text), k + 16)
    while j < limit and text[j] in " \t":
        j += 1
    if j < limit and text[j] in "($":
        j += 1
        while j < limit and text[j] in " \t":
            j += 1
    elif j == k:
        return -1  # name immediately followed by something else: not a call
    if text[j:j + 1] == "~" and text[j + 1:j + 2] in "cCsS" and text[j + 2:j + 3] in "\"'":
        j += 2  # Elixir sigils: ~c"rm -rf ~", ~s'cmd'
    return j if j < len(text) else -1


def _through_constructor(text: str, k: int, starts: dict[int, tuple[int, str]]) -> int:
    """``Process(Seq("rm", ..))``, ``ProcessBuilder(List.of("rm", ..))``, ``(["rm", ..])``:
    where the literals of a list constructor start (``k`` when there is none)."""
    j = k
    if text[j:j + 1] != "[":
        m = _IDENT.match(text, j)
        if m is None or m.group() not in _CONSTRUCTORS:
            return k
        j = m.end()
    j += 1
    limit = min(len(text), j + 8)
    while j < limit and text[j] in " \t(":
        j += 1
    return j if j in starts else k


def _single(text: str, starts: dict[int, tuple[int, str]], k: int) -> bool:
    """The literal at ``k`` is the call's only argument (``Process("rm -rf /")``)."""
    end = starts[k][0]
    return text[end:end + 8].lstrip()[:1] in (")", "", ";", "\n", ".")


def _argv(text: str, k: int, starts: dict[int, tuple[int, str]]) -> tuple[list[str], bool]:
    """Literal words of an argument vector starting at ``k``; an unknown word as DYN."""
    words: list[str] = []
    dyn = False
    depth = 0
    skip = False
    j = k
    limit = min(len(text), k + 600)
    while j < limit and len(words) < 64:
        c = text[j]
        if j in starts:
            end, value = starts[j]
            if not skip:
                words.append(value[1:])
            j = end
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                break
        elif c == "," and depth == 0:
            skip = False
        elif c in ";\n" and depth <= 0:
            break
        elif c == ">" and text[j:j + 2] in (">>", ">="):
            break
        elif c == ":" and text[j + 1:j + 2].isalpha() and text[j - 1:j] in (" ", "\t", "("):
            break  # a Lisp or Elixir keyword (:output t, :stderr_to_stdout) ends the argv
        elif c.isalpha() or c == "_":
            m = _IDENT.match(text, j)
            name = m.group() if m else c
            nxt = text[j + len(name):j + len(name) + 2].lstrip()[:1]
            if name.endswith(":"):  # into: IO.stream() (Elixir keyword); args: [..] is argv
                skip = name[:-1] not in ("args", "arguments")
            elif nxt == "=" and text[j + len(name):j + len(name) + 3].lstrip()[:2] != "==" \
                    or nxt == ":" and name not in ("os",):
                skip = name not in ("args", "arguments")  # stdout=TRUE, into: ""
            elif name not in _CONSTRUCTORS and nxt != "(" and not skip:
                words.append(DYN)
                dyn = True
            j += len(name)
            continue
        j += 1
    return words, dyn


def _join(words: list[str]) -> str:
    out: list[str] = []
    for w in words:
        if w == DYN or (w and all(ch.isalnum() or ch in "-_./~=:,+@%" for ch in w)):
            out.append(w)
        else:
            out.append("'" + w.replace("'", "'\\''") + "'")
    return " ".join(out)


def _port_spawn(text: str, k: int, starts: dict[int, tuple[int, str]]) -> str | None:
    """``{spawn, "cmd"}`` / ``{:spawn, "cmd"}`` at ``k``: the command line."""
    head = text[k + 1:k + 24].lstrip().lstrip(":")
    if not head.startswith("spawn,") and not head.startswith("spawn ,"):
        return None
    j = text.find(",", k) + 1
    while j < len(text) and j < k + 64 and text[j] in " \t":
        j += 1
    return starts[j][1][1:] if j in starts else None


def _list_receivers(text: str, starts: dict[int, tuple[int, str]], language: str
                    ) -> list[str]:
    """``["rm", "-rf", "/"].execute()`` (Groovy), ``Seq("rm", "/").!`` (Scala)."""
    out: list[str] = []
    for suffix in _RECEIVERS[language]:
        at = text.find("]" + suffix) if language == "groovy" else text.find(")" + suffix)
        for _ in range(8):
            if at < 0:
                break
            opener = text.rfind("[" if language == "groovy" else "(", max(0, at - 600), at)
            if opener >= 0:
                k = opener + 1
                while k < at and text[k] in " \t":
                    k += 1
                if k in starts:
                    words, _dyn = _argv(text, k, starts)
                    if words:
                        out.append(_join(words))
            at = text.find("]" + suffix if language == "groovy" else ")" + suffix, at + 1)
    return out


def _named_receivers(text: str, starts: dict[int, tuple[int, str]]) -> tuple[list[str], bool]:
    """Groovy ``c.execute()`` where ``c`` is a name: the literals ``c`` is assigned in the
    code (``def c = "rm -rf /"``) are commands it runs; a name bound to none, or an
    expression (``("rm " + x).execute()``), runs a command not known here (dynamic).
    ``.execute()`` with no arguments is String's and List's process call; a database
    handle's ``sql.execute(..)`` takes its statement as an argument."""
    out: list[str] = []
    unknown = False
    at = text.find(".execute()")
    for _ in range(_MAX):
        if at < 0:
            break
        j = at
        while j > 0 and (text[j - 1].isalnum() or text[j - 1] == "_"):
            j -= 1
        name = text[j:at]
        if not name:
            unknown = unknown or text[at - 1:at] == ")"  # ("rm " + x).execute()
        elif not name[0].isdigit():
            bound = _bound_literals(text, name, starts)
            out.extend(bound)
            unknown = unknown or not bound
        at = text.find(".execute()", at + 1)
    return out, unknown


def _bound_literals(text: str, name: str, starts: dict[int, tuple[int, str]]) -> list[str]:
    """The string literals ``name = "..."`` assigns in ``text`` (at most a few)."""
    out: list[str] = []
    pattern = re.compile(r"(?<![\w.])" + re.escape(name) + r"[ \t]*=(?!=)[ \t]*")
    for m in pattern.finditer(text):
        hit = starts.get(m.end())
        if hit is not None and hit[1][:1] in "\"'":
            out.append(hit[1][1:])
        if len(out) >= 8:
            break
    return out


def _bang_lines(text: str, language: str) -> list[str]:
    """``!cmd`` lines (gnuplot, octave/matlab, dc anywhere on a line, ghci ``:!cmd``)."""
    out: list[str] = []
    for line in text.splitlines()[:512]:
        s = line.strip()
        if language == "dc" and "!" in s:
            k = s.index("!")
            if s[k + 1:k + 2] not in ("<", ">", "="):  # !<, !>, != are comparisons
                out.append(s[k + 1:])
        elif language == "haskell" and s.startswith(":!"):
            out.append(s[2:])
        elif language != "haskell" and s.startswith("!"):
            out.append(s[1:])
    return out


def _backticks(text: str) -> list[str]:
    """gnuplot's `` `cmd` `` substitution (in any command, like the shell's)."""
    out: list[str] = []
    at = text.find("`")
    while at >= 0 and len(out) < 16:
        end = text.find("`", at + 1)
        if end < 0:
            break
        out.append(text[at + 1:end])
        at = text.find("`", end + 1)
    return out


def _raku_words(text: str) -> list[str]:
    """Raku ``run <rm -rf ~>`` / ``shell Q{...}`` / ``qx{...}``: word lists and quotes."""
    out: list[str] = []
    for opener, closer, prefix in (("run <", ">", "run"), ("run«", "»", "run"),
                                   ("qx{", "}", "qx"), ("qqx{", "}", "qx"),
                                   ("shell Q{", "}", "shell"), ("shell q{", "}", "shell")):
        at = text.find(opener)
        while at >= 0 and len(out) < 16:
            end = text.find(closer, at + len(opener))
            if end < 0:
                break
            body = text[at + len(opener):end]
            out.append(body if prefix != "run" else " ".join(body.split()))
            at = text.find(opener, end)
    return out
