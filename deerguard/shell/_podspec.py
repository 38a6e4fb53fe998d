"""Pod and container specs read for the settings that give a container the host: a JSON
document (a Docker API body, a Kubernetes object, ``kubectl run --overrides``) walked node by
node, or a YAML manifest scanned line by line (shared by ``_hostapi``, ``_kubework`` and
``_compose``).

The walk stops after a fixed number of nodes (YAML aliases can make a small text a large
graph); JSON goes to the C parser; YAML is never parsed, only scanned for the few keys that
matter, so the work is linear in the text whatever its nesting.
"""

from __future__ import annotations

import json
from typing import Any

from ._container import Remote, container_option
from ._words import Field

__all__ = ["flow_list", "load_json", "scan_yaml", "setting", "walk_spec", "yaml_argvs"]

_MAX_NODES = 4000
_NS_MODES = {"pidmode": "--pid", "ipcmode": "--ipc", "utsmode": "--uts",
             "usernsmode": "--userns", "cgroupnsmode": "--cgroupns"}


def load_json(text: str) -> Any:
    """The JSON document ``text`` (C parser: linear), or None."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def scan_yaml(text: str, f: Field, out: Remote) -> None:
    """Read a YAML manifest or patch line by line for the settings :func:`setting` knows
    (``privileged: true``, ``hostPID: true``, ``hostPath: {path: /}``, ``capabilities: {add:
    [SYS_ADMIN]}``, ``type: Unconfined``). A scan, not a parser: linear in the text, whatever
    its nesting or aliases; flow style (``{a: b}``, ``[x]``) is split into the same pairs."""
    key_of_items = ""  # the key a list item belongs to (add: / - SYS_ADMIN)
    host_path = 0  # keys left in which a path: belongs to a hostPath:
    for line in text.splitlines():
        body = line.partition(" #")[0]
        for part in body.translate(_FLOW).split(","):
            part = part.strip()
            if part[:2] == "- " or part == "-":
                part = part.lstrip("- \t")  # list items, nested ones too (- - x)
            if not part:
                continue
            key, colon, value = part.partition(":")
            if not colon or (value and value[0] not in " \t"):
                if key_of_items:
                    setting(key_of_items, [part.strip("\"'")], f, out)
                continue
            key = key.strip().strip("\"'").lower()
            raw = value.strip()
            value = raw.strip("\"'")
            if key == "path" and host_path:
                setting("hostpath", {"path": value}, f, out)
            host_path = 3 if key == "hostpath" else max(host_path - 1, 0)
            key_of_items = key if key == "add" and not value else ""
            if key == "add" and value:
                setting("add", [value], f, out)
            elif key == "type" and value.lower() == "unconfined":
                setting("seccompprofile", {"type": value}, f, out)
            elif raw in ("true", "True"):  # "true" quoted is a string
                setting(key, True, f, out)


_FLOW = str.maketrans({"{": ",", "}": ",", "[": ",", "]": ","})
_MAX_ARGVS = 8


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def flow_list(value: str) -> list[str]:
    """A one-line YAML flow list (``["sh", "-c", "a, b"]`` as JSON when it is, else split
    on commas: ``[sh, -c, x]``), at most 64 items."""
    doc = load_json(value)
    if isinstance(doc, list):
        return [str(v) for v in doc[:64] if isinstance(v, str | int | float)]
    return [_unquote(v) for v in value.strip()[1:].rstrip().rstrip("]").split(",")[:64]
            if v.strip()]


def yaml_argvs(text: str) -> list[list[str]]:
    """The commands a YAML manifest's containers run: each ``command:`` list (flow
    ``[a, b]`` or block ``- a`` items) followed by the ``args:`` of the same container, as
    the JSON walk reads ``command`` + ``args``. A container with ``args`` alone runs the
    image's unknown entrypoint and is not read. Line scan, linear in the text; at most
    eight commands."""
    out: list[list[str]] = []
    argv: list[str] | None = None
    argv_indent = -1  # the indent of the current container's keys
    block = -1  # >= 0 while the items of a block list are read (its key's indent)
    for raw in text.splitlines():
        line = raw.partition(" #")[0].rstrip()
        body = line.lstrip()
        if not body or body[0] == "#":
            continue
        indent = len(line) - len(body)
        if block >= 0 and argv is not None and body[:2] == "- " and indent >= block:
            if len(argv) < 64:
                argv.append(_unquote(body[2:]))
            continue
        block = -1
        if body[:2] == "- ":
            body = body[2:].lstrip()
            if indent < argv_indent:
                argv = None  # a new item of an outer list: another container or pod
            indent = len(line) - len(body)
        key, colon, value = body.partition(":")
        if not colon or (value and value[0] not in " \t"):
            continue
        key = _unquote(key)
        value = value.strip()
        if key == "command" and len(out) < _MAX_ARGVS:
            argv = []
            out.append(argv)
            argv_indent = indent
        elif not (key == "args" and argv is not None and indent == argv_indent):
            continue
        if value[:1] == "[":
            argv.extend(flow_list(value))
        elif not value:
            block = indent
        elif value[:1] not in ("|", ">"):
            argv.append(_unquote(value))
    return [a for a in out if a]


def walk_spec(doc: Any, f: Field, out: Remote, commands: list[tuple[Field, list[str]]]) -> None:
    """Find the settings that give a container the host anywhere in ``doc`` (a Docker API
    body or a Kubernetes object); at most ``_MAX_NODES`` nodes are visited (YAML aliases
    can make a small text a large graph)."""
    stack = [doc]
    seen = 0
    while stack and seen < _MAX_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        argv = _argv(node) if len(commands) < 8 else None
        if argv:
            commands.append((f, argv))
        for key, value in node.items():
            if isinstance(value, dict | list):
                stack.append(value)
            if isinstance(key, str):
                setting(key.lower(), value, f, out)


def _words(value: Any) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(w, str) for w in value[:64]):
        return [str(w) for w in value[:64]]
    return None


def _argv(node: dict[Any, Any]) -> list[str] | None:
    """The command a container created from ``node`` runs: Docker's ``Entrypoint`` +
    ``Cmd``, a Kubernetes container's ``command`` + ``args`` (only when the command is
    given: otherwise the image's entrypoint, unknown, gets the args)."""
    cmd = _words(node.get("Cmd"))
    if cmd is not None:
        return (_words(node.get("Entrypoint")) or []) + cmd
    command = _words(node.get("command"))
    if command and ("image" in node or "name" in node):
        return command + (_words(node.get("args")) or [])
    return None


def _field(f: Field, text: str) -> Field:
    return Field(text, f.span, f.taint)


def setting(key: str, value: Any, f: Field, out: Remote) -> None:
    if key == "privileged" and value is True:
        container_option(out, f, "--privileged", "--privileged", None)
    elif key in ("hostpid", "hostipc") and value is True:
        out.escapes.append((f, f"{key[:4]}{key[4:].upper()}: true shares the host's "
                            f"{key[4:].upper()} namespace with the pod"))
    elif key in _NS_MODES and value == "host":
        container_option(out, f, _NS_MODES[key], _NS_MODES[key], _field(f, "host"))
    elif key == "binds" and isinstance(value, list):
        for bind in value:
            if isinstance(bind, str):
                container_option(out, f, "-v", "-v", _field(f, bind))
    elif key == "mounts" and isinstance(value, list):
        for mount in value:
            if isinstance(mount, dict):
                src = mount.get("Source", mount.get("source"))
                kind = mount.get("Type", mount.get("type", "bind"))
                if isinstance(src, str) and kind == "bind":
                    container_option(out, f, "--mount", "--mount",
                                     _field(f, f"type=bind,source={src}"))
    elif key == "hostpath" and isinstance(value, dict):
        path = value.get("path")
        if isinstance(path, str):
            container_option(out, f, "-v", "-v", _field(f, f"{path}:/host"))
    elif key in ("capadd", "add") and isinstance(value, list):
        caps = ",".join(c for c in value if isinstance(c, str))
        container_option(out, f, "--cap-add", "--cap-add", _field(f, caps))
    elif key == "securityopt" and isinstance(value, list):
        for opt in value:
            if isinstance(opt, str):
                container_option(out, f, "--security-opt", "--security-opt", _field(f, opt))
    elif key in ("seccompprofile", "apparmorprofile") and isinstance(value, dict) and \
            str(value.get("type", "")).lower() == "unconfined":
        container_option(out, f, "--security-opt", "--security-opt",
                         _field(f, f"{key[:-7]}=unconfined"))
    elif key == "devices" and isinstance(value, list):
        for dev in value:
            host = dev.get("PathOnHost") if isinstance(dev, dict) else None
            if isinstance(host, str):
                container_option(out, f, "--device", "--device", _field(f, host))
