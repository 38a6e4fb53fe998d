"""The policy's command lists, compiled once, and their check on each resolved program.

``[commands] deny/warn/allow`` names (and globs) are split into sets and glob tuples once per
policy; each program name's three answers are cached per policy (bounded). A denied name run
as a project file (``./scripts/shutdown``) only warns; a warn-listed program's read-only query
form (``systemctl status``) passes.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from .._result import Verdict
from . import _rules as R
from ._paths import PathRules, norm_path
from ._policydata import PolicyData, severity_table
from ._queries import read_only_query
from ._resolve import Invocation
from ._values import DYN

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["Compiled", "policy_check"]


class Compiled:
    """Policy lookups prepared once per policy."""

    __slots__ = ("policy", "deny", "deny_globs", "warn", "warn_globs", "allow", "allow_globs",
                 "paths", "table", "listing", "max_length")

    def __init__(self, policy: PolicyData) -> None:
        self.policy = policy
        self.deny, self.deny_globs = _split_globs(policy.deny)
        self.warn, self.warn_globs = _split_globs(policy.warn)
        self.allow, self.allow_globs = _split_globs(policy.allow)
        self.paths = PathRules(policy.protected)
        self.table: dict[str, Verdict | None] = severity_table(policy.command_name,
                                                               policy.rules)
        self.listing: dict[str, tuple[bool, bool, bool]] = {}
        self.max_length = policy.max_length

    def severity(self, rule_id: str) -> Verdict | None:
        """The verdict of ``rule_id`` under this policy (None when off); unknown ids block."""
        return self.table.get(rule_id, Verdict.BLOCK)


def _split_globs(names: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...]]:
    plain = frozenset(n for n in names if not any(c in n for c in "*?["))
    globs = tuple(n for n in names if any(c in n for c in "*?["))
    return plain, globs


def _listed(name: str, plain: frozenset[str], globs: tuple[str, ...]) -> bool:
    if name in plain:
        return True
    if globs:
        return any(fnmatchcase(name, g) for g in globs)
    return False


_SAFE_BUILTINS = frozenset({"cd", "pwd", "echo", "printf", "true", "false", ":", "test", "[",
                            "export", "shift", "exit", "return", "local", "read", "unset",
                            "wait", "break", "continue", "set", "declare", "typeset",
                            "readonly", "eval", "source", ".", "command", "builtin", "exec",
                            "pushd", "popd", "umask", "trap", "let", "alias", "type", "hash"})


def policy_check(run: Run, inv: Invocation, *, record: bool) -> None:
    """Record ``inv``'s program name and report the policy's deny, allow and warn lists."""
    name = inv.name
    cp = run.cp
    record = record and not run.raw_mode  # raw-text guesses are not "would run"
    if not name:
        if record and not inv.word.static:
            run.commands.append("?")
        return
    if record:
        run.commands.append(name)
    verdicts = cp.listing.get(name)
    if verdicts is None:
        verdicts = cp.listing[name] = (
            _listed(name, cp.deny, cp.deny_globs),
            bool(cp.allow or cp.allow_globs) and name not in _SAFE_BUILTINS
            and not _listed(name, cp.allow, cp.allow_globs),
            _listed(name, cp.warn, cp.warn_globs))
        if len(cp.listing) > 4096:
            cp.listing.clear()
    if not any(verdicts):
        return
    if verdicts[0] and _project_file(inv.word.text, run.cwd, cp.paths):
        # ./scripts/shutdown runs that file of the project, not the system program.
        run.add("shell.warned-command", inv.word.span, f"{inv.word.text} is a project "
                f"file named like the denied program {name}", _via(inv))
    elif verdicts[0]:
        run.add("shell.denied-command", inv.word.span, f"{name} is denied by policy",
                _via(inv))
    elif verdicts[1]:
        run.add("shell.not-allowed", inv.word.span, f"{name} is not on the "
                "policy's allow list", _via(inv))
    if verdicts[2] and not read_only_query(inv):
        run.add("shell.warned-command", inv.word.span, f"{name} is on the policy's "
                "warn list", _via(inv))


def _project_file(text: str, cwd: str | None, paths: PathRules) -> bool:
    """A program word that runs a file below the working directory (``./x/init``,
    ``scripts/halt``): relative, with a directory part, no ``..``, and not in a system
    directory when the working directory is known (``cd /sbin && ./halt`` is halt)."""
    if "/" not in text or text.startswith(("/", "~")) or DYN in text or \
            ".." in text.split("/"):
        return False
    if cwd is None:
        return True
    full = norm_path(text, cwd)
    if full is None:
        return False
    parent = full.rsplit("/", 1)[0] or "/"
    return parent not in R.CRITICAL_DIRS and not paths.match(full, "system")


def _via(inv: Invocation) -> str | None:
    return f"run through {' '.join(inv.wrappers)}" if inv.wrappers else None
