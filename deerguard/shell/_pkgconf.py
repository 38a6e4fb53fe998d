"""Package sources set for every later install: commands and files (``shell.package-source``).

``npm config set registry URL`` and ``pip config set global.index-url URL`` are
``_pkgsource``'s; this module adds the same settings made other ways:

* stored by a tool: ``go env -w GOPROXY=URL`` (and every variable ``export`` would report:
  ``GOINSECURE``, ``GOSUMDB=off``, ``GOFLAGS=-insecure``), ``poetry source add NAME URL``,
  ``pdm config pypi[.NAME].url URL``, ``bundle config [set] mirror.SRC URL``;
* written into a file with known text or fetched data: ``.npmrc`` (``registry=``,
  ``@scope:registry=``, and ``script-shell``/``node-options``, which choose what every ``npm
  run`` runs), ``.yarnrc`` / ``.yarnrc.yml`` (``npmRegistryServer``), ``pip.conf`` /
  ``pip.ini`` (``index-url``, ``extra-index-url``, ``find-links``, ``trusted-host``), ``uv.toml``
  and ``pyproject.toml`` index or source tables, ``bunfig.toml`` (``registry``). The public
  registries, auth-token lines and other settings pass. User-level files (``~/.npmrc``,
  ``~/.config/pip/pip.conf``) are reported on any write by the path rules already.
* ``.cargo/config.toml`` whose ``rustc-wrapper``/``runner`` is a program in ``/tmp``,
  ``/var/tmp`` or ``/dev/shm`` warns as ``shell.deferred-exec``: every later build runs
  whatever is put there (``sccache`` passes; code the value holds is ``_deferred``'s).

Setters are one pass over their own arguments; the file check runs once after the walk, over
at most 64 written files (512 lines each) and 256 fetched ones, only when the command
wrote any.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._buildtext import cargo_config_commands
from ._pkgsource import SOURCE_VARS, _official, source_variable
from ._resolve import Invocation
from ._words import DYN, Field, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["SOURCE_SETTERS", "pkg_written", "source_setter"]

SOURCE_SETTERS = frozenset({"go", "poetry", "pdm", "bundle", "add-apt-repository",
                            "apt-add-repository", "yum-config-manager", "dnf", "zypper"})
"""Programs :func:`source_setter` looks at."""

_CODE_TAINT = frozenset({"fetch", "decode"})


# Options of these setters that take a separate value.
_SETTER_VALUE = frozenset({"--priority", "-C", "--directory", "-P", "--project"})


def source_setter(run: Run, inv: Invocation) -> None:
    """Settings stored for every later install: ``go env -w GOPROXY=URL`` (the variables
    ``export`` would set), ``poetry source add NAME URL``, ``pdm config pypi.url URL``,
    ``bundle config [set] mirror.SRC URL``; the official registries pass."""
    name = inv.name
    args = inv.args
    words: list[Field] = []
    skip = False
    for f in args:
        if skip:
            skip = False
        elif f.text in _SETTER_VALUE:
            skip = True  # poetry source add --priority explicit NAME URL
        elif not f.text.startswith("-"):
            words.append(f)
    verbs = [f.text for f in words[:2]]
    if name in ("add-apt-repository", "apt-add-repository"):
        if any(f.text in ("-r", "--remove") for f in args):
            return
        for f in words[:1]:
            # universe/multiverse/restricted: components of the distribution's own archive.
            if DYN not in f.text and f.text not in ("universe", "multiverse", "restricted",
                                                    "main"):
                run.add("shell.package-source", f.span, f"{name} adds the package source "
                        f"{f.text} for every later apt install", None)
        return
    if name in ("yum-config-manager", "dnf", "zypper"):
        repo = _repo_option(args) if name != "zypper" else (
            words[1] if verbs[:1] in (["ar"], ["addrepo"]) and len(words) > 1 else None)
        if repo is not None:
            run.add("shell.package-source", repo.span, f"{name} adds the package repository "
                    f"{repo.text.replace(DYN, '?')} for every later install", None)
        return
    if name == "go":
        if verbs[:1] == ["env"] and any(f.text == "-w" for f in args):
            for f in words[1:16]:
                key, eq, value = f.text.partition("=")
                if eq and key in SOURCE_VARS:
                    source_variable(run, key, Field(value, f.span, f.taint), f.span)
        return
    url: Field | None = None
    if name == "poetry" and verbs == ["source", "add"] and len(words) > 3:
        url = words[3]
    elif name == "pdm" and verbs[:1] == ["config"] and len(words) > 2 and \
            words[1].text.startswith("pypi.") and words[1].text.endswith(".url"):
        url = words[2]
    elif name == "bundle" and verbs[:1] == ["config"]:
        rest = words[2:] if verbs[1:] == ["set"] else words[1:]
        if len(rest) > 1 and rest[0].text.startswith("mirror."):
            url = rest[1]
    if url is not None and not _official(url.text):
        run.add("shell.package-source", url.span, f"{name} stores {url.text.replace(DYN, '?')}"
                " as a package source for every later install", None)


def _repo_option(args: list[Field]) -> Field | None:
    """The value of ``--add-repo URL`` / ``--add-repo=URL`` (dnf config-manager)."""
    for k, f in enumerate(args):
        if f.text == "--add-repo" and k + 1 < len(args):
            return args[k + 1]
        if f.text.startswith("--add-repo="):
            return Field(f.text[len("--add-repo="):], f.span, f.taint)
    return None


# Package-source files a project (or a virtualenv) carries, and the keys naming a source.
_SOURCE_FILES = frozenset({".npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini",
                           "uv.toml", "bunfig.toml", "pyproject.toml", "poetry.toml"})
_SOURCE_KEYS = frozenset({"registry", "npmregistryserver", "index-url", "extra-index-url",
                          "find-links", "trusted-host", "index_url", "extra_index_url"})
# .npmrc keys choosing what every `npm run` runs (as `npm config set` does): any value warns.
_ANY_VALUE = frozenset({"script-shell", "node-options"})
# Directories anyone can write to: a build wrapper there runs whatever lands in it.
_TEMP_DIRS = ("/tmp/", "/var/tmp/", "/dev/shm/")


def _source_setting(text: str) -> str | None:
    """The first ``key = value`` line of a package config that points at a non-default
    registry or index (``registry=http://..``, ``@org:registry=..``, ``index-url = ..``,
    ``npmRegistryServer: ..``, ``url = ..`` in an index/source table), else None."""
    section = ""
    for line in text.splitlines()[:512]:
        s = line.strip()
        if not s or s[0] in "#;":
            continue
        if s.startswith("["):
            section = s.lower()
            continue
        cut = min((i for i in (s.find("="), s.find(":", 1 if s[0] == "@" else 0))
                   if i > 0), default=-1)
        if s.startswith(("registry ", '"registry" ')):
            key, value = "registry", s.partition(" ")[2]  # .yarnrc (v1): registry "URL"
        elif cut < 0:
            continue
        else:
            key, value = s[:cut], s[cut + 1:]
            if s[cut] == ":" and s.startswith("@") and "=" in value:
                # @scope:registry=URL (the ':' belongs to the key)
                more, _, value = value.partition("=")
                key = f"{key}:{more}"
        base = key.strip().strip("'\"").lower().rpartition(":")[2].rpartition(".")[2]
        value = value.strip().strip("[]").strip().strip("'\"").strip()
        if base == "url" and ("index" in section or "source" in section):
            base = "index-url"
        if base not in _SOURCE_KEYS and base not in _ANY_VALUE or not value:
            continue
        # (no starred tuple in an `in` test: mypyc 2.4 fails on one)
        if base == "trusted-host" or base in _ANY_VALUE or not _official(
                value.split()[0].strip("'\",")):
            return f"{key.strip()} = {value}"[:200]
    return None


def pkg_written(run: Run) -> None:
    """After the walk: package-source files the command wrote (see the module doc)."""
    for path, text in list(run.file_text.items())[:64]:
        name = path.rpartition("/")[2]
        if name in ("config.toml", "config") and path.rpartition("/")[0].endswith(".cargo"):
            _cargo_temp_wrapper(run, path, text)
            continue
        if name not in _SOURCE_FILES or _home_config(run, path):
            continue
        setting = _source_setting(text)
        if setting is not None:
            run.add("shell.package-source", _span(run, name), f"writes {setting.replace(DYN, '?')}"
                    f" into {path}, which decides where later package installs come from",
                    None)
    for path, taint in list(run.files.items())[:256]:
        name = path.rpartition("/")[2]
        if name not in _SOURCE_FILES or path in run.file_text or _home_config(run, path):
            continue
        src = first_source(taint, _CODE_TAINT)
        if src is not None:
            run.add("shell.package-source", _span(run, name), f"writes fetched data into "
                    f"{path}, which decides where later package installs come from",
                    f"{src.describe()} was written to {path}")


def _cargo_temp_wrapper(run: Run, path: str, text: str) -> None:
    """``rustc-wrapper = "/tmp/x.sh"`` in ``.cargo/config.toml``: every later cargo build
    runs a program from a directory anyone can write (``sccache`` and code the text holds
    are ``_deferred``'s)."""
    for code in cargo_config_commands(text)[:16]:
        program = code.split(None, 1)[0] if code.split() else ""
        if program.startswith(_TEMP_DIRS):
            run.add("shell.deferred-exec", _span(run, path.rpartition("/")[2]),
                    f"writes {path}, which makes every later cargo build run {program} "
                    "(a temporary directory anyone can write to)", None)
            return


def _home_config(run: Run, path: str) -> bool:
    """A user-level file that the path rules already report on any write."""
    paths = run.cp.paths
    return paths.match(path, "package_config") or paths.match(path, "sensitive")


def _span(run: Run, name: str) -> tuple[int, int]:
    k = run.source.find(name)
    return (k, k + len(name)) if k >= 0 else (0, len(run.source))
