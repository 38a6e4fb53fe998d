"""Agent settings that switch the guard off or loosen what the agent may do without asking.

A coding agent's settings decide which hooks run before each tool call (deerguard runs as
Claude Code's ``PreToolUse`` hook, see ``_hookcli``) and which commands run without a
prompt. An agent rewriting its own settings can silence both. Read here, from the settings
text a command writes when it is known (``echo TEXT > ~/.claude/settings.json``, a heredoc,
``printf >> ~/.codex/config.toml``, see ``run.file_text``), from a ``jq``/``yq`` filter
applied to a settings file, and from a ``sed -i`` script run on one:

* ``shell.defense-off`` (block): the hooks removed or emptied (``del(.hooks)``,
  ``.hooks={}``, ``"disableAllHooks": true``, ``sed -i '/deerguard/d'``), the user-level
  settings replaced by a text without hooks (``echo '{}' > ~/.claude/settings.json``),
  permission prompts bypassed (``"defaultMode": "bypassPermissions"``), every shell command
  allowed (``"allow": ["Bash(*)"]``, Cursor's ``Shell(*)``), Codex's sandbox off
  (``sandbox_mode = "danger-full-access"``), VS Code's agent tools auto-approved
  (``"chat.tools.autoApprove": true``, a terminal auto-approve rule matching everything);
* ``shell.defense-weaken`` (warn): a narrower loosening a human should see: commands of a
  program that runs any code allowed (``Bash(python:*)``, ``Bash(sudo:*)``, ``Bash(curl:*)``),
  ``"defaultMode": "acceptEdits"``, Codex's ``approval_policy = "never"``, Gemini's
  ``autoAccept``, project MCP servers all enabled, the deny list removed; and a project's
  settings emptied (``echo '{}' > .claude/settings.json``).

Everyday edits stay quiet: a narrow allow (``Bash(npm test:*)``: the guard still checks
each command, since hooks run before the permission rules), a hook added, the model or the
editor's options set. Bounded: at most :data:`_MAX_NODES` JSON/TOML nodes, texts cut at
:data:`_MAX_TEXT` characters; never raises.
"""

from __future__ import annotations

import json
import re
import tomllib

__all__ = ["SETTINGS_SUFFIXES", "Finding", "allow_entry", "filter_findings", "hooks_file",
           "policy_findings", "settings_file", "text_findings"]

Finding = tuple[bool, str]  # (blocks, what the settings do)

_MAX_TEXT = 20000
_MAX_NODES = 512
_MAX_DEPTH = 24

# Settings files whose permissions or hooks an agent obeys (matched on the path's end).
_SETTINGS = (".claude/settings.json", ".claude/settings.local.json", ".claude.json",
             "managed-settings.json", ".codex/config.toml", ".cursor/cli-config.json",
             ".cursor/cli.json", ".cursor/hooks.json", ".gemini/settings.json",
             ".vscode/settings.json", "Code/User/settings.json",
             "Code - Insiders/User/settings.json", "Cursor/User/settings.json",
             "VSCodium/User/settings.json", "Windsurf/User/settings.json",
             ".code-workspace")
# Files holding the hooks that run the guard: emptying or deleting one takes the guard away.
_HOOK_FILES = (".claude/settings.json", ".claude/settings.local.json", ".cursor/hooks.json")
_HOMES = ("~/", "/root/", "/home/", "/Users/")

# Programs whose every command line runs any code: allowing them allows everything.
_RUNNERS = frozenset({"sh", "bash", "zsh", "dash", "fish", "ksh", "sudo", "su", "doas", "env",
                      "eval", "exec", "xargs", "python", "python3", "node", "perl", "ruby",
                      "php", "deno", "bun", "npx", "curl", "wget", "nc", "ssh", "docker",
                      "powershell", "pwsh", "cmd", "osascript", "uv", "uvx", "source"})
_ALL = frozenset({"", "*", ":*", "*:*", "**", " *", "* *"})
_SHELL_TOOLS = ("Bash", "Shell", "run_shell_command", "shell", "Execute")

_HOOK_WORDS = ("hooks", "PreToolUse", "deerguard", "beforeShellExecution", "BeforeTool",
               "matcher")
_EMPTYING = re.compile(r"del\(|delpaths|(?<![=!<>])=(?:null|\{\}|\[\]|empty|false)|-=|"
                       r"\|=.{0,40}(?:select\(|with_entries|to_entries|map_values\(empty)")


SETTINGS_SUFFIXES = _SETTINGS
"""How an agent's settings file's path ends (:func:`settings_file`)."""


def settings_file(path: str) -> bool:
    """True when ``path`` is an agent's settings file (permissions, hooks, approvals)."""
    return path.endswith(_SETTINGS)


def hooks_file(path: str) -> bool:
    """True when ``path`` holds an agent's hooks (where the guard runs)."""
    return path.endswith(_HOOK_FILES)


def _user_level(path: str) -> bool:
    return path.startswith(_HOMES)


def allow_entry(entry: str) -> Finding | None:
    """An allow-list entry that lets every command (or a code runner's) through."""
    e = entry.strip()
    if e in _ALL:
        return True, f"allows every tool call ({e!r})"
    for tool in _SHELL_TOOLS:
        if e == tool:
            return True, f"allows every shell command ({e!r})"
        if e.startswith(tool + "(") and e.endswith(")"):
            inner = e[len(tool) + 1:-1].strip()
            if inner in _ALL:
                return True, f"allows every shell command ({e!r})"
            head = re.split(r"[\s:]", inner, maxsplit=1)[0].rsplit("/", 1)[-1]
            if head in _RUNNERS:
                return False, f"allows {head}, which runs any code, without asking ({e!r})"
    return None


def _walk(node: object, out: list[Finding], key: str, budget: list[int]) -> None:
    budget[0] -= 1
    if budget[0] < 0 or len(budget) > _MAX_DEPTH:
        return
    budget.append(0)  # one more level: the list's length is the depth
    try:
        _nodes(node, out, key, budget)
    finally:
        budget.pop()


def _nodes(node: object, out: list[Finding], key: str, budget: list[int]) -> None:
    if isinstance(node, dict):
        for k, v in list(node.items())[:128]:
            _pair(str(k), v, out, budget)
    elif isinstance(node, list):
        for item in node[:128]:
            if key == "allow" and isinstance(item, str):
                hit = allow_entry(item)
                if hit is not None:
                    out.append(hit)
            else:
                _walk(item, out, key, budget)


def _pair(k: str, v: object, out: list[Finding], budget: list[int]) -> None:
    low = k.lower()
    if k in ("defaultMode", "default_mode", "approvalMode", "approval_mode"):
        mode = str(v)
        if mode in ("bypassPermissions", "yolo", "full-auto", "never"):
            out.append((True, f"turns permission prompts off ({k} = {mode!r})"))
        elif mode in ("acceptEdits", "auto_edit", "autoEdit"):
            out.append((False, f"accepts edits without asking ({k} = {mode!r})"))
    elif k == "disableAllHooks" and v is True:
        out.append((True, "turns every hook off (disableAllHooks), the guard's included"))
    elif k in ("hooks", "PreToolUse", "beforeShellExecution", "BeforeTool") and \
            v in ({}, [], None, False):
        out.append((True, f"empties the {k} hooks, the guard's included"))
    elif k == "sandbox_mode" and v == "danger-full-access":
        out.append((True, "turns Codex's sandbox off (danger-full-access)"))
    elif k in ("approval_policy", "ask_for_approval") and v == "never":
        out.append((False, "Codex never asks before running a command (approval_policy = "
                    "\"never\")"))
    elif low.endswith(("autoapprove", "yolo")) and v is True:
        out.append((True, f"approves every agent tool call without asking ({k})"))
    elif low.endswith("autoapprove") and isinstance(v, dict):
        for rule, on in list(v.items())[:64]:
            if on is True and str(rule).strip() in ("/.*/", "/.+/", ".*", "*", "/^.*$/"):
                out.append((True, f"auto-approves every terminal command ({k})"))
    elif low.endswith("autoaccept") and v is True:
        out.append((False, f"accepts agent tool calls without asking ({k})"))
    elif k in ("enableAllProjectMcpServers", "skipDangerousModePermissionPrompt",
               "dangerouslySkipPermissions") and v is True:
        out.append((k == "dangerouslySkipPermissions", f"turns a permission prompt off ({k})"))
    elif k in ("allow", "allowedTools", "allowed", "autoApprove", "alwaysAllow"):
        _walk(v, out, "allow", budget)
    else:
        _walk(v, out, k, budget)


# Raw markers for text that does not parse (an appended fragment, a sed replacement).
_RAW = (("bypassPermissions", True, "turns permission prompts off (bypassPermissions)"),
        ("danger-full-access", True, "turns Codex's sandbox off (danger-full-access)"),
        ("disableAllHooks", True, "turns every hook off (disableAllHooks)"),
        ("dangerously", True, "turns a permission prompt off"),
        ("acceptEdits", False, "accepts edits without asking (acceptEdits)"))
_RAW_TRUE = re.compile(r"(?i)(autoApprove|yolo)\"?\s*[:=]\s*true")
_RAW_NEVER = re.compile(r"approval_policy\s*=\s*[\"']never")
_RAW_ALLOW = re.compile(r"[\"'](?:Bash|Shell)(?:\(\s*+\*?\s*+(?::\s*+\*)?\s*+\))?[\"']")


def _raw(text: str) -> list[Finding]:
    out: list[Finding] = [(b, what) for marker, b, what in _RAW if marker in text]
    if _RAW_TRUE.search(text):
        out.append((True, "approves agent tool calls without asking (autoApprove)"))
    if _RAW_NEVER.search(text):
        out.append((False, "Codex never asks before running a command (approval_policy)"))
    m = _RAW_ALLOW.search(text) if "llow" in text else None
    if m is not None:
        out.append((True, f"allows every shell command ({m.group(0)})"))
    return out


def text_findings(path: str, text: str) -> list[Finding]:
    """What the settings ``text`` written to ``path`` does to the guard and permissions."""
    text = text[:_MAX_TEXT]
    data: object
    try:
        data = tomllib.loads(text) if path.endswith(".toml") else json.loads(text)
    except (ValueError, RecursionError):
        data = None
    out: list[Finding] = []
    if data is None:
        out = _raw(text)
    else:
        _walk(data, out, "", [_MAX_NODES])
    if hooks_file(path) and not out and (data is None or isinstance(data, dict)) and \
            "deerguard" not in text:
        if _user_level(path):
            out.append((True, "replaces the user's agent settings with a text without the "
                        "guard's hook"))
        elif data in ({}, None) and not text.strip("{} \n\t"):
            out.append((False, "empties the project's agent settings, hooks included"))
    return out


def filter_findings(program: str, texts: list[str]) -> list[Finding]:
    """What a jq/yq filter (``texts[0]``, then its ``--arg`` values) or a sed script does
    to an agent settings file."""
    out: list[Finding] = []
    joined = "\n".join(texts)[:_MAX_TEXT]
    squeezed = "".join(joined.split())
    if any(w in joined for w in _HOOK_WORDS):
        if program in ("sed", "gsed"):
            if _sed_removes(joined):
                out.append((True, "deletes or rewrites the guard's hook lines"))
        elif _EMPTYING.search(squeezed) and "+=" not in squeezed:
            out.append((True, "deletes the hooks, the guard's included"))
    for s in re.findall(r"\"((?:[^\"\\\n]|\\.){0,200})\"", joined)[:64]:
        hit = allow_entry(s) if ("allow" in joined or "Allow" in joined) else None
        if hit is not None:
            out.append(hit)
    out.extend(f for f in _raw(joined) if not f[1].startswith("allows"))
    if "deny" in joined and re.search(r"del\([^)]*deny|deny\"?\]?=(?:\[\]|null)", squeezed):
        out.append((False, "removes the deny list of the agent's permissions"))
    return out


def _sed_removes(script: str) -> bool:
    """A sed script deleting (``/deerguard/d``, ``/PreToolUse/,+5d``) or rewriting
    (``s/deerguard hook claude-code/true/``) a line that names the guard's hook."""
    for piece in re.split(r"[;\n]", script)[:64]:
        piece = piece.strip()
        if not any(w in piece for w in _HOOK_WORDS):
            continue
        body = piece.rstrip("}").rstrip()
        if body.endswith(("d", "c")) and len(body) > 1 and body[-2] in "/0123456789$ ":
            return True  # an address naming the hook, then d (delete) or c (change)
        k = body.rfind("s", 0, max(0, len(body) - 2))
        while k >= 0:
            if (k == 0 or body[k - 1] in "/0123456789$ ,") and k + 1 < len(body) and \
                    not body[k + 1].isalnum() and body[k + 1] not in " \\\n":
                parts = body[k + 2:].split(body[k + 1])
                if len(parts) >= 2 and any(w in parts[0] for w in _HOOK_WORDS) and \
                        "deerguard" not in parts[1]:
                    return True
                if len(parts) >= 2 and "matcher" in parts[0] and "Bash" in parts[0] and \
                        "Bash" not in parts[1]:
                    return True  # the hook no longer matches the Bash tool
                break
            k = body.rfind("s", 0, k)
    return False


def policy_findings(text: str) -> list[str]:
    """The rules a deerguard shell policy text (TOML) switches off (``[rules]
    "shell.pipe-to-shell" = "off"``), or ``"*"`` when it allows every program."""
    try:
        data = tomllib.loads(text[:_MAX_TEXT])
    except (ValueError, RecursionError):
        return []
    rules = data.get("rules")
    out = [str(k) for k, v in rules.items() if v == "off"][:8] if isinstance(rules, dict) \
        else []
    commands = data.get("commands")
    allow = commands.get("allow") if isinstance(commands, dict) else None
    if isinstance(allow, list) and any(a in ("*", "**") for a in allow):
        out.append("*")
    return out
