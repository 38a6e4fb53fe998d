"""Agent command lines and MCP servers that loosen what a coding agent may do unchecked.

* An agent started with its permission checks or sandbox off (``shell.defense-weaken``,
  warn): ``claude --dangerously-skip-permissions``, ``claude --permission-mode
  bypassPermissions``, ``codex --dangerously-bypass-approvals-and-sandbox``, ``codex -s
  danger-full-access``, ``gemini --yolo``, ``aider --yes-always``, ``cursor-agent --force``.
  The nested agent then runs commands no prompt stops; a human should see that.
* An MCP server from a package of an unknown publisher (``shell.deferred-exec``, warn):
  ``claude mcp add x -- npx -y e-example-mcp``, or the same server written into
  ``~/.cursor/mcp.json``/``.mcp.json`` (read by ``_agentconf``): the agent starts it at every
  launch and hands it its context. Servers run from the publishers most setups use
  (``@modelcontextprotocol/*``, ``@playwright/mcp``, ``ghcr.io/github/github-mcp-server``,
  ``mcp/*`` images...) and local programs (``node ./server.js``) stay quiet.

Gated by program name (:data:`AGENT_CLIS`); never raises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._agentperms import allow_entry

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["AGENT_CLIS", "agent_cli", "unknown_argv", "unknown_server"]

AGENT_CLIS = frozenset({"claude", "codex", "gemini", "aider", "cursor-agent", "qwen", "amp",
                        "opencode", "goose"})
"""Agent programs :func:`agent_cli` looks at."""

_UNCHECKED = frozenset({"--dangerously-skip-permissions", "--dangerously-bypass-approvals-and-"
                        "sandbox", "--yolo", "--yes-always", "--allow-dangerously-skip-"
                        "permissions", "--dangerously-allow-all"})
_MODES = frozenset({"bypassPermissions", "danger-full-access", "never", "yolo"})
_MODE_OPTIONS = frozenset({"--permission-mode", "-s", "--sandbox", "-a", "--ask-for-approval",
                           "--approval-mode"})

_KNOWN_SCOPES = frozenset({
    "@modelcontextprotocol", "@playwright", "@anthropic-ai", "@upstash", "@github",
    "@microsoft", "@azure", "@cloudflare", "@sentry", "@supabase", "@stripe", "@notionhq",
    "@browserbasehq", "@vercel", "@shopify", "@heroku", "@neondatabase", "@elastic",
    "@mongodb-js", "@figma", "@linear", "@atlassian", "@hubspot", "@circleci", "@pulumi",
    "@grafana", "@datadog", "@redis", "@prisma", "@storybook", "@angular", "@nuxt",
    "@sveltejs", "@gitlab", "@google", "@googlemaps", "@aws", "@awslabs", "@jetbrains",
    "@paypal", "@auth0", "@okta", "@snyk", "@sourcegraph", "@netlify", "@railway",
    "@apify", "@firebase", "@digitalocean", "@mapbox", "@twilio-alpha", "@dynatrace-oss"})
_KNOWN_NAMES = frozenset({
    "chrome-devtools-mcp", "firecrawl-mcp", "mcp-remote", "mcp-server-fetch", "mcp-server-git",
    "mcp-server-time", "mcp-server-sqlite", "mcp-server-sentry", "mcp-server-everything",
    "mcp-server-filesystem", "mcp-server-memory", "mcp-server-postgres", "mcp-server-github",
    "mcp-server-puppeteer", "mcp-server-brave-search", "mcp-server-sequential-thinking",
    "mcp-server-kubernetes", "context7-mcp", "exa-mcp-server", "tavily-mcp", "serena",
    "playwright-mcp", "next-devtools-mcp", "shadcn", "mcp-proxy", "mcp-grafana",
    "docker-mcp", "figma-developer-mcp", "git+https://github.com/oraios/serena"})
_KNOWN_IMAGES = ("mcp/", "docker.io/mcp/", "ghcr.io/github/", "ghcr.io/modelcontextprotocol/",
                 "ghcr.io/sooperset/", "docker.io/grafana/", "grafana/", "hashicorp/")
_RUNNERS = frozenset({"npx", "bunx", "uvx", "pnpx"})
_RUNNER_VERBS = {"pnpm": "dlx", "yarn": "dlx", "npm": "exec", "pipx": "run", "uv": "run",
                 "bun": "x", "docker": "run", "podman": "run"}
_VALUE_OPTS = frozenset({"-p", "--package", "--from", "-e", "--env", "-v", "--volume",
                         "--name", "--network", "--mount", "-w", "--workdir", "--env-file",
                         "-u", "--user", "--python", "--with", "--index-url", "--entrypoint",
                         "--platform", "-c", "--call", "--spec"})


def agent_cli(run: Run, inv: Invocation) -> None:
    """An agent started unchecked, or an MCP server of an unknown publisher added."""
    args = inv.args
    texts = [f.text for f in args]
    for k, f in enumerate(args):
        t = f.text
        opt, eq, value = t.partition("=")
        if "danger-full-access" in t or "bypassPermissions" in t or (
                "approval_policy" in t and "never" in t) or t in _UNCHECKED or (
                opt in _MODE_OPTIONS and eq and value in _MODES) or (
                t in _MODE_OPTIONS and k + 1 < len(args) and args[k + 1].text in _MODES) or (
                inv.name == "cursor-agent" and t in ("--force", "-f")):
            run.add("shell.defense-weaken", f.span, f"{inv.name} {t} starts an agent whose "
                    "commands no permission prompt or sandbox checks", None)
            return
    if texts[:1] == ["config"] and len(texts) >= 4 and texts[1] in ("set", "add"):
        key, value = texts[-2], texts[-1]  # claude config add [-g] allowedTools 'Bash(*)'
        hit = allow_entry(value) if "llow" in key else (
            (True, f"{key} = {value}") if value in _MODES else None)
        if hit is not None:
            run.add("shell.defense-off" if hit[0] else "shell.defense-weaken", inv.word.span,
                    f"{inv.name} config {texts[1]} {key}: {hit[1]}", None)
        return
    if texts[:2] == ["mcp", "add"] and "--" in texts:
        package = unknown_argv(texts[texts.index("--") + 1:])
        if package is not None:
            run.add("shell.deferred-exec", inv.word.span, f"{inv.name} mcp add registers an "
                    f"MCP server from {package}, a package of an unknown publisher: the agent "
                    "starts it at every launch", None)


def unknown_server(command: str) -> str | None:
    """The package an MCP server's command line fetches and runs, when its publisher is not
    a known one (else None: a known package, or a local program)."""
    # The words of a line _agentconf joined (quoted only where a word holds a space).
    return unknown_argv([w.strip("'\"") for w in command[:2000].split()[:64]])


def unknown_argv(words: list[str]) -> str | None:
    """:func:`unknown_server` for a command line already split into words."""
    if not words:
        return None
    head = words[0].rsplit("/", 1)[-1]
    rest = words[1:]
    if head in _RUNNER_VERBS:
        if not rest or rest[0] != _RUNNER_VERBS[head]:
            return None
        rest = rest[1:]
    elif head not in _RUNNERS:
        return None
    package = _first_operand(rest)
    if package is None or package.startswith((".", "/", "~")):
        return None
    if head in ("docker", "podman"):
        return None if package.startswith(_KNOWN_IMAGES) else package
    name = package.split("==", 1)[0]
    if name.startswith("@"):
        return None if name.partition("/")[0] in _KNOWN_SCOPES else package
    name = name.split("@", 1)[0]
    return None if name in _KNOWN_NAMES else package


def _first_operand(words: list[str]) -> str | None:
    k = 0
    while k < len(words):
        w = words[k]
        if w in _VALUE_OPTS:
            if w in ("-p", "--package", "--from", "--spec") and k + 1 < len(words):
                return words[k + 1]  # npx -p PKG CMD, uvx --from PKG CMD: PKG is fetched
            k += 2
            continue
        if w.startswith(("--package=", "--from=")):
            return w.partition("=")[2]
        if w.startswith("-"):
            k += 1
            continue
        return w
    return None
