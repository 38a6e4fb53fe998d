"""Commands that destroy cloud, cluster, container or database resources (warn band).

Deleting a Terraform stack, a Kubernetes namespace, a bucket or a database is not a danger to
the machine the agent runs on, so none of the block rules covers it, but it is what users fear
most from an agent holding credentials: ``shell.resource-destroy`` warns so a human looks
first. Routine deletions (one pod, one container, one image, ``helm uninstall``) pass.
"""

from __future__ import annotations

from collections.abc import Callable

from ._paths import norm_path
from ._resolve import Invocation
from ._words import Field

__all__ = ["DESTROYERS", "resource_destroy"]

_SQL_DROP = ("drop database", "drop schema", "drop table", "truncate table", "drop owned")
_SQL_CLIENTS = {"psql": ("-c", "--command"), "mysql": ("-e", "--execute"),
                "mariadb": ("-e", "--execute"), "sqlite3": (), "cockroach": ("-e", "--execute"),
                "clickhouse-client": ("-q", "--query")}
DESTROYERS = frozenset({"terraform", "tofu", "terragrunt", "pulumi", "cdk", "kubectl", "oc",
                        "aws", "gsutil", "gcloud", "az", "dropdb", "docker", "podman",
                        "mongosh", "mongo", "redis-cli", *_SQL_CLIENTS})


def _operands(args: list[Field]) -> list[str]:
    return [f.text for f in args if not f.text.startswith("-")]


def resource_destroy(inv: Invocation, stdin_text: str | None = None,
                     read: Callable[[str], str | None] | None = None, cwd: str | None = None
                     ) -> str | None:
    """What ``inv`` destroys (for the finding's message), or None. ``stdin_text`` is the
    statically known text it reads (a heredoc, ``echo SQL |``, a file written earlier);
    ``read`` returns the known text of a path written in the same command (or None), for
    script options (``psql -f drop.sql``); the caller charges what it reads to its work
    budget, since one file may be run many times."""
    what = _by_arguments(inv)
    if what is None and inv.name in _SCRIPT_READERS:
        scripts = [stdin_text] if stdin_text else []
        if read is not None:
            scripts += [text for path in _script_files(inv, cwd)
                        if (text := read(path)) is not None]
        for text in scripts:
            what = _destroying_script(inv.name, text)
            if what is not None:
                break
    return what


# Clients that run statements read from stdin, and their options naming a script file.
_SCRIPT_READERS = {"psql": ("-f", "--file"), "mysql": (), "mariadb": (), "sqlite3": (),
                   "cockroach": (), "clickhouse-client": ("--queries-file",),
                   "mongosh": ("--file", "-f"), "mongo": (), "redis-cli": ()}


def _script_files(inv: Invocation, cwd: str | None) -> list[str]:
    flags = _SCRIPT_READERS[inv.name]
    texts = [f.text for f in inv.args]
    names: list[str] = []
    for k, t in enumerate(texts):
        if t in flags and k + 1 < len(texts):
            names.append(texts[k + 1])
        elif t.startswith("--") and t.partition("=")[0] in flags:
            names.append(t.partition("=")[2])
        elif inv.name in ("mongosh", "mongo") and t.endswith(".js") and not t.startswith("-"):
            names.append(t)  # mongosh [db] script.js
    return [p for n in names if (p := norm_path(n, cwd)) is not None]


def _destroying_script(name: str, text: str) -> str | None:
    low = " ".join(text.lower().split())
    if name in ("mongosh", "mongo"):
        return f"{name} drops a database" if "dropdatabase" in low else None
    if name == "redis-cli":
        words = set(low.split())
        return "redis-cli deletes every key" if words & {"flushall", "flushdb"} else None
    if any(d in low for d in _SQL_DROP):
        return f"{name} runs SQL that drops or truncates a database, schema or table"
    return None


def _by_arguments(inv: Invocation) -> str | None:
    name = inv.name
    texts = [f.text for f in inv.args]
    ops = _operands(inv.args)
    if name in ("terraform", "tofu", "terragrunt"):
        if ops[:1] == ["destroy"] or (ops[:1] == ["apply"] and "-destroy" in texts):
            return "destroys every resource of the Terraform state"
    elif name in ("pulumi", "cdk") and ops[:1] == ["destroy"]:
        return f"{name} destroy deletes the stack's resources"
    elif name in ("kubectl", "oc") and ops[:1] == ["delete"]:
        kinds = {k for op in ops[1:2] for k in op.lower().split(",")}
        if "--all" in texts or "-A" in texts or "--all-namespaces" in texts or \
                kinds & {"namespace", "namespaces", "ns", "pv", "pvc", "persistentvolume",
                         "persistentvolumeclaim", "node", "nodes", "crd", "crds"}:
            return f"{name} delete removes namespaces, volumes, nodes or everything of a kind"
    elif name == "aws" and len(ops) >= 2 and ops[0] == "s3":
        if ops[1] == "rb" or (ops[1] == "rm" and "--recursive" in texts):
            return "aws s3 deletes a bucket or everything under a prefix"
    elif name == "aws" and len(ops) >= 2 and ops[1].startswith(("delete-db", "delete-table",
                                                                "delete-stack",
                                                                "delete-cluster")):
        return f"aws {ops[0]} {ops[1]} deletes a database, table, stack or cluster"
    elif name == "gsutil" and ops[:1] in (["rm"], ["rb"]) and (
            ops[0] == "rb" or any(t in ("-r", "-R", "-a") for t in texts)):
        return "gsutil deletes a bucket or objects recursively"
    elif name == "gcloud" and "delete" in ops and ops[:1] in (["projects"], ["sql"],
                                                               ["container"]):
        return "gcloud deletes a project, database or cluster"
    elif name == "az" and ops[:2] == ["group", "delete"]:
        return "az group delete removes a resource group and everything in it"
    elif name == "dropdb":
        return "dropdb deletes a database"
    elif name in ("docker", "podman") and (
            (ops[:2] == ["system", "prune"] and any(
                t in ("--all", "--volumes") or (t[:1] == "-" and t[1:2] != "-" and "a" in t)
                for t in texts)) or
            ops[:2] in (["volume", "prune"], ["volume", "rm"])):
        return f"{name} deletes volumes or every unused image and volume"
    elif name in ("mongosh", "mongo"):
        return next((w for t in texts if (w := _destroying_script(name, t)) is not None), None)
    elif name == "redis-cli" and any(t.lower() in ("flushall", "flushdb") for t in texts):
        return "redis-cli deletes every key"
    elif name in _SQL_CLIENTS:
        flags = _SQL_CLIENTS[name]
        for k, t in enumerate(texts):
            sql = t
            if t in flags and k + 1 < len(texts):
                sql = texts[k + 1]
            elif not (name == "sqlite3" and k > 0) and not any(
                    t.startswith(flag + "=") for flag in flags if flag.startswith("--")):
                continue
            what = _destroying_script(name, sql)
            if what is not None:
                return what
    return None
