"""Name patterns: whole-pattern ``*`` globs, validated strictly and matched in linear time.

A pattern is a name in which ``*`` stands for any run of characters (possibly empty); every
other character is literal. The whole name must match the whole pattern: ``web_*`` matches
``web_search`` but not ``my_web_search``; ``mcp__*__read`` checks the part after the ``*``
too (Casbin's ``keyMatch`` ignores everything after the first ``*``; we do not).

Matching splits the pattern at its stars once, then checks prefix, suffix and each middle
segment with a left-to-right ``str.find``. Leftmost-first placement of each segment is
optimal for ``*``-only globs, so there is no backtracking: time is linear in the name.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = [
    "CONTROL_CHARACTERS",
    "MAX_NAME_LENGTH",
    "Glob",
    "compile_glob",
    "glob_match",
    "has_control",
    "is_glob",
    "lookalike_names",
    "name_problem",
    "pattern_problem",
]

# Characters that would suggest a feature we do not have (character classes, single-char
# wildcards, alternation, escapes) or that break Casbin's CSV policy lines.
_FORBIDDEN_IN_PATTERNS = frozenset('?[]{}()\\,"')
MAX_NAME_LENGTH = 1024


#: C0/C1 control characters and DEL: one character class, linear, no backtracking.
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f]")


def has_control(text: str) -> bool:
    """Return True if ``text`` has a C0/C1 control character or DEL."""
    # A single character class: linear, no backtracking.
    return CONTROL_CHARACTERS.search(text) is not None


def pattern_problem(pattern: object) -> str | None:
    """Return why ``pattern`` cannot be a policy name pattern, or ``None`` if it can.

    Refused: non-strings, empty or blank names, surrounding whitespace, control characters,
    ``**`` (reads like a recursive glob; we have none), and ``? [ ] { } ( ) \\ , "``
    (they read like glob/regex features we do not implement, or break Casbin CSV rows).
    """
    if not isinstance(pattern, str):
        return f"expected a name string, got {type(pattern).__name__}"
    if not pattern.strip():
        return "empty name"
    if pattern != pattern.strip():
        return f"name {pattern!r} has leading or trailing whitespace"
    if len(pattern) > MAX_NAME_LENGTH:
        return f"name is longer than {MAX_NAME_LENGTH} characters"
    if has_control(pattern):
        return f"name {pattern!r} contains control characters"
    if "**" in pattern:
        return f"pattern {pattern!r} has '**'; a single '*' already matches any run of characters"
    bad = sorted(set(pattern) & _FORBIDDEN_IN_PATTERNS)
    if bad:
        return (
            f"pattern {pattern!r} uses {' '.join(bad)}; only '*' is a wildcard and these "
            "characters are not allowed in names"
        )
    return None


def name_problem(name: object) -> str | None:
    """Return why a requested resource ``name`` is refused outright, or ``None``.

    Requested names are untrusted: a non-string, an empty string, a name longer than 1024
    characters or one with control characters is denied before any rule is consulted.
    """
    if not isinstance(name, str):
        return f"resource name must be a string, got {type(name).__name__}"
    if not name:
        return "empty resource name"
    if len(name) > MAX_NAME_LENGTH:
        return f"resource name is longer than {MAX_NAME_LENGTH} characters"
    if has_control(name):
        return "resource name contains control characters"
    return None


def is_glob(pattern: str) -> bool:
    """Return True if ``pattern`` contains a ``*`` wildcard."""
    return "*" in pattern


@dataclass(frozen=True, slots=True)
class Glob:
    """A compiled ``*`` glob: literal prefix, middle segments and suffix."""

    pattern: str
    prefix: str
    middle: tuple[str, ...]
    suffix: str
    min_length: int

    def matches(self, name: str) -> bool:
        """Return True if all of ``name`` matches the pattern (linear in ``len(name)``)."""
        if len(name) < self.min_length:
            return False
        if not name.startswith(self.prefix) or not name.endswith(self.suffix):
            return False
        position = len(self.prefix)
        end = len(name) - len(self.suffix)
        for segment in self.middle:
            found = name.find(segment, position, end)
            if found < 0:
                return False
            position = found + len(segment)
        return True


def compile_glob(pattern: str) -> Glob:
    """Compile ``pattern`` (which must contain ``*``) into a :class:`Glob`.

    >>> compile_glob("web_*").matches("web_search")
    True
    """
    if "*" not in pattern:
        raise ValueError(f"{pattern!r} is not a glob (it has no '*')")
    parts = pattern.split("*")
    return Glob(
        pattern=pattern,
        prefix=parts[0],
        middle=tuple(part for part in parts[1:-1] if part),
        suffix=parts[-1] if len(parts) > 1 else "",
        min_length=sum(len(part) for part in parts),
    )


def glob_match(name: str, pattern: str) -> bool:
    """Return True if ``name`` matches ``pattern`` (exact, or whole-pattern ``*`` glob).

    Used as the Casbin matcher function ``nameMatch`` so Casbin and the compiled fast path
    share one definition. Linear time; never raises for string arguments.

    >>> glob_match("mcp__github__list", "mcp__github__*"), glob_match("gpt-4", "gpt-4o*")
    (True, False)
    """
    if "*" not in pattern:
        return name == pattern
    return compile_glob(pattern).matches(name)


def _plain(name: str) -> bool:
    """Return whether ``name`` is already in folded form (ASCII, no space, no upper case)."""
    return name.isascii() and " " not in name and (name.islower() or name == name.lower())


def lookalike_names(name: str) -> tuple[str, ...]:
    """Return the names ``name`` reads as once disguises are removed (``()`` if it is plain).

    A requested name that differs from a denied one only by case, surrounding or inner
    whitespace, invisible (format) characters, combining marks, compatibility forms
    (fullwidth, math alphanumerics) or Cyrillic/Greek look-alike letters reads as that
    denied name to a person, and to a tool registry or model provider that normalizes names.
    The authorizer checks these readings against deny rules so such a name is never allowed
    more than the name it imitates. Linear in ``len(name)``.
    """
    if _plain(name):
        return ()
    from ..sanitize._chars import CONFUSABLES  # shared look-alike table; lazy (import cost)

    kept: list[str] = []
    for ch in unicodedata.normalize("NFKD", name):
        if ch.isspace() or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        if not ch.isascii():
            mapped = CONFUSABLES.get(ch.lower())
            if mapped is not None:
                ch = mapped.upper() if ch.isupper() else mapped
        kept.append(ch)
    same_case = unicodedata.normalize("NFC", "".join(kept))
    out: list[str] = []
    for variant in (same_case, same_case.casefold()):
        if variant and variant != name and variant not in out and name_problem(variant) is None:
            out.append(variant)
    return tuple(out)
