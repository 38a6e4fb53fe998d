"""Where ``git push`` goes when the command itself (re)points a remote (``shell.repo-export``).

git keeps remotes in ``.git/config``; the classifier records the settings a command makes
there too (in the run's known file texts, as ``echo ... >> .git/config`` would), so that a
later push is judged by the URL it really goes to, as ``git push URL`` is (``_gitdest``):

* ``git remote add NAME URL``, ``git remote set-url [--push] [--add] NAME URL``,
  ``git remote rename OLD NEW``, ``git remote remove|rm NAME``;
* ``git config [--add|--replace-all|set] KEY VALUE`` of ``remote.NAME.url``,
  ``remote.NAME.pushurl``, ``remote.pushDefault``, ``branch.B.remote``/``pushRemote``
  (which remote a bare ``git push`` uses) and ``url.BASE.insteadOf``/``pushInsteadOf``
  (which rewrites every matching remote URL to BASE);
* the same keys for one command only: ``git -c remote.origin.pushurl=URL push``.

The decision (what distinguishes the everyday first push): ``git remote add origin URL`` is
a new repository's first publication, since git refuses to add ``origin`` when it exists
(``git init && git remote add origin URL && git push -u origin main`` passes, as in gh9).
Every other change to a remote repoints one the user already has, or adds a second one:
``set-url``, ``config remote.X.url``/``pushurl``, ``rename``, ``add`` of a name removed
earlier in the command (``git remote rm origin && git remote add origin URL``) or of a name
other than origin. A push after it sends the history to a host only this command names:
warn, exactly as ``git push URL`` does, and block when a staged secret goes with it.

One exception keeps the everyday fix quiet: ``git remote set-url origin
git@github.com:me/app.git && git push`` (or ``git config remote.origin.url``) pointing
origin's URL at a code forge (github.com, gitlab.com, bitbucket.org, ...) is how users
switch between HTTPS and SSH or follow a renamed repository, after a push failed; it passes
as gh9 decided. A non-forge host, a ``pushurl`` (``set-url --push``), a second URL
(``--add``), or origin removed or renamed first still warns. A setting alone, with no push
in the command, passes. An ``insteadOf`` rewrite that keeps the host
(``url.git@github.com:.insteadOf https://github.com/``, a protocol switch) sends nothing
elsewhere and passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._git import config_setting
from ._gitdest import network
from ._paths import norm_path
from ._words import DYN

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["config_path", "note_config", "note_remote", "push_target"]

_REMOTE_ARG = frozenset({"-t", "-m", "--track", "--master"})
_MAX_TEXT = 1 << 16  # recorded settings per config file: a bound, far above any real command
# Where a push goes once a command made more settings than _MAX_TEXT keeps: not followed,
# so judged as a new destination (fail closed), never as the remote the user configured.
_OVERFLOW = "unknown://a remote set in this command (too many settings to follow)"
_MAX_SECTIONS = 32
# Code forges: pointing origin at one is how a user switches between HTTPS and SSH
# (GitHub's "Switching remote URLs") or follows a renamed repository.
_FORGES = frozenset({"github.com", "ssh.github.com", "gitlab.com", "bitbucket.org",
                     "codeberg.org", "ssh.dev.azure.com", "dev.azure.com", "git.sr.ht"})


def config_path(run: Run, work: str | None) -> str:
    """The ``.git/config`` of the work tree ``work`` (``git -C DIR``), else of the cwd."""
    return norm_path(".git/config", work if work is not None else run.cwd) or ".git/config"


def _append(run: Run, path: str, text: str) -> None:
    old = run.file_text.get(path, "")
    if len(old) < _MAX_TEXT:
        run.file_text[path] = old + text
    else:
        run.remote_state[path + "\0"] = "overflow"


def _moved(run: Run, path: str, name: str) -> None:
    run.remote_state[path + "\0" + name] = "moved"  # one per git remote command: linear


def _first(run: Run, path: str, name: str) -> None:
    """``origin`` added (or pointed at a forge) before any change to it in the command."""
    run.remote_state.setdefault(path + "\0" + name, "first")


def note_remote(run: Run, work: str | None, words: list[str]) -> None:
    """Record what ``git remote WORDS`` writes to the work tree's config."""
    if not words or words[0] not in ("add", "set-url", "rename", "remove", "rm"):
        return
    sub = words[0]
    ops: list[str] = []
    flags: set[str] = set()
    j = 1
    while j < len(words) and j < 64:
        w = words[j]
        if w in _REMOTE_ARG:
            j += 2
            continue
        if w.startswith("--mirror") and w.partition("=")[2] in ("", "push"):
            flags.add("mirror")
        elif w in ("--push", "--add", "--delete"):
            flags.add(w)
        elif not w.startswith("-"):
            ops.append(w)
        j += 1
    path = config_path(run, work)
    if not ops or DYN in ops[0]:
        return
    name = ops[0]
    if sub in ("remove", "rm"):
        _moved(run, path, name)  # it existed: adding it again repoints it
        return
    if len(ops) < 2 or "--delete" in flags:
        return
    if sub == "rename":
        body = _section_text(run.file_text.get(path, ""), f'[remote "{name}"]')
        _moved(run, path, name)
        _moved(run, path, ops[1])
        if body:
            _append(run, path, f'[remote "{ops[1]}"]\n{body}')
        return
    key = "pushurl" if "--push" in flags else "url"
    _append(run, path, f'[remote "{name}"]\n\t{key} = {ops[1]}\n' +
            ("\tmirror = true\n" if "mirror" in flags else ""))
    if name != "origin" or (sub == "set-url" and (
            "--add" in flags or _repoints(name, key, ops[1]))):
        _moved(run, path, name)
    else:
        _first(run, path, name)


def _repoints(name: str, var: str, url: str) -> bool:
    """Setting ``remote.NAME.VAR`` to ``url`` sends pushes elsewhere: anything but
    ``origin``'s fetch-and-push URL set to a forge (the documented HTTPS/SSH switch)."""
    return name != "origin" or var != "url" or _host(url) not in _FORGES


def _split_key(key: str) -> tuple[str, str, str]:
    """``remote.NAME.url`` -> (``remote``, ``NAME``, ``url``): section and variable are
    case-insensitive, the subsection (a remote's name) is not."""
    section, _, rest = key.partition(".")
    sub, _, var = rest.rpartition(".")
    return section.lower(), sub, var.lower()


def _entry(key: str, value: str) -> tuple[str, str | None] | None:
    """The config text a remote-related ``key = value`` makes, and the remote it repoints."""
    section, sub, var = _split_key(key)
    if DYN in key or not var:
        return None
    if section == "remote" and sub and var in ("url", "pushurl", "mirror"):
        return f'[remote "{sub}"]\n\t{var} = {value}\n', \
            sub if var == "mirror" or _repoints(sub, var, value) else None
    if (section, sub, var) == ("remote", "", "pushdefault") or (
            section == "branch" and var in ("remote", "pushremote")):
        return f"[remote]\n\tpushdefault = {value}\n", None
    if section == "url" and sub and var in ("insteadof", "pushinsteadof"):
        return f'[url "{sub}"]\n\t{var} = {value}\n', None
    return None


def note_config(run: Run, work: str | None, words: list[str]) -> None:
    """Record a remote setting ``git config WORDS`` writes (see the module docstring)."""
    setting = config_setting(words)
    if setting is None or "." not in setting[0]:
        return
    made = _entry(*setting)
    if made is not None:
        path = config_path(run, work)
        _append(run, path, made[0])
        if made[1] is not None:
            _moved(run, path, made[1])
        elif made[0].startswith('[remote "origin"]'):
            _first(run, path, "origin")  # origin's url set to a forge


def _section_text(config: str, header: str) -> str:
    """The bodies of every ``header`` section in ``config`` (bounded)."""
    out: list[str] = []
    start = config.find(header)
    while start >= 0 and len(out) < _MAX_SECTIONS:
        body_start = start + len(header)
        end = config.find("\n[", body_start)
        out.append(config[body_start:end + 1 if end >= 0 else len(config)].lstrip("\n"))
        start = config.find(header, body_start)
    return "".join(out)


def _values(body: str, var: str) -> list[str]:
    """The values of ``var`` in a section body (``\\tvar = value`` lines)."""
    found = []
    for line in body.split("\n")[:_MAX_SECTIONS]:
        k, eq, v = line.partition("=")
        if eq and k.strip(" \t").lower() == var:
            found.append(v.strip(" \t\"'"))
    return found


def _host(url: str) -> str:
    if "://" in url:
        return url.partition("://")[2].split("/", 1)[0].rpartition("@")[2].lower()
    return url.partition(":")[0].rpartition("@")[2].lower()


def _rewrite(config: str) -> str | None:
    """The BASE of an ``insteadOf``/``pushInsteadOf`` rewrite to another network host."""
    start = config.find('[url "')
    count = 0
    while start >= 0 and count < _MAX_SECTIONS:
        count += 1
        base, _, body = config[start + 6:].partition('"]')
        body = body.partition("\n[")[0]
        prefixes = _values(body, "insteadof") + _values(body, "pushinsteadof")
        if network(base) and any(DYN not in p and _host(p) != _host(base) for p in prefixes):
            return base
        start = config.find('[url "', start + 6)
    return None


def push_target(run: Run, work: str | None, repo: str | None, settings: list[str]
                ) -> tuple[str | None, bool, bool]:
    """Where ``git push [REPO]`` goes by the settings this command made: the URL (None when
    it made none that apply), whether REPO is a new repository's first ``origin`` (the
    everyday first push), and whether a mirror remote was set."""
    if not settings and not run.file_text:
        return None, False, False  # the common case: nothing recorded, nothing to look up
    path = config_path(run, work)
    config = run.file_text.get(path, "")
    state = run.remote_state.get(path + "\0origin")
    for s in settings[:16]:  # git -c KEY=VALUE push
        key, _, value = s.partition("=")
        made = _entry(key, value)
        if made is not None:
            config += made[0]
            if made[1] == "origin":
                state = "moved"
            elif made[0].startswith('[remote "origin"]') and state is None:
                state = "first"
    if not config:
        return None, False, False
    if repo is None:
        defaults = _values(_section_text(config, "[remote]\n"), "pushdefault")
        repo = defaults[-1] if defaults else "origin"
    body = _section_text(config, f'[remote "{repo}"]')
    urls = _values(body, "pushurl") or _values(body, "url")
    fresh = repo == "origin" and state == "first" and not _values(body, "pushurl")
    mirror = "mirror = true" in body
    url = next((u for u in urls if network(u)), urls[0] if urls else None)
    if url is None or not network(url):
        rewrite = _rewrite(config)
        if rewrite is not None and (url is None or DYN not in url):
            return rewrite, False, mirror
    if url is None and (path + "\0") in run.remote_state:
        return _OVERFLOW, False, mirror
    return url, fresh and url is not None, mirror
