"""Commands that fetch someone else's code to run it: clones, remote images, installs of both.

Installing packages is the spec's warn band (``shell.package-install``); the package
managers' run-a-package subcommands (``npm create X``, ``gem exec X``) are ``_pkgcreate``'s.
These fetch code and run it without the word ``install`` of a package manager:

* installing code just fetched into a directory: ``git clone URL d && cd d && make install``
  (also ``make -C d install``, ``ninja install``, ``cmake --install``, ``meson install``):
  the project's own install recipe runs. Building a clone (``make``, ``cargo build``) stays
  everyday work and passes; running a script out of it (``./install.sh``) is a download run;
* ``docker build URL`` (the build context and its Dockerfile come from a remote repository
  or tarball; ``podman``, ``nerdctl``, ``buildah``, ``docker buildx``/``image build``) and a
  Dockerfile read from fetched stdin; ``docker compose -f URL`` (a remote compose file
  chooses images, mounts and privileges). ``docker run IMAGE`` of a registry image is the
  everyday use of docker and passes (its escapes are ``_remote``'s);
* other cloners fill a directory with fetched files, like ``git clone`` (``_files``): ``gh``/
  ``glab repo clone``, ``hg clone``, ``svn checkout|export``, ``bzr branch``, ``degit``; ``gh
  extension install O/R`` installs a repository's program as a gh command; ``docker load``
  of fetched data and ``docker import URL`` take an image from outside any registry;
* ``kubectl apply|create -f URL`` / ``-k github.com/o/r`` and ``helm install|upgrade`` of a
  chart URL (``oci://``, ``https://``, ``--repo URL``) deploy what a remote file says
  (``kubectl apply -f k8s/`` and ``helm install web bitnami/nginx`` pass);
* ``pre-commit run|install|try-repo`` with a ``.pre-commit-config.yaml`` written in the
  same command naming a remote hook repository (``pre-commit try-repo URL`` always): pre-commit
  clones the repository and runs its hooks. Running an existing configuration passes.

``at``/``batch`` schedule a job (``at -f FILE TIME``, a job read from stdin): code run
later, like cron, warns as ``shell.deferred-exec``; a file written in the same command is
classified as the job's code (fetched data is a download run). Package-source settings and
files are ``_pkgconf``'s.

Each check looks only at its own programs' arguments (one frozenset lookup for any other
program) and is linear in them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import dir_key, download_name, file_taint
from ._flow import Flow
from ._paths import norm_path
from ._pkgconf import SOURCE_SETTERS, source_setter
from ._pkgimage import IMAGE_BUILDERS, image_build
from ._resolve import Invocation
from ._sinks import script_sink
from ._words import DYN, Field, Source, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["PKG_PROGRAMS", "pkg_program"]

_MAKES = frozenset({"make", "gmake", "bmake"})
# Programs that fill a directory with a remote repository's files (git clone is _files').
_CLONERS = frozenset({"gh", "glab", "hg", "svn", "bzr", "brz", "degit", "tiged"})
_DEPLOYERS = frozenset({"kubectl", "oc", "helm"})
PKG_PROGRAMS = _MAKES | IMAGE_BUILDERS | SOURCE_SETTERS | _CLONERS | _DEPLOYERS | frozenset({
    "ninja", "cmake", "meson", "at", "batch", "pre-commit"})
"""Programs :func:`pkg_program` looks at (any other program costs one set lookup)."""

_CODE_TAINT = frozenset({"fetch", "decode"})


def pkg_program(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """The program rules of this module (``inv.name`` is in :data:`PKG_PROGRAMS`)."""
    name = inv.name
    if name in _MAKES or name in ("ninja", "cmake", "meson"):
        if run.files:
            _install_fetched(run, inv)
    elif name in IMAGE_BUILDERS:
        image_build(run, inv, stdin)
    elif name in ("at", "batch"):
        _at(run, inv, stdin)
    elif name == "pre-commit":
        _pre_commit(run, inv)
    elif name in SOURCE_SETTERS:
        source_setter(run, inv)  # go env -w GOPROXY=URL, poetry source add NAME URL
    elif name in _DEPLOYERS:
        _deploy(run, inv, stdin)
    if name in _CLONERS:
        _clone(run, inv)


_DEPLOY_VERBS = frozenset({"apply", "create", "replace", "install", "upgrade"})
# helm options whose URL value is data, not a chart (values files, CA bundles).
_HELM_DATA = frozenset({"-f", "--values", "--set-file", "--ca-file", "--cert-file",
                        "--key-file", "--kubeconfig", "--post-renderer-args"})


def _deploy(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``kubectl apply -f URL`` / ``-k github.com/o/r``, ``helm install N oci://..`` /
    ``https://../chart.tgz`` / ``--repo URL``: manifests or a chart fetched from outside any
    chart repository decide what runs in the cluster (``curl | sh`` for a cluster). Local
    files and repository charts (``helm install web bitnami/nginx``) pass."""
    args = inv.args
    texts = [f.text for f in args]
    verb = next((k for k, t in enumerate(texts) if t in _DEPLOY_VERBS), -1)
    if verb < 0:
        return
    helm = inv.name == "helm"
    for k in range(verb + 1, len(texts)):
        t = texts[k]
        prev = texts[k - 1]
        value = t.partition("=")[2] if t.startswith("--") and "=" in t else t
        if helm:
            remote = value.startswith(("http://", "https://", "oci://")) and not (
                prev in _HELM_DATA or t.partition("=")[0] in _HELM_DATA)
        else:
            kustomize = prev in ("-k", "--kustomize") or t.startswith("--kustomize=")
            remote = (prev in ("-f", "--filename") or t.startswith("--filename=") or
                      kustomize) and value.startswith(("http://", "https://")) or (
                kustomize and (value.startswith(("git@", "git::", "ssh://")) or
                               value.split("/", 1)[0] in ("github.com", "gitlab.com",
                                                          "bitbucket.org")))
        if remote and DYN not in value[:8]:
            run.add("shell.package-install", args[k].span, f"{inv.name} {texts[verb]} "
                    f"deploys {value} from outside any chart or image repository: it "
                    "decides what runs in the cluster", None)
            return
        if run.files and not helm and (prev in ("-f", "--filename") or
                                       t.startswith("--filename=")) and value != "-":
            src = first_source(file_taint(run.files, norm_path(value, run.cwd)), _CODE_TAINT)
            if src is not None:  # curl -o x.yaml URL && kubectl apply -f x.yaml
                run.add("shell.package-install", args[k].span, f"{inv.name} {texts[verb]} "
                        f"deploys {value}, written with fetched manifests: they decide what "
                        "runs in the cluster", f"{src.describe()} reaches {inv.name}")
                return
        if value == "-" and not helm and prev in ("-f", "--filename") and stdin is not None:
            src = first_source(stdin.taint, _CODE_TAINT)
            if src is not None:  # curl -s URL | kubectl apply -f -
                run.add("shell.package-install", args[k].span, f"{inv.name} {texts[verb]} "
                        "deploys fetched manifests read on stdin: they decide what runs in "
                        "the cluster", f"{src.describe()} reaches {inv.name}")
                return


# Options of the cloners that take a separate value (gh -u NAME, hg -r REV, svn --depth D).
_CLONE_VALUE = frozenset({"-u", "--upstream-remote-name", "-R", "--repo", "-r", "--rev",
                          "-b", "--branch", "-e", "--ssh", "--remotecmd", "--username",
                          "--password", "--depth", "--config-option", "--config-dir",
                          "--set-depth", "--native-eol", "--pin"})


def _clone(run: Run, inv: Invocation) -> None:
    """``gh repo clone O/R [DIR]``, ``hg clone URL [DIR]``, ``svn checkout URL [DIR]``,
    ``degit O/R [DIR]``: the directory holds fetched files (like ``git clone``: running a
    script from it is a download run, installing it warns); ``gh extension install O/R``
    installs a command from a repository."""
    name = inv.name
    values = _CLONE_VALUE
    ops: list[str] = []
    skip = False
    for f in inv.args:
        t = f.text
        if skip:
            skip = False
        elif t == "--":
            break  # gh repo clone O/R DIR -- --depth 1: git's own options follow
        elif t in values:
            skip = True
        elif not t.startswith("-"):
            ops.append(t)
    if name in ("gh", "glab"):
        if ops[:2] in (["extension", "install"], ["ext", "install"]) and len(ops) > 2 and \
                not ops[2].startswith((".", "/", "~")):
            run.add("shell.package-install", inv.word.span, f"{name} extension install "
                    f"downloads {ops[2].replace(DYN, '?')} and runs it as a {name} command",
                    None)
            return
        if ops[:2] != ["repo", "clone"]:
            return
        ops = ops[2:]
    elif name in ("degit", "tiged"):
        ops = [*ops[:1], *(ops[1:2] or ["."])]  # degit copies into the working directory
    else:
        verbs = {"hg": ("clone",), "svn": ("checkout", "co", "export"),
                 "bzr": ("branch", "checkout", "co"), "brz": ("branch", "checkout", "co")}
        if not ops or ops[0] not in verbs[name]:
            return
        ops = ops[1:]
    if not ops or DYN in ops[0]:
        return
    target = ops[1] if len(ops) > 1 else download_name(ops[0]).removesuffix(".git")
    path = norm_path(target, run.cwd)
    if path is not None and len(run.files) < 255:
        fetched = frozenset({Source("fetch", name, run.map_span(inv.word.span))})
        for key in (path, dir_key(path)):  # svn export of one file, or a directory
            run.files[key] = run.files.get(key, frozenset()) | fetched


# make options with a separate value (-j and -l take an optional one, attached or not).
_MAKE_VALUE = frozenset({"-C", "-f", "-I", "-o", "-W", "-E", "--directory", "--file",
                         "--makefile", "--include-dir", "--old-file", "--what-if",
                         "--assume-old", "--assume-new", "--new-file", "--eval"})


def _install_target(t: str) -> bool:
    return t == "install" or t.startswith(("install-", "install_"))


def _install_dir(inv: Invocation) -> str | None:
    """The directory whose project ``inv`` installs (``.`` for the working directory), or
    None when ``inv`` does not run an install step."""
    name = inv.name
    args = inv.args
    texts = [f.text for f in args]
    where = "."
    if name in _MAKES or name == "ninja":
        install = False
        k = 0
        while k < len(texts):
            t = texts[k]
            if t in ("-C", "--directory") and k + 1 < len(texts):
                where = texts[k + 1] if where == "." or texts[k + 1].startswith("/") else \
                    f"{where}/{texts[k + 1]}"
                k += 2
                continue
            if t.startswith("--directory="):
                where = t[len("--directory="):]
            elif t.startswith("-C") and len(t) > 2 and not t.startswith("--"):
                where = t[2:]
            elif name == "ninja" and t in ("-f", "-j", "-k", "-l", "-d", "-t", "-w"):
                k += 2
                continue
            elif t in _MAKE_VALUE:
                k += 2
                continue
            elif not t.startswith("-") and "=" not in t and _install_target(t):
                install = True
            k += 1
        return where if install else None
    if name == "cmake":
        for k, t in enumerate(texts[:-1]):
            if t == "--install":
                return texts[k + 1]
            if t == "--build" and any(texts[j] in ("--target", "-t") and j + 1 < len(texts)
                                      and _install_target(texts[j + 1])
                                      for j in range(k + 2, len(texts))):
                return texts[k + 1]
        return None
    # meson install [-C DIR]
    if texts[:1] != ["install"]:
        return None
    for k, t in enumerate(texts[:-1]):
        if t == "-C":
            where = texts[k + 1]
    return where


def _install_fetched(run: Run, inv: Invocation) -> None:
    """``git clone URL d && cd d && make install``: the install recipe of code fetched in the
    same command runs (a package install from outside any registry)."""
    where = _install_dir(inv)
    if where is None or DYN in where:
        return
    probe = "Makefile" if where == "." else f"{where.rstrip('/')}/Makefile"
    taint = file_taint(run.files, norm_path(probe, run.cwd))
    src = first_source(taint, _CODE_TAINT) if taint else None
    if src is None:
        return
    run.add("shell.package-install", inv.word.span, f"{inv.name} installs a project whose "
            "code was fetched in the same command (its install recipe runs)",
            f"{src.describe()} filled the project directory")


_AT_VALUE = frozenset({"-q", "-f", "-t", "-u"})
_AT_NO_JOB = frozenset({"-l", "-r", "-d", "-c", "-V", "--help", "--version"})


def _at(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``at [-f FILE] TIME`` / ``batch``: a job that runs later. The job from stdin is the
    stdin sink's (``_programs``); a file given with -f is classified here."""
    args = inv.args
    job: Field | None = None
    for k, f in enumerate(args):
        t = f.text
        if t in _AT_NO_JOB or (t.startswith("-") and not t.startswith("--") and
                               any("-" + c in _AT_NO_JOB for c in t[1:2])):
            return
        if t == "-f" and k + 1 < len(args):
            job = args[k + 1]
        elif t.startswith("-f") and len(t) > 2:
            job = Field(t[2:], f.span, f.taint)
    if job is not None:
        script_sink(run, job, inv, None, shell=True)
        what = f"the script {job.text.replace(DYN, '?')}"
    elif stdin is not None:
        what = "commands read from its input"
    else:
        return  # at TIME with no input: an empty job
    run.add("shell.deferred-exec", inv.word.span, f"{inv.name} schedules {what} to run "
            "later, outside this command", None)


def _pre_commit(run: Run, inv: Invocation) -> None:
    """pre-commit fetches the hook repositories of its configuration and runs their hooks."""
    args = inv.args
    ops = [f for f in args if not f.text.startswith("-")]
    if not ops:
        return
    verb = ops[0].text
    if verb == "try-repo":
        repo = ops[1].text if len(ops) > 1 else ""
        if DYN not in repo and ("://" in repo or "@" in repo.partition(":")[0]):
            run.add("shell.package-install", ops[1].span, "pre-commit try-repo clones "
                    f"{ops[1].text} and runs its hooks", None)
        return
    if verb not in ("run", "install", "install-hooks") or not run.file_text:
        return
    config = ".pre-commit-config.yaml"
    for k, f in enumerate(args[:-1]):
        if f.text in ("-c", "--config"):
            config = args[k + 1].text
    path = norm_path(config, run.cwd)
    text = run.file_text.get(path or "")
    if text is None:
        return
    remote = _remote_repo(text)
    if remote is not None:
        run.add("shell.package-install", inv.word.span, f"pre-commit {verb} fetches the "
                f"hook repository {remote} (written in {config} by this command) and runs its "
                "hooks", None)


def _remote_repo(text: str) -> str | None:
    """The first ``repo:`` of a pre-commit configuration that is not ``local``/``meta``."""
    at = 0
    for _ in range(256):
        at = text.find("repo:", at)
        if at < 0:
            return None
        at += 5
        value = text[at:at + 300].strip().split(None, 1)[0] if text[at:at + 300].strip() \
            else ""
        value = value.strip("'\"},")
        if value and value not in ("local", "meta"):
            return value
    return None
