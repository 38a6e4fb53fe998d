"""Small readers shared by the cloud access and cloud guard rules (``_cloudiam``,
``_cloudguard``): an option's value, an inline or earlier-written JSON document, and the
statements of an IAM policy. Each is one pass over the words or over the document's
statements (bounded)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ._paths import norm_path
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["as_list", "document", "option", "option_text", "statements"]

_MAX_STATEMENTS = 200


def option(args: list[Field], names: tuple[str, ...]) -> Field | None:
    """The value of the first of ``names`` in ``args`` (``--x V`` or ``--x=V``), or None;
    an option at the end of the words has the empty value."""
    n = len(args)
    for k, f in enumerate(args):
        t = f.text
        if t in names:
            return args[k + 1] if k + 1 < n else Field("", f.span, f.taint)
        head, eq, value = t.partition("=")
        if eq and head in names:
            return Field(value, f.span, f.taint)
    return None


def option_text(args: list[Field], names: tuple[str, ...]) -> str | None:
    """:func:`option`'s text, or None."""
    f = option(args, names)
    return f.text if f is not None else None


def document(run: Run, value: Field | None) -> Any:
    """The JSON document an option gives inline (``'{...}'``) or as ``file://NAME`` written
    earlier in the same command; None when unknown or not JSON."""
    if value is None or DYN in value.text:
        return None
    text: str | None = value.text.strip()
    if text is not None and text.startswith(("file://", "fileb://")):
        path = norm_path(text.split("://", 1)[1], run.cwd)
        text = run.file_text.get(path) if path is not None else None
    if not text or DYN in text or text[0] not in "{[":
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def statements(doc: Any) -> list[dict[str, Any]]:
    """The ``Statement`` entries of an IAM policy document (a dict or a list of them)."""
    if not isinstance(doc, dict):
        return []
    found = doc.get("Statement")
    items = found if isinstance(found, list) else [found]
    return [s for s in items[:_MAX_STATEMENTS] if isinstance(s, dict)]


def as_list(value: Any) -> list[Any]:
    """A JSON value as a list (a scalar is a list of one)."""
    return value[:_MAX_STATEMENTS] if isinstance(value, list) else [value]
