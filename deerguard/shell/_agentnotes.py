"""Instructions planted in an agent's instruction file (``CLAUDE.md``, ``AGENTS.md``...).

Agents read these files as instructions at every start (``_agentconf`` lists them). Text a
command writes there itself is usually the agent's own notes (``- use pnpm``, ``Run
`npm test` before committing``); a planted prompt injection is text that tells every later
session to:

* run code that blocks: each inline code span (```` `curl -s u|sh` ````), fenced block and
  ``run CMD``/``execute CMD`` phrase holding shell operators is classified as shell code
  the agent will run; when it blocks, the write warns, naming the rule;
* send secrets somewhere (``upload .env to https://...``), ignore its rules (``ignore all
  previous instructions``), hide what it does from the user, or switch its guard or
  permission prompts off.

Both warn (``shell.deferred-exec``), where the red team asked for block on the first: unlike
a hook command (``_agentconf``), the text runs nothing by itself, and each command a later
session runs on its word is still checked by the guard; a human should read what was
planted. A negated sentence (``never disable the sandbox``) is not an instruction to.

Bounded: the text is cut at :data:`_MAX_TEXT` characters, at most :data:`_MAX_CODES`
snippets are classified; patterns have bounded repetitions (linear); never raises.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .._result import Verdict
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["planted_instructions"]

_MAX_TEXT = 20000
_MAX_CODES = 16
_CODE_CHARS = ("|", ";", "&&", "$(", "`", ">", "<(")
_SPAN = re.compile(r"`([^`\n]{2,500})`")
# "run: CMD" or "run CMD": the colon's spaces and the gap are possessive (no backtracking
# over a long run of blanks; test_regex_linearity).
_RUN = re.compile(r"(?i)\b(?:run|execute|exec|invoke)\b(?:[ \t]*+:)?[ \t]++([^\n`]{3,300})")
_IGNORE = re.compile(
    r"(?i)\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}?\b(?:previous|prior|"
    r"above|earlier|all|any|your|system|safety|security|user'?s?)\b[^.\n]{0,30}?\b(?:"
    r"instructions?|rules?|guidelines?|prompts?|polic(?:y|ies)|restrictions?|guardrails?)")
_HIDE = re.compile(r"(?i)\b(?:do not|don't|never)\s+(?:tell|inform|mention|show|report)"
                   r"\b[^.\n]{0,30}?\b(?:user|human|anyone)|without (?:telling|"
                   r"informing|notifying) (?:the )?(?:user|human)")
_GUARD_OFF = re.compile(r"(?i)\b(?:disable|turn off|remove|uninstall|delete|skip|bypass|"
                        r"kill)\b[^.\n]{0,30}?\b(?:deerguard|the guard|guard hooks?|pre ?tool ?use "
                        r"hooks?|security hooks?|sandbox|permission (?:prompts?|checks?))\b|"
                        r"dangerously-skip-permissions|bypassPermissions")
_SECRETS = ("/.env", " .env", "`.env", "id_rsa", "id_ed25519", ".ssh", "credential", "secret",
            "token", "api key", "api_key", "apikey", "password", "private key", ".aws",
            ".npmrc", ".netrc", "kubeconfig", "env var", "environment variables", "printenv",
            "cookies", "keychain")
_SEND = re.compile(r"\b(?:upload|send|post|paste|e-?mail|exfiltrate|transmit|forward|sync|"
                   r"curl|back ?up)\b[^\n]{0,80}?\b(?:to|into|at|on)\s+\S{0,40}?(?:://|"
                   r"webhook|pastebin|gist\.|transfer\.sh|ngrok)")


def planted_instructions(run: Run, path: str, text: str, span: tuple[int, int]) -> None:
    """Text written to the instruction file ``path``: planted prompt injection?"""
    text = text[:_MAX_TEXT]
    for code in _snippets(text)[:_MAX_CODES]:
        rule = _blocking_rule(run, code, path, span)
        if rule is not None:
            short = code if len(code) <= 60 else code[:57] + "..."
            run.add("shell.deferred-exec", span, f"writes an instruction into {path} to run "
                    f"`{short}`, which blocks ({rule}): a planted prompt injection that every "
                    "later agent session reads", None)
            return
    what = _injection(text)
    if what is not None:
        run.add("shell.deferred-exec", span, f"writes an instruction into {path} that tells "
                f"every later agent session to {what}: a planted prompt injection", None)


def _blocking_rule(run: Run, code: str, path: str, span: tuple[int, int]) -> str | None:
    """Classify ``code`` as shell code; drop what it found; the first blocking rule."""
    findings, commands = len(run.findings), len(run.commands)
    run.run_code(Field(code, span), f"an instruction in {path}", span, None, positional=[])
    added = run.findings[findings:]
    for f in added:
        run.seen.discard((f.rule_id, f.span.start, f.span.end))
    del run.findings[findings:]
    del run.commands[commands:]
    return next((f.rule_id for f in added if f.severity is Verdict.BLOCK), None)


def _snippets(text: str) -> list[str]:
    """Code the text asks to run: fenced blocks, inline code spans and ``run CMD`` phrases
    holding shell operators; a span right after a negation (``never run `rm -rf /```) is
    a rule, not an instruction to run it."""
    out: list[str] = []
    if "```" in text:
        blocks = text.split("```")
        for block in blocks[1:len(blocks):2][:_MAX_CODES]:  # the text between fences
            first, _, rest = block.partition("\n")
            out.append(rest if first.strip().isalnum() or not first.strip() else block)
    if "`" in text:
        out.extend(m.group(1) for m in _SPAN.finditer(text)
                   if "```" not in m.group(0) and not _negated(text, m.start()))
    if len(out) < _MAX_CODES and ("run" in text or "Run" in text or "exec" in text or
                                  "RUN" in text or "invoke" in text):
        for m in _RUN.finditer(text):
            phrase = re.split(r"\.\s|\.$|\b(?:before|after|when|whenever|then|every|first)\b",
                              m.group(1), maxsplit=1)[0].strip()
            if any(c in phrase for c in _CODE_CHARS) and not _negated(text, m.start()):
                out.append(phrase)
            if len(out) >= _MAX_CODES:
                break
    return [c for c in out if c.strip()]


def _negated(text: str, at: int) -> bool:
    before = text[max(0, at - 24):at].lower()
    return any(n in before for n in _NEGATIONS)


_NEGATIONS = ("never", "not ", "n't", "no ", "avoid")


def _asserted(pattern: re.Pattern[str], text: str) -> bool:
    """A match of ``pattern`` not negated just before it (``never disable the sandbox``)."""
    for count, m in enumerate(pattern.finditer(text)):
        if count >= 32:
            break
        if not _negated(text, m.start()):
            return True
    return False


_IGNORE_GATE = ("ignore", "disregard", "forget", "override", "bypass")
_GUARD_GATE = ("disable", "turn off", "remove", "uninstall", "delete", "skip", "bypass",
               "kill", "dangerously")
_HIDE_GATE = ("tell", "inform", "mention", "show", "report", "notifying")


def _injection(text: str) -> str | None:
    low = text.lower()
    if any(w in low for w in _IGNORE_GATE) and _asserted(_IGNORE, text):
        return "ignore its rules"
    if any(w in low for w in _GUARD_GATE) and _asserted(_GUARD_OFF, text):
        return "switch its guard or permission prompts off"
    if any(w in low for w in _HIDE_GATE) and _HIDE.search(text):
        return "hide what it does from the user"
    if "://" not in low and "webhook" not in low and "transfer.sh" not in low and \
            "ngrok" not in low and "pastebin" not in low and "gist." not in low:
        return None
    for line in low.splitlines()[:512]:
        if any(s in line for s in _SECRETS) and _SEND.search(line):
            return "send secrets to another host"
    return None
