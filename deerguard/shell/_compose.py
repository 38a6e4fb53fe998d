"""Compose files that give a service the host: ``docker compose up`` of a file whose text is
known (a heredoc on ``-f -``, or a file written earlier in the same command, by name or as
one of the default names in the working directory).

``docker run --privileged -v /:/h`` is caught from its options (``_remote``), ``kubectl
apply`` of a manifest from its YAML (``_podspec``); a compose file says the same in its own
keys, read here with the same rules (:func:`~._container.container_option`):
``privileged: true``, ``pid|ipc|uts|userns_mode|cgroup: host``, ``cap_add``,
``security_opt`` (``seccomp:unconfined``, ``label:disable``), ``devices``, and ``volumes`` of
``/``, a system directory or the Docker socket (short ``SRC:DST`` or long ``source:``
syntax). ``network_mode: host`` alone is not an escape, as ``docker run --network host`` is
not. A service's ``command``/``entrypoint`` (a string split as compose splits it, or a
list) is classified as the command the container runs, like ``docker run IMAGE CMD``.

Programs: ``docker|podman|nerdctl compose``, ``docker-compose``, ``podman-compose`` with
``up``, ``create`` or ``run``, and ``docker stack deploy -c FILE``. A file whose text is not
known (written by an editor, checked in) passes: only what the command itself wrote is read.
The scan is one pass over the lines, never a YAML parse (aliases and nesting cannot make it
slow).
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

from ._container import Remote, container_option
from ._paths import norm_path
from ._podspec import flow_list, load_json
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._flow import Flow
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["COMPOSE_PROGRAMS", "compose_spec"]

COMPOSE_PROGRAMS = frozenset({"docker", "podman", "nerdctl", "docker-compose",
                              "podman-compose"})
_ENGINE_ARG = frozenset({"-H", "--host", "-c", "--context", "--config", "-l",
                         "--log-level", "--url", "--connection", "--identity", "--root",
                         "--runroot", "-n", "--namespace", "--address", "-a"})
_COMPOSE_ARG = frozenset({"-f", "--file", "-p", "--project-name", "--project-directory",
                          "--env-file", "--profile", "--ansi", "--progress", "--parallel"})
_CREATES = frozenset({"up", "create", "run", "deploy"})
_DEFAULT_NAMES = ("compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml",
                  "compose.override.yaml", "compose.override.yml",
                  "docker-compose.override.yaml", "docker-compose.override.yml")
_NAMESPACES = {"pid": "--pid", "ipc": "--ipc", "uts": "--uts", "userns_mode": "--userns",
               "cgroup": "--cgroupns"}
_LIST_KEYS = frozenset({"volumes", "cap_add", "security_opt", "devices", "command",
                        "entrypoint"})
_OPTION_OF = {"volumes": "-v", "cap_add": "--cap-add", "security_opt": "--security-opt",
              "devices": "--device"}


def _compose_args(name: str, args: list[Field]) -> list[Field] | None:
    """The words after ``compose`` (or ``stack``), or None when this is not compose."""
    if name.endswith("-compose"):
        return args
    k = 0
    n = len(args)
    while k < n and args[k].text.startswith("-"):
        k += 2 if args[k].text in _ENGINE_ARG else 1
    if k < n and args[k].text in ("compose", "stack"):
        return args[k + 1:]
    return None


def _files(run: Run, args: list[Field], stdin: Flow | None) -> tuple[list[tuple[Field, str]],
                                                                        bool]:
    """The (word, text) of each compose file whose text is known, and whether the
    subcommand creates containers."""
    names: list[Field] = []
    folder = run.cwd
    verb = ""
    n = len(args)
    k = 0
    while k < n:
        f = args[k]
        opt, eq, value = f.text.partition("=")
        if opt in _COMPOSE_ARG:
            val = Field(value, f.span, f.taint) if eq else (args[k + 1] if k + 1 < n else None)
            k += 1 if eq else 2
            if val is not None and opt in ("-f", "--file"):
                names.append(val)
            elif val is not None and opt == "--project-directory" and val.static:
                folder = norm_path(val.text, run.cwd) or folder
            continue
        if not opt.startswith("-"):
            verb = f.text
            break
        k += 1
    out: list[tuple[Field, str]] = []
    if verb not in _CREATES:
        return out, False
    if verb == "deploy":  # docker stack deploy -c FILE NAME: the options follow the verb
        found = _stack_files(args[k + 1:])
        names.extend(found)
        if not found:
            return out, False  # --compose-file is required; none given or all from stdin
    if not names:
        for default in _DEFAULT_NAMES:
            path = norm_path(default, folder)
            text = run.file_text.get(path) if path is not None else None
            if text is not None:
                out.append((args[k], text))
        return out, True
    for f in names:
        known: str | None = None
        if f.text in ("-", "/dev/stdin"):
            known = stdin.text if stdin is not None else None
        elif f.static and DYN not in f.text:
            path = norm_path(f.text, folder)
            known = run.file_text.get(path) if path is not None else None
        if known is not None and DYN not in known:
            out.append((f, known))
    return out, True


def _stack_files(args: list[Field]) -> list[Field]:
    """The ``-c``/``--compose-file`` values of ``docker stack deploy``."""
    out: list[Field] = []
    for k, f in enumerate(args):
        opt, eq, value = f.text.partition("=")
        if opt in ("-c", "--compose-file"):
            if eq:
                out.append(Field(value, f.span, f.taint))
            elif k + 1 < len(args):
                out.append(args[k + 1])
    return out


def compose_spec(run: Run, inv: Invocation, stdin: Flow | None,
                 commands: list[tuple[Field, list[str]]]) -> Remote | None:
    """What the known compose files of ``inv`` give their services of the host, and the
    commands the services run (appended to ``commands``)."""
    args = _compose_args(inv.name, inv.args)
    if args is None:
        return None
    found, creates = _files(run, args, stdin)
    if not creates:
        return None
    out = Remote()
    for f, text in found:
        doc = load_json(text) if text.lstrip()[:1] == "{" else None
        if isinstance(doc, dict):
            _walk_json(doc, f, out, commands)  # JSON is YAML too
        else:
            scan_compose(text, f, out, commands)
    return out


def _walk_json(doc: dict[str, Any], f: Field, out: Remote,
               commands: list[tuple[Field, list[str]]]) -> None:
    """A compose file written as JSON: every mapping's keys, read as the line scan reads
    them (a bounded number of nodes)."""
    stack: list[Any] = [doc]
    seen = 0
    while stack and seen < 4000:
        node = stack.pop()
        seen += 1
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            key = str(key).lower()
            if isinstance(value, dict):
                stack.append(value)
            elif key in ("command", "entrypoint"):
                if isinstance(value, str):
                    _command(value, None, f, commands)
                elif isinstance(value, list):
                    _command("", [str(v) for v in value[:64]], f, commands)
            elif isinstance(value, list):
                for item in value[:64]:
                    if isinstance(item, str):
                        _item(key, item, f, out)
                    elif isinstance(item, dict) and key == "volumes":
                        source = item.get("source")
                        if isinstance(source, str):
                            container_option(out, f, "--mount", "--mount", Field(
                                f"type=bind,source={source}", f.span, f.taint))
            elif value is True or isinstance(value, str):
                _scalar(key, str(value), "true" if value is True else "", f, out)


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text




def _item(key: str, value: str, f: Field, out: Remote) -> None:
    opt = _OPTION_OF.get(key)
    if opt is not None and value:
        container_option(out, f, opt, opt, Field(value, f.span, f.taint))


def _command(value: str, items: list[str] | None, f: Field,
             commands: list[tuple[Field, list[str]]]) -> None:
    if len(commands) >= 8 or value[:1] in ("|", ">"):
        return  # a block scalar's lines are not read
    if items is None:
        try:
            items = shlex.split(value)
        except ValueError:
            return
    if items:
        commands.append((f, items))


def scan_compose(text: str, f: Field, out: Remote,
                 commands: list[tuple[Field, list[str]]]) -> None:
    """Read a compose file line by line for the settings that give a service the host."""
    list_key = ""  # a key whose block list items follow (volumes:, cap_add:, command:)
    list_indent = -1
    items: list[str] = []
    for raw in text.splitlines():
        line = raw.partition(" #")[0].rstrip()
        body = line.lstrip()
        if not body or body.startswith("#"):
            continue
        indent = len(line) - len(body)
        if body.startswith("- ") or body == "-":
            item = body[1:].strip()
            if list_key and indent >= list_indent:
                _list_item(list_key, item, f, out, items)
                continue
        elif list_key and indent <= list_indent:
            _end_list(list_key, items, f, commands)
            list_key, items = "", []
        key, colon, value = body.lstrip("- ").partition(":")
        if not colon or (value and value[0] not in " \t"):
            continue
        key = _unquote(key).lower()
        value = value.strip()
        if key == "source" and list_key == "volumes":
            container_option(out, f, "--mount", "--mount",
                             Field(f"type=bind,source={_unquote(value)}", f.span, f.taint))
        elif key in _LIST_KEYS and not value:
            list_key, list_indent, items = key, indent, []
        elif key in _LIST_KEYS:
            _inline(key, value, f, out, commands)
        else:
            _scalar(key, _unquote(value), value, f, out)
    if list_key:
        _end_list(list_key, items, f, commands)


def _list_item(key: str, item: str, f: Field, out: Remote, items: list[str]) -> None:
    if key in ("command", "entrypoint"):
        items.append(_unquote(item))
        return
    head, colon, rest = item.partition(":")
    if key == "volumes" and colon and _unquote(head).lower() == "source" and rest[:1] in " \t":
        item = f"type=bind,source={_unquote(rest)}"  # - source: / (long syntax, first key)
        container_option(out, f, "--mount", "--mount", Field(item, f.span, f.taint))
        return
    _item(key, _unquote(item), f, out)


def _end_list(key: str, items: list[str], f: Field,
              commands: list[tuple[Field, list[str]]]) -> None:
    if key in ("command", "entrypoint") and items:
        _command("", items, f, commands)


def _inline(key: str, value: str, f: Field, out: Remote,
            commands: list[tuple[Field, list[str]]]) -> None:
    flow = value.startswith("[")
    if key in ("command", "entrypoint"):
        _command(_unquote(value), flow_list(value) if flow else None, f, commands)
    else:
        for item in flow_list(value) if flow else [_unquote(value)]:
            _item(key, item, f, out)


def _scalar(key: str, value: str, raw: str, f: Field, out: Remote) -> None:
    if key == "privileged" and raw in ("true", "True", "TRUE"):
        container_option(out, f, "--privileged", "--privileged", None)
    elif key in _NAMESPACES and value == "host":
        opt = _NAMESPACES[key]
        container_option(out, f, opt, opt, Field("host", f.span, f.taint))
