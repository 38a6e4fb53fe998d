"""Container escapes asked for without the docker CLI: the engine's HTTP API, Kubernetes pod
specs, and the cgroup v1 ``release_agent``.

``docker run --privileged -v /:/h`` is caught from its options (``_remote``); the same
request can be made other ways, and each is read for the same settings, with the same rules
(:func:`~._container.container_option`), so the outcome does not depend on the front end:

* ``curl --unix-socket /var/run/docker.sock -d '{"HostConfig":{"Binds":["/:/h"]}}'
  http://x/containers/create`` (or any URL whose path creates a container, an exec or a
  service, over a socket or TCP): the JSON body's ``Privileged``, ``Binds``, ``Mounts``,
  ``PidMode``/``IpcMode``/``UTSMode``/``UsernsMode``/``CgroupnsMode`` = host, ``CapAdd``,
  ``SecurityOpt``, ``Devices``. Read-only requests (``GET /containers/json``) pass.
* ``kubectl run --overrides='{...}'``, ``kubectl patch -p '{...}'`` and manifests given to
  ``kubectl apply|create|replace -f`` (a heredoc on stdin, or a file written earlier in the
  same command): ``privileged: true``, ``hostPID``/``hostIPC: true``, a ``hostPath`` of ``/``
  or a system directory, dangerous ``capabilities.add``, ``Unconfined`` seccomp/AppArmor.
  ``hostNetwork`` alone is not an escape here, as ``docker run --network host`` is not.
  The containers' ``command``/``args`` (JSON or YAML) are classified as the pod's command.
* Compose files given to ``docker compose ... up`` the same ways (``_compose``).
* A write to a cgroup's ``release_agent`` or ``notify_on_release`` (any path: the cgroup
  filesystem is mounted wherever the attacker chose): the kernel runs ``release_agent`` as
  root on the host. No developer tool writes these by hand.

Severity: ``shell.container-escape`` (block), as for the docker options: the container gets
root on the host. Work is linear: JSON goes to the C parser and its walk stops after a fixed
number of nodes; YAML is scanned line by line for the few keys that matter, never parsed
(a YAML parser is slow on deep nesting and aliases). Both readers are in ``_podspec``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ._compose import COMPOSE_PROGRAMS, compose_spec
from ._container import Remote, check_mounts
from ._paths import norm_path
from ._podspec import load_json as _load
from ._podspec import scan_yaml as _scan_yaml
from ._podspec import walk_spec as _walk
from ._podspec import yaml_argvs
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._flow import Flow
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["HOST_API_PROGRAMS", "host_api"]

_SOCKET_CLIENTS = frozenset({"nc", "ncat", "netcat", "nc.openbsd", "socat"})
HOST_API_PROGRAMS = frozenset({"curl", "wget", "kubectl", "oc"}) | _SOCKET_CLIENTS | \
    COMPOSE_PROGRAMS
"""Programs :func:`host_api` reads (anything else costs one set lookup)."""

_CURL_BODY = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-ascii",
                        "--json", "--data-urlencode"})


def host_api(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """Report container escapes requested through ``inv`` (curl to the engine API, kubectl
    pod specs); constant work for any other invocation of these programs."""
    commands: list[tuple[Field, list[str]]] = []
    if inv.name == "curl":
        found = _curl(inv.args, commands, lambda name: _body_file(run, name, stdin))
    elif inv.name == "wget":
        found = _wget(inv.args, commands, lambda name: _body_file(run, name, stdin))
    elif inv.name in _SOCKET_CLIENTS:
        found = _raw_http(inv.args, stdin.text if stdin is not None else None, commands)
    elif inv.name in COMPOSE_PROGRAMS:
        found = compose_spec(run, inv, stdin, commands)  # docker compose -f - up <<EOF
    else:
        found = _kubectl(run, inv, stdin, commands)
    if found is None:
        return
    for f, reason in found.escapes:
        run.add("shell.container-escape", f.span, reason, None)
    for body, argv in commands:
        # the command the new container runs, classified like docker run's
        run.invoke([Field(w, body.span, body.taint) for w in argv], None, [])
    if found.mounts:  # a credential folder mounted warns like docker run -v (_container)
        check_mounts(run.add, run.cp.paths, inv.name, found.mounts, run.cwd)


def _body_file(run: Run, name: str, stdin: Flow | None) -> str | None:
    """The text of curl's ``@name`` body when it is known: stdin for ``@-`` (a here-string,
    a heredoc, a pipe from echo), else a file written earlier in the same command."""
    if name == "-":
        return stdin.text if stdin is not None else None
    if not name or DYN in name:
        return None
    path = norm_path(name, run.cwd)
    return run.file_text.get(path) if path is not None else None


def _curl(args: list[Field], commands: list[tuple[Field, list[str]]],
          read: Callable[[str], str | None]) -> Remote | None:
    socket = False
    creates = False
    bodies: list[Field] = []
    n = len(args)
    j = 0
    while j < n:
        f = args[j]
        t = f.text
        if t.startswith(("--unix-socket", "--abstract-unix-socket")):
            socket = True
        elif t in _CURL_BODY and j + 1 < n:
            bodies.append(args[j + 1])
            j += 1
        elif t.startswith("--") and t.partition("=")[0] in _CURL_BODY:
            bodies.append(Field(t.partition("=")[2], f.span, f.taint))
        elif t in ("-T", "--upload-file") and j + 1 < n:
            g = args[j + 1]  # -X POST -T body.json: the file is the body
            bodies.append(Field("@" + g.text, g.span, g.taint))
            j += 1
        elif t.startswith("-d") and len(t) > 2:
            bodies.append(Field(t[2:], f.span, f.taint))  # -d'{...}'
        elif "/containers/" in t or "/services/" in t:
            creates = creates or _creates(t)
        j += 1
    if not bodies or not (socket or creates):
        return None
    out = Remote()
    for body in bodies:
        if not body.static:
            continue
        text: str | None = body.text
        if body.text.startswith("@"):  # -d @body.json, --data-binary @- (stdin)
            text = read(body.text[1:])
        if text is not None and DYN not in text:
            doc = _load(text)
            if doc is not None:
                _walk(doc, body, out, commands)
    return out


_WGET_BODY = {"--post-data": False, "--body-data": False, "--post-file": True,
              "--body-file": True}


def _wget(args: list[Field], commands: list[tuple[Field, list[str]]],
          read: Callable[[str], str | None]) -> Remote | None:
    """``wget --post-data='{...}' http://h:2375/containers/create`` (or ``--post-file=F``,
    F written earlier in the command): the engine API over TCP, read like curl's body."""
    body: Field | None = None
    from_file = False
    creates = False
    n = len(args)
    for j, f in enumerate(args):
        opt, eq, val = f.text.partition("=")
        if opt in _WGET_BODY:
            from_file = _WGET_BODY[opt]
            body = Field(val, f.span, f.taint) if eq else (args[j + 1] if j + 1 < n else None)
        elif "/containers/" in f.text or "/services/" in f.text:
            creates = creates or _creates(f.text)
    if body is None or not creates or not body.static:
        return None
    text = read(body.text) if from_file else body.text
    out = Remote()
    doc = _load(text) if text is not None and DYN not in text else None
    if doc is not None:
        _walk(doc, body, out, commands)
    return out


_ENGINE_ENDPOINTS = ("docker.sock", "podman.sock", ":2375", ":2376")


def _raw_http(args: list[Field], request: str | None,
              commands: list[tuple[Field, list[str]]]) -> Remote | None:
    """``printf 'POST /containers/create HTTP/1.1\\r\\n...\\r\\n\\r\\n{...}' | nc -U
    /var/run/docker.sock`` (or ``socat - UNIX-CONNECT:/var/run/docker.sock``): an engine API
    request written by hand; its body is read like curl's."""
    if request is None or DYN in request or not any(
            f.text in ("2375", "2376") or any(e in f.text for e in _ENGINE_ENDPOINTS)
            for f in args):
        return None
    line = request.lstrip().partition("\n")[0].split()
    if len(line) < 2 or line[0].upper() != "POST" or not _creates("h" + line[1]):
        return None
    head, sep, body = request.partition("\r\n\r\n")
    if not sep:
        head, sep, body = request.partition("\n\n")
    doc = _load(body) if sep else None
    if doc is None:
        return None
    out = Remote()
    _walk(doc, args[-1], out, commands)
    return out


def _creates(url: str) -> bool:
    """True when the engine API path of ``url`` creates or changes a container, an exec or a
    service: ``[/vN.NN]/containers/create``, ``/containers/ID/exec``, ``/containers/ID/update``,
    ``/services/create``, ``/services/ID/update``."""
    path = url.split("://", 1)[-1].partition("/")[2].partition("?")[0]
    segs = [s for s in path.split("/") if s][:8]
    if segs and segs[0].startswith("v") and segs[0][1:2].isdecimal():
        segs = segs[1:]
    if len(segs) < 2 or segs[0] not in ("containers", "services"):
        return False
    return segs[1] == "create" or (len(segs) == 3 and segs[2] in (
        "exec", "update") and (segs[0] == "containers" or segs[2] == "update"))


_KUBE_GLOBAL_ARG = frozenset({"-n", "--namespace", "--context", "--kubeconfig", "--cluster",
                              "--user", "-s", "--server", "--token", "--as", "--as-group",
                              "--request-timeout", "--certificate-authority", "-v"})
_KUBE_FILE_VERBS = frozenset({"apply", "create", "replace"})


def _kubectl(run: Run, inv: Invocation, stdin: Flow | None,
             commands: list[tuple[Field, list[str]]]) -> Remote | None:
    args = inv.args
    verb = None
    j = 0
    while j < len(args) and verb is None:
        t = args[j].text
        if not t.startswith("-"):
            verb = t
        j += 2 if t in _KUBE_GLOBAL_ARG else 1
    if verb not in ("run", "patch", "debug") and verb not in _KUBE_FILE_VERBS:
        return None
    out = Remote()
    n = len(args)
    for j, f in enumerate(args):
        t = f.text
        opt, eq, val = t.partition("=")
        if opt in ("--overrides", "-p", "--patch") and verb in ("run", "patch"):
            body = Field(val, f.span, f.taint) if eq else (args[j + 1] if j + 1 < n else None)
            if body is not None and body.static:
                doc = _load(body.text)
                if doc is not None:
                    _walk(doc, body, out, commands)
                elif opt != "--overrides":
                    _scan_yaml(body.text, body, out)  # patch -p accepts YAML
        elif opt in ("-f", "--filename") and verb in _KUBE_FILE_VERBS:
            name = val if eq else (args[j + 1].text if j + 1 < n else "")
            text: str | None = None
            if name == "-" and stdin is not None:
                text = stdin.text
            elif name and DYN not in name:
                path = norm_path(name, run.cwd)
                text = run.file_text.get(path) if path is not None else None
            if text is not None and DYN not in text:
                doc = _load(text)
                if doc is not None:
                    _walk(doc, f, out, commands)
                else:
                    _scan_yaml(text, f, out)
                    commands.extend((f, argv) for argv in yaml_argvs(text))
    return out
