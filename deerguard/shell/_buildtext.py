"""The shell commands held by build, task and editor config files, read from their known text.

Each reader is small and bounded (it looks at the first lines only) and never raises: a
``justfile``'s indented recipe lines, the ``cmds``/``run``/``script``/``entry`` values of a
YAML file (Taskfile, CI pipelines, ``.pre-commit-config.yaml``), ``package.json`` scripts,
``.vscode/tasks.json`` task commands, and ``.cargo/config.toml`` runners and wrappers.
"""

from __future__ import annotations

import json
import re

from ._makefile import make_recipes
from ._words import DYN

__all__ = ["cargo_config_commands", "just_recipes", "make_commands", "package_scripts",
           "unescape_echo",
           "vscode_tasks", "yaml_commands"]

_MAX_LINES = 512
_MAX_OUT = 64
_BLOCKS = ("|", ">", "|-", ">-", "|+", ">+")
_JUST_INTERP = re.compile(r"\{\{[^{}]{0,200}\}\}")


def unescape_echo(text: str) -> str:
    """A one-line text with ``\\n`` escapes: sh/zsh ``echo`` (and ``echo -e``) write them as
    newlines, so the file's lines are read both ways (bash's ``echo`` keeps them)."""
    if "\n" in text.rstrip("\n") or "\\n" not in text:
        return text
    return text.replace("\\n", "\n").replace("\\t", "\t")


def just_recipes(text: str) -> list[str]:
    """A justfile's recipe lines (indented below a ``name:`` header) and backtick commands;
    ``{{var}}`` interpolations become a plain word."""
    out: list[str] = []
    for line in unescape_echo(text).splitlines()[:_MAX_LINES]:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line[:1] in (" ", "\t"):
            out.append(_JUST_INTERP.sub("x", stripped.lstrip("@-")))
        elif "`" in line:
            parts = line.split("`")
            out.extend(parts[k] for k in range(1, len(parts) - 1, 2))
        if len(out) >= _MAX_OUT:
            break
    return [c for c in out if c.strip()]


def _scalar(value: str) -> str:
    """A YAML scalar without its quotes (a trailing comment kept: it is shell text too)."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        return inner.replace("''", "'") if value[0] == "'" else inner.replace('\\"', '"')
    return value


def yaml_commands(text: str, keys: frozenset[str]) -> list[str]:
    """The values of ``keys`` in a YAML file: ``key: CMD``, ``key: |`` block scalars and
    ``- CMD`` (or ``- cmd: CMD``) list items below ``key:``."""
    out: list[str] = []
    lines = unescape_echo(text).splitlines()[:_MAX_LINES]
    block_indent = -1  # inside a list or block scalar of a command key: its key's indent
    scalar = False
    inner = -1  # inside a block scalar of a mapping's command key within that list
    chunk: list[str] = []  # a block scalar's lines: one script, run as a whole
    for line in lines:
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if not body.strip() or body.startswith("#"):
            continue
        if 0 <= inner < indent:
            chunk.append(body.rstrip())
            continue
        if inner >= 0:
            out.append("\n".join(chunk))
            chunk = []
            inner = -1
        if block_indent >= 0 and (indent > block_indent or (
                indent == block_indent and body.startswith("- ") and not scalar)):
            if scalar:
                chunk.append(body.rstrip())
                continue
            # - cmd: X list items, and a mapping's command key (CircleCI's
            # - run: / command: X, a Taskfile's - for: [..] / cmd: X); block scalars below
            # either (- |, - run: |, command: |) are read as one script.
            dash = body.startswith("- ")
            item = body[2:] if dash else body
            key, sep, value = item.partition(":")
            if not dash:
                if not sep or key.strip() not in keys:
                    continue
                item = value
            elif sep and key.strip() in ("cmd", "run", "script", "entry", "command"):
                item = value
            elif sep and key.strip() in ("task", "name", "id"):
                item = ""
            if item.strip() in _BLOCKS:
                inner = indent + 2 if dash and sep else indent
                continue
            if item.strip() and item.strip() not in ("|", ">", "|-", ">-"):
                out.append(_scalar(item))
            continue
        if chunk:
            out.append("\n".join(chunk))
            chunk = []
        block_indent = -1
        scalar = False
        head = body[2:] if body.startswith("- ") else body
        key, sep, value = head.partition(":")
        if not sep or key.strip() not in keys:
            continue
        value = value.strip()
        if value in ("", "|", ">", "|-", ">-", "|+", ">+"):
            block_indent = indent + (2 if body.startswith("- ") else 0)
            scalar = value != ""
        elif value.startswith("[") and value.endswith("]"):
            out.extend(_flow_items(value[1:-1]))  # cmds: ["a", 'b']: a flow sequence
        else:
            out.append(_scalar(value))
        if len(out) >= _MAX_OUT:
            break
    if chunk:
        out.append("\n".join(chunk))
    return [c for c in out if c.strip()][:_MAX_OUT]


def _flow_items(body: str) -> list[str]:
    """The items of a YAML flow sequence's body, split on commas outside quotes."""
    items: list[str] = []
    start = 0
    quote = ""
    for k, ch in enumerate(body):
        if quote:
            if ch == quote and (quote == "'" or body[k - 1] != "\\"):
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            items.append(_scalar(body[start:k]))
            start = k + 1
    items.append(_scalar(body[start:]))
    return items[:_MAX_OUT]


def _json(text: str) -> object:
    if DYN in text or len(text) > 200_000:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def package_scripts(text: str) -> dict[str, str] | None:
    """``package.json``'s scripts by name (None when the text is not JSON)."""
    data = _json(text)
    if not isinstance(data, dict):
        return None
    scripts = data.get("scripts")
    if not isinstance(scripts, dict):
        return {}
    return {k: v for k, v in list(scripts.items())[:_MAX_OUT] if isinstance(v, str)}


def vscode_tasks(text: str) -> tuple[list[str], bool]:
    """``.vscode/tasks.json``: each task's command line, and whether one runs when the
    folder is opened (``runOptions.runOn: folderOpen``). Comments are not JSON: the text
    is then scanned for ``"command": "..."`` pairs."""
    auto = "folderopen" in text.lower()
    data = _json(text)
    out: list[str] = []
    if isinstance(data, dict) and isinstance(data.get("tasks"), list):
        for task in data["tasks"][:_MAX_OUT]:
            if not isinstance(task, dict) or not isinstance(task.get("command"), str):
                continue
            args = task.get("args")
            words = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
            out.append(" ".join([task["command"], *words]))
        return out, auto
    for m in re.finditer(r'"command"\s*:\s*"((?:[^"\\\n]|\\.){0,2000})"', text):
        out.append(m.group(1).replace('\\"', '"').replace("\\\\", "\\"))
        if len(out) >= _MAX_OUT:
            break
    return out, auto


_CARGO_KEYS = frozenset({"runner", "rustc-wrapper", "rustc-workspace-wrapper", "rustc",
                         "linker"})


def cargo_config_commands(text: str) -> list[str]:
    """``.cargo/config.toml`` values cargo runs as programs: ``runner``, ``rustc-wrapper``
    (a string, or an array of words)."""
    out: list[str] = []
    for line in unescape_echo(text).splitlines()[:_MAX_LINES]:
        key, sep, value = line.partition("=")
        if not sep or key.strip().strip('"') not in _CARGO_KEYS:
            continue
        value = value.strip()
        if value.startswith("["):
            words = re.findall(r'"((?:[^"\\]|\\.){0,2000})"', value)
            out.append(" ".join(w.replace('\\"', '"') for w in words))
        elif value[:1] == '"' and value.endswith('"') and len(value) >= 2:
            out.append(value[1:-1].replace('\\"', '"').replace("\\\\", "\\"))
        elif value[:1] == "'" and value.endswith("'") and len(value) >= 2:
            out.append(value[1:-1])
        if len(out) >= _MAX_OUT:
            break
    return [c for c in out if c.strip()]


def make_commands(text: str) -> list[str]:
    """A makefile's recipe lines, its one-line ``echo`` spellings included."""
    return make_recipes(unescape_echo(text))
