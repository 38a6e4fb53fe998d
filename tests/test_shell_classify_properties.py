"""Hypothesis properties of classify(): total, deterministic, and wrapping never lowers risk."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from deerguard import Verdict
from deerguard.shell import classify

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "shell"
COMMANDS = [
    json.loads(line)["command"]
    for name in ("block", "warn", "pass")
    for line in (CORPUS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    if line.strip()
]
# Wrapping only makes sense for commands that parse as a complete list on their own.
COMPLETE = [c for c in COMMANDS if "\x00" not in c
            and not classify(c).rule_ids.count("shell.parse-incomplete")]

SHELL_ALPHABET = st.sampled_from(list("abcrmfsh -|&;()<>{}$`'\"\\\n*?~/=.0123456789!#@%+,:[]"))
shellish = st.lists(SHELL_ALPHABET, max_size=60).map("".join)
words = st.sampled_from(["rm", "-rf", "/", "~", "curl", "u", "|", "sh", "bash", "-c", "eval",
                         "$(", ")", "'", '"', "x=rm;", "$x", "sudo", "env", "xargs", ";",
                         "&&", "<(", "cat", "/etc/shadow", "<<EOF\n", "\nEOF\n", "{", "}",
                         "base64", "-d", "python3", "-", ">", "~/.bashrc", "&", "\\"])
fragments = st.lists(words, max_size=12).map(" ".join)


@settings(max_examples=200)
@given(st.text(max_size=200) | shellish | fragments)
def test_classify_never_raises_and_returns_a_decision(command: str) -> None:
    result = classify(command)
    assert isinstance(result.verdict, Verdict)
    assert result.verdict == max([Verdict.PASS, *(f.severity for f in result.findings)])
    for f in result.findings:
        assert 0 <= f.span.start <= f.span.end <= max(len(command), 1)
    json.dumps(result.to_dict())


@settings(max_examples=100)
@given(shellish | fragments)
def test_classify_is_deterministic(command: str) -> None:
    assert classify(command) == classify(command)


WRAPPERS = [
    "( {}\n)",
    "{{ {}\n}}",
    "if true; then {}\nfi",
    "true && {}",
    "bash -c {quoted}",
    "sh -c {quoted}",
    "eval {quoted}",
]


@settings(max_examples=300)
@given(st.sampled_from(COMPLETE), st.sampled_from(WRAPPERS))
def test_wrapping_a_command_never_lowers_its_verdict(command: str, wrapper: str) -> None:
    wrapped = wrapper.format(command, quoted=shlex.quote(command))
    assert classify(wrapped).verdict >= classify(command).verdict, wrapped


@settings(max_examples=100)
@given(st.sampled_from(COMPLETE), st.sampled_from(COMPLETE))
def test_joining_commands_keeps_the_worse_verdict(a: str, b: str) -> None:
    joined = classify(f"{a}\n{b}").verdict
    assert joined >= max(classify(a).verdict, classify(b).verdict) or "\\" in a


@settings(max_examples=200)
@given(fragments | shellish, st.sampled_from(WRAPPERS))
def test_wrapping_generated_commands_never_lowers_their_verdict(command: str,
                                                                wrapper: str) -> None:
    if "shell.parse-incomplete" in classify(command).rule_ids:
        return  # an incomplete fragment may complete differently once wrapped
    wrapped = wrapper.format(command, quoted=shlex.quote(command))
    assert classify(wrapped).verdict >= classify(command).verdict, wrapped
