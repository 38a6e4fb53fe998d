"""The values the classifier computes: expanded fields, variables, and taint sources.

Plain data shared by the expander (``_words``), the parameter operations (``_lookup``,
``_paramops``) and the assignment builtins (``_assign``); no logic beyond small helpers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["DYN", "CODE_TAINT", "NO_TAINT", "Field", "Source", "Taint", "Var", "first_source",
           "merge_alts", "secret_name", "source_order", "to_int"]

DYN = "\ufffc"
"""Stands for text that cannot be known statically."""

MAX_ALTS = 8


@dataclass(frozen=True, slots=True)
class Source:
    """Where tainted data came from: ``kind`` is fetch, decode, exec, secret or file."""

    kind: str
    program: str
    span: tuple[int, int]

    def describe(self) -> str:
        """``output of curl (0-4)``, or ``the secret variable $TOKEN (5-11)``."""
        if self.program.startswith("$"):
            return f"the secret variable {self.program} ({self.span[0]}-{self.span[1]})"
        return f"output of {self.program} ({self.span[0]}-{self.span[1]})"


Taint = frozenset[Source]
NO_TAINT: Taint = frozenset()

# Kinds of taint that make data unsafe to execute (secrets are unsafe to send instead).
CODE_TAINT = frozenset({"fetch", "decode", "exec", "file"})


def source_order(src: Source) -> tuple[tuple[int, int], str, str]:
    """A total order on sources: by span, then kind and program. Picking "the first" source
    of a taint set by span alone depended on the set's iteration order when two sources
    share a span (``locate`` both finds secrets and is a program), and that order changes
    with Python's hash seed: the same command gave different details in different runs."""
    return src.span, src.kind, src.program


def first_source(taint: Taint, kinds: frozenset[str] = CODE_TAINT) -> Source | None:
    """Return the earliest source of ``taint`` whose kind is in ``kinds`` (see
    :func:`source_order`)."""
    return min((src for src in taint if src.kind in kinds), key=source_order, default=None)


@dataclass(slots=True)
class Field:
    """One expanded word (after splitting): text with :data:`DYN` for unknown parts."""

    text: str
    span: tuple[int, int]
    taint: Taint = NO_TAINT
    proc: bool = False  # a <( ) / >( ) process substitution (a /dev/fd path)
    quoted: bool = False

    @property
    def static(self) -> bool:
        """True when the whole text is known."""
        return DYN not in self.text


class Var(NamedTuple):
    """A variable's possible values: ``alts`` for a scalar, ``items`` for an array.

    ``keys`` are the subscripts of ``items`` when they are not ``0..n-1`` (a sparse indexed
    array, in index order, or an associative one); :data:`DYN` is a subscript not known.
    ``attrs`` are the ``declare`` attributes that shape later assignments (``l``/``u``/``c``
    case, ``i`` integer, ``a``/``A`` array kinds, ``n`` nameref); ``ref`` is a nameref's
    target name.

    Immutable; a NamedTuple (same fields, equality, hash and repr as the frozen dataclass it
    was) because one is made per variable write and tuple construction is about 3x cheaper.
    """

    alts: tuple[str, ...] = (DYN,)
    taint: Taint = NO_TAINT
    items: tuple[str, ...] | None = None
    keys: tuple[str, ...] | None = None
    attrs: str = ""
    ref: str | None = None


def to_int(text: str) -> int | None:
    """A decimal number written in ASCII (an optional ``-``), else None (never raises)."""
    body = text[1:] if text.startswith("-") else text
    if not body or not body.isascii() or not body.isdecimal() or len(body) > 18:
        return None
    return -int(body) if text.startswith("-") else int(body)


def merge_alts(old: Var | None, new: Var, *, conditional: bool) -> Var:
    """Combine an earlier value with a new assignment (both possible when conditional)."""
    if not conditional or old is None or new.items is not None or old.items is not None or \
            new.ref is not None or old.ref is not None:
        return new
    alts = tuple(dict.fromkeys((*old.alts, *new.alts)))[:MAX_ALTS]
    return Var(alts=alts, taint=old.taint | new.taint, attrs=new.attrs)


_SECRET_WORDS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "API_KEY", "APIKEY",
                 "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTH_KEY", "SESSION_KEY",
                 "SIGNING_KEY", "ENCRYPTION_KEY", "MASTER_KEY", "COOKIE", "BEARER")
# Short words that name a secret only as a whole ``_``-separated part of a longer name:
# ``GH_PAT``, ``MYSQL_PWD``, ``DB_PASS``, ``AWS_CREDS`` (but not ``PATH``, ``PWD``, ``PASS``).
_SECRET_PARTS = frozenset({"PAT", "PWD", "PASS", "PW", "CREDS", "JWT", "OTP", "TOTP"})


# One search for all the words (an alternation of literals: linear, and a C-level scan
# where a generator of ``in`` tests cost about 0.5 µs per unknown variable looked up).
_SECRET_WORD_RE = re.compile("|".join(_SECRET_WORDS))


def secret_name(name: str) -> bool:
    """A variable name that conventionally holds a secret (``GITHUB_TOKEN``, ``DB_PASSWORD``)."""
    upper = name.upper()
    if _SECRET_WORD_RE.search(upper) is not None:
        return True
    parts = upper.split("_")
    return len(parts) > 1 and not _SECRET_PARTS.isdisjoint(parts)
