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
from ._arith_eval import evaluate
from ._glob import BUDGET, escape
from ._lookup import lookup
from ._values import (
    CODE_TAINT,
    DYN,
    NO_TAINT,
    Field,
    Source,
    Taint,
    Var,
    first_source,
    merge_alts,
    secret_name,
)

__all__ = ["CODE_TAINT", "DYN", "NO_TAINT", "Expander", "Field", "Source", "Taint", "Var",
           "first_source", "merge_alts", "secret_name"]

_MAX_FIELDS = 64
_MAX_BRACE = 16  # brace products beyond this many words are not expanded further


_DEFAULT_IFS_TABLE = str.maketrans("\t\n", "  ")


_TILDE_VARS = {"": "HOME", "+": "PWD", "-": "OLDPWD"}


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
# (slot, text, taint, span): a known text reaching a slot that evaluates it: "arith"
# (arithmetic: subscripts run $(...)), "name" (a variable name with a subscript) or "prompt"
# (${x@P} expands the value).
CodeHook = Callable[[str, str, Taint, tuple[int, int]], None]


# (name, value, var): ${x:=default} assigns x.
AssignHook = Callable[[str, Field, Var], None]


def _no_code(slot: str, text: str, taint: Taint, span: tuple[int, int]) -> None:
    return None


def _no_assign(name: str, value: Field, var: Var) -> None:
    return None


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

    __slots__ = ("env", "subst", "proc", "arith", "code", "assign", "alts_seen", "glob_budget")

    def __init__(self, env: dict[str, Var], subst: SubstHook, proc: ProcHook,
                 arith: ArithHook, code: CodeHook | None = None,
                 assign: AssignHook | None = None) -> None:
        self.env = env
        self.subst = subst
        self.proc = proc
        self.arith = arith
        self.code: CodeHook = code if code is not None else _no_code
        self.assign: AssignHook = assign if assign is not None else _no_assign
        self.alts_seen = 1
        self.glob_budget = [BUDGET]  # pattern matching work left for ${x%pat} and friends

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
        parts = word.parts
        if len(parts) == 1 and type(parts[0]) is ast.Literal:
            return Field(parts[0].value, word.span, quoted=True)
        b = _Builder()
        self._parts(word.parts, [b], choice, quoted=True, span=word.span)
        if b.fields:
            # x="${a[@]}": in a single word the elements are joined with spaces.
            taint = frozenset(b.taint).union(*(f.taint for f in b.fields))
            text = " ".join([*(f.text for f in b.fields), "".join(b.cur)])
            return Field(text, word.span, taint, quoted=True, proc=b.proc)
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
                value = self._arith(part)
                for b in builders:
                    b.add(value, quoted=quoted)
            elif isinstance(part, ast.ProcSubst):
                taint = self.proc(part)
                for b in builders:
                    b.taint.update(taint)
                    b.add(DYN, quoted=quoted)
                    b.proc = True
            elif isinstance(part, ast.BraceExp):
                builders = self._brace(part, builders, choice, quoted=quoted, span=span)
            elif isinstance(part, ast.Tilde):
                value, taint = self._tilde(part.user)
                for b in builders:
                    b.taint.update(taint)
                    b.add(value, quoted=False)
        return builders

    def _tilde(self, user: str) -> tuple[str, Taint]:
        """``~`` is ``$HOME`` (``~`` itself unless the script set it: ``HOME=/etc; cat
        ~/shadow``), ``~+`` is ``$PWD`` and ``~-`` is ``$OLDPWD`` (after ``cd``), ``~name``
        a user's home."""
        name = _TILDE_VARS.get(user)
        if name is None:
            return "~" + user, NO_TAINT
        var = self.env.get(name)
        if var is None:
            return ("~" if not user else "." if user == "+" else DYN), NO_TAINT
        if len(var.alts) != 1 or not var.alts[0]:
            return DYN, var.taint
        return var.alts[0], var.taint

    def _arith(self, part: ast.ArithExp) -> str:
        """Arithmetic: tainted operands are reported; the expanded text goes to the ``code``
        hook, which evaluates the names in it (``x='a[$(cmd)]'; $((x))`` runs cmd).
        Returns the value as text when it is known statically (``$((1+1))`` is ``2``),
        else :data:`DYN`."""
        taint: set[Source] = set()
        pieces: list[str] = []
        for sub in part.parts:
            kind = type(sub)
            if kind is ast.Literal:
                pieces.append(sub.value)  # type: ignore[union-attr]
            elif kind is ast.ParamExp:
                values, more, _ = self._lookup(sub, 0)  # type: ignore[arg-type]
                taint.update(more)
                pieces.append(" ".join(values))
            elif kind is ast.CmdSubst:
                more, text = self.subst(sub)  # type: ignore[arg-type]
                taint.update(more)
                pieces.append(text if text is not None else DYN)
            elif kind is ast.ArithExp:
                pieces.append(self._arith(sub))  # type: ignore[arg-type]
            else:
                self._parts((sub,), [_Builder()], 0, quoted=True, span=part.span)
                pieces.append(DYN)
        if taint:
            self.arith(part, frozenset(taint))
        text = "".join(pieces)
        self.code("arith", text, NO_TAINT, part.span)
        if taint or DYN in text:
            return DYN
        value = evaluate(text, self.env)
        return DYN if value is None else str(value)

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
        return lookup(self, pe, choice)

    def pattern(self, word: ast.Word, choice: int = 0) -> str:
        """Expand a pattern word (``${x#pat}``): quoted parts match literally, so they come
        back escaped; unquoted text and unquoted expansions keep their glob meaning."""
        out: list[str] = []
        for part in word.parts:
            kind = type(part)
            if kind is ast.Literal:
                out.append(part.value)  # type: ignore[union-attr]
            elif kind is ast.Escaped:
                out.append(escape(part.char))  # type: ignore[union-attr]
            elif kind is ast.SingleQuoted or kind is ast.AnsiCQuoted:
                out.append(escape(part.value))  # type: ignore[union-attr]
            else:
                quoted = kind is ast.DoubleQuoted
                b = _Builder()
                self._parts((part,), [b], choice, quoted=quoted, span=word.span)
                text = "".join(b.cur) if not b.fields else DYN
                out.append(escape(text) if quoted else text)
        return "".join(out)

    def _param(self, pe: ast.ParamExp, builders: list[_Builder], choice: int, *,
               quoted: bool, span: tuple[int, int]) -> None:
        values, taint, is_list = self._lookup(pe, choice)
        if is_list and quoted and pe.prefix != "#" and _star(pe):
            # "$*", "${a[*]}": one word, joined with the first character of IFS.
            var = self.env.get("IFS")
            sep = " " if var is None else (var.alts[0][:1] if DYN not in var.alts[0] else DYN)
            values, is_list = (sep.join(values),), False
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


def _star(pe: ast.ParamExp) -> bool:
    if pe.name == "*":
        return True
    index = pe.index
    if index is None or len(index.parts) != 1:
        return False
    part = index.parts[0]
    return type(part) is ast.Literal and part.value == "*"
