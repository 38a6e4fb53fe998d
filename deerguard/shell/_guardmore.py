"""More ways to take the guard's hook settings away, or to shadow the guard's program.

``_guardoff`` reads copiers, editors and deleters; this module adds:

* ``find .claude -name settings.json -delete`` (or ``-exec rm {} +``, ``-exec mv``): the
  settings file holding the hooks deleted by a search (``shell.defense-weaken``, warn, as
  ``rm .claude/settings.json``);
* Python/node ``-c`` code writing or deleting a hooks file (``open(".claude/settings.json",
  "w")``, ``os.remove(...)``, ``fs.unlinkSync(...)``): the paths come from the interpreter
  readers (``_code.written_paths``/``destructive_paths``); written empty (``.write("{}")``)
  in a user's settings it is ``shell.defense-off`` (block, as ``echo '{}' >
  ~/.claude/settings.json``), otherwise a weakening (warn);
* ``alias deerguard=true``, ``deerguard() { :; }``: the guard's program name shadowed in the
  shell (warn: a hook run through this shell would run the stand-in).

Reached only through :data:`~._guardoff.GUARD_TOOLS` (after its argument gate), an alias
named ``deerguard`` or a function of that name; never raises.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from ._agentperms import hooks_file
from ._code import destructive_paths, written_paths
from ._findargs import find_roots
from ._paths import norm_path
from ._resolve import program_name
from ._words import Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["GUARD_NAME", "code_settings", "find_settings", "guard_shadow"]

GUARD_NAME = "deerguard"

_NAME_TESTS = frozenset({"-name", "-iname"})
_PATH_TESTS = frozenset({"-path", "-ipath", "-wholename", "-iwholename"})
_EXECS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_REMOVERS = frozenset({"rm", "unlink", "shred", "srm", "wipe", "truncate", "trash",
                       "trash-put", "mv"})
_HOOK_NAMES = ("settings.json", "settings.local.json", "hooks.json")
_EMPTY_WRITES = ('write("{}")', 'write("")', 'write_text("{}")', 'write_text("")',
                 ',"{}")', ',"")', 'dump({},')
_USER = ("~/", "/root/", "/home/", "/Users/")


def _hooks_dir(path: str | None) -> bool:
    return path is not None and (path in (".claude", "~/.claude", ".cursor", "~/.cursor") or
                                 path.endswith(("/.claude", "/.cursor")) or hooks_file(path))


def find_settings(run: Run, inv: Invocation) -> None:
    """``find`` deleting (or moving away) an agent's hooks file."""
    args = inv.args
    roots, i = find_roots(args)
    inside = any(f.static and _hooks_dir(norm_path(f.text.rstrip("/") or "/", run.cwd))
                 for f in roots)
    names: list[str] = []
    deletes = False
    n = len(args)
    while i < n:
        t = args[i].text
        if t in _NAME_TESTS and i + 1 < n:
            names.append(args[i + 1].text)
            i += 1
        elif t in _PATH_TESTS and i + 1 < n:
            value = args[i + 1].text
            inside = inside or ".claude/" in value or ".cursor/" in value
            i += 1
        elif t == "-delete":
            deletes = True
        elif t in _EXECS and i + 1 < n:
            deletes = deletes or program_name(args[i + 1].text) in _REMOVERS
            i += 1
        i += 1
    if not inside or not deletes or (names and not any(
            fnmatchcase(h, p) for p in names for h in _HOOK_NAMES)):
        return
    run.add("shell.defense-weaken", inv.word.span, f"{inv.name} deletes the agent settings "
            "where the guard's hook may be installed", None)


def code_settings(run: Run, inv: Invocation, code: Field) -> bool:
    """Interpreter code writing or deleting a hooks file; True when reported."""
    text = code.text[:20000]
    language = "node" if inv.name in ("node", "bun", "deno") else "python"
    for path, _s, _e in written_paths(text, language=language, relative=True):
        full = norm_path(path, run.cwd)
        if full is not None and hooks_file(full):
            squeezed = "".join(text.split()).replace("'", '"')
            if full.startswith(_USER) and any(w in squeezed for w in _EMPTY_WRITES):
                run.add("shell.defense-off", code.span, f"{inv.name} code empties {full}, "
                        "the agent settings where the guard's hook is installed", None)
            else:
                run.add("shell.defense-weaken", code.span, f"{inv.name} code rewrites {full}, "
                        "the agent settings where the guard's hook may be installed", None)
            return True
    for path, _s, _e in destructive_paths(text, language=language):
        full = norm_path(path, run.cwd)
        if full is not None and (hooks_file(full) or _hooks_dir(full)):
            run.add("shell.defense-weaken", code.span, f"{inv.name} code deletes {full}, "
                    "the agent settings where the guard's hook may be installed", None)
            return True
    return False


def guard_shadow(run: Run, span: tuple[int, int], kind: str) -> None:
    """An alias or function named like the guard's program (``kind``: alias, function)."""
    run.add("shell.defense-weaken", span, f"{kind} {GUARD_NAME} shadows the guard's "
            "program: a hook run through this shell runs the stand-in", None)
