"""Differential tests: our parser against mvdan/sh (shfmt), bashlex and real bash.

Corpus: ``corpora/shell/parse/commands.jsonl``. For each oracle we compare what the
classifier depends on: which words form each simple command (their exact spans, so word
boundaries and command positions), assignments, and redirection targets. Each remaining
disagreement is listed below with the reason it is expected.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from deerguard.shell import ast
from deerguard.shell._parse import parse

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "shell" / "parse" / "commands.jsonl"
COMMANDS: list[str] = [json.loads(line)["command"] for line in CORPUS.read_text().splitlines()]
SHFMT = shutil.which("shfmt") or str(Path(sys.executable).parent / "shfmt")
BASH = shutil.which("bash")

# Commands where mvdan/sh and bash legitimately differ from us, with the reason.
KNOWN_SHFMT: dict[str, str] = {
    "echo `echo \\`echo inner\\``": "shfmt ends the innermost word after the escaping "
    "backslash of the closing backtick (`inner\\`); the word is `inner`, as we report",
}
_HEREDOC_BODY = "bashlex does not parse heredoc bodies; we report the substitutions inside"
_PARAM_WORD = "bashlex does not descend into ${x:-word}; we report the substitution inside"
_ARITH = "bashlex reads (( )) as nested subshells of words; it is an arithmetic command"
# Commands bashlex parses but gets wrong (bashlex is a partial bash grammar).
KNOWN_BASHLEX: dict[str, str] = {
    "cat <<EOF\n$(rm -rf /)\nEOF": _HEREDOC_BODY,
    "cat <<EOF\n$(date) and `whoami` and ${HOME}\nEOF": _HEREDOC_BODY,
    "git commit -F - <<EOF\nsubject\n\nbody with $(echo x)\nEOF": _HEREDOC_BODY,
    "echo ${x:-$(date)}": _PARAM_WORD,
    "echo ${x:-`date`}": _PARAM_WORD,
    "for i in 1 2; do cat <<EOF\n$i\nEOF\ndone": "bashlex takes the heredoc body line `$i` "
    "for a command",
    "if a; then b; elif c; then d; elif e; then f; else g; fi": "bashlex drops the second "
    "elif clause and the else body",
    "(( x > 3 ))": _ARITH,
    "(( i++ ))": _ARITH,
    "(( a = 1, b = 2 ))": _ARITH,
    "arr[0]=zero": "bash (and shfmt) treat `a[i]=v` in command position as an assignment",
    "arr[i+1]=x": "bash (and shfmt) treat `a[i]=v` in command position as an assignment",
    "exec {fd}>file; echo >&$fd": "`{fd}>` is a variable-descriptor redirection, not a word",
    'let "x = 1 + 2"': "`let` takes arithmetic, compared nowhere (shfmt has a LetClause)",
}

Entry = tuple[str, int, int]


def _byte_offsets(text: str) -> list[int]:
    """Map character offsets to UTF-8 byte offsets (shfmt reports bytes)."""
    out = [0]
    total = 0
    for ch in text:
        total += len(ch.encode("utf-8", "surrogatepass"))
        out.append(total)
    return out


def _ours(script: ast.Script, to_bytes: list[int]) -> list[tuple[Entry, ...]]:
    commands: list[tuple[Entry, ...]] = []

    def visit(node: ast.Node) -> None:
        if isinstance(node, ast.SimpleCommand):
            items: list[Entry] = [("A", *a.span) for a in node.assignments]
            items += [("W", *w.span) for w in node.words]
            if items and not (node.words and node.words[0].literal_value() == "let"):
                commands.append(tuple((k, to_bytes[s], to_bytes[e]) for k, s, e in items))

    ast.walk(script, visit)
    return sorted(commands)


def _our_redirects(script: ast.Script, to_bytes: list[int]) -> list[tuple[object, ...]]:
    found: list[tuple[object, ...]] = []

    def visit(node: ast.Node) -> None:
        if isinstance(node, ast.Redirect) and node.target is not None:
            doc = node.heredoc
            # shfmt has no body node for an empty heredoc body.
            body = doc.span[0] if doc is not None and doc.span[0] < doc.span[1] else None
            start, end = node.target.span
            found.append(
                (node.op, node.fd, to_bytes[start], to_bytes[end], body and to_bytes[body])
            )

    ast.walk(script, visit)
    return sorted(found, key=repr)


def _their_redirects(tree: Any) -> list[tuple[object, ...]]:
    found: list[tuple[object, ...]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        for red in node.get("Redirs") or []:
            word = red["Word"]
            fd = red["N"]["Value"] if red.get("N") else None
            body = red["Hdoc"]["Pos"]["Offset"] if red.get("Hdoc") else None
            start, end = word["Pos"]["Offset"], word["End"]["Offset"]
            found.append((red["Op"], fd, start, end, body))
        stack.extend(v for v in node.values() if isinstance(v, dict | list))
    return sorted(found, key=repr)


def _theirs(tree: Any) -> list[tuple[Entry, ...]]:
    commands: list[tuple[Entry, ...]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        kind = node.get("Type")
        if kind == "CallExpr":
            assigns = node.get("Assigns") or []
            items = [("A", a["Pos"]["Offset"], a["End"]["Offset"]) for a in assigns]
            items += [("W", w["Pos"]["Offset"], w["End"]["Offset"]) for w in node.get("Args") or []]
            commands.append(tuple(items))
        elif kind == "DeclClause":
            variant = node["Variant"]
            items = [("W", variant["Pos"]["Offset"], variant["End"]["Offset"])]
            items += [("W", a["Pos"]["Offset"], a["End"]["Offset"]) for a in node.get("Args") or []]
            commands.append(tuple(items))
        stack.extend(v for k, v in node.items() if isinstance(v, dict | list))
    return sorted(commands)


def _shfmt(command: str) -> Any | None:
    proc = subprocess.run(
        [SHFMT, "--to-json", "-ln", "bash"], input=command.encode("utf-8", "surrogatepass"),
        capture_output=True, timeout=20, check=False,
    )  # fmt: skip
    return json.loads(proc.stdout) if proc.returncode == 0 else None


@pytest.mark.skipif(not Path(SHFMT).exists(), reason="shfmt (shfmt-py wheel) not installed")
def test_words_command_positions_and_redirections_agree_with_shfmt() -> None:
    disagreements: dict[str, str] = {}
    compared = 0
    for command in COMMANDS:
        tree = _shfmt(command)
        script = parse(command)
        if tree is None:
            continue
        compared += 1
        to_bytes = _byte_offsets(command)
        ours = (_ours(script, to_bytes), _our_redirects(script, to_bytes))
        theirs = (_theirs(tree), _their_redirects(tree))
        if ours != theirs:
            disagreements[command] = f"ours={ours} shfmt={theirs}"
    assert compared >= 300
    unexpected = {k: v for k, v in disagreements.items() if k not in KNOWN_SHFMT}
    assert not unexpected, json.dumps(unexpected, indent=1)


def _bashlex_commands(command: str) -> list[tuple[Entry, ...]] | None:
    bashlex = pytest.importorskip("bashlex")
    try:
        trees = bashlex.parse(command)
    except Exception:  # bashlex raises many kinds of errors on what it does not support
        return None
    commands: list[tuple[Entry, ...]] = []

    class Visitor(bashlex.ast.nodevisitor):  # type: ignore[misc]
        def visitcommand(self, node: Any, parts: Any) -> None:
            items: list[Entry] = []
            for part in parts:
                if part.kind == "assignment" and not any(k == "W" for k, _, _ in items):
                    items.append(("A", *part.pos))
                elif part.kind in ("word", "assignment"):
                    items.append(("W", *part.pos))
            if items:
                commands.append(tuple(items))

    for tree in trees:
        Visitor().visit(tree)
    return sorted(commands)


def test_word_boundaries_agree_with_bashlex_where_it_parses() -> None:
    disagreements: dict[str, str] = {}
    compared = 0
    identity = list(range(10_000))
    for command in COMMANDS:
        theirs = _bashlex_commands(command)
        if theirs is None:
            continue
        compared += 1
        ours = _ours(parse(command), identity)
        if ours != theirs:
            disagreements[command] = f"ours={ours} bashlex={theirs}"
    assert compared >= 150
    unexpected = {k: v for k, v in disagreements.items() if k not in KNOWN_BASHLEX}
    assert not unexpected, json.dumps(unexpected, indent=1)


def _static_words() -> Iterator[tuple[str, str]]:
    for command in COMMANDS:
        script = parse(command)
        if script.issues:
            continue
        words: list[ast.Word] = []

        def visit(node: ast.Node, words: list[ast.Word] = words) -> bool:
            if isinstance(node, ast.SimpleCommand):
                words.extend(node.words)
            return True

        ast.walk(script, visit)
        for word in words:
            value = word.literal_value()
            if value is not None:
                yield command[word.span[0] : word.span[1]], value


@pytest.mark.skipif(BASH is None, reason="bash not installed")
def test_static_literal_values_match_real_bash() -> None:
    pairs = list(dict.fromkeys(_static_words()))
    assert len(pairs) >= 500
    chunk = 200
    for k in range(0, len(pairs), chunk):
        batch = pairs[k : k + chunk]
        script = "shopt -s extglob\nprintf '%s\\0' " + " ".join(src for src, _ in batch)
        proc = subprocess.run(
            [str(BASH), "--norc", "--noprofile", "-c", script], capture_output=True, check=True,
            env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LC_ALL": "C.UTF-8"}, timeout=20,
        )  # fmt: skip
        got = proc.stdout.split(b"\0")[:-1]
        want = [value.encode("utf-8", "surrogateescape") for _, value in batch]
        triples = zip(batch, want, got, strict=True)
        mismatches = [(src, w, g) for (src, _), w, g in triples if w != g]
        assert not mismatches, mismatches


@pytest.mark.skipif(BASH is None, reason="bash not installed")
def test_inputs_bash_accepts_parse_without_issues() -> None:
    accepted = 0
    failures: dict[str, list[str]] = {}
    for command in COMMANDS:
        proc = subprocess.run(
            [str(BASH), "-n", "-O", "extglob", "-c", command], capture_output=True, check=False
        )
        if proc.returncode != 0:
            continue
        accepted += 1
        issues = parse(command).issues
        if issues:
            failures[command] = [f"{i.offset}: {i.message}" for i in issues]
    assert accepted >= 300
    assert not failures, json.dumps(failures, indent=1)
