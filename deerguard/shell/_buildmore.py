"""More files whose text a tool turns into commands: build scripts and tools' startup files.

Each reader takes a file's known text and returns the shell commands the tool would run from
it, as command lines (words shell-quoted), so they are classified like any shell code:

* ``build.rs`` (run by ``cargo build``): ``Command::new("sh").arg("-c").arg("CMD")`` chains
  and ``.args(["a", "b"])``;
* Go files: ``//go:generate CMD`` lines (run by ``go generate``) and ``exec.Command``
  calls (run by ``go run``/``go test``);
* Terraform ``*.tf``: ``local-exec`` provisioners' ``command`` (a string or a heredoc) and
  ``data "external"`` ``program`` lists (run by ``terraform plan``/``apply``);
* a ``Rakefile``'s ``sh "CMD"`` calls (Rake's own, besides the Ruby code);
* ``~/.tmux.conf``: ``run-shell``/``if-shell``/``new-window`` commands, ``default-command``
  and ``#(CMD)`` status substitutions; ``~/.gdbinit``: ``shell``/``!``/``pipe`` escapes and
  ``python`` lines (as ``python3 -c CODE``).

Every reader is bounded (first lines, first matches), linear, and never raises.
"""

from __future__ import annotations

import re
import shlex

from ._embedded import embedded_code
from ._paths import norm_path
from ._resolve import Invocation
from ._words import Field

__all__ = ["gdb_commands", "go_exec", "go_generate", "rake_commands", "rust_commands",
           "terraform_commands", "terraform_files", "tmux_commands", "tmux_line_words"]

_MAX_LINES = 512
_MAX_OUT = 64
_QUOTED = r'"((?:[^"\\\n]|\\.){0,2000})"'
_RUST_NEW = re.compile(r"Command::new\(\s*+" + _QUOTED + r"\s*+\)")
_RUST_ARG = re.compile(r"\.(arg|args)\(\s*+&?(?:\[|vec!\[)?")
_STRING = re.compile(_QUOTED)
_TF_COMMAND = re.compile(r"\bcommand\s*+=\s*+(?:" + _QUOTED + r"|<<-?\s*+([A-Za-z_]\w{0,40}))")
_TF_LIST = re.compile(r"\b(?:program|interpreter)\s*+=\s*+\[([^\]\n]{0,4000})\]")
_GO_EXEC = re.compile(r"\bexec\.Command(?:Context)?\(")
_RAKE_SH = re.compile(r"(?:^|[\s;({])sh\s*+\(?\s*+(?:" + _QUOTED + r"|'([^'\n]{0,2000})')")


def _unescape(text: str) -> str:
    """A C-like string body (Rust, Go, HCL): ``\\"``, ``\\\\``, ``\\n``, ``\\t``."""
    if "\\" not in text:
        return text
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)),
                  text)


def rust_commands(text: str) -> list[str]:
    """The command lines of a Rust file's ``Command::new(P).arg(A).args([B, C])`` chains."""
    out: list[str] = []
    for m in _RUST_NEW.finditer(text[:200_000]):
        words = [_unescape(m.group(1))]
        chain = text[m.end():m.end() + 4000].split(";", 1)[0]
        for arg in _RUST_ARG.finditer(chain):
            rest = chain[arg.end():]
            if arg.group(1) == "arg":
                lit = _STRING.match(rest.lstrip())
                if lit is not None:
                    words.append(_unescape(lit.group(1)))
            else:
                body = rest.split("]", 1)[0].split(")", 1)[0]
                words.extend(_unescape(s) for s in _STRING.findall(body)[:32])
        out.append(shlex.join(words))
        if len(out) >= _MAX_OUT:
            break
    return out


def go_generate(text: str) -> list[str]:
    """The ``//go:generate CMD`` lines of a Go file."""
    if "go:generate" not in text:
        return []
    return [line[len("//go:generate"):].strip() for line in text.splitlines()[:_MAX_LINES * 4]
            if line.startswith("//go:generate ")][:_MAX_OUT]


def go_exec(text: str) -> list[str]:
    """The command lines of a Go file's ``exec.Command("sh", "-c", "CMD")`` and
    ``exec.CommandContext(ctx, ...)`` calls (their string literal arguments)."""
    if "exec.Command" not in text:
        return []
    out: list[str] = []
    for m in _GO_EXEC.finditer(text[:200_000]):
        args = text[m.end():m.end() + 4000].split(")", 1)[0]
        words = [_unescape(w) for w in _STRING.findall(args)[:32]]
        if words:
            out.append(shlex.join(words))
        if len(out) >= _MAX_OUT:
            break
    return out


def terraform_commands(text: str) -> list[str]:
    """``local-exec`` commands and ``external`` data source programs of a ``.tf`` file."""
    if "command" not in text and "program" not in text:
        return []
    out: list[str] = []
    body = text[:200_000]
    for m in _TF_COMMAND.finditer(body):
        if m.group(1) is not None:
            out.append(_unescape(m.group(1)))
        else:
            tag = m.group(2)
            start = body.find("\n", m.end())
            lines: list[str] = []
            rest = body[start + 1:start + 20_001] if start >= 0 else ""
            for line in rest.splitlines()[:_MAX_LINES]:
                if line.strip() == tag:
                    break
                lines.append(line)
            out.append("\n".join(lines))
        if len(out) >= _MAX_OUT:
            break
    for m in _TF_LIST.finditer(body):
        words = [_unescape(s) for s in _STRING.findall(m.group(1))[:32]]
        if words:
            out.append(shlex.join(words))
    return [c for c in out if c.strip()][:_MAX_OUT]


_TF_RUNS = frozenset({"plan", "apply", "destroy", "refresh", "import", "console", "test"})


def terraform_files(args: list[Field], cwd: str | None, written: list[str]) -> list[str]:
    """The ``written`` files ``terraform plan|apply`` reads: every ``*.tf`` of its directory
    (``-chdir=DIR``); its ``external`` data sources run at plan, ``local-exec`` at apply."""
    where = ""
    sub = ""
    for f in args[:16]:
        if f.text.startswith("-chdir="):
            where = f.text[7:]
        elif not f.text.startswith("-"):
            sub = f.text
            break
    if sub not in _TF_RUNS:
        return []
    base = norm_path(where or ".", cwd)
    prefix = f"{base.rstrip('/')}/" if base is not None and base != "." else ""
    return [p for p in dict.fromkeys(written) if p.endswith((".tf", ".tf.json")) and
            p.startswith(prefix) and "/" not in p[len(prefix):]][:16]


def rake_commands(text: str) -> list[str]:
    """The ``sh "CMD"`` calls of a Rakefile (Rake runs them with a shell)."""
    if "sh" not in text:
        return []
    out: list[str] = []
    for m in _RAKE_SH.finditer(text[:200_000]):
        out.append(_unescape(m.group(1)) if m.group(1) is not None else m.group(2))
        if len(out) >= _MAX_OUT:
            break
    return [c for c in out if c.strip()]


def tmux_line_words(line: str) -> list[str]:
    """The words of one tmux configuration line, comments dropped; a key binding (``bind
    [-nr] [-T table] KEY COMMAND...``) gives the words of the command bound to the key."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        words = line.split()
    if words and words[0] in ("bind", "bind-key"):
        rest = words[1:]
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0] == "-T" else rest[1:]
        words = rest[1:]
    return words


def tmux_commands(text: str) -> list[str]:
    """The shell commands of a tmux configuration file."""
    out: list[str] = []
    word = Field("tmux", (0, 0))
    for line in text.splitlines()[:_MAX_LINES]:
        if "#(" in line:  # status-right '#(CMD)': run at every status refresh
            out.extend(piece.split(")", 1)[0] for piece in line.split("#(")[1:8])
        words = tmux_line_words(line)
        if words and words[0] in ("set", "set-option", "setw", "set-window-option") and \
                "default-command" in words[:-1]:
            out.append(words[words.index("default-command") + 1])
            continue
        if words and words[0] == "set-hook" and len(words) > 2:
            try:  # set-hook -g session-created 'run-shell "CMD"': a tmux command
                words = shlex.split(words[-1])
            except ValueError:
                words = words[-1].split()
        fields = [Field(w, (0, 0)) for w in words[:64]]
        out.extend(c.text for c in embedded_code(Invocation("tmux", word, fields)))
        if len(out) >= _MAX_OUT:
            break
    return [c for c in out if c.strip()][:_MAX_OUT]


def gdb_commands(text: str) -> list[str]:
    """The shell escapes (``shell``, ``!``, ``pipe``) and ``python`` lines of a gdb script,
    as shell command lines (Python code as ``python3 -c CODE``)."""
    out: list[str] = []
    block: list[str] | None = None
    for line in text.splitlines()[:_MAX_LINES]:
        cmd = line.strip()
        if block is not None:
            if cmd == "end":
                out.append(shlex.join(["python3", "-c", "\n".join(block)]))
                block = None
            else:
                block.append(line)
            continue
        head, _, rest = cmd.partition(" ")
        if cmd.startswith("!"):
            out.append(cmd[1:])
        elif head in ("shell", "she"):
            out.append(rest)
        elif head in ("pipe", "|") or cmd.startswith("|"):
            body = cmd[1:] if cmd.startswith("|") else rest
            out.append(body.split("|", 1)[1] if "|" in body else "")
        elif head in ("python", "py", "pi", "python-interactive"):
            if rest.strip():
                out.append(shlex.join(["python3", "-c", rest]))
            else:
                block = []
        if len(out) >= _MAX_OUT:
            break
    if block:
        out.append(shlex.join(["python3", "-c", "\n".join(block)]))
    return [c for c in out if c.strip()][:_MAX_OUT]
