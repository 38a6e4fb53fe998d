"""What a kubectl (or oc) command line runs in the cluster, and what it gives its pod of the
host.

``kubectl exec POD -- CMD``, ``kubectl run NAME --image=I -- CMD`` and ``kubectl debug ...
-- CMD`` run an argument vector in a container; so do the workloads ``kubectl create
job|cronjob|deployment NAME --image=I -- CMD ARGS`` (a cron job runs it on every tick): the
resolver continues at ``CMD`` as through a wrapper, so ``-- sh -c 'curl ... | sh'`` is read
as the code string it is, whichever verb started the pod.

The pod's hold on the host (``shell.container-escape``): ``--privileged``, ``--profile
sysadmin``, ``kubectl debug node/NAME`` (the node's filesystem, as root), and an
``--overrides`` JSON pod spec with ``privileged``, ``hostPID``/``hostIPC``, a ``hostPath`` of
``/``... (read by ``_podspec``, as ``_hostapi`` reads it when kubectl is the last program:
here kubectl may be a wrapper of the command after ``--``).

One pass over the words; the overrides document is walked with ``_podspec``'s node bound.
"""

from __future__ import annotations

from ._container import Remote
from ._podspec import load_json, walk_spec
from ._words import Field

__all__ = ["kube_remote"]

_KUBE_GLOBAL_ARG = frozenset({"-n", "--namespace", "--context", "--kubeconfig", "--cluster",
                              "--user", "-s", "--server", "--token", "--as", "--as-group",
                              "-c", "--container", "-f", "--filename", "--image",
                              "--pod-running-timeout", "--request-timeout", "-l",
                              "--selector", "--overrides", "--restart", "--env",
                              "--labels", "--port", "--image-pull-policy",
                              "--serviceaccount", "--profile", "--target", "--copy-to",
                              "--schedule", "--replicas", "--from"})
_RUNS = frozenset({"exec", "run", "debug", "attach", "create"})
_WORKLOADS = frozenset({"job", "jobs", "cronjob", "cronjobs", "cj", "deployment",
                        "deployments", "deploy"})


def _option(fields: list[Field], j: int, t: str) -> tuple[str, Field | None, int]:
    """The option at ``j``: (its name, its value field or None, the next index)."""
    opt, eq, val = t.partition("=")
    if eq:
        f = fields[j]
        return opt, Field(val, f.span, f.taint), j + 1
    if opt in _KUBE_GLOBAL_ARG:
        return opt, fields[j + 1] if j + 1 < len(fields) else None, j + 2
    return opt, None, j + 1


def _host_options(out: Remote, sub: str, f: Field, opt: str, val: Field | None) -> None:
    """Options of ``run``/``debug`` that give the pod the host."""
    if opt == "--privileged" and f.text in ("--privileged", "--privileged=true"):
        out.escapes.append((f, f"kubectl {sub} {f.text} gives the pod the host"))
    elif opt == "--profile" and val is not None and val.text == "sysadmin":
        out.escapes.append((f, f"kubectl {sub} --profile=sysadmin gives the pod the host"))
    elif opt == "--overrides" and sub == "run" and val is not None and val.static:
        doc = load_json(val.text)
        if doc is not None:
            walk_spec(doc, val, out, [])  # the command it names: _hostapi, when kubectl is last


def kube_remote(fields: list[Field], j: int) -> Remote:
    """What ``kubectl fields[j:]`` runs in a container and gives it of the host."""
    out = Remote()
    n = len(fields)
    sub = None
    kind = None
    while j < n:
        f = fields[j]
        t = f.text
        if t == "--":
            break
        if t.startswith("-"):
            opt, val, j = _option(fields, j, t)
            if sub is not None and sub in ("run", "debug"):
                _host_options(out, sub, f, opt, val)
            continue
        if sub is None:
            sub = t
            if sub not in _RUNS:
                return out
        elif sub == "debug" and t.startswith(("node/", "nodes/")):
            out.escapes.append((f, "kubectl debug on a node mounts the host's filesystem"))
        elif kind is None:
            kind = t
            if sub == "create" and kind not in _WORKLOADS:
                return out  # create secret|configmap|role...: nothing runs
        j += 1
    if sub in ("exec", "run", "debug", "create") and j < n and fields[j].text == "--" and \
            j + 1 < n:
        out.start = j + 1
    return out
