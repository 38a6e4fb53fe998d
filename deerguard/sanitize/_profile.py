"""Tag profiles: which tag names, chat-template tokens and boundary markers count as forged.

Profiles are data. The shipped ones live in ``policies/tags/<name>.toml``; callers load their
own with :func:`load_tag_profile` or build a :class:`TagProfile` directly. Names are compared
by *skeleton* (see ``_chars.skeleton``), so a profile lists each name once in any spelling
(``system-reminder`` also covers ``system_reminder``, ``SystemReminder``, ``system reminder``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .._policyfile import Document, load_document, parse_document
from .._resources import read_policy_text
from ..errors import ConfigError, PolicyError
from ._chars import skeleton

__all__ = ["BUILTIN_PROFILES", "TagProfile", "load_tag_profile", "resolve_profile"]

BUILTIN_PROFILES: tuple[str, ...] = ("default", "deerflow", "aggressive")

# The RGI emoji tag sequences (England, Scotland, Wales flags): the only Tag-block runs that
# are kept as they are. Every other Tag-block character is revealed.
DEFAULT_EMOJI_TAG_SEQUENCES: frozenset[str] = frozenset({"gbeng", "gbsct", "gbwls"})


def _frozen(values: Iterable[str]) -> frozenset[str]:
    return frozenset(values)


@dataclass(frozen=True, slots=True)
class TagProfile:
    """A frozen set of names that count as forged framework context in untrusted text.

    - ``tags``: tag names, matched as a whole name (``<think>``, ``</think >``, ``<ns:think>``).
    - ``tag_prefixes``: names matched as a prefix (``untrusted-content`` covers
      ``<untrusted-content-3f9a>`` for every nonce).
    - ``template_tokens``: names inside ``<|...|>``; ``any_template_token`` makes every
      ``<|name|>`` a token (the ``<|>`` operator stays intact).
    - ``double_angle_tokens``: names inside ``<<...>>`` (``<<SYS>>``, ``<</SYS>>``).
    - ``bracket_tokens``: names inside ``[...]`` (``[INST]``, ``[/INST]``).
    - ``markers``: boundary-marker phrases (``END USER INPUT``), matched in any case, spacing,
      look-alike letters, between non-alphanumeric neighbours.
    - ``emoji_tag_sequences``: Tag-block spellings kept after U+1F3F4 (flag sequences).

    >>> TagProfile(name="mine", tags=frozenset({"secret-context"})).name
    'mine'
    """

    name: str
    tags: frozenset[str] = frozenset()
    tag_prefixes: frozenset[str] = frozenset()
    template_tokens: frozenset[str] = frozenset()
    any_template_token: bool = False
    double_angle_tokens: frozenset[str] = frozenset()
    bracket_tokens: frozenset[str] = frozenset()
    markers: tuple[str, ...] = ()
    emoji_tag_sequences: frozenset[str] = DEFAULT_EMOJI_TAG_SEQUENCES
    description: str = ""

    def __post_init__(self) -> None:
        for attr in (
            "tags",
            "tag_prefixes",
            "template_tokens",
            "double_angle_tokens",
            "bracket_tokens",
            "emoji_tag_sequences",
        ):
            value = getattr(self, attr)
            if isinstance(value, str) or not isinstance(value, Iterable):
                raise ConfigError(f"TagProfile.{attr} must be a collection of strings")
            object.__setattr__(self, attr, _frozen(value))
        if isinstance(self.markers, str):
            raise ConfigError("TagProfile.markers must be a collection of strings")
        object.__setattr__(self, "markers", tuple(dict.fromkeys(self.markers)))
        for attr in (
            "tags",
            "tag_prefixes",
            "template_tokens",
            "double_angle_tokens",
            "bracket_tokens",
            "markers",
        ):
            for item in getattr(self, attr):
                if not isinstance(item, str) or not skeleton(item):
                    raise ConfigError(
                        f"TagProfile.{attr} entry {item!r} has no letters or digits; "
                        "give names such as 'system-reminder'"
                    )

    def merged(self, other: TagProfile, /, *, name: str | None = None) -> TagProfile:
        """Return a profile holding the names of both profiles (``other`` adds to ``self``)."""
        return TagProfile(
            name=name or self.name,
            tags=self.tags | other.tags,
            tag_prefixes=self.tag_prefixes | other.tag_prefixes,
            template_tokens=self.template_tokens | other.template_tokens,
            any_template_token=self.any_template_token or other.any_template_token,
            double_angle_tokens=self.double_angle_tokens | other.double_angle_tokens,
            bracket_tokens=self.bracket_tokens | other.bracket_tokens,
            markers=(*self.markers, *other.markers),
            emoji_tag_sequences=self.emoji_tag_sequences & other.emoji_tag_sequences,
            description=other.description or self.description,
        )

    def with_tag_prefixes(self, *prefixes: str) -> TagProfile:
        """Return a copy that also treats names starting with any of ``prefixes`` as forged."""
        return TagProfile(
            name=self.name, tags=self.tags, tag_prefixes=self.tag_prefixes | set(prefixes),
            template_tokens=self.template_tokens, any_template_token=self.any_template_token,
            double_angle_tokens=self.double_angle_tokens, bracket_tokens=self.bracket_tokens,
            markers=self.markers, emoji_tag_sequences=self.emoji_tag_sequences,
            description=self.description,
        )  # fmt: skip


# Schema: table -> key -> (type, is a list of strings)
_SCHEMA: dict[str, dict[str, type]] = {
    "profile": {"name": str, "description": str, "extends": list, "source": str},
    "tags": {"names": list, "prefixes": list},
    "tokens": {"template": list, "any_template": bool, "double_angle": list, "bracket": list},
    "markers": {"phrases": list},
    "unicode": {"emoji_tag_sequences": list},
}


def _strings(doc: Document, key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise doc.error(key, f"{key} must be a list of strings", 'write e.g. ["system-reminder"]')
    for item in value:
        if not skeleton(item):
            raise doc.error(
                key,
                f"{key} entry {item!r} has no letters or digits",
                "remove it or give a real name",
            )
    return list(value)


def _from_document(doc: Document, *, stack: tuple[str, ...] = ()) -> TagProfile:
    data = doc.data
    for table, value in data.items():
        if table not in _SCHEMA:
            raise doc.error(
                table, f"unknown table {table!r}", f"use one of: {', '.join(sorted(_SCHEMA))}"
            )
        if not isinstance(value, dict):
            raise doc.error(table, f"{table!r} must be a table", f"write it as [{table}]")
        for key, item in value.items():
            full = f"{table}.{key}"
            expected = _SCHEMA[table].get(key)
            if expected is None:
                raise doc.error(
                    full,
                    f"unknown key {full!r}",
                    f"use one of: {', '.join(sorted(_SCHEMA[table]))}",
                )
            if not isinstance(item, expected):
                raise doc.error(
                    full,
                    f"{full} must be a {expected.__name__}, got {type(item).__name__}",
                    "fix the value's type",
                )
    meta = data.get("profile", {})
    tags = data.get("tags", {})
    tokens = data.get("tokens", {})
    unicode = data.get("unicode", {})
    name = meta.get("name") or Path(doc.file).stem
    emoji = (
        frozenset(_strings(doc, "unicode.emoji_tag_sequences", unicode["emoji_tag_sequences"]))
        if "emoji_tag_sequences" in unicode
        else DEFAULT_EMOJI_TAG_SEQUENCES
    )
    profile = TagProfile(
        name=name,
        tags=frozenset(_strings(doc, "tags.names", tags.get("names", []))),
        tag_prefixes=frozenset(_strings(doc, "tags.prefixes", tags.get("prefixes", []))),
        template_tokens=frozenset(_strings(doc, "tokens.template", tokens.get("template", []))),
        any_template_token=bool(tokens.get("any_template", False)),
        double_angle_tokens=frozenset(
            _strings(doc, "tokens.double_angle", tokens.get("double_angle", []))),
        bracket_tokens=frozenset(_strings(doc, "tokens.bracket", tokens.get("bracket", []))),
        markers=tuple(_strings(doc, "markers.phrases", data.get("markers", {}).get("phrases", []))),
        emoji_tag_sequences=emoji,
        description=meta.get("description", ""),
    )  # fmt: skip
    for base in (
        _strings(doc, "profile.extends", meta.get("extends", [])) if "extends" in meta else []
    ):
        if base not in BUILTIN_PROFILES:
            raise doc.error(
                "profile.extends",
                f"unknown built-in profile {base!r}",
                f"extend one of: {', '.join(BUILTIN_PROFILES)}",
            )
        if base in stack:
            raise doc.error(
                "profile.extends", f"profile {base!r} extends itself", "remove the cycle"
            )
        profile = _builtin(base, stack=(*stack, base)).merged(profile, name=name)
    return profile


def _builtin(name: str, *, stack: tuple[str, ...] = ()) -> TagProfile:
    relative = f"tags/{name}.toml"
    doc = parse_document(read_policy_text(relative), file=f"policies/{relative}")
    return _from_document(doc, stack=stack or (name,))


@lru_cache(maxsize=len(BUILTIN_PROFILES))
def _builtin_cached(name: str) -> TagProfile:
    return _builtin(name)


def load_tag_profile(path: str | Path, /) -> TagProfile:
    """Load a tag profile from a TOML (or YAML) file.

    Unknown tables or keys, wrong types, names without letters and unknown ``extends``
    targets raise :class:`~deerguard.errors.PolicyError` naming file, line and key.

    >>> load_tag_profile("policies/tags/default.toml").name  # doctest: +SKIP
    'default'
    """
    return _from_document(load_document(path))


def resolve_profile(profile: str | TagProfile, /) -> TagProfile:
    """Return ``profile`` itself, or the built-in profile of that name.

    Raises :class:`~deerguard.errors.ConfigError` for an unknown name.
    """
    if isinstance(profile, TagProfile):
        return profile
    if not isinstance(profile, str) or profile not in BUILTIN_PROFILES:
        raise ConfigError(
            f"unknown tag profile {profile!r}; use one of {', '.join(BUILTIN_PROFILES)}, "
            "a TagProfile, or load_tag_profile(path)"
        )
    try:
        return _builtin_cached(profile)
    except PolicyError:  # pragma: no cover - shipped data is tested
        raise
