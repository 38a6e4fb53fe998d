"""Packages and images published to a host named only in the command (``shell.repo-export``).

Publishing sends the project (its source, its build, its image with whatever was baked into
it) to another machine, as ``git push URL`` does. To the registry the project's own
configuration names (``npm publish``, ``twine upload dist/*``, ``cargo publish``, ``docker
push ghcr.io/org/app:1.2``) it is everyday release work and passes; to a host spelled out in
the command itself it is a new destination, and a human should look (warn):

* ``npm|pnpm|yarn|bun publish --registry URL``, ``twine upload --repository-url URL`` (or
  ``TWINE_REPOSITORY_URL=URL``), ``uv publish --publish-url URL``, ``hatch publish -r URL``,
  ``cargo publish --index URL``, ``gem push --host URL``, unless URL is the public registry
  itself (``registry.npmjs.org``, ``upload.pypi.org``, ``crates.io``, ``rubygems.org``...);
  a repository *name* (``twine upload -r internal``, ``cargo publish --registry corp``) comes
  from the user's configuration and passes.
* ``docker|podman|nerdctl push IMAGE``, ``docker buildx build --push -t IMAGE``, ``skopeo
  copy SRC docker://IMAGE``, ``crane copy|cp SRC IMAGE``, ``crane push TAR IMAGE``,
  ``regctl image copy SRC IMAGE``, ``oras push REF``, ``helm push CHART oci://HOST/...``:
  an image reference whose registry host is not a well-known one (Docker Hub, ``ghcr.io``,
  ``gcr.io``/``*.pkg.dev``, ECR, ACR, Quay, GitLab's registry, a local registry on
  ``localhost``).

Access grants and repository visibility (``gh``, ``npm owner``, ``gsutil iam``) are
:mod:`._grants`'. Only :data:`EXPORT_PROGRAMS` reach :func:`export_program`; each check
looks at the subcommand word first, so ``npm test`` or ``docker ps`` costs a short scan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cloudopts import option
from ._grants import GRANT_PROGRAMS, grant_program
from ._optwalk import operand_words
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["EXPORT_PROGRAMS", "export_program", "registry_host"]

_NPMS = frozenset({"npm", "pnpm", "yarn", "bun"})
_ENGINES = frozenset({"docker", "podman", "nerdctl", "buildah"})
_COPIERS = frozenset({"skopeo", "crane", "regctl", "oras", "helm"})
_PUBLISHERS = frozenset({"twine", "uv", "hatch", "cargo", "gem"})
EXPORT_PROGRAMS = _NPMS | _ENGINES | _COPIERS | _PUBLISHERS | GRANT_PROGRAMS
"""Programs :func:`export_program` looks at (any other program: nothing to do)."""

# Public package registries (a URL naming one of them is the default, spelled out).
_PUBLIC_INDEXES = ("registry.npmjs.org", "registry.yarnpkg.com", "npm.pkg.github.com",
                   "upload.pypi.org", "test.pypi.org", "pypi.org", "crates.io",
                   "index.crates.io", "github.com", "rubygems.org", "rubygems.pkg.github.com")
# Well-known image registries (a host, or a parent domain of the host).
_PUBLIC_REGISTRIES = ("docker.io", "ghcr.io", "gcr.io", "pkg.dev", "amazonaws.com",
                      "public.ecr.aws", "azurecr.io", "quay.io", "registry.gitlab.com",
                      "localhost", "127.0.0.1", "mcr.microsoft.com", "registry.k8s.io")
# Value options of the publishers whose URL is the destination, by program.
_DEST_OPTIONS: dict[str, tuple[str, ...]] = {
    "twine": ("--repository-url", "-r", "--repository"), "uv": ("--publish-url",),
    "hatch": ("-r", "--repo"),
    "cargo": ("--index",), "gem": ("--host",), "npm": ("--registry",), "pnpm": ("--registry",),
    "yarn": ("--registry",), "bun": ("--registry",)}
# Options of the npm family (before or after the subcommand) that take the next word.
_NPM_VALUES = frozenset({"--registry", "--userconfig", "--cache", "--prefix", "-C", "--tag",
                         "--access", "--otp", "-w", "--workspace", "--dir", "--cwd"})
_DEST_VARS = frozenset({"TWINE_REPOSITORY_URL", "UV_PUBLISH_URL", "HATCH_INDEX_REPO",
                        "CARGO_REGISTRY_INDEX", "RUBYGEMS_HOST"})
# docker/podman global options with a value (before the subcommand).
_ENGINE_VALUES = frozenset({"-H", "--host", "-c", "--context", "--config", "-l",
                            "--log-level", "--url", "--connection", "--root", "--runroot"})
# skopeo/crane/regctl options with a separate value.
_COPY_VALUES = frozenset({"--src-creds", "--dest-creds", "--creds", "--authfile",
                          "--src-authfile", "--dest-authfile", "-f", "--format", "--platform",
                          "--override-os", "--override-arch", "--src-cert-dir",
                          "--dest-cert-dir", "--sign-by", "--retry-times", "--src-username",
                          "--dest-username", "--src-password", "--dest-password"})


def _host_of(url: str) -> str:
    """The lower-case host of a URL or ``host[:port]/path`` text (no user, no port)."""
    rest = url.partition("://")[2] if "://" in url else url
    host = rest.split("/", 1)[0].rpartition("@")[2]
    if host.startswith("["):
        return host[1:].partition("]")[0].lower()
    return host.partition(":")[0].lower()


def _known(host: str, names: tuple[str, ...]) -> bool:
    return any(host == n or host.endswith("." + n) for n in names)


def registry_host(image: str) -> str | None:
    """The registry host an image reference names, None for Docker Hub's short form
    (``app:1``, ``org/app``) or a reference not known statically."""
    if DYN in image:
        return None
    head, slash, _ = image.partition("/")
    if not slash or not ("." in head or ":" in head or head == "localhost"):
        return None
    return _host_of(head)


def export_program(run: Run, inv: Invocation) -> None:
    """Findings for publishing to a named host (see the module doc) and access grants."""
    name = inv.name
    if name in GRANT_PROGRAMS:
        grant_program(run, inv)
    if name in _ENGINES or name in _COPIERS:
        _image_push(run, inv)
        return
    words = operand_words(inv.args, _NPM_VALUES if name in _NPMS else frozenset(), 3)
    if not words:
        return
    sub = words[1] if name == "yarn" and words[0] == "npm" and len(words) > 1 else words[0]
    if sub != ("push" if name == "gem" else "upload" if name == "twine" else "publish"):
        return
    dest = option(inv.args, _DEST_OPTIONS.get(name, ()))
    if dest is None:
        dest = next((f for var, f in inv.assigns + run.prefix if var in _DEST_VARS), None)
    if dest is None and name in _NPMS:  # --@scope:registry=URL
        dest = next((Field(f.text.partition("=")[2], f.span) for f in inv.args
                     if f.text.startswith("--@") and ":registry=" in f.text), None)
    if dest is None or (name in ("hatch", "twine") and "://" not in dest.text):
        return  # the configured registry, or a repository named in the user's config
    host = _host_of(dest.text)
    if not host or DYN in host or _known(host, _PUBLIC_INDEXES):
        return
    run.add("shell.repo-export", dest.span, f"{name} {sub} sends the package to {host}, a "
            "registry named only in this command", None)


def _image_push(run: Run, inv: Invocation) -> None:
    name = inv.name
    words = operand_words(inv.args, _ENGINE_VALUES if name in _ENGINES else _COPY_VALUES, 4)
    if not words:
        return
    sub, rest = words[0], words[1:]
    if sub in ("image", "buildx") and rest:  # docker image push, docker buildx build
        sub, rest = rest[0], rest[1:]
    targets: list[str] = []
    if name in _ENGINES and sub == "push" and rest:
        targets = rest[-1:]  # podman push IMAGE [DESTINATION]
    elif name in _ENGINES and sub == "build" and any(
            f.text == "--push" or "type=registry" in f.text or "push=true" in f.text
            for f in inv.args):
        targets = [f.text for f in _tags(inv.args)]
    elif name == "oras" and sub == "push" and rest:  # oras push REF FILES
        targets = rest[:1]
    elif name in _COPIERS and sub in ("copy", "cp", "push") and len(rest) >= 2:  # SRC DST
        targets = [rest[1]]
    for t in targets:
        if name in ("skopeo", "helm") or t.startswith(("docker://", "oci://")):
            if not t.startswith(("docker://", "oci://")):
                continue  # oci:, dir:, docker-archive: a local copy
            t = t.partition("://")[2]
        host = registry_host(t)
        if host is not None and host and not _known(host, _PUBLIC_REGISTRIES):
            run.add("shell.repo-export", inv.word.span, f"{name} {sub} sends an image to "
                    f"{host}, a registry that is not a well-known one", f"image {t}")
            return


def _tags(args: list[Field]) -> list[Field]:
    out: list[Field] = []
    for k, f in enumerate(args[:128]):
        if f.text in ("-t", "--tag") and k + 1 < len(args):
            out.append(args[k + 1])
        elif f.text.startswith("--tag="):
            out.append(Field(f.text[6:], f.span))
    return out
