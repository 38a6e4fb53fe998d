"""Coding-agent configuration written in the same command: commands the agent runs later.

Claude Code runs the ``command`` of every hook in ``.claude/settings.json`` (``PreToolUse``,
``PostToolUse``, ``SessionStart``...) on each matching event, its ``statusLine`` command on
every refresh and ``apiKeyHelper`` for credentials; ``.mcp.json`` (and Cursor's, Gemini
CLI's, VS Code's MCP files, ``~/.claude.json``) starts each server's ``command`` with its
``args`` when the agent starts; Codex runs ``notify`` and its ``mcp_servers`` commands from
``~/.codex/config.toml``. Writing such a file is persistence like a git hook (``_githooks``):

* known text: each command is classified as shell code run later, and its findings are kept
  when they block (``"command": "curl -s u|sh"`` blocks), while everyday hooks
  (``npx prettier --write``, an MCP server run by ``npx -y @org/server``) pass;
* fetched or decoded data written there warns (``shell.deferred-exec``): what the agent
  will run is not known.

Instruction files agents load at every start (``CLAUDE.md``, ``AGENTS.md``, ``GEMINI.md``,
``.cursorrules``, ``.cursor/rules/*``, ``.github/copilot-instructions.md``, Claude Code's
commands, agents and skills) are prompt text, not commands: writing fetched or decoded data
into one warns the same way (a prompt injection that persists into every later session);
text the command writes itself passes (agents keep their own notes there) unless it reads
as a planted prompt injection (``_agentnotes``).

Settings that switch the guard's hooks off or loosen the agent's permission prompts
(``"defaultMode": "bypassPermissions"``, ``"allow": ["Bash(*)"]``, ``{}`` over the user's
``~/.claude/settings.json``, Codex's ``danger-full-access``) are read by ``_agentperms``.

Bounded: at most :data:`_MAX_COMMANDS` commands per file, nesting followed to
:data:`_MAX_DEPTH` levels; never raises.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import TYPE_CHECKING

from ._agentcli import unknown_server
from ._agentnotes import planted_instructions
from ._agentperms import policy_findings, settings_file, text_findings
from ._gate import word_gate
from ._keep import keep_if_blocking
from ._named import file_span
from ._words import DYN, Field, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["agent_config_written"]

_FILES = (".claude/settings.json", ".claude/settings.local.json", ".mcp.json", ".claude.json",
          ".cursor/hooks.json", ".cursor/mcp.json", ".gemini/settings.json", ".vscode/mcp.json",
          ".codex/config.toml")
_COMMAND_KEYS = frozenset({"command", "apiKeyHelper", "awsAuthRefresh", "awsCredentialExport",
                           "otelHeadersHelper"})
_FETCHED = frozenset({"fetch", "decode"})
_MAX_COMMANDS = 32
_MAX_DEPTH = 12
_COMMAND_RE = re.compile(r'"command"\s*:\s*"((?:[^"\\\n]|\\.){1,2000})"')


def _config(path: str) -> str | None:
    for name in _FILES:
        if path == name or path.endswith("/" + name):
            return name
    return None


# Instruction files coding agents load into their context at every start (Claude Code's
# CLAUDE.md, memory and commands, AGENTS.md, Gemini's GEMINI.md, Cursor, Copilot, Windsurf
# and Cline rules): text written there steers every later session.
_INSTRUCTION_NAMES = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENT.md",
                                "GEMINI.md", ".cursorrules", ".windsurfrules", ".clinerules",
                                "copilot-instructions.md"})
_INSTRUCTION_DIRS = ("/.cursor/rules/", "/.clinerules/", "/.claude/commands/",
                     "/.claude/agents/", "/.claude/skills/", "/.github/instructions/",
                     "/.windsurf/rules/")
_INSTRUCTION_DIRS_RE = word_gate(_INSTRUCTION_DIRS)


def _instructions(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    if name in _INSTRUCTION_NAMES:
        return True
    return _INSTRUCTION_DIRS_RE.search("/" + path) is not None


def agent_config_written(run: Run) -> None:
    """After the walk: agent configuration files the command wrote (see the module doc)."""
    for path, taint in list(run.files.items())[:256]:
        config = _config(path) is not None
        if not config and not _instructions(path):
            continue
        src = first_source(taint, _FETCHED)
        if src is None:
            continue
        what = "whose commands a coding agent runs later" if config else \
            "which a coding agent reads as instructions in every later session"
        run.add("shell.deferred-exec", file_span(run, path), f"writes fetched or decoded data "
                f"into {path}, {what}", f"{src.describe()} was written to {path}")
    for path, text in list(run.file_text.items())[:64]:
        name = _config(path)
        if DYN not in text and settings_file(path):
            _settings(run, path, text)  # "defaultMode": "bypassPermissions", hooks emptied
        if name is None and DYN not in text and _instructions(path):
            planted_instructions(run, path, text, file_span(run, path))
        if '"shell.' in text and "off" in text or "allow" in text and path.endswith(".toml"):
            _policy(run, path, text)  # [rules] "shell.pipe-to-shell" = "off" (a guard policy)
        if name is None or DYN in text:
            continue
        span = file_span(run, path)
        servers = "mcp" in name or name == ".claude.json" or "mcp_servers" in text or \
            "mcpServers" in text
        for code in _commands(text, name.endswith(".toml"))[:_MAX_COMMANDS]:
            if not keep_if_blocking(run, run.run_code, Field(code, span),
                                    f"a command in {path}", span, None, positional=[]) and \
                    servers and (package := unknown_server(code)) is not None:
                run.add("shell.deferred-exec", span, f"adds an MCP server to {path} from "
                        f"{package}, a package of an unknown publisher: the agent starts it "
                        "at every launch", None)




def _settings(run: Run, path: str, text: str) -> None:
    """Settings text switching the guard's hooks or the agent's permission prompts off
    (``_agentperms``)."""
    for blocks, what in text_findings(path, text)[:4]:
        run.add("shell.defense-off" if blocks else "shell.defense-weaken", file_span(run, path),
                f"writes {path}: {what}", None)


def _policy(run: Run, path: str, text: str) -> None:
    """A deerguard policy that switches the guard's rules off or allows every program."""
    off = policy_findings(text)
    if off:
        what = "allows every program" if off == ["*"] else \
            f"switches the rule {', '.join(r for r in off if r != '*')} off"
        run.add("shell.defense-off", file_span(run, path), f"writes a deerguard policy into "
                f"{path} that {what}: the guard stops checking what it names", None)


def _commands(text: str, toml: bool) -> list[str]:
    """The command lines of a config text (JSON, or TOML for Codex)."""
    data: object
    try:
        data = tomllib.loads(text) if toml else json.loads(text)
    except (ValueError, RecursionError):
        if toml:
            return []
        return [m.group(1).replace('\\"', '"').replace("\\\\", "\\")
                for m in _COMMAND_RE.finditer(text[:20000])]
    out: list[str] = []
    _walk(data, out, 0)
    return out


def _walk(node: object, out: list[str], depth: int) -> None:
    if depth > _MAX_DEPTH or len(out) >= _MAX_COMMANDS:
        return
    if isinstance(node, list):
        for item in node[:64]:
            _walk(item, out, depth + 1)
        return
    if not isinstance(node, dict):
        return
    for key, value in list(node.items())[:64]:
        if key in _COMMAND_KEYS and isinstance(value, str):
            args = node.get("args") if key == "command" else None
            words = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
            out.append(" ".join([value, *(_quoted(w) for w in words)]))
        elif key == "notify" and isinstance(value, list) and all(
                isinstance(v, str) for v in value) and value:
            out.append(" ".join(_quoted(v) for v in value))  # Codex: notify = [PROG, ARGS]
        else:
            _walk(value, out, depth + 1)


def _quoted(word: str) -> str:
    if word and all(c.isalnum() or c in "-_./=:,+@%" for c in word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"
