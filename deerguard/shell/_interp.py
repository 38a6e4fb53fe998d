"""Interpreter code spellings the literal scanner in ``_code`` does not read by itself.

Perl's quote-like operators (``q(..)``, ``qq{..}``, ``qw(..)``, ``qx(..)``) and Ruby's
percent literals (``%q(..)``, ``%w(..)``, ``%x(..)``) are rewritten as ordinary quotes,
backticks and lists, so ``system qw(rm -rf /)`` reads like ``system "rm", "-rf", "/"``.
:func:`socket_shell` finds a socket and a process spawn in the same code string (node, perl,
ruby, lua, php): the shape of a reverse shell. Both are single linear passes.
"""

from __future__ import annotations

from ._gate import word_gate
from ._receiver import data_call
from ._words import DYN, Field

__all__ = ["awk_assigns", "awk_dynamic_pipe", "constant_commands", "deletes_home",
           "package_install_call", "requote", "socket_shell", "string_constants"]

_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}
_PERL_OPS = ("qq", "qw", "qx", "q")
_RUBY_OPS = ("%Q", "%q", "%w", "%W", "%x", "%i", "%")


def _close(code: str, k: int) -> int:
    """Index of the delimiter closing the one at ``k`` (nesting for brackets), or -1."""
    opener = code[k]
    closer = _CLOSE.get(opener, opener)
    depth = 0
    j = k + 1
    n = len(code)
    while j < n:
        ch = code[j]
        if ch == "\\":
            j += 2
            continue
        if ch == closer:
            if depth == 0:
                return j
            depth -= 1
        elif ch == opener and closer != opener:
            depth += 1
        j += 1
    return -1


def _quoted(body: str) -> str:
    return '"' + body.replace("\\", "\\\\").replace('"', '\\"') + '"'


def requote(code: str, language: str) -> str:
    """Perl ``q``/``qq``/``qw``/``qx`` and Ruby ``%q``/``%w``/``%x`` literals as plain
    quotes (``qx``/``%x`` as backticks, ``qw``/``%w`` as a list); linear in ``code``."""
    ops = _PERL_OPS if language == "perl" else _RUBY_OPS if language == "ruby" else ()
    if not ops or ("q" not in code and "%" not in code):
        return code
    out: list[str] = []
    i = 0
    n = len(code)
    last = 0
    unclosed = ""  # quote characters seen without a close: never scanned for again
    while i < n:
        ch = code[i]
        prev = code[i - 1] if i > 0 else " "
        if ch in "\"'" and ch not in unclosed and not prev.isalnum() and prev not in "_$\\":
            # A string literal is data: eval "system(q(rm -rf /))" keeps its q() for the
            # evaluated code's own pass (rewriting it here would break the outer string).
            end = _close(code, i)
            if end == -1:
                unclosed += ch
            else:
                i = end + 1
                continue
        if ch == "#" and prev in " \t\n;":  # a comment: its apostrophes open no string
            end = code.find("\n", i)
            i = n if end == -1 else end
            continue
        if ch not in "q%" or (i > 0 and (prev.isalnum() or prev in "_$@%")):
            i += 1
            continue
        op = next((o for o in ops if code.startswith(o, i)), None)
        k = i + len(op) if op else i
        if op is None or k >= n or code[k].isalnum() or code[k] in " \t\n_,;=)":
            i += 1
            continue
        end = _close(code, k)
        if end == -1:
            break
        body = code[k + 1:end]
        kind = op[-1].lower() if len(op) > 1 else ""
        if kind == "x":
            text = "`" + body.replace("`", "\\`") + "`"
        elif kind in ("w", "i"):
            text = ", ".join(_quoted(w) for w in body.split()) or '""'
        else:
            text = _quoted(body)
        out.append(code[last:i])
        out.append(text)
        last = end + 1
        i = end + 1
    if not out:
        return code
    out.append(code[last:])
    return "".join(out)


# Code run inside a string: Ruby "#{code}" (also in backticks and %x), Perl "@{[ code ]}"
# and "${\ code}". (opener, characters of it before the brace-opening body).
_INTERPOLATIONS: dict[str, tuple[str, ...]] = {"ruby": ("#{",), "perl": ("@{[", "${\\")}


def interpolated(code: str, language: str) -> list[str]:
    """The code bodies interpolated into ``code``'s strings (at most 16), requoted; linear:
    each search resumes past the body it found, and an unclosed one ends the search."""
    bodies: list[str] = []
    for opener in _INTERPOLATIONS.get(language, ()):
        i = code.find(opener)
        while i != -1 and len(bodies) < 16:
            end = _close(code, i + 1)  # the brace after # @ $
            if end == -1:
                break
            body = code[i + len(opener):end]
            if opener == "@{[":
                body = body.rstrip().removesuffix("]")
            if body.strip():
                bodies.append(requote(body, language))
            i = code.find(opener, end + 1)
    return bodies


# (language, socket markers, spawn markers): both in one code string is a reverse shell.
_SOCKET_SPAWN: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "node": (("net.socket", "net.connect", "net.createconnection", "new net.", "tls.connect",
              'require("net")', "require('net')", 'require("node:net")', "require('node:net')",
              "from 'net'", 'from "net"', "from 'node:net'", 'from "node:net"'),
             ("child_process", "spawn(", "exec(", "execsync(", "/bin/sh", "/bin/bash")),
    "perl": (("io::socket", "socket(", "fdopen"),
             ("exec", "system", "|sh", "| sh", "/bin/sh", "/bin/bash", "`", "qx")),
    "ruby": (("tcpsocket", "socket.new", "socket.tcp", "udpsocket"),
             ("io.popen", "exec", "spawn", "system", "`", "%x", "open3", "/bin/sh")),
    "lua": (("socket", "luasocket"),
            ("os.execute", "io.popen", "/bin/sh")),
    "php": (("fsockopen", "socket_create", "stream_socket_client"),
            ("exec", "system", "passthru", "popen", "proc_open", "shell_exec", "`")),
}


def socket_shell(code: str, language: str) -> bool:
    """True when ``code`` opens a network socket and starts a process or shell."""
    markers = _SOCKET_SPAWN.get(language)
    if markers is None:
        return False
    lowered = code.lower()
    return any(m in lowered for m in markers[0]) and any(m in lowered for m in markers[1])


_RUN_CALLS = ("system(", "popen(", "exec(", "spawn(", "execSync(", "getoutput(",
              "check_output(", "check_call(", "call(", "run(", "Popen(", "shell_exec(",
              "passthru(", "execute(")


def _ident_at(code: str, k: int) -> tuple[str, int]:
    j = k
    while j < len(code) and j < k + 128 and (code[j].isalnum() or code[j] == "_"):
        j += 1
    return code[k:j], j


def constant_commands(code: str, consts: dict[str, str]) -> list[str]:
    """Commands a run call gets through a variable holding a constant string:
    ``c = "rm -rf ~"; os.system(c)``, awk ``-v c='...' 'BEGIN{system(c)}'``."""
    if not consts:
        return []
    out: list[str] = []
    for call in _RUN_CALLS:
        at = code.find(call)
        for _ in range(16):
            if at == -1:
                break
            k = at + len(call)
            if data_call(code, k - 1):
                at = code.find(call, at + 1)
                continue  # q = "select .."; cur.execute(q): SQL, not a command
            while k < len(code) and k < at + 128 and code[k] in " \t[":
                k += 1
            name, j = _ident_at(code, k)
            while j < len(code) and j < k + 256 and code[j] in " \t":
                j += 1
            if name in consts and j < len(code) and code[j] in "),]":
                out.append(consts[name])
            at = code.find(call, at + 1)
    # awk: cmd | getline, print | cmd
    for marker in ("| getline", "|getline"):
        at = code.find(marker)
        if at > 0:
            j = at
            floor = max(0, at - 128)
            while j > floor and code[j - 1] in " \t":
                j -= 1
            k = j
            while k > floor and (code[k - 1].isalnum() or code[k - 1] == "_"):
                k -= 1
            if code[k:j] in consts:
                out.append(consts[code[k:j]])
    return out[:16]


def string_constants(code: str, literals: tuple[tuple[int, int, str], ...]) -> dict[str, str]:
    """``NAME = "literal"`` assignments in interpreter code (first value of each name)."""
    out: dict[str, str] = {}
    for start, _end, value in literals[:256]:
        j = start
        floor = max(0, start - 128)  # bounded look-back: linear over hostile spacing
        while j > floor and code[j - 1] in " \t":
            j -= 1
        if j == 0 or code[j - 1] != "=" or (j > 1 and code[j - 2] in "=!<>"):
            continue
        j -= 1
        while j > floor and code[j - 1] in " \t":
            j -= 1
        k = j
        while k > floor and (code[k - 1].isalnum() or code[k - 1] == "_"):
            k -= 1
        if k < j and value[:1] != "`":
            out.setdefault(code[k:j], value[1:])
    return out


def awk_dynamic_pipe(code: str) -> bool:
    """awk ``cmd | getline`` or ``print | cmd`` with a variable as the command."""
    for marker in ("| getline", "|getline"):
        at = code.find(marker)
        if at > 0 and code[:at].rstrip()[-1:] not in ('"', "'"):
            return True
    return False


def awk_assigns(args: list[Field]) -> dict[str, str]:
    """awk's ``-v NAME=VALUE`` constants."""
    out: dict[str, str] = {}
    for index, f in enumerate(args[:-1]):
        if f.text in ("-v", "--assign"):
            name, eq, value = args[index + 1].text.partition("=")
            if eq and DYN not in value:
                out[name] = value
    return out


# A delete call whose argument is the home directory spelled as a call, not a literal.
_DELETES = ("rmtree(", "rm_rf(", "rm_r(", "remove_dir_all(", "rmsync(", "removeall(",
            "deleterecursively(")
_DELETES_RE = word_gate(_DELETES)
_HOMES = ("path.home()", "pathlib.path.home()", "os.environ['home']", 'os.environ["home"]',
          "os.getenv('home')", 'os.getenv("home")', "os.homedir()", "dir.home", "env['home']",
          'env["home"]', "$env{home}", "$env{'home'}", "getenv('home')", 'getenv("home")',
          "os.path.expanduser('~')", 'os.path.expanduser("~")')


def deletes_home(code: str) -> bool:
    """``shutil.rmtree(Path.home())``, ``FileUtils.rm_rf(Dir.home)``: home deleted."""
    lowered = code.lower()
    if _DELETES_RE.search(lowered) is None:
        return False
    squeezed = lowered.replace(" ", "")
    return any(d + h + ")" in squeezed for d in _DELETES for h in _HOMES)


# Library calls that install packages from inside interpreter code, by language.
_INSTALL_CALLS = {
    "R": ("install.packages(", "install_github(", "install_gitlab(", "install_bitbucket(",
          "install_url(", "install_git(", "install_cran(", "install_version(",
          "BiocManager::install(", "pak::pkg_install(", "pak::pak(", "renv::install(",
          "remotes::install_", "devtools::install_"),
    "julia": ("Pkg.add(", "Pkg.develop(", 'pkg"add', "Pkg.instantiate("),
    "python": ("pip.main(", "pip._internal", "ensurepip.bootstrap("),
    "ruby": ("Gem.install(", "Gem::Installer", "Gem::DependencyInstaller"),
    "perl": ("CPAN::Shell->install(", "CPAN::install(", "App::cpanminus"),
}
_INSTALL_CALLS["Rscript"] = _INSTALL_CALLS["R"]


def package_install_call(text: str, language: str) -> str | None:
    """The package-installing library call in ``language`` code (``install.packages(``,
    ``Pkg.add(``, ``pip.main(``), or None. Substring tests: linear."""
    for call in _INSTALL_CALLS.get(language, ()):
        if call in text:
            return call.rstrip("(")
    return None
