"""Read policy files (TOML or YAML) and point at the line of any key.

Policy loaders validate data after parsing; when a value is wrong they must say *where*. TOML
and YAML parsers do not keep positions on the data, so :func:`load_document` returns the data
together with a :class:`KeyLines` map from dotted key paths to 1-based line numbers, and every
syntax error becomes a :class:`~deerguard.errors.PolicyError` naming file and line.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import PolicyError

__all__ = ["Document", "KeyLines", "load_document", "parse_document"]


@dataclass(frozen=True)
class KeyLines:
    """Line numbers of keys, by dotted path (``"commands.deny"``, ``"roles.admin.tools"``)."""

    lines: Mapping[str, int] = field(default_factory=dict)

    def line_of(self, path: str) -> int | None:
        """Return the line of ``path``, or of its nearest recorded ancestor, or ``None``."""
        while True:
            if path in self.lines:
                return self.lines[path]
            if "." not in path:
                return None
            path = path.rsplit(".", 1)[0]


@dataclass(frozen=True)
class Document:
    """A parsed policy document: its data, where it came from, and where each key is."""

    data: dict[str, Any]
    file: str
    keys: KeyLines

    def error(self, key: str, message: str, hint: str | None = None) -> PolicyError:
        """Build a :class:`PolicyError` for ``key`` with the key's file and line filled in."""
        return PolicyError(
            message, file=self.file, line=self.keys.line_of(key), key=key, hint=hint
        )


_TOML_LINE = re.compile(r"at line (\d+)")
_TOML_TABLE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_TOML_KEY = re.compile(r"^\s*((?:\"[^\"\n]*\"|'[^'\n]*'|[A-Za-z0-9_\-]+)"
                       r"(?:\s*\.\s*(?:\"[^\"\n]*\"|'[^'\n]*'|[A-Za-z0-9_\-]+))*)\s*=")
_TOML_PART = re.compile(r"\"([^\"\n]*)\"|'([^'\n]*)'|([A-Za-z0-9_\-]+)")


def _toml_path(text: str) -> str:
    return ".".join(a or b or c for a, b, c in _TOML_PART.findall(text))


def _toml_key_lines(text: str) -> dict[str, int]:
    """Map dotted key paths to lines with a line scanner (headers and ``key =`` lines).

    Multi-line strings and arrays are skipped by tracking an open bracket depth, so keys
    inside array-of-tables and values that span lines do not confuse the map.
    """
    lines: dict[str, int] = {}
    table = ""
    depth = 0
    in_multiline: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        if in_multiline is not None:
            if in_multiline in raw:
                in_multiline = None
            continue
        if depth == 0:
            header = _TOML_TABLE.match(raw)
            if header:
                table = _toml_path(header.group(1))
                lines.setdefault(table, number)
                continue
            key = _TOML_KEY.match(raw)
            if key:
                path = _toml_path(key.group(1))
                full = f"{table}.{path}" if table else path
                lines.setdefault(full, number)
                rest = raw[key.end():]
                for quote in ('"""', "'''"):
                    if rest.count(quote) == 1:
                        in_multiline = quote
                depth += rest.count("[") - rest.count("]")
                depth = max(depth, 0)
                continue
        else:
            depth = max(depth + raw.count("[") - raw.count("]"), 0)
    return lines


def parse_document(text: str, /, *, file: str, fmt: str | None = None) -> Document:
    """Parse policy ``text`` as TOML or YAML (by ``fmt`` or the file suffix).

    Raises :class:`PolicyError` naming ``file`` and the line for syntax errors, for a top
    level that is not a mapping, and for an unknown format. YAML is read with the safe loader
    only (no object construction), and anchors/aliases are refused to rule out alias bombs.
    """
    if fmt is None:
        suffix = Path(file).suffix.lower()
        fmt = {".toml": "toml", ".yaml": "yaml", ".yml": "yaml"}.get(suffix)
    if fmt == "toml":
        try:
            data: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            match = _TOML_LINE.search(str(exc))
            raise PolicyError(
                f"not valid TOML: {exc}",
                file=file,
                line=int(match.group(1)) if match else None,
                hint="check the TOML syntax at that line",
            ) from None
        keys = _toml_key_lines(text)
    elif fmt == "yaml":
        from ._policyyaml import parse_yaml  # PyYAML only for YAML files

        data, keys = parse_yaml(text, file)
    else:
        raise PolicyError(
            f"unknown policy format {fmt or Path(file).suffix!r}",
            file=file,
            hint="use a .toml, .yaml or .yml file",
        )
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise PolicyError(
            f"the top level must be a table/mapping, got {type(data).__name__}",
            file=file,
            line=1,
            hint="put the settings under named keys",
        )
    return Document(data=data, file=file, keys=KeyLines(keys))


def load_document(path: str | Path, /, *, fmt: str | None = None) -> Document:
    """Read and parse the policy file at ``path`` (see :func:`parse_document`).

    An unreadable or non-UTF-8 file raises :class:`PolicyError` naming the file.
    """
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(
            f"cannot read policy file: {exc}", file=name, hint="pass a readable UTF-8 file"
        ) from None
    return parse_document(text, file=name, fmt=fmt)
