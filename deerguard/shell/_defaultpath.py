"""Paths led by a ``${VAR:-default}`` expansion: a delete resolves like the default would.

``rm -rf "${TMPDIR:-/tmp}/build"``: when ``TMPDIR`` is not known the expander tries two
alternatives, its unknown value (``DYN/build``) and the default (``/tmp/build``). The unknown
one is never empty (``:-`` and ``:=`` replace an empty value) and, followed by a named
component, never ``/`` or ``~``: it is a folder named ``build`` in a directory the
environment chose in place of ``/tmp``. So the delete is judged on the default's path, as
the static path would be (``/tmp/build`` passes; ``${X:-~}/Documents`` is ``~/Documents``).

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
DEFAULT_KINDS = frozenset({_NONEMPTY, _MAYBE_EMPTY})
_GLOB = frozenset("*?[]!")


def default_source(op: str, default: Field, span: tuple[int, int]) -> Taint:
    """The marker for the unknown alternative of ``${VAR<op>default}`` (``op`` one of
    ``:-``, ``-``, ``:=``, ``=``), or nothing when the default is not a static path."""
    text = default.text
    if not text or text[0] not in "/~." or DYN in text:
        return frozenset()
    return frozenset({Source(_NONEMPTY if op[0] == ":" else _MAYBE_EMPTY, text, span)})


TEMP_VARS = frozenset({"TMPDIR", "TMP", "TEMP", "TEMPDIR", "RUNNER_TEMP"})
"""Variables that name a temporary directory when set: ``$TMPDIR/x`` is judged as
``/tmp/x`` (its empty case, ``/x``, is checked as an alternative of its own)."""


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


def default_path(target: Field) -> str | None:
    """The path ``target`` stands for when led by a defaulted expansion (see the module
    doc), or None."""
    text = target.text
    if text[:1] != DYN or text.count(DYN) != 1 or not _named(text[1:]):
        return None
    marks = [s for s in target.taint if s.kind in DEFAULT_KINDS]
    if len(marks) != 1:
        return None  # none, or two defaults of different expansions: not this shape
    suffix = text[1:]
    if marks[0].kind == _MAYBE_EMPTY:
        from ._paths import glob_critical, is_critical, norm_path  # _paths needs _words
        empty = norm_path(suffix)
        if empty is None or is_critical(empty) or glob_critical(empty):
            return None  # ${X-/tmp}/usr with X set but empty is /usr
    return marks[0].program.rstrip("/") + suffix
