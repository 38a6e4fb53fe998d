"""Paths led by a ``${VAR:-default}`` expansion: a delete resolves like the default would.

``rm -rf "${TMPDIR:-/tmp}/build"``: when ``TMPDIR`` is not known the expander tries two
alternatives, its unknown value (``DYN/build``) and the default (``/tmp/build``). The unknown
one is never empty (``:-`` and ``:=`` replace an empty value), and ``TMPDIR`` names a temp
directory by convention: it is a folder named ``build`` in a directory the environment chose
in place of ``/tmp``. So the delete is judged on the default's path, as the static path
would be (``/tmp/build`` passes). That holds for the variables of :data:`DIR_VARS` (temp,
cache and tool directories) only: any other variable may hold anything, and
``${X:-/tmp}/usr`` is ``/usr`` when ``X`` is ``/``, so such a delete stays a dynamic delete.
A write under a defaulted expansion checks the default's path as one more candidate, for
any variable (``>> "${ZDOTDIR:-~}/.zshrc"`` writes ``~/.zshrc`` when it is unset).

:func:`default_source` marks the unknown alternative of such an expansion (a static default
that is a path: ``/``, ``~`` or ``.`` first) with a ``"default"`` source naming the default
(``"default-unset"`` for ``-``/``=``, which keep a set but empty value); the source flows with
the field and through variables (``: "${D:=/tmp}"; rm -rf "$D/x"``). :func:`default_path`
gives the path a delete target stands for: the default followed by the target's suffix, when
the target is exactly one unknown part then a suffix with a named component (``/build``,
``/build-*``, ``/.cache/pip``; not ``/``, ``/*`` or ``/..``), and for ``-``/``=`` only when
the empty case (the suffix alone) is no critical path either. ``rm -rf "${DIR:-/}"``,
``"${X:-}"/`` and ``"${X:-/tmp}"/*`` keep their findings. An unknown ``$TMPDIR`` (``$TMP``,
``$TEMP``, ``$RUNNER_TEMP``) is read as ``${TMPDIR-/tmp}``: ``rm -rf "$TMPDIR"/build-*``
is judged as ``/tmp/build-*``.

The expander (``_lookup``) imports this module, so it reaches ``_paths`` (which needs the
expander's ``_words``) only inside :func:`default_path`.

Cost: nothing unless an unknown variable has a default (one check per such expansion).
"""

from __future__ import annotations

from ._values import DYN, Field, Source, Taint

__all__ = ["DEFAULT_KINDS", "TEMP_VARS", "default_path", "default_source", "temp_source"]

_NONEMPTY = "default"
_MAYBE_EMPTY = "default-unset"
# The same markers for a variable of no known meaning: ${X:-/tmp}/usr is /usr when X is "/".
_OTHER_NONEMPTY = "default-other"
_OTHER_MAYBE_EMPTY = "default-other-unset"
_DIR_KINDS = frozenset({_NONEMPTY, _MAYBE_EMPTY})
DEFAULT_KINDS = _DIR_KINDS | {_OTHER_NONEMPTY, _OTHER_MAYBE_EMPTY}
_GLOB = frozenset("*?[]!")

TEMP_VARS = frozenset({"TMPDIR", "TMP", "TEMP", "TEMPDIR", "RUNNER_TEMP"})
"""Variables that name a temporary directory when set: ``$TMPDIR/x`` is judged as
``/tmp/x`` (its empty case, ``/x``, is checked as an alternative of its own)."""

DIR_VARS = TEMP_VARS | frozenset({
    "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME",
    "GOPATH", "GOCACHE", "GOMODCACHE", "CARGO_HOME", "CARGO_TARGET_DIR", "PIP_CACHE_DIR",
    "npm_config_cache", "PNPM_HOME", "YARN_CACHE_FOLDER"})
"""Variables whose value is, by convention, a directory of the same kind as their usual
default (a temp or cache directory, a tool's home): ``${XDG_CACHE_HOME:-~/.cache}/pip`` is a
cache folder either way. Any other variable may hold anything (``${X:-/tmp}/usr`` is
``/usr`` when ``X`` is ``/``), so a delete under it stays a dynamic delete."""


def default_source(op: str, default: Field, span: tuple[int, int], name: str = ""
                   ) -> Taint:
    """The marker for the unknown alternative of ``${NAME<op>default}`` (``op`` one of
    ``:-``, ``-``, ``:=``, ``=``), or nothing when the default is not a static path."""
    text = default.text
    if not text or text[0] not in "/~." or DYN in text:
        return frozenset()
    if name in DIR_VARS:
        return frozenset({Source(_NONEMPTY if op[0] == ":" else _MAYBE_EMPTY, text, span)})
    return frozenset({Source(_OTHER_NONEMPTY if op[0] == ":" else _OTHER_MAYBE_EMPTY, text,
                             span)})


def temp_source(span: tuple[int, int]) -> Source:
    """The marker of an unknown temp-directory variable (:data:`TEMP_VARS`)."""
    return Source(_MAYBE_EMPTY, "/tmp", span)


def _named(suffix: str) -> bool:
    """``/build``, ``/build-*/x``: a component with a name after the unknown directory."""
    if suffix[:1] != "/":
        return False
    parts = suffix[1:].split("/")
    first = parts[0]
    return bool(first) and not set(first) <= _GLOB and ".." not in parts and first != "."


def default_path(target: Field, *, any_var: bool = False) -> str | None:
    """The path ``target`` stands for when led by a defaulted expansion (see the module
    doc), or None. Only a variable of :data:`DIR_VARS` counts unless ``any_var`` (a write
    checks the default's path as one more candidate, whatever the variable)."""
    text = target.text
    if text[:1] != DYN or text.count(DYN) != 1 or not _named(text[1:]):
        return None
    kinds = DEFAULT_KINDS if any_var else _DIR_KINDS
    marks = [s for s in target.taint if s.kind in kinds]
    if len(marks) != 1:
        return None  # none, or two defaults of different expansions: not this shape
    suffix = text[1:]
    if marks[0].kind.endswith("-unset"):
        from ._paths import glob_critical, is_critical, norm_path  # _paths needs _words
        empty = norm_path(suffix)
        if empty is None or is_critical(empty) or glob_critical(empty):
            return None  # ${X-/tmp}/usr with X set but empty is /usr
    return marks[0].program.rstrip("/") + suffix
