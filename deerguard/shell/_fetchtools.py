"""Build and deploy tools that run a script or a fetched project of their own.

* ``cmake -P SCRIPT`` runs a CMake script: ``execute_process(COMMAND a COMMAND b)`` is the
  pipeline ``a | b``, ``exec_program(P ARGS "s")`` runs ``P s``, ``file(DOWNLOAD URL F)``
  fetches F and ``include(F)`` runs it; the script (``-P /dev/stdin <<< CODE``, a file
  written earlier) is rewritten as those shell lines and classified (so is a
  ``CMakeLists.txt`` written in the command: ``_buildfiles``). ``cmake -E env|chdir|time
  ... CMD`` runs CMD;
* ``ninja -f FILE`` (``samu``; ``build.ninja`` of ``-C DIR`` when written in the command):
  every rule's ``command =`` line is a shell command;
* ``ansible-pull -U URL`` clones a repository and runs its playbook on this machine (a
  fetched script run: ``shell.download-exec``); so does ``packer build URL`` (its
  provisioners). macOS ``open -a Terminal FILE`` / ``open FILE.command`` runs FILE like
  ``sh FILE``;
* ``terraform init -from-module=SOURCE`` fills the directory with a remote module: its
  ``*.tf`` files count as fetched, so a later ``plan``/``apply`` there is a download run
  (``_buildfiles``). A registry or local module, and ``init`` alone, pass;
* ``kubectl kustomize URL``, ``kustomize build URL`` and ``helm template N oci://..`` print
  manifests fetched from outside: their output carries fetch taint, so ``| kubectl apply
  -f -`` warns like ``kubectl apply -k URL`` (``_pkgrun``).

Each handler reads its own program's arguments once; the script readers are linear in the
script's text (one forward scan, bounded argument lists).
"""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING

from ._flow import Flow
from ._loadfiles import script_file
from ._paths import norm_path
from ._resolve import Invocation
from ._words import DYN, Field, Source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["FETCH_TOOLS", "RENDERERS", "cmake_commands", "cmake_shell", "fetch_tool", "rendered"]

FETCH_TOOLS = frozenset({"cmake", "ninja", "samu", "ansible-pull", "terraform", "tofu",
                         "packer", "open"})
"""Programs :func:`fetch_tool` reads (a set lookup gates it)."""

RENDERERS = frozenset({"kubectl", "oc", "kustomize", "helm"})
"""Programs whose printed manifests :func:`rendered` may taint as fetched."""

_MAX_SCRIPT = 200_000
_MAX_LINES = 64


def fetch_tool(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """The script or fetched project ``inv`` runs (``inv.name`` is in FETCH_TOOLS)."""
    name = inv.name
    if name == "cmake":
        _cmake(run, inv, stdin)
    elif name in ("ninja", "samu"):
        _ninja(run, inv, stdin)
    elif name == "ansible-pull":
        _ansible_pull(run, inv)
    elif name == "packer":
        _packer(run, inv, stdin)
    elif name == "open":
        _open_terminal(run, inv)
    else:
        _terraform_init(run, inv)


def _is_remote(value: str) -> bool:
    """A module or manifest source outside this machine and any registry name."""
    v = value.lower()
    return v.startswith(("http://", "https://", "git::", "git@", "ssh://", "s3::", "gcs::",
                         "hg::", "oci://", "git+")) or \
        v.split("/", 1)[0] in ("github.com", "gitlab.com", "bitbucket.org")


# ---- cmake -----------------------------------------------------------------------------

_CMAKE_RUNNERS = frozenset({"env", "chdir", "time"})


def _cmake(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args
    for k, f in enumerate(args):
        t = f.text
        if t == "-E" and k + 1 < len(args):
            _cmake_tool(run, args[k + 1:])
            return
        script: Field | None = None
        if t == "-P" and k + 1 < len(args):
            script = args[k + 1]
        elif t.startswith("-P") and len(t) > 2:
            script = Field(t[2:], f.span, f.taint)
        if script is None:
            continue
        text = script_file(run, inv, script, stdin)
        if text is None or DYN in text.text:
            return
        code = cmake_shell(text.text)
        if code:
            run.run_code(Field(code, text.span, text.taint), "cmake script", inv.word.span,
                         None, positional=[])
        return


def _cmake_tool(run: Run, words: list[Field]) -> None:
    """``cmake -E env [--unset=X] [NAME=V]... CMD``, ``-E chdir DIR CMD``, ``-E time CMD``."""
    sub = words[0].text
    if sub not in _CMAKE_RUNNERS:
        return
    k = 1
    if sub == "chdir":
        k = 2
    elif sub == "env":
        while k < len(words) and (words[k].text.startswith("--") or
                                  "=" in words[k].text.split("/", 1)[0]):
            if words[k].text == "--":
                k += 1
                break
            k += 1
    if k < len(words):
        run.invoke(words[k:], None, [])


_CMAKE_CALL = re.compile(r"\b(execute_process|exec_program|add_custom_command|"
                         r"add_custom_target|file|include)[ \t]*\(", re.IGNORECASE)
# Keywords that end a COMMAND's argument list.
_CMAKE_KEYWORDS = frozenset({
    "COMMAND", "WORKING_DIRECTORY", "TIMEOUT", "RESULT_VARIABLE", "RESULTS_VARIABLE",
    "OUTPUT_VARIABLE", "ERROR_VARIABLE", "INPUT_FILE", "OUTPUT_FILE", "ERROR_FILE",
    "OUTPUT_QUIET", "ERROR_QUIET", "COMMAND_ECHO", "OUTPUT_STRIP_TRAILING_WHITESPACE",
    "ERROR_STRIP_TRAILING_WHITESPACE", "ENCODING", "ECHO_OUTPUT_VARIABLE",
    "ECHO_ERROR_VARIABLE", "COMMAND_ERROR_IS_FATAL", "OUTPUT", "DEPENDS", "BYPRODUCTS",
    "COMMENT", "VERBATIM", "USES_TERMINAL", "SOURCES", "ALL", "MAIN_DEPENDENCY",
    "IMPLICIT_DEPENDS", "DEPFILE", "JOB_POOL", "APPEND", "COMMAND_EXPAND_LISTS", "TARGET",
    "PRE_BUILD", "PRE_LINK", "POST_BUILD"})


def _cmake_args(text: str, i: int) -> tuple[list[str], int]:
    """The arguments of the call whose ``(`` ends at ``i``, and the index after its ``)``."""
    out: list[str] = []
    n = min(len(text), i + 8192)
    depth = 0
    while i < n and len(out) < 256:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c == ")":
            if depth == 0:
                return out, i + 1
            depth -= 1
            i += 1
        elif c == "(":
            depth += 1
            i += 1
        elif c == '"':
            j = i + 1
            chars: list[str] = []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    j += 1
                chars.append(text[j])
                j += 1
            out.append("".join(chars))
            i = j + 1
        elif c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            j = i
            while j < n and text[j] not in " \t\r\n()\"":
                j += 1
            out.append(text[i:j])
            i = j
    return out, i


def cmake_shell(text: str) -> str:
    """The shell lines a CMake script's calls amount to (see the module docstring)."""
    lines: list[str] = []
    pos = 0
    text = text[:_MAX_SCRIPT]
    while len(lines) < _MAX_LINES:
        m = _CMAKE_CALL.search(text, pos)
        if m is None:
            break
        fn = m.group(1).lower()
        args, pos = _cmake_args(text, m.end())
        pos = max(pos, m.end())
        line = _cmake_line(fn, args)
        if line:
            lines.append(line)
    return "\n".join(lines)


def cmake_commands(text: str) -> list[str]:
    """:func:`cmake_shell` as the command list ``_buildfiles`` runs (``CMakeLists.txt``)."""
    return [cmake_shell(text)]


def _cmake_line(fn: str, args: list[str]) -> str:
    if fn == "file":
        if len(args) >= 3 and args[0].upper() == "DOWNLOAD":
            return shlex.join(["curl", "-o", args[2], args[1]])
        return ""
    if fn == "include":
        return shlex.join(["cmake", "-P", args[0]]) if args else ""
    if fn == "exec_program":
        if not args:
            return ""
        extra = args[args.index("ARGS") + 1] if "ARGS" in args[:-1] else ""
        return shlex.quote(args[0]) + (" " + extra if extra else "")
    commands: list[list[str]] = []
    current: list[str] | None = None
    for a in args:
        if a == "COMMAND":
            current = []
            commands.append(current)
        elif a in _CMAKE_KEYWORDS:
            current = None
        elif current is not None:
            current.append(a)
    sep = " | " if fn == "execute_process" else "\n"
    return sep.join(shlex.join(c) for c in commands if c)


# ---- ninja -----------------------------------------------------------------------------

def _ninja(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    args = inv.args
    build: Field | None = None
    folder = ""
    for k, f in enumerate(args[:-1]):
        if f.text == "-f":
            build = args[k + 1]
        elif f.text == "-C":
            folder = args[k + 1].text
    if build is None:
        path = norm_path((folder.rstrip("/") + "/" if folder else "") + "build.ninja",
                         run.cwd)
        if path is None or (path not in run.file_text and path not in run.files):
            return  # ninja -C build: the project's own build file
        build = Field(path, inv.word.span)
    text = script_file(run, inv, build, stdin)
    if text is None or DYN in text.text:
        return
    commands = [line.split("=", 1)[1].strip() for line in text.text[:_MAX_SCRIPT].splitlines()
                if line.strip().startswith("command") and "=" in line and
                line.split("=", 1)[0].strip() == "command"][:_MAX_LINES]
    if commands:
        run.run_code(Field("\n".join(commands), text.span, text.taint), "ninja rule",
                     inv.word.span, None, positional=[])


# ---- ansible-pull, terraform init -from-module --------------------------------------------

def _ansible_pull(run: Run, inv: Invocation) -> None:
    """``ansible-pull -U URL [PLAYBOOK]``: a fetched playbook runs here."""
    args = inv.args
    for k, f in enumerate(args):
        t = f.text
        url = ""
        if t in ("-U", "--url") and k + 1 < len(args):
            url = args[k + 1].text
        elif t.startswith("--url="):
            url = t[6:]
        elif t.startswith("-U") and len(t) > 2:
            url = t[2:]
        if url:
            run.add("shell.download-exec", f.span, f"ansible-pull clones {url} and runs its "
                    "playbook on this machine", None)
            return


def _packer(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``packer build URL`` / a fetched template: its provisioners run (``shell-local``
    here)."""
    args = inv.args
    words = [f for f in args if not f.text.startswith("-")]
    if not words or words[0].text != "build" or len(words) < 2:
        return
    template = words[-1]
    if _is_remote(template.text):
        run.add("shell.download-exec", template.span, f"packer build runs the provisioners "
                f"of {template.text}, fetched from outside", None)
    else:
        script_file(run, inv, template, stdin)  # curl -o x.pkr.hcl U && packer build x.pkr.hcl


_TERMINAL_APPS = frozenset({"terminal", "terminal.app", "iterm", "iterm2", "iterm.app"})


def _open_terminal(run: Run, inv: Invocation) -> None:
    """macOS ``open -a Terminal FILE`` / ``open FILE.command``: the file runs as a shell
    script (as ``sh FILE``)."""
    args = inv.args
    app = False
    files: list[Field] = []
    for k, f in enumerate(args[:32]):
        t = f.text
        if k > 0 and args[k - 1].text in ("-a", "-b"):
            app = app or t.lower() in _TERMINAL_APPS or t == "com.apple.Terminal"
        elif not t.startswith("-"):
            files.append(f)
    for f in files[:4]:
        if app or f.text.endswith((".command", ".tool")):
            run.invoke([Field("sh", inv.word.span), f], None, [])


def _terraform_init(run: Run, inv: Invocation) -> None:
    """``terraform [-chdir=D] init -from-module=SOURCE [D]``: D's ``*.tf`` are fetched."""
    args = inv.args
    where = "."
    sub = ""
    source = ""
    for k, f in enumerate(args[:32]):
        t = f.text
        if t.startswith("-chdir="):
            where = t[7:]
        elif t.startswith(("-from-module=", "--from-module=")):
            source = t.partition("=")[2]
        elif t in ("-from-module", "--from-module") and k + 1 < len(args):
            source = args[k + 1].text
        elif not t.startswith("-"):
            if not sub:
                sub = t
            elif sub == "init" and args[k - 1].text not in ("-from-module", "--from-module"):
                where = t  # init [options] DIR (older terraform)
    if sub != "init" or not source or not (_is_remote(source) or DYN in source):
        return
    folder = norm_path(where, run.cwd)
    if folder is None:
        return
    path = "main.tf" if folder == "." else folder.rstrip("/") + "/main.tf"
    run.files[path] = run.files.get(path, frozenset()) | {
        Source("fetch", f"terraform init -from-module={source}",
               run.map_span(inv.word.span))}


# ---- rendered manifests ----------------------------------------------------------------------

def rendered(run: Run, inv: Invocation) -> frozenset[Source]:
    """Fetch taint of ``kubectl kustomize URL``, ``kustomize build URL``, ``helm template N
    oci://...`` output (manifests from outside); empty for anything else."""
    texts = [f.text for f in inv.args]
    words = [t for t in texts if not t.startswith("-")]
    verb = words[0] if words else ""
    name = inv.name
    if not ((name in ("kubectl", "oc") and verb == "kustomize") or
            (name == "kustomize" and verb == "build") or
            (name == "helm" and verb == "template")):
        return frozenset()
    remote = any(_is_remote(t) for t in words[1:]) or (
        name == "helm" and any(t.startswith("--repo") for t in texts))
    if not remote:
        return frozenset()
    return frozenset({Source("fetch", f"{name} {verb}", run.map_span(inv.word.span))})
