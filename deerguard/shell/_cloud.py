"""Cloud, cluster and SaaS command-line tools: which subcommands destroy, and how much.

Each tool is read the way it parses its own argv: its global options that take a value are
skipped with their value, the words before the first later option form the command path
(``aws ec2 terminate-instances``, ``gcloud compute instances delete vm1``), and that path is
matched against a table of (program, path pattern, tier). A pattern word is exact, a prefix
(``delete-*``: every ``aws <service> delete-...`` operation, present and future), ``*`` (any
one word) or ``**`` (any number of group words: ``gcloud <group...> delete``), so verbs of
services the table never listed still match.

Tiers (severity guidance of the rules ``shell.resource-destroy`` / ``shell.mass-destroy``):

- ``ROUTINE``: a deletion developers do all day whose loss is recreated or tiny (one pod,
  which its controller replaces; one object in a bucket; one Helm release of a preview). No
  finding, unless a run-time list or ``--all`` makes it ``ALL``.
- ``ONE``: one named resource (``kubectl delete deployment api``, ``aws iam delete-role``,
  ``aws s3 rm s3://b/logs/ --recursive``, ``gh release delete v1``), or a ``WHOLE`` whose tool
  asks first. Legitimate in operations, so it only warns: a human should look, since the loss
  is not on the agent's machine.
- ``WHOLE``: a container of everything else (a Terraform/Pulumi/CDK/CloudFormation stack, a
  project, a resource group, a repository, a cluster, a database instance). It blocks when it
  runs unattended: the tool never asks, or its confirmation is skipped (``-auto-approve``,
  ``--yes``, ``--quiet``, ``--force``, ``--confirm``). Without that flag the tool asks, and
  an agent's shell without a terminal answers no (or the tool refuses), so it warns.
- ``ALL``: everything of a kind, at once: ``--all``/``-A`` deletes, a bucket emptied at its
  root, ``etcdctl del '' --prefix``, a final snapshot skipped, or a target list computed at
  run time (``$(aws ec2 describe-instances ...)``, ``... | xargs kubectl delete``, a variable
  or loop variable holding such a list) that no reviewer saw. It blocks: an agent has no
  everyday reason to do it, and it cannot be undone.

Help and dry runs (``--dry-run=client``, ``--dryrun``) delete nothing and pass. A single
``kubectl delete ns NAME`` stays a warn (preview namespaces are deleted every day); the
cluster's own namespaces (``kube-system``, ``default``...) and CRDs (every object of the kind,
cluster-wide) block.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from ._cloudtable import (
    ALIASES,
    ALL,
    CONFIRM,
    CONFIRM_ENV,
    ONE,
    ROUTINE,
    TABLE,
    VALUE_OPTS,
    WHOLE,
)
from ._words import DYN, Field

__all__ = ["ALL", "CLOUD_TOOLS", "ONE", "ROUTINE", "WHOLE", "cloud_destroy"]

CLOUD_TOOLS = frozenset(TABLE) | frozenset(ALIASES)

# Per tool, the last words of its patterns (exact, and the prefixes of ``delete-*``): a path
# naming none of them matches no entry, so most commands stop after one set lookup per word.
_VERBS: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    tool: (frozenset(p[-1] for p, _, _ in entries if not p[-1].endswith("*")),
           tuple(p[-1][:-1] for p, _, _ in entries if p[-1].endswith("-*")))
    for tool, entries in TABLE.items()}


_GROUP_PREFIX = frozenset({"alpha", "beta", "preview"})


def _is_opt(text: str) -> bool:
    return len(text) > 1 and text[0] == "-" and text != "--"


def _command_path(name: str, texts: list[str]) -> tuple[list[str], int]:
    """The words naming the subcommand (global options and their values skipped), and the
    index of the word after them."""
    values = VALUE_OPTS.get(name, frozenset())
    path: list[str] = []
    k, n = 0, len(texts)
    whole_argv = name in _WHOLE_ARGV
    while k < n:
        t = texts[k]
        if t == "--":
            break
        if _is_opt(t):
            if path and not whole_argv and len(path) >= _MIN_PATH.get(name, 1):
                break
            k += 2 if t in values and "=" not in t else 1
            continue
        if whole_argv and len(path) >= 3:
            break
        path.append(t)
        k += 1
    if name == "gcloud" and path and path[0] in _GROUP_PREFIX:
        path = path[1:]
    return path, k


# Tools whose options may sit between the words of the command path (kubectl -n x delete).
_WHOLE_ARGV = frozenset({"kubectl", "oc", "helm", "terraform", "tofu", "terragrunt", "gh"})

# aws options between the service and the operation are global ones: the path is 2 words.
_MIN_PATH = {"aws": 2, "consul": 2, "vault": 2}


def _match(pattern: tuple[str, ...], path: list[str]) -> int | None:
    """Number of path words the pattern covers, or None. ``**`` is only ever leading."""
    if pattern[0] == "**":
        last = pattern[-1]
        for k in range(1, min(len(path), 6)):  # groups first: the verb is never the first
            if _word(last, path[k]):
                return k + 1
        return None
    if len(path) < len(pattern):
        return None
    for want, got in zip(pattern, path, strict=False):
        if not _word(want, got):
            return None
    return len(pattern)


def _word(want: str, got: str) -> bool:
    if want == "*":
        return True
    if want.endswith("-*"):
        return got.startswith(want[:-1]) and len(got) > len(want) - 1
    return want == got


def _flag(texts: Sequence[str], flags: Sequence[str]) -> bool:
    for t in texts:
        if t in flags:
            return True
        head, eq, value = t.partition("=")
        if eq and head in flags and value.lower() not in ("false", "0", "no"):
            return True
    return False


def _confirmed(texts: list[str], flags: Sequence[str]) -> bool:
    """A confirmation-skipping flag, alone or in a short cluster (``bq rm -rf``)."""
    if _flag(texts, flags):
        return True
    letters = "".join(f[1] for f in flags if len(f) == 2 and f[0] == "-")
    return bool(letters) and any(
        2 < len(t) <= 5 and t[0] == "-" and t[1:].isalpha() and any(c in t for c in letters)
        for t in texts)


def _value(texts: list[str], flags: Sequence[str]) -> str | None:
    """The value of the first of ``flags`` (``-x V``, ``--x=V``), or None."""
    for k, t in enumerate(texts):
        if t in flags:
            return texts[k + 1] if k + 1 < len(texts) else ""
        head, eq, value = t.partition("=")
        if eq and head in flags:
            return value
    return None


_LISTING = re.compile(r"(?:^|[\s(`|;&])(?:ls|list|ps|get|list-[\w-]+|describe-[\w-]+)"
                      r"(?=[\s)`|;&]|$)")


def _computed_list(args: list[Field], word_span: tuple[int, int], from_stdin: bool,
                   source: str) -> bool:
    """A target list computed at run time: a command substitution that lists resources
    (``$(aws ec2 describe-instances ...)``, ``$(terraform state list)``) or the unknown
    words xargs appends from its stdin, or a variable holding such a list."""
    looked = 0
    for f in args:
        if DYN not in f.text:
            continue
        if from_stdin and f.span == word_span:
            return True  # ... | xargs kubectl delete
        text = source[f.span[0]:f.span[1]] if 0 <= f.span[0] < f.span[1] <= len(source) \
            else ""
        if ("$(" in text or "`" in text) and _LISTING.search(text):
            return True
        looked += 1
        if looked <= 4 and _listed_variable(text, source):
            return True
    return False


_VAR = re.compile(r'"?\$\{?([A-Za-z_][A-Za-z0-9_]{0,63})\}?"?')


def _listed_variable(raw: str, source: str) -> bool:
    """``$ids`` holds a listing: ``ids=$(... list ...)``, ``for ids in $(... list ...)``, or
    ``... get ... | while read ids``: the list was computed at run time all the same."""
    m = _VAR.fullmatch(raw)
    return m is not None and _listed_name(m.group(1), source)


@lru_cache(maxsize=256)
def _listed_name(name: str, source: str) -> bool:
    """(Memoized: a script naming ``$x`` in many commands searches its text once per name.)"""
    if name + "=" in source:
        hit = re.search(rf"(?<![\w$]){name}=\"?(?:\$\(|`)", source)
        if hit is not None and _LISTING.search(" " + source[hit.end():hit.end() + 300]):
            return True
    if "for" in source:
        hit = re.search(rf"for[ \t]+{name}[ \t]+in[ \t]+\"?(?:\$\(|`)", source)
        if hit is not None and _LISTING.search(" " + source[hit.end():hit.end() + 300]):
            return True
    if "read" in source:
        hit = re.search(rf"\|[ \t]*while[ \t]+(?:IFS=\S*[ \t]+)?read(?:[ \t]+-[a-z]+)*"
                        rf"[ \t]+{name}\b", source)
        if hit is not None:
            head = source[max(0, hit.start() - 300):hit.start()]
            for sep in (";", "\n", "&&", "||", "("):
                head = head.rpartition(sep)[2]
            return _LISTING.search(" " + head) is not None
    return False


def _as_written(args: list[Field], source: str) -> list[str]:
    """The argument texts for scope tests: an empty value from a variable is unknown (``"$K"``
    with K unset is not the literal ``''`` of every etcd key), and a bucket URL keeps its
    key as written (``s3://$B`` is a bucket root, ``s3://$B/$P`` is not)."""
    out: list[str] = []
    for f in args:
        text = f.text
        start, end = f.span
        raw = source[start:end] if 0 <= start < end <= len(source) else ""
        if "$" in raw or "`" in raw:
            plain = raw.replace('"', "").replace("'", "")
            if not text:
                text = DYN
            elif DYN not in text and plain.startswith(("s3://", "gs://")):
                text = plain
        out.append(text)
    return out


def _dry_run(texts: list[str]) -> bool:
    """A dry run, or help: the command prints and deletes nothing."""
    for t in texts:
        if t in ("--dryrun", "--dry-run", "-dry-run", "--help", "-help"):
            return True
        if t.startswith("--dry-run=") and t[10:].lower() not in ("none", "false", "0"):
            return True
    return False


def cloud_destroy(name: str, args: list[Field], word_span: tuple[int, int],
                  from_stdin: bool, source: str, env: Callable[[str], bool],
                  answered: bool = False) -> tuple[int, str] | None:
    """(tier, message) when ``name args`` destroys cloud, cluster or SaaS resources.
    ``env(NAME)`` says an environment variable is set to a true value for the command;
    ``answered`` that its stdin answers a prompt yes (``yes |``, ``echo y |``, ``<<< yes``)."""
    name = ALIASES.get(name, name)
    entries = TABLE.get(name)
    if entries is None:
        return None
    texts = [f.text for f in args]
    path, _ = _command_path(name, texts)
    verbs, prefixes = _VERBS[name]
    if not any(w in verbs or w.startswith(prefixes) for w in path[:6]):
        return None  # no destroying verb: kubectl get, aws s3 ls, gh pr create
    if _dry_run(texts) or (name == "aws" and texts[-1] == "help") or path[0] == "help":
        return None  # a dry run only prints what would go; aws ... help, gcloud help ...
    written: list[str] | None = None
    for pattern, base, what in entries:
        used = _match(pattern, path)
        if used is None:
            continue
        if name in _SCOPE:
            written = _as_written(args, source) if written is None else written
            tier = _SCOPE[name](path, used, written, base)
        else:
            tier = base
        if tier is None:
            return None
        if tier == WHOLE:
            flags = CONFIRM.get(name)
            if flags is None:
                what += " (it never asks for confirmation)"
            elif _confirmed(texts, flags) or (name in CONFIRM_ENV and env(CONFIRM_ENV[name])):
                what += " without asking for confirmation"
            elif answered:
                what += ", its confirmation answered yes from stdin"
            else:
                tier = ONE  # the tool asks first, and a shell without a terminal says no
        elif tier == ALL and base != ALL:
            what += ": everything of the kind at once"
        if tier != ALL and _computed_list(args, word_span, from_stdin, source):
            # Pods are recreated by their controllers: a computed list of them (failed pods,
            # one job's pods) is cleanup that a human should see, not a loss.
            pods = tier == ROUTINE and name in ("kubectl", "oc")
            tier = ONE if pods else ALL
            what += ", for a target list computed at run time"
        if tier == ROUTINE:
            return None
        return tier, f"{name} {' '.join(path[:used])} {what}"
    return None


# --- scope of each tool: narrows (None: not a destroy) or widens (ALL) the table's tier ----

def _kube(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    verb = path[0]
    if verb == "scale":
        replicas = _value(texts, ("--replicas",))
        return base if replicas == "0" else None
    if verb == "drain":
        return base
    kinds = {k.split("/")[0].split(".")[0] for op in path[1:2] for k in op.lower().split(",")}
    selector = _flag(texts, ("-l", "--selector", "--field-selector"))
    if _flag(texts, ("--all",)) or (not selector and _flag(texts, ("-A", "--all-namespaces"))):
        return ALL
    if kinds & {"crd", "crds", "customresourcedefinition", "customresourcedefinitions"}:
        return ALL  # every object of the kind, in every namespace
    if kinds & {"ns", "namespace", "namespaces"} and \
            set(path[2:]) & {"kube-system", "default", "kube-public", "kube-node-lease"}:
        return ALL  # the cluster's own namespaces
    if kinds and kinds <= {"po", "pod", "pods"}:
        return ROUTINE  # a pod is replaced by its controller: restarting one is routine
    return base


def _terraform(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    if path[used - 1] == "apply" and not _flag(texts, ("-destroy", "--destroy")):
        return None
    if base == WHOLE and _flag(texts, ("-target", "--target")):
        return ONE  # one named resource of the stack
    return base


def _pulumi(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    if base == WHOLE and _flag(texts, ("-t", "--target")):
        return ONE
    return base


def _aws(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    service, op = path[0], path[1]
    if _flag(texts, ("--skip-final-snapshot", "--skip-final-cluster-snapshot",
                     "--delete-automated-backups")):
        return ALL  # no way back: the last snapshot is skipped
    if service == "s3" and op == "rb" and _flag(texts, ("--force",)):
        return ALL  # every object, then the bucket
    if service == "s3" and op == "rm" and _flag(texts, ("--recursive",)):
        if not _flag(texts, ("--exclude", "--include")) and \
                any(_bucket_root(t, "s3://") for t in texts):
            return ALL  # every object of the bucket
        return ONE  # everything under a prefix
    if service == "ecr" and op == "delete-repository" and _flag(texts, ("--force",)):
        return ALL  # the repository and every image in it
    return base


def _bucket_root(text: str, scheme: str) -> bool:
    """``s3://b``, ``s3://b/``, ``gs://b/**``, ``gs://b/*``: the whole bucket."""
    if not text.startswith(scheme):
        return False
    key = text[len(scheme):].partition("/")[2]
    return key in ("", "*", "**") or key.replace("*", "") == ""


def _gcs(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    if path[used - 1] != "rm":
        return base
    recursive = _flag(texts, ("-r", "-R", "--recursive"))
    for t in texts:
        if _bucket_root(t, "gs://") and (recursive or "**" in t):
            return ALL  # every object of the bucket (and the bucket, with -r)
    return ONE if recursive or any("**" in t for t in texts) else base


def _az(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    if path[used - 1] == "delete-batch" and not _flag(texts, ("--pattern",)):
        return ALL  # every blob or file of the container or share
    return base


def _gh(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    if path[0] != "api":
        return base
    method = (_value(texts, ("-X", "--method")) or "").upper()
    if not method:
        method = next((t[2:].upper() for t in texts if t.startswith("-X") and len(t) > 2), "")
    if method != "DELETE":
        return None
    endpoint = next((p for p in path[1:] if "/" in p), "")
    parts = [p for p in endpoint.strip("/").split("/") if p]
    if len(parts) == 3 and parts[0] == "repos" or len(parts) == 2 and parts[0] == "orgs":
        return ALL  # DELETE /repos/OWNER/REPO deletes the repository; gh api never asks
    return base


def _vercel(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    targets = path[used:]
    if targets and all("." in t or t.startswith("dpl_") for t in targets):
        return ONE  # deployment URLs or ids: one deployment, not the project
    return base


def _firebase(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    if path[0] == "firestore:delete" and _flag(texts, ("--all-collections",)):
        return ALL
    if path[0] == "database:remove" and path[used:used + 1] == ["/"]:
        return ALL
    return base


def _etcd(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    keys = _after(texts, "del")
    if _flag(texts, ("--prefix", "--from-key")) and (not keys or keys[0] in ("", "/", "\0")):
        return ALL  # every key
    return base


def _consul(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    keys = _after(texts, "delete")
    if _flag(texts, ("-recurse", "--recurse")) and (not keys or keys[0] in ("", "/")):
        return ALL
    return base


def _bq(path: list[str], used: int, texts: list[str], base: int) -> int | None:
    if any(t in ("-r", "--recursive") or (t[:1] == "-" and t[1:2] != "-" and "r" in t)
           for t in texts):
        return WHOLE  # the dataset and every table in it
    return base


def _after(texts: list[str], verb: str) -> list[str]:
    """The operands after ``verb`` (options skipped; these tools' delete options are flags)."""
    if verb not in texts:
        return []
    return [t for t in texts[texts.index(verb) + 1:] if not _is_opt(t)]


_SCOPE: dict[str, Callable[[list[str], int, list[str], int], int | None]] = {
    "kubectl": _kube, "oc": _kube, "terraform": _terraform, "tofu": _terraform,
    "terragrunt": _terraform, "pulumi": _pulumi, "aws": _aws, "gsutil": _gcs,
    "gcloud": _gcs, "az": _az, "gh": _gh, "vercel": _vercel, "firebase": _firebase,
    "etcdctl": _etcd, "consul": _consul, "bq": _bq,
}
