"""Container images built or loaded from someone else's code (``docker build URL``).

``docker build``/``podman build``/``buildah bud`` of a remote context (a URL or git repository)
or of a Dockerfile fetched in the same command, ``docker build -`` of fetched data,
``docker load``/``import`` of a fetched archive, and ``docker compose -f URL``: the image's
build steps or contents come from elsewhere, like a package install (warn). Split from
:mod:`._pkgrun`, which dispatches here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import file_taint
from ._flow import Flow
from ._paths import norm_path
from ._resolve import Invocation
from ._words import DYN, Field, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["IMAGE_BUILDERS", "image_build"]

IMAGE_BUILDERS = frozenset({"docker", "podman", "nerdctl", "buildah"})
_CODE_TAINT = frozenset({"fetch", "decode"})


_BUILD_VALUE = frozenset({"-t", "--tag", "-f", "--file", "--build-arg", "--label",
                          "--cache-from", "--cache-to", "--build-context", "--secret", "--ssh",
                          "--add-host", "-o", "--output", "--platform", "--target",
                          "--network", "--iidfile", "--metadata-file", "--progress",
                          "--annotation", "--attest", "--provenance", "--sbom", "--builder",
                          "--shm-size", "-m", "--memory", "--cpu-shares", "--cgroup-parent",
                          "--isolation", "--ulimit", "--allow", "--call"})
# docker/podman options before the subcommand that take a separate value.
_GLOBAL_VALUE = frozenset({"-c", "--context", "-H", "--host", "--config", "-l", "--log-level",
                           "--tlscacert", "--tlscert", "--tlskey", "--connection", "--url",
                           "--root", "--runroot", "--storage-driver", "--cgroup-manager",
                           "--namespace", "-n", "--address", "-a"})
_REMOTE_CONTEXT = ("http://", "https://", "git://", "git@", "github.com/", "ssh://",
                   "HTTP://", "HTTPS://")


def image_build(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``docker build URL``, ``docker build -`` of fetched data, ``docker compose -f URL``."""
    args = inv.args
    texts = [f.text for f in args]
    ops: list[int] = []
    k = 0
    while k < len(texts) and len(ops) < 3:
        t = texts[k]
        if not t.startswith("-"):
            ops.append(k)
        elif t in _GLOBAL_VALUE and not ops:
            k += 1  # docker --context prod build ...: the value is no subcommand
        k += 1
    if not ops:
        return
    first = texts[ops[0]]
    if first == "compose":
        _compose(run, inv, ops[0] + 1)
        return
    if first == "image" and len(ops) > 1:
        first = texts[ops[1]]
        ops = ops[1:]
    if first in ("load", "import"):
        _image_load(run, inv, stdin, first, ops[0] + 1)
        return
    if inv.name == "buildah":
        start = ops[0] + 1 if first in ("build", "bud", "build-using-dockerfile") else -1
    elif first == "build":
        start = ops[0] + 1
    elif first in ("buildx", "image", "builder") and len(ops) > 1 and \
            texts[ops[1]] == "build":
        start = ops[1] + 1
    else:
        start = -1
    if start < 0:
        return
    k = start
    n = len(texts)
    dockerfile_stdin = False
    while k < n:
        t = texts[k]
        if t in ("-f", "--file") and k + 1 < n:
            dockerfile_stdin = dockerfile_stdin or texts[k + 1] == "-"
            k += 2
            continue
        if t in ("-f-", "--file=-"):
            dockerfile_stdin = True
        elif t in _BUILD_VALUE:
            k += 2
            continue
        elif t == "-":
            dockerfile_stdin = True
        elif t.startswith(_REMOTE_CONTEXT) and DYN not in t[:8]:
            run.add("shell.package-install", args[k].span, f"{inv.name} builds an image from "
                    f"{t}: the remote repository's Dockerfile runs its build steps", None)
            return
        k += 1
    if dockerfile_stdin and stdin is not None:
        src = first_source(stdin.taint, _CODE_TAINT)
        if src is not None:
            run.add("shell.package-install", inv.word.span, f"{inv.name} builds an image from "
                    "a fetched Dockerfile read on stdin: its build steps run",
                    f"{src.describe()} reaches {inv.name} build")


def _image_load(run: Run, inv: Invocation, stdin: Flow | None, verb: str, start: int
                ) -> None:
    """``curl u | docker load``, ``docker load -i FETCHED``, ``docker import URL``: an image
    (its programs) from outside any registry, to run next."""
    args = inv.args
    source: Field | None = None
    for k in range(start, len(args)):
        t = args[k].text
        if verb == "load" and t in ("-i", "--input") and k + 1 < len(args):
            source = args[k + 1]
        elif verb == "load" and t.startswith("--input="):
            source = Field(t[len("--input="):], args[k].span)
        elif verb == "import" and (not t.startswith("-") or t == "-") and source is None:
            source = args[k]
        elif verb == "import" and t in ("-c", "--change", "-m", "--message", "--platform"):
            source = args[k + 2] if k + 2 < len(args) and source is None else source
    how = f"{inv.name} {verb}"
    if source is None or source.text == "-":
        src = first_source(stdin.taint, _CODE_TAINT) if stdin is not None else None
        if src is not None:
            run.add("shell.package-install", inv.word.span, f"{how} takes an image from "
                    "fetched data on stdin", f"{src.describe()} reaches {how}")
        return
    if verb == "import" and source.text.startswith(_REMOTE_CONTEXT):
        run.add("shell.package-install", source.span, f"{how} downloads the image "
                f"{source.text} from outside any registry", None)
        return
    taint = file_taint(run.files, norm_path(source.text, run.cwd)) if run.files else None
    src = first_source(taint, _CODE_TAINT) if taint else None
    if src is not None:
        run.add("shell.package-install", source.span, f"{how} takes an image from "
                f"{source.text}, a file fetched in the same command",
                f"{src.describe()} was written to {source.text}")


def _compose(run: Run, inv: Invocation, start: int) -> None:
    """``docker compose -f URL up``: a remote compose file (git or OCI) decides the images,
    host mounts and privileges of the services it starts."""
    args = inv.args
    for k in range(start, len(args)):
        t = args[k].text
        value = t.partition("=")[2] if t.startswith("--file=") else \
            args[k + 1].text if t in ("-f", "--file") and k + 1 < len(args) else None
        if value and (value.startswith(_REMOTE_CONTEXT) or value.startswith("oci://")):
            run.add("shell.package-install", args[k].span, f"{inv.name} compose runs the "
                    f"services of the remote compose file {value}", None)
            return


# at/batch options: those with a value, and those that list, show or remove jobs.
