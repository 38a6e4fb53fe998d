"""An agent switching off the guard that checks its commands, or loosening its permissions.

deerguard runs as the agent's pre-tool hook (``deerguard hook claude-code`` in
``.claude/settings.json``, see ``_hookcli``). An agent that the guard blocks can try to
take it away; the ways a command does that, and what this module decides:

* the guard's program or package replaced, moved, emptied or deleted (``shell.defense-off``,
  block): ``ln -sf /bin/true ~/.local/bin/deerguard``, ``echo 'exit 0' > $(which
  deerguard)``, ``chmod 000 $(command -v deerguard)``, ``rm -rf
  .venv/lib/python3.12/site-packages/deerguard``, ``pip uninstall -y deerguard`` (also
  ``pipx``, ``uv tool``/``uv pip``, ``python -m pip``, ``conda``/``brew``);
* the hooks removed from an agent's settings by an editor (block): ``jq 'del(.hooks)'
  ~/.claude/settings.json > t && mv t ~/.claude/settings.json``, ``sed -i '/deerguard/d'
  .claude/settings.json``; permissions loosened the same way (``jq '.permissions.allow +=
  ["Bash(*)"]'``, ``sed -i 's/"allow": \\[/"allow": ["Bash(*)",/'``): what each edit means is
  read by ``_agentperms``; settings text written whole is read after the walk
  (``_agentconf``);
* the settings file holding the hooks deleted or moved away (``shell.defense-weaken``,
  warn): ``rm ~/.claude/settings.json``, ``mv .claude/settings.json x.bak`` (it may or may
  not hold the guard's hook); by ``find ... -delete`` or interpreter code, and the guard's
  name shadowed by an alias or function: ``_guardmore``.

Also here: agent programs started with their checks off and MCP servers added by ``claude
mcp add`` (``_agentcli``), and Python/node ``-c`` code deleting hooks from a settings file.
A deerguard policy written with rules ``"off"`` or ``allow = ["*"]`` is read after the walk
(``_agentconf``).

Everyday neighbours stay quiet: ``which deerguard``, ``cat ~/.claude/settings.json``,
``cp $(which deerguard) /tmp/`` (a copy), ``chmod +x ~/.local/bin/deerguard``, ``jq
.permissions .claude/settings.json``, a narrow allow added with jq. Gated by program name
(:data:`GUARD_TOOLS`) and then a substring test on the arguments; never raises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._agentcli import AGENT_CLIS, agent_cli
from ._agentperms import SETTINGS_SUFFIXES, filter_findings, hooks_file, settings_file
from ._gate import word_gate
from ._guardmore import code_settings, find_settings
from ._jqenv import jq_parts
from ._optwalk import walk_options
from ._paths import norm_path
from ._sedargs import SED_LONG, SED_SHORT, SEDS
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["GUARD_TOOLS", "guard_tool", "guard_write"]

_GUARD = "deerguard"
_DELETERS = frozenset({"rm", "unlink", "shred", "srm", "wipe", "truncate", "trash",
                       "trash-put", "gio"})
_PLACERS = frozenset({"ln", "cp", "install", "rsync", "ditto"})  # the last operand is written
_WRITERS = frozenset({"tee", "sponge", "dd"})
_INSTALLERS = frozenset({"pip", "pip3", "pipx", "uv", "conda", "mamba", "micromamba", "brew",
                         "poetry", "pdm", "python", "python3", "pixi"})
_JQS = frozenset({"jq", "gojq", "jaq", "yq"})
_CODERS = frozenset({"python", "python3", "node", "bun", "deno"})
GUARD_TOOLS = _DELETERS | _PLACERS | _WRITERS | _INSTALLERS | _JQS | SEDS | _CODERS | \
    frozenset({"mv", "chmod", "find"}) | AGENT_CLIS
"""Programs :func:`guard_tool` looks at."""

_LOOKUPS = ("which", "command -v", "command -V", "type -p", "type -P", "whereis", "realpath",
            "readlink")
_INSTALL_DIRS = ("-packages/deerguard", "/pipx/venvs/deerguard", "/uv/tools/deerguard")
_UNINSTALL = frozenset({"uninstall", "remove", "rm", "erase"})



def _source(run: Run, f: Field) -> str:
    start, end = f.span
    text = run.text_stack[-1]
    return text[start:end] if 0 <= start < end <= len(text) and end - start < 512 else ""


def _is_guard(run: Run, f: Field) -> bool:
    """``f`` names the guard's program or installed package."""
    t = f.text
    if DYN in t or not f.static:
        src = _source(run, f)  # $(which deerguard), `command -v deerguard`
        return _GUARD in src and any(w in src for w in _LOOKUPS)
    if _GUARD not in t:
        return False
    path = norm_path(t, run.cwd) or t
    if any(d in path for d in _INSTALL_DIRS):
        return True
    parent, _, base = path.rpartition("/")
    return base in (_GUARD, _GUARD + ".exe") and parent.endswith(("bin", "Scripts"))


def _off(run: Run, f: Field, what: str) -> None:
    run.add("shell.defense-off", f.span, f"{what}: the guard that checks the agent's "
            "commands stops working", None)


def _operands(inv: Invocation) -> list[Field]:
    out: list[Field] = []
    ended = False
    for f in inv.args:
        if not ended and f.text == "--":
            ended = True
        elif ended or not f.text.startswith("-") or f.text == "-":
            out.append(f)
    return out


def guard_tool(run: Run, inv: Invocation) -> None:
    """``inv`` (one of :data:`GUARD_TOOLS`) taking the guard away or loosening an agent's
    settings (see the module doc)."""
    args = inv.args
    if inv.name in AGENT_CLIS:
        if args:
            agent_cli(run, inv)  # claude --dangerously-skip-permissions, claude mcp add
        return
    if inv.name in _JQS:
        # jq reads a settings file (by its name; any .json/.toml file after a cd), one not
        # known statically, or a filter that edits hooks or permissions (settings on stdin):
        # jq in an everyday pipeline (curl ... | jq .) or on package.json costs one search
        # per argument.
        if any(_JQ_GATE.search(f.text) is not None or f.text.endswith(SETTINGS_SUFFIXES)
               for f in args) or (run.cwd is not None and any(
                   f.text.endswith((".json", ".toml")) for f in args)):
            _jq(run, inv)
        return
    name = inv.name
    if name == "find":
        if any(".claude" in f.text or ".cursor" in f.text for f in args):
            find_settings(run, inv)  # find .claude -name settings.json -delete (_guardmore)
        return
    if not any(_ARG_GATE.search(f.text) is not None for f in args):
        return  # the common case: nothing here names the guard or an agent's settings
    if name in _CODERS and not any(f.text == "pip" for f in args):
        _code(run, inv)
    elif name in _INSTALLERS:
        _uninstall(run, inv)
    elif name in SEDS:
        _sed(run, inv)
    else:
        _files(run, inv)


def _uninstall(run: Run, inv: Invocation) -> None:
    texts = [f.text for f in inv.args]
    if not _UNINSTALL.intersection(texts) or (
            inv.name.startswith("python") and "pip" not in texts):
        return
    for f in inv.args:
        low = f.text.lower()
        if low == _GUARD or low.startswith((_GUARD + "=", _GUARD + "[", _GUARD + "<")):
            _off(run, f, f"{inv.name} removes the deerguard package")
            return


def _files(run: Run, inv: Invocation) -> None:
    name = inv.name
    ops = _chmod_operands(inv) if name == "chmod" else _operands(inv)
    if not ops:
        return
    if name == "chmod":
        if _drops_exec(ops[0].text):
            for f in ops[1:]:
                if _is_guard(run, f):
                    _off(run, f, f"chmod {ops[0].text} makes the guard's program unrunnable")
                    return
        return
    targets = ops
    if name in _PLACERS:
        targets = ops[-1:] if len(ops) > 1 else []
        if targets and ops[0].text == "/dev/null":
            _emptied(run, targets[0], name)
    for f in targets:
        if _is_guard(run, f):
            how = "deletes" if name in _DELETERS else "moves" if name == "mv" else "overwrites"
            _off(run, f, f"{name} {how} the guard's program {f.text}")
            return
    if name in _DELETERS or name == "mv":
        for f in ops[:-1] if name == "mv" else ops:
            path = norm_path(f.text, run.cwd) if f.static else None
            if path is not None and (hooks_file(path) or path.endswith("/.claude") or
                                     path in ("~/.claude", ".claude")):
                run.add("shell.defense-weaken", f.span, f"{name} takes away {path}, the "
                        "agent settings where the guard's hook may be installed", None)
                return


_CHMOD_FLAGS = frozenset({"-R", "-f", "-v", "-c", "-h", "-H", "-L", "-P", "-Rf", "-fR",
                          "-Rv", "-vR"})


def _chmod_operands(inv: Invocation) -> list[Field]:
    """chmod's mode then its files: a mode may start with ``-`` (``chmod -x f``)."""
    return [f for f in inv.args if f.text not in _CHMOD_FLAGS and not f.text.startswith("--")]


def _emptied(run: Run, f: Field, name: str) -> None:
    """``cp /dev/null ~/.claude/settings.json``: the hooks file emptied."""
    path = norm_path(f.text, run.cwd) if f.static else None
    if path is not None and hooks_file(path):
        user = path.startswith(("~/", "/root/", "/home/", "/Users/"))
        run.add("shell.defense-off" if user else "shell.defense-weaken", f.span,
                f"{name} empties {path}, the agent settings where the guard's hook is "
                "installed", None)


def _drops_exec(mode: str) -> bool:
    """A chmod mode that takes the owner's execute bit away (000, 644, -x, a-x, u=rw)."""
    if mode.isascii() and mode.isdecimal():
        return len(mode) >= 3 and int(mode[-3]) % 2 == 0
    for clause in mode.split(","):
        who, op, perms = clause.partition("-") if "-" in clause else clause.partition("=")
        if op and (who == "" or "u" in who or "a" in who) and (
                ("x" in perms) if op == "-" else ("x" not in perms)):
            return True
    return False


def _jq(run: Run, inv: Invocation) -> None:
    filt, files, pairs = jq_parts(inv.args)
    texts = [value for _opt, _name, value in pairs]
    if filt is None:
        return
    for f in files:
        path = norm_path(f.text, run.cwd) if f.static else None
        if path is not None and settings_file(path):
            _report(run, filt, inv.name, path, filter_findings(inv.name, [filt.text, *texts]))
            return
    if not files and any(w in filt.text for w in _STDIN_GATE):
        # jq 'del(.hooks)' < ~/.claude/settings.json, cat F | jq ...: the settings file is
        # named elsewhere in the command (read once, only for such a filter).
        named = next((n for n in _SETTINGS_NAMES[:2] if n in run.source), None)
        if named is not None:
            _report(run, filt, inv.name, named, filter_findings(inv.name, [filt.text, *texts]))


def _sed(run: Run, inv: Invocation) -> None:
    inplace = False
    scripts: list[Field] = []
    operands: list[Field] = []
    for opt, value, _k in walk_options(inv.args, SED_SHORT, SED_LONG, optional="i"):
        if opt is None and value is not None:
            operands.append(value)
        elif opt in ("i", "--in-place"):
            inplace = True
        elif opt in ("e", "--expression") and value is not None:
            scripts.append(value)
    if not inplace:
        return
    if not scripts and operands:
        scripts, operands = operands[:1], operands[1:]
    for f in operands:
        if _is_guard(run, f):
            _off(run, f, f"{inv.name} -i edits the guard's program {f.text}")
            return
        path = norm_path(f.text, run.cwd) if f.static else None
        if path is not None and path.endswith(".toml") and _rules_off(scripts):
            _off(run, f, f"{inv.name} -i switches the guard's policy rules off in {path}")
            return
        if path is not None and settings_file(path) and scripts:
            found = filter_findings(inv.name, [s.text for s in scripts])
            _report(run, scripts[0], inv.name, path, found)
            return


_CODE_EDITS = ("del ", ".pop(", "delete ", "={}", "=[]", "=None", "=null", "Reflect.deleteProperty")


def _code(run: Run, inv: Invocation) -> None:
    """Python or node code (``-c``/``-e``) that edits an agent's settings file: hooks
    removed (``del d["hooks"]``, ``delete s.hooks``) or permissions loosened."""
    args = inv.args
    code = next((args[k + 1] for k, f in enumerate(args[:-1])
                 if f.text in ("-c", "-e", "--eval", "-p", "--print")), None)
    if code is None:
        return
    text = code.text[:20000]
    path = next((p for p in _SETTINGS_NAMES if p in text), None)
    if path is None:
        if ".claude" in text or ".cursor" in text:
            code_settings(run, inv, code)  # shutil.rmtree(".claude")
        return
    found = filter_findings("code", [text])
    squeezed = "".join(text.split()).replace("'", '"')
    if any(w in text for w in ("hooks", "PreToolUse")) and any(
            e.replace(" ", "") in squeezed for e in _CODE_EDITS) and \
            "deerguard" not in text and not found:
        found = [(True, "deletes the hooks, the guard's included")]
    if not found and code_settings(run, inv, code):
        return  # open(".claude/settings.json", "w"), os.remove(...) (_guardmore)
    _report(run, code, inv.name, path, found)


_STDIN_GATE = ("hooks", "PreToolUse", "ermissions", "defaultMode", "autoApprove")
_JQ_GATE = word_gate((*_STDIN_GATE, DYN))
# What an argument of a copier, editor, installer or interpreter must hold for guard_tool
# to read it: the guard's name, an agent's settings or config, or an unknown value.
_ARG_GATE = word_gate((_GUARD, DYN, "settings", "config", "claude", ".json", ".toml"))
_SETTINGS_NAMES = (".claude/settings.json", ".claude/settings.local.json", "settings.json",
                   ".codex/config.toml", "config.toml", "mcp.json", "hooks.json")


def _rules_off(scripts: list[Field]) -> bool:
    """A sed script turning deerguard policy rules off (``s/= "block"/= "off"/``,
    ``s/"shell.pipe-to-shell" = "warn"/"shell.pipe-to-shell" = "off"/``)."""
    return any('"off"' in s.text and ("shell." in s.text or '"block"' in s.text or
                                      '"warn"' in s.text) for s in scripts)


def _report(run: Run, f: Field, name: str, path: str, found: list[tuple[bool, str]]) -> None:
    for blocks, what in found[:4]:
        run.add("shell.defense-off" if blocks else "shell.defense-weaken", f.span,
                f"{name} edits {path}: {what}", None)


def guard_write(run: Run, f: Field) -> None:
    """A redirection writing ``f``: over the guard's program (``> $(which deerguard)``)."""
    if _is_guard(run, f):
        _off(run, f, f"the redirection overwrites the guard's program {f.text}")
