"""Paths as the classifier sees them: normalization, globs, and the sensitive-path lists.

``norm_path`` turns a static argument into a canonical path (``$HOME`` is ``~``; ``//``,
``/./`` and ``..`` collapse; relative paths join a known working directory), so spelling does
not change the outcome. :class:`PathRules` matches paths against the rule lists (secrets,
persistence files, system locations) and the policy's protected globs, in both directions:
a literal path against a listed glob, and a glob argument (``cat /etc/sha*``) against the
listed paths it could name.
"""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatchcase

from . import _rules as R
from ._credpaths import APP_STORE_GLOBS
from ._extglob import plain_glob
from ._words import DYN

__all__ = ["DEEP_CLIMB", "HOME_PARENTS", "PathRules", "candidate_paths", "glob_critical",
           "is_critical", "norm_path"]

# A relative path that climbs this many levels above an unknown working directory is read
# from /: it reaches / from any directory at most this deep, and agents work in directories
# well above that (/home/USER/src/ORG/REPO/pkg is 6 deep). No everyday path climbs 8 levels
# and then names a directory again; one that does names it from / (/etc, not
# /a/b/c/d/e/f/g/h/etc), written so to dodge the absolute-path checks.
DEEP_CLIMB = 8


def norm_path(text: str, cwd: str | None = None) -> str | None:
    """Normalize a static path; None when it is not static or not path-like.

    >>> norm_path("/tmp/../etc//./shadow")
    '/etc/shadow'
    """
    if not text or DYN in text:
        return None
    if "(" in text:
        text = plain_glob(text)  # ~/!(x) is ~/*, /etc/sha@(dow) is /etc/shadow
    if "//" not in text and ("/." not in text or (
            "/./" not in text and "/../" not in text and not text.endswith(("/.", "/..")))):
        # Fast path (most arguments): no empty, "." or ".." component after the first (dot
        # files like ~/.ssh are plain components), so the loop below would rebuild the text
        # itself, minus one trailing slash; ~/ paths too (~user/ paths name /home/user).
        body = text[:-1] if text[-1] == "/" else text
        if body[:1] == "/" or body[:2] == "~/" or (cwd is None and body and
                                                   body[0] not in ".~"):
            return body
    if text.startswith("~"):
        head, sep, rest = text.partition("/")
        prefix = "~" if head == "~" else "/home/" + head[1:]
        parts = rest.split("/") if sep else []
        base: list[str] = prefix.strip("/").split("/") if prefix != "~" else []
        root = "~" if prefix == "~" else ""
    elif text.startswith("/"):
        parts, base, root = text.split("/"), [], ""
    elif cwd is not None:
        return norm_path(cwd.rstrip("/") + "/" + text)
    else:
        parts, base, root = text.split("/"), [], "."
    stack = list(base)
    ups = 0  # .. components that climb above the start (~ or the working directory)
    for part in parts:
        if part in ("", "."):
            continue
        if part == "..":
            if stack:
                stack.pop()
            else:
                ups += 1
            continue
        stack.append(part)
    if root == "~":
        if ups > 1 or (ups and stack):
            # ~/../bob is /home/bob; ~/../../etc is /etc (from /home/u, and from /root). ~/..
            # stays ~: it holds the home directory.
            return ("/home/" if ups == 1 else "/") + "/".join(stack)
        return "~/" + "/".join(stack) if stack else "~"
    if root == ".":
        if ups >= DEEP_CLIMB:  # ../../../../../../../../etc is /etc from any likely cwd
            return "/" + "/".join(stack)
        return "/".join(stack) if stack else "."
    return "/" + "/".join(stack)


def _glob_covers(pattern: str, literal: str) -> bool:
    """True when shell glob ``pattern`` matches the literal path ``literal``."""
    pparts = pattern.split("/")
    lparts = literal.split("/")
    if len(pparts) != len(lparts):
        return False
    for pp, lp in zip(pparts, lparts, strict=True):
        if lp.startswith(".") and not pp.startswith("."):
            return False
        if not fnmatchcase(lp, pp):
            return False
    return True


def _globs_meet(pparts: list[str], gparts: tuple[str, ...]) -> bool:
    """True when a glob argument (``~/.ss?/id_rsa``) and a listed glob (``~/.ssh/id_*``),
    split into as many components, can name a common path: compared component by
    component, a literal part against the other's pattern, two patterns through an example
    of each."""
    for pp, gp in zip(pparts, gparts, strict=True):
        p_wild = any(c in pp for c in "*?[")
        g_wild = any(c in gp for c in "*?[")
        if not p_wild and not g_wild:
            if pp != gp:
                return False
        elif not g_wild:
            # A bare * directory names every directory, not the listed one: too broad to
            # call a secret read (cat ~/.config/*/settings.json).
            if pp in ("*", "**") or (gp.startswith(".") and not pp.startswith(".")) or \
                    not fnmatchcase(gp, pp):
                return False
        elif not p_wild:
            if not fnmatchcase(pp, gp):
                return False
        elif not (fnmatchcase(_example(gp), pp) or fnmatchcase(_example(pp), gp)):
            return False
    return True


def _example(glob: str) -> str:
    """A literal path the glob matches (``~/.ssh/id_*`` -> ``~/.ssh/id_x``)."""
    if not any(c in glob for c in "*?["):
        return glob
    out: list[str] = []
    i = 0
    while i < len(glob):
        ch = glob[i]
        if ch in "*?":
            out.append("x")
        elif ch == "[":
            end = glob.find("]", i + 2)
            if end == -1:
                out.append(ch)
            else:
                out.append(glob[i + 1] if glob[i + 1] not in "!^" else "x")
                i = end
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _prefix(glob: str) -> str:
    """The literal text before a glob's first wildcard."""
    for i, ch in enumerate(glob):
        if ch in "*?[":
            return glob[:i]
    return glob


def _home_variants(globs: Iterable[str]) -> tuple[str, ...]:
    out: list[str] = []
    for g in globs:
        out.append(g)
        if g.startswith("~/"):
            out.extend(("/root/" + g[2:], "/home/*/" + g[2:], "/Users/*/" + g[2:]))
    return tuple(dict.fromkeys(out))


class PathRules:
    """Compiled path globs for one policy: sensitive, persistence, system and protected."""

    __slots__ = ("sensitive", "persistence", "system", "git_hooks", "package_config",
                 "protected", "_cache", "_indexed", "_by_depth", "_heads")

    def __init__(self, protected: Iterable[str]) -> None:
        self.sensitive = _home_variants(R.SENSITIVE_READ_GLOBS)
        self.persistence = _home_variants(R.PERSISTENCE_GLOBS)
        self.system = R.SYSTEM_WRITE_GLOBS
        self.git_hooks = R.GIT_HOOK_GLOBS
        self.package_config = _home_variants(R.PACKAGE_CONFIG_GLOBS)
        self.protected = _home_variants(protected)
        self._cache: dict[tuple[str, str], bool] = {}
        self._indexed = {kind: tuple((_prefix(g), g) for g in getattr(self, kind))
                         for kind in ("sensitive", "persistence", "system", "git_hooks",
                                      "package_config", "protected")}
        # By the first 3 characters of their literal prefix (shorter prefixes under ""): a
        # path is tested only against the globs that can start like it, not all of them.
        self._heads: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {}
        for kind, entries in self._indexed.items():
            heads: dict[str, list[tuple[str, str]]] = {}
            for p, g in entries:
                heads.setdefault(p[:3] if len(p) >= 3 else "", []).append((p, g))
            self._heads[kind] = {h: tuple(e) for h, e in heads.items()}
        # Globs split into components, by component count (for glob arguments). An app's
        # token store (~/.config/*/Local Storage*) is left out: a glob argument meets it
        # only through its wildcard app folder (~/.config/nvim/* would), while an argument
        # that names the store (.../Slack/Local Storage/leveldb/*.ldb) matches it as text.
        stores = frozenset(_home_variants(APP_STORE_GLOBS))
        self._by_depth: dict[str, dict[int, list[tuple[str, ...]]]] = {}
        for kind in self._indexed:
            depth: dict[int, list[tuple[str, ...]]] = {}
            for g in getattr(self, kind):
                if g in stores:
                    continue
                parts = tuple(g.split("/"))
                depth.setdefault(len(parts), []).append(parts)
            self._by_depth[kind] = depth

    def match(self, path: str, kind: str) -> bool:
        """True when normalized ``path`` matches a glob of ``kind`` (either direction)."""
        key = (path, kind)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if kind == "sensitive" and path.endswith((".pub", "/serviceaccount/namespace",
                                                   "/serviceaccount/ca.crt")):
            hit = False  # public keys are meant to be shared
        else:
            globs: tuple[str, ...] = getattr(self, kind)
            # A glob can only match paths starting with its literal prefix: test that first.
            heads = self._heads[kind]
            hit = any(path.startswith(p) and fnmatchcase(path, g)
                      for p, g in heads.get(path[:3], ())) or any(
                path.startswith(p) and fnmatchcase(path, g) for p, g in heads.get("", ()))
            if not hit and any(c in path for c in "*?[") and "/" in path:
                # The argument is itself a glob (cat /etc/sha*, cat /???/shadow): does it
                # cover a listed literal path? Compared component by component, as bash's
                # globs never cross "/" and never match a leading dot by accident.
                pparts = path.split("/")
                hit = any(_glob_covers(path, _example(g)) for g in globs) or any(
                    _globs_meet(pparts, g) for g in self._by_depth[kind].get(len(pparts), ()))
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[key] = hit
        return hit


def candidate_paths(text: str, cwd: str | None) -> list[str]:
    """Paths an argument names: itself, and after ``=`` or ``@`` (``of=/dev/sda``, ``-d@f``)."""
    out: list[str] = []
    if DYN in text:
        text = text.replace(DYN, "x")  # /proc/$$/environ still names an environ file
    if text.startswith("file://"):
        text = text[7:]
    # The text after "=" or "@" is a piece only when there is one (partition gives "").
    pieces = (text,) if "=" not in text and "@" not in text else \
        (text, text.partition("=")[2], text.partition("@")[2])
    for piece in pieces:
        if piece and ("/" in piece or piece.startswith(("~", ".")) or (
                cwd is not None and piece[0] != "-")):
            p = norm_path(piece, cwd)
            if p is not None and p not in out:
                out.append(p)
    return out


def is_critical(path: str) -> bool:
    """True for ``/``, ``~``, system directories, and ``DIR/*`` of those."""
    if path in R.CRITICAL_DIRS or path in _WIN_MOUNT_DIRS:
        return True
    if path.endswith("/*"):
        parent = path[:-2] or "/"
        return parent in R.CRITICAL_DIRS or parent in _WIN_MOUNT_DIRS or parent == ""
    if path.startswith(_HOME_PARENTS):
        parent, _, name = path.rpartition("/")
        if name and parent in _HOME_PARENT_DIRS:
            return True  # someone's home directory (Linux, macOS, Windows seen from WSL)
    return path in ("/*", "~/*", "/.*")


_HOME_PARENT_DIRS = frozenset({"/home", "/Users", "/mnt/c/Users", "/c/Users",
                               "/cygdrive/c/Users"})
# The C: drive from Git Bash/MSYS2 (/c) and Cygwin (/cygdrive/c): critical like /mnt/c (kept
# out of CRITICAL_DIRS, whose every entry the glob checks try).
_WIN_MOUNT_DIRS = frozenset(d + s for d in ("/c", "/cygdrive/c") for s in (
    "", "/Windows", "/Windows/System32", "/Windows/SysWOW64", "/Windows/WinSxS",
    "/Windows/System32/config", "/Windows/System32/drivers", "/Users", "/Program Files",
    "/Program Files (x86)", "/ProgramData"))
_HOME_PARENTS = tuple(d + "/" for d in _HOME_PARENT_DIRS)
HOME_PARENTS = _HOME_PARENTS
"""Directories whose children are home directories (``/home/``, ``/Users/``, WSL, Git Bash
and Cygwin forms), with their trailing slash."""


_SAMPLE_HOMES = ("/home/user", "/Users/user", "/root", "/mnt/c/Users/user")


def glob_critical(path: str) -> bool:
    """True when the glob ``path`` can match a critical directory (``/e*`` is ``/etc``,
    ``/[u]sr`` is ``/usr``, ``/home/*`` names every home); False for a plain path."""
    if not any(c in path for c in "*?[") or not path.startswith(("/", "~")):
        return False  # a relative glob names entries of the working directory
    path = path.rstrip("/") or "/"
    parent, _, last = path.rpartition("/")
    if _broad(last) and (parent in R.CRITICAL_DIRS or is_critical(parent)
                         or _covers_critical(parent)):
        return True  # ~/.[!.]*, ~/[a-z]*, /usr/?*: (nearly) every entry of a critical directory
    return _covers_critical(path)


def _covers_critical(path: str) -> bool:
    """True when the glob ``path`` matches a critical directory or a sample home. Compared
    only with the directories of as many components and the same root, split once (as
    :func:`_glob_covers` compares them): an `rm -rf /tmp/*` used to split and match every
    critical directory, twice."""
    if not path:
        return False
    pparts = path.split("/")
    wild = ["*" in pp or "?" in pp or "[" in pp for pp in pparts]  # else it matches itself
    if not any(wild):
        return path in _CRITICAL_NAMES
    for lparts in _CRITICAL_PARTS.get((path[0], len(pparts)), ()):
        for pp, w, lp in zip(pparts, wild, lparts, strict=True):
            if pp == lp:
                continue
            if not w or (lp.startswith(".") and not pp.startswith(".")) or \
                    not fnmatchcase(lp, pp):
                break
        else:
            return True
    return False


def _critical_parts() -> dict[tuple[str, int], tuple[tuple[str, ...], ...]]:
    table: dict[tuple[str, int], list[tuple[str, ...]]] = {}
    for d in sorted(_CRITICAL_NAMES):
        parts = tuple(d.split("/"))
        table.setdefault((d[0], len(parts)), []).append(parts)
    return {key: tuple(dirs) for key, dirs in table.items()}


_CRITICAL_NAMES = frozenset({*R.CRITICAL_DIRS, *_SAMPLE_HOMES})
_CRITICAL_PARTS = _critical_parts()  # (root character, components) -> split directories


def _broad(name: str) -> bool:
    """True for a glob that matches nearly every name in a directory: after at most a
    leading dot, only wildcards (``*``, ``?``, ``[...]``), at least one of them ``*``
    (``*``, ``.*``, ``.[!.]*``, ``.??*``, ``[a-z]*``); ``*.log`` or ``.c*`` are narrower."""
    body = name[1:] if name.startswith(".") else name
    if "*" not in body:
        return False
    i = 0
    while i < len(body):
        c = body[i]
        if c == "[":
            end = body.find("]", i + 2)
            if end < 0:
                return False
            i = end + 1
        elif c in "*?":
            i += 1
        else:
            return False
    return True
