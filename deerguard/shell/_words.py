"""Word expansion for the classifier: quote removal, constant propagation, splitting, braces.

A parsed :class:`~deerguard.shell.ast.Word` becomes one or more :class:`Field` values, the
way bash would expand it, as far as that is known statically:

* quotes and backslashes are removed; ``$'\\x72m'`` is ``rm``;
* ``$x``/``${x}``/``"${a[@]}"`` take the values of literal assignments seen earlier in the
  same script (constant propagation); unquoted values are split on ``$IFS`` whitespace, so
  ``rm${IFS}f`` is two fields; ``$HOME`` is ``~``;
* brace expansion ``{cat,/etc/shadow}`` gives one field per alternative;
* what cannot be known (a command substitution, an unknown variable) becomes the marker
  :data:`DYN` inside the text, and carries the *taint* of where the data came from.

Expansion is linear in the word's size (brace products are capped) and never runs anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from . import ast

__all__ = ["DYN", "Field", "Source", "Var", "Expander", "secret_name"]

DYN = "\ufffc"
"""Stands for text that cannot be known statically."""

_MAX_FIELDS = 64
_MAX_ALTS = 8
_MAX_BRACE = 16  # brace products beyond this many words are not expanded further


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


def first_source(taint: Taint, kinds: frozenset[str] = CODE_TAINT) -> Source | None:
    """Return the earliest source of ``taint`` whose kind is in ``kinds``."""
    best: Source | None = None
    for src in taint:
        if src.kind in kinds and (best is None or src.span < best.span):
            best = src
    return best


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


@dataclass(frozen=True, slots=True)
class Var:
    """A variable's possible values: ``alts`` for a scalar, ``items`` for an array."""

    alts: tuple[str, ...] = (DYN,)
    taint: Taint = NO_TAINT
    items: tuple[str, ...] | None = None


_DEFAULT_IFS_TABLE = str.maketrans("\t\n", "  ")


@dataclass(slots=True)
class _Builder:
    fields: list[Field] = field(default_factory=list)
    cur: list[str] = field(default_factory=list)
    open: bool = False  # the current field has started (even if empty, e.g. '')
    taint: set[Source] = field(default_factory=set)
    quoted: bool = False
    proc: bool = False

    def copy(self) -> _Builder:
        return _Builder(list(self.fields), list(self.cur), self.open, set(self.taint),
                        self.quoted, self.proc)

    def add(self, text: str, *, quoted: bool) -> None:
        self.cur.append(text)
        self.open = True
        self.quoted = self.quoted or quoted

    def split_add(self, text: str, ifs: str, span: tuple[int, int]) -> None:
        """Append unquoted expansion ``text``, splitting on IFS whitespace."""
        if not ifs:
            self.add(text, quoted=False)
            return
        keep = set(self.taint)
        # Split at every IFS character (C-level: map them all to the first, then split).
        if len(ifs) == 1:
            pieces = text.split(ifs)
        elif ifs == " \t\n":
            pieces = text.translate(_DEFAULT_IFS_TABLE).split(" ")
        else:
            pieces = text.translate({ord(c): ifs[0] for c in ifs[1:]}).split(ifs[0])
        if pieces[0]:
            self.add(pieces[0], quoted=False)
        # Between two pieces the field ends; ending again with nothing added in between
        # changes nothing, so a run of separators costs one end, not one per character.
        pending = False
        for piece in pieces[1:]:
            if piece:
                self.end(span)
                self.taint = set(keep)
                self.add(piece, quoted=False)
                pending = False
            else:
                pending = True
        if pending:
            self.end(span)
            self.taint = set(keep)

    def end(self, span: tuple[int, int]) -> None:
        if self.open and len(self.fields) < _MAX_FIELDS:
            self.fields.append(Field("".join(self.cur), span, frozenset(self.taint),
                                     proc=self.proc, quoted=self.quoted))
        self.cur = []
        self.open = False
        self.quoted = False
        self.proc = False
        self.taint = set()


SubstHook = Callable[[ast.CmdSubst], tuple[Taint, str | None]]
ProcHook = Callable[[ast.ProcSubst], Taint]
ArithHook = Callable[[ast.ArithExp | ast.ParamExp, Taint], None]


def _static_text(parts: tuple[ast.WordPart, ...]) -> tuple[str, bool] | None:
    """(text, quoted) of a word made only of literals, escapes and quotes without
    expansions (``--msg="a b"``, ``a\\ b``); None otherwise. Same field as the builders give."""
    out: list[str] = []
    quoted = False
    for part in parts:
        kind = type(part)
        if kind is ast.Literal:
            out.append(part.value)  # type: ignore[union-attr]
        elif kind is ast.SingleQuoted or kind is ast.AnsiCQuoted:
            out.append(part.value)  # type: ignore[union-attr]
            quoted = True
        elif kind is ast.Escaped:
            out.append(part.char)  # type: ignore[union-attr]
            quoted = True
        elif kind is ast.DoubleQuoted:
            quoted = True
            for inner in part.parts:  # type: ignore[union-attr]
                k = type(inner)
                if k is ast.Literal:
                    out.append(inner.value)  # type: ignore[union-attr]
                elif k is ast.Escaped:
                    out.append(inner.char)  # type: ignore[union-attr]
                else:
                    return None
        else:
            return None
    return "".join(out), quoted


class Expander:
    """Expands words against an environment of known variables.

    ``subst`` classifies a command substitution's body (once) and returns the taint and, when
    known, the static text of its output; ``proc`` does the same for ``<( )``; ``arith`` is
    told about tainted data reaching arithmetic or prompt expansion.
    """

    __slots__ = ("env", "subst", "proc", "arith", "alts_seen")

    def __init__(self, env: dict[str, Var], subst: SubstHook, proc: ProcHook,
                 arith: ArithHook) -> None:
        self.env = env
        self.subst = subst
        self.proc = proc
        self.arith = arith
        self.alts_seen = 1

    def expand(self, word: ast.Word, choice: int = 0) -> list[Field]:
        """Return the fields ``word`` expands to (alternative ``choice`` of variables)."""
        parts = word.parts
        if len(parts) == 1:
            # Fast paths: one literal (no glob/brace) or one single-quoted string.
            part = parts[0]
            kind = type(part)
            if kind is ast.Literal:
                return [Field(part.value, word.span)]  # type: ignore[union-attr]
            if kind is ast.SingleQuoted or kind is ast.AnsiCQuoted:
                return [Field(part.value, word.span, quoted=True)]  # type: ignore[union-attr]
        if parts:
            static = _static_text(parts)
            if static is not None:
                return [Field(static[0], word.span, quoted=static[1])]
        builders = [_Builder()]
        builders = self._parts(word.parts, builders, choice, quoted=False, span=word.span)
        out: list[Field] = []
        for b in builders:
            b.end(word.span)
            out.extend(b.fields)
        return out[:_MAX_FIELDS]

    def expand_one(self, word: ast.Word, choice: int = 0) -> Field:
        """Expand ``word`` to a single field (as in an assignment value: no splitting)."""
        b = _Builder()
        self._parts(word.parts, [b], choice, quoted=True, span=word.span)
        return Field("".join(b.cur), word.span, frozenset(b.taint), quoted=True, proc=b.proc)

    def _ifs(self) -> str:
        var = self.env.get("IFS")
        if var is None:
            return " \t\n"
        return var.alts[0] if var.alts[0] != DYN else " \t\n"

    def _parts(self, parts: tuple[ast.WordPart, ...], builders: list[_Builder], choice: int,
               *, quoted: bool, span: tuple[int, int]) -> list[_Builder]:
        for part in parts:
            if isinstance(part, ast.Literal):
                for b in builders:
                    b.add(part.value, quoted=quoted)
            elif isinstance(part, ast.Escaped):
                for b in builders:
                    b.add(part.char, quoted=True)
            elif isinstance(part, ast.SingleQuoted | ast.AnsiCQuoted):
                for b in builders:
                    b.add(part.value, quoted=True)
            elif isinstance(part, ast.DoubleQuoted):
                inner = part.parts
                if len(inner) == 1 and isinstance(inner[0], ast.ParamExp) and \
                        self._lookup(inner[0], choice)[2] and \
                        not self._lookup(inner[0], choice)[0]:
                    continue  # "$@" with no parameters is no word at all
                for b in builders:
                    b.open = True
                    b.quoted = True
                builders = self._parts(part.parts, builders, choice, quoted=True, span=span)
            elif isinstance(part, ast.ParamExp):
                self._param(part, builders, choice, quoted=quoted, span=span)
            elif isinstance(part, ast.CmdSubst):
                taint, text = self.subst(part)
                for b in builders:
                    b.taint.update(taint)
                    if text is not None and quoted:
                        b.add(text, quoted=True)
                    elif text is not None:
                        b.split_add(text, self._ifs(), span)
                    else:
                        b.add(DYN, quoted=quoted)
            elif isinstance(part, ast.ArithExp):
                self._arith(part)
                for b in builders:
                    b.add(DYN, quoted=quoted)
            elif isinstance(part, ast.ProcSubst):
                taint = self.proc(part)
                for b in builders:
                    b.taint.update(taint)
                    b.add(DYN, quoted=quoted)
                    b.proc = True
            elif isinstance(part, ast.BraceExp):
                builders = self._brace(part, builders, choice, quoted=quoted, span=span)
            elif isinstance(part, ast.Tilde):
                for b in builders:
                    b.add("~" + part.user, quoted=False)
        return builders

    def _arith(self, part: ast.ArithExp) -> None:
        taint: set[Source] = set()
        for sub in part.parts:
            if isinstance(sub, ast.ParamExp):
                taint.update(self._lookup(sub, 0)[1])
            elif isinstance(sub, ast.CmdSubst):
                taint.update(self.subst(sub)[0])
            elif isinstance(sub, ast.ArithExp):
                self._arith(sub)
        if taint:
            self.arith(part, frozenset(taint))
        else:
            # Bare names inside arithmetic are variables too: x=$(curl u); $((x)).
            for name in _identifiers(part.text):
                var = self.env.get(name)
                if var is not None and var.taint:
                    self.arith(part, var.taint)
                    break

    def _brace(self, part: ast.BraceExp, builders: list[_Builder], choice: int, *,
               quoted: bool, span: tuple[int, int]) -> list[_Builder]:
        if part.sequence or not part.items:
            for b in builders:
                b.add(DYN, quoted=quoted)
            return builders
        if len(builders) * len(part.items) > _MAX_BRACE:
            # Past the cap the product is not expanded further (bounded work per word).
            for b in builders:
                b.add(DYN, quoted=quoted)
            return builders
        out: list[_Builder] = []
        for b in builders:
            for item in part.items:
                nb = b.copy()
                out.extend(self._parts(item.parts, [nb], choice, quoted=quoted, span=span))
        return out or builders

    def _lookup(self, pe: ast.ParamExp, choice: int) -> tuple[tuple[str, ...], Taint, bool]:
        """Return (values, taint, is_list) for a parameter expansion."""
        name = pe.name
        var = self.env.get(name)
        if var is None:
            var = _DEFAULTS.get(name)
            if var is None and name in ("@", "*"):
                var = _NO_ARGS
            elif var is None and name not in _ALWAYS_SET and (
                    name.isdigit() or name[:1].isalpha() or name[:1] == "_"):
                # An unknown variable may be unset, hence empty: c${x}at /etc/sha${x}dow
                # is cat /etc/shadow, rm -rf $DIR/ may be rm -rf /. An agent's `bash -c`
                # has no arguments either ($1.. empty). Both worlds are checked.
                var = _EMPTY
                if secret_name(name):
                    # $AWS_SECRET_ACCESS_KEY, $GITHUB_TOKEN: unknown, but a secret.
                    return self._lookup_secret(pe, name, choice)
        if pe.prefix == "!" or (pe.op == "@" and _op_letter(pe) == "P"):
            # Indirection and prompt expansion evaluate the value as code-like text.
            if var is not None and var.taint:
                self.arith(pe, var.taint)
            return (DYN,), var.taint if var else NO_TAINT, False
        if pe.prefix == "#":
            return (DYN,), NO_TAINT, False
        if var is None:
            values: tuple[str, ...] = (DYN,)
            taint = NO_TAINT
            is_list = name in ("@", "*")
        elif var.items is not None and (
            pe.index is not None or name in ("@", "*")
        ):
            idx = pe.index.literal_value() if pe.index is not None else "@"
            if idx in ("@", "*"):
                values, is_list = var.items, True
            elif idx is not None and idx.isdigit() and int(idx) < len(var.items):
                values, is_list = (var.items[int(idx)],), False
            else:
                values, is_list = (DYN,), False
            taint = var.taint
        else:
            if var.items is not None:
                values = (var.items[0] if var.items else "",)
            else:
                if len(var.alts) > 1:
                    self.alts_seen = max(self.alts_seen, len(var.alts))
                values = (var.alts[min(choice, len(var.alts) - 1)],)
            taint = var.taint
            is_list = False
        op = pe.op
        unknown = var is None or var is _EMPTY  # may be unset or empty
        if op in (":-", "-", ":=", "=") and pe.args:
            if unknown:
                self.alts_seen = max(self.alts_seen, 2)
                default = self.expand_one(pe.args[0], choice)
                values = (DYN,) if choice == 0 else (default.text,)
                taint = taint | default.taint
        elif op in (":+", "+") and pe.args:
            alt = self.expand_one(pe.args[0], choice)
            if unknown:
                self.alts_seen = max(self.alts_seen, 2)
                values = (alt.text,) if choice == 0 else ("",)
            else:
                values = (alt.text,)
            taint = taint | alt.taint
        elif op in (":?", "?"):
            if unknown:
                values = (DYN,)  # ${x:?} fails when x is unset or empty: never ""
        elif op is not None:
            args = [self.expand_one(a, choice).text for a in pe.args]
            from ._paramops import transform  # late: _paramops imports DYN from here

            values = tuple(transform(v, op, args) for v in values)
        return values, taint, is_list

    def _lookup_secret(self, pe: ast.ParamExp, name: str, choice: int
                       ) -> tuple[tuple[str, ...], Taint, bool]:
        saved = self.env.get(name)
        secret = Var(alts=(DYN, ""), taint=frozenset({Source("secret", "$" + name,
                                                             pe.span)}))
        self.env[name] = secret
        try:
            values, taint, is_list = self._lookup(pe, choice)
        finally:
            if saved is None:
                del self.env[name]
            else:
                self.env[name] = saved
        return values, taint, is_list

    def _param(self, pe: ast.ParamExp, builders: list[_Builder], choice: int, *,
               quoted: bool, span: tuple[int, int]) -> None:
        values, taint, is_list = self._lookup(pe, choice)
        ifs = self._ifs()
        for b in builders:
            b.taint.update(taint)
            if is_list:
                for index, value in enumerate(values):
                    if index:
                        b.end(span)
                    if quoted:
                        b.add(value, quoted=True)
                    else:
                        b.split_add(value, ifs, span)
            elif quoted:
                b.add(values[0], quoted=True)
            else:
                b.split_add(values[0], ifs, span)


# Variables whose value is known in any agent shell: $HOME is ~, $SHELL/$BASH/$0 are a shell.
_DEFAULTS: dict[str, Var] = {
    "HOME": Var(alts=("~",)),
    "IFS": Var(alts=(" \t\n",)),
    "SHELL": Var(alts=("bash",)),
    "BASH": Var(alts=("/bin/bash",)),
    "0": Var(alts=("bash",)),
    # The working directory: unknown, but a directory, not attacker-chosen text. "$PWD/build"
    # is ./build; a cd to a known directory replaces it (cd / && rm -rf "$PWD" is rm -rf /).
    "PWD": Var(alts=(".",)),
}


_EMPTY = Var(alts=(DYN, ""))
_ALWAYS_SET = frozenset({"USER", "LOGNAME", "PATH", "HOSTNAME", "UID", "EUID", "PPID",
                         "RANDOM", "SECONDS", "LINENO", "BASHPID", "BASH_VERSION", "HOSTTYPE",
                         "OSTYPE", "MACHTYPE", "TERM", "LANG", "SHLVL", "_"})
_NO_ARGS = Var(alts=("",), items=())


_SECRET_WORDS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "API_KEY", "APIKEY",
                 "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTH_KEY", "SESSION_KEY",
                 "SIGNING_KEY", "ENCRYPTION_KEY", "MASTER_KEY", "COOKIE", "BEARER")
# Short words that name a secret only as a whole ``_``-separated part of a longer name:
# ``GH_PAT``, ``MYSQL_PWD``, ``DB_PASS``, ``AWS_CREDS`` (but not ``PATH``, ``PWD``, ``PASS``).
_SECRET_PARTS = frozenset({"PAT", "PWD", "PASS", "PW", "CREDS", "JWT", "OTP", "TOTP"})


def secret_name(name: str) -> bool:
    """A variable name that conventionally holds a secret (``GITHUB_TOKEN``, ``DB_PASSWORD``)."""
    upper = name.upper()
    if any(w in upper for w in _SECRET_WORDS):
        return True
    parts = upper.split("_")
    return len(parts) > 1 and any(part in _SECRET_PARTS for part in parts)


def _op_letter(pe: ast.ParamExp) -> str | None:
    if pe.args:
        return pe.args[0].literal_value()
    return None


def _identifiers(text: str) -> list[str]:
    out: list[str] = []
    cur: list[str] = []
    for ch in text:
        if ch.isalnum() or ch == "_":
            cur.append(ch)
        else:
            if cur and not cur[0].isdigit():
                out.append("".join(cur))
            cur = []
    if cur and not cur[0].isdigit():
        out.append("".join(cur))
    return out


def merge_alts(old: Var | None, new: Var, *, conditional: bool) -> Var:
    """Combine an earlier value with a new assignment (both possible when conditional)."""
    if not conditional or old is None or new.items is not None or old.items is not None:
        return new
    alts = tuple(dict.fromkeys((*old.alts, *new.alts)))[:_MAX_ALTS]
    return Var(alts=alts, taint=old.taint | new.taint)
