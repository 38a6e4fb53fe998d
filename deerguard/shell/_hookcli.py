"""``deerguard hook claude-code``: the shell guard as a Claude Code ``PreToolUse`` hook.

Claude Code runs a hook command before each tool call, with a JSON envelope on stdin
(``hook_event_name``, ``tool_name``, ``tool_input``, ...). Its contract: exit 2 blocks the
call and shows stderr to the model as the reason; exit 0 with a ``hookSpecificOutput`` JSON
on stdout decides (``permissionDecision``: ``allow``, ``deny`` or ``ask``); exit 0 with no
output lets Claude Code's own permission rules decide; any other exit status is a
*non-blocking* error, after which the call runs. So this verb never exits with anything but 0
or 2: a malformed envelope, a bad option, an unreadable policy file or an internal error all
block (exit 2, fail closed), where the other verbs would exit 64 or 65.

Verdicts: ``block`` exits 2 with the findings as the reason; ``warn`` asks the user (``--warn
ask``, the default), or denies (``--warn deny``) or stays silent (``--warn allow``); ``pass``
prints nothing, so a passing command still goes through the user's permission rules (the
hook never approves on its own). Calls to other tools are left alone (``--tools`` names the
guarded ones, default ``Bash``).

settings.json::

    {"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": "deerguard hook claude-code"}]}]}}
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any

from .._result import Verdict
from ._classify import Classification, Classifier

__all__ = ["BLOCK", "USAGE_NOTE", "USAGE_STATUS", "claude_code_decision", "register"]

BLOCK = 2  # Claude Code: exit 2 blocks the tool call; stderr is the reason the model reads
_OK = 0
_MAX_REASON = 2000
_HARNESSES = ("claude-code",)

_DESCRIPTION = """\
Run the shell guard as an agent harness's pre-tool hook: read the hook's JSON envelope on
stdin, classify the command of a guarded tool call, and answer in the harness's protocol.

claude-code (settings.json, hooks.PreToolUse, matcher "Bash"):
  block  exit 2, the findings on stderr (Claude Code blocks the call and shows the reason)
  warn   ask the user (--warn ask), deny (--warn deny) or nothing (--warn allow)
  pass   no output, exit 0 (Claude Code's own permission rules decide)

Fails closed: a malformed envelope, a bad option, an unreadable policy file or an internal
error exits 2 (block), never another status (which Claude Code would treat as non-blocking).

example settings.json entry:
  {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
      {"type": "command", "command": "deerguard hook claude-code --policy shell.toml"}]}]}}
"""


# A usage mistake in a hook's command line must block the call, not fail open (read by
# deerguard.cli for a run of this verb, its top-level parser included).
USAGE_STATUS = BLOCK
USAGE_NOTE = " (the tool call is blocked: a hook that cannot run fails closed)"


def register(subparsers: Any) -> None:
    """Add the ``hook`` verb to the ``deerguard`` parser."""
    parser = subparsers.add_parser(
        "hook",
        help="run the shell guard as an agent harness's pre-tool hook (claude-code)",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("harness", choices=_HARNESSES, help="the hook protocol to speak")
    parser.add_argument("--policy", metavar="FILE", help="shell policy TOML (extends the "
                        "shipped default)")
    parser.add_argument("--warn", choices=("ask", "deny", "allow"), default="ask",
                        help="what a warn verdict becomes (default: ask the user)")
    parser.add_argument("--tools", default="Bash", metavar="NAMES",
                        help="comma-separated tool names whose command is classified "
                        "(default: Bash)")
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    try:
        classifier = Classifier(policy=_policy(args.policy))
        status, out, err = claude_code_decision(
            sys.stdin.read(), classifier, warn=args.warn,
            tools=(t.strip() for t in args.tools.split(",") if t.strip()))
    except Exception as exc:  # fail closed: a policy error or a bug blocks the call
        status, out, err = BLOCK, "", f"deerguard hook: {type(exc).__name__}: {exc}"
    if out:
        sys.stdout.write(out + "\n")
    if err:
        sys.stderr.write(err + "\n")
    return status


def _policy(path: str | None) -> Any:
    if not path:
        return None
    from ._policy import load_policy

    return load_policy(path)


def claude_code_decision(envelope: str, classifier: Classifier, *, warn: str = "ask",
                         tools: Iterable[str] = ("Bash",)) -> tuple[int, str, str]:
    """Answer one Claude Code ``PreToolUse`` envelope: (exit status, stdout, stderr).

    Never raises: anything that cannot be read blocks (status 2) with the reason on stderr.
    """
    try:
        data = json.loads(envelope)
    except (ValueError, RecursionError):
        return BLOCK, "", "deerguard hook: the hook input is not JSON; the call is blocked"
    if not isinstance(data, dict):
        return BLOCK, "", "deerguard hook: the hook input is not a JSON object; blocked"
    event = data.get("hook_event_name", "PreToolUse")
    if event != "PreToolUse":
        return BLOCK, "", (f"deerguard hook: configured for {event!r}; it guards PreToolUse "
                           "only (see `deerguard hook --help`); blocked")
    if data.get("tool_name") not in frozenset(tools):
        return _OK, "", ""  # not a guarded tool: the harness's own rules decide
    tool_input = data.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if not isinstance(command, str):
        return BLOCK, "", ("deerguard hook: the tool call has no tool_input.command string; "
                           "blocked")
    result = classifier.classify(command)
    if result.verdict is Verdict.BLOCK or (result.verdict is Verdict.WARN and warn == "deny"):
        return BLOCK, "", _reason(result)
    if result.verdict is Verdict.WARN and warn == "ask":
        decision = {"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": _reason(result),
        }}
        return _OK, json.dumps(decision, ensure_ascii=True), ""
    return _OK, "", ""


def _reason(result: Classification) -> str:
    """The findings as one short text the model and the user read."""
    lines = [f"deerguard: {result.verdict} ({', '.join(result.rule_ids)})"]
    for f in result.findings:
        where = result.command[f.span.start:f.span.end]
        if len(where) > 80:
            where = where[:77] + "..."
        line = f"- {f.rule_id}: {f.message} [{where}]"
        if f.detail:
            line += f"; {f.detail}"
        lines.append(line)
    text = "\n".join(lines)
    return text if len(text) <= _MAX_REASON else text[:_MAX_REASON - 3] + "..."
