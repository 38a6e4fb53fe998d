"""Parameter lookup for the expander: what ``$x``, ``${a[i]}``, ``${!y}`` and ``${x op}`` give.

Known variables give their values (constant propagation): scalars, indexed arrays (sparse
ones keep their subscripts), associative arrays (any element may come first in ``"${m[@]}"``:
each is tried first in turn), namerefs (``declare -n r=x``: ``$r`` is ``$x``), indirection
(``${!y}`` is the variable named by ``$y``), lengths, array slices (``"${a[@]:1:2}"``) and
operators (``_paramops``). Subscripts and substring offsets are arithmetic: they go through
the expander's ``code`` hook (``arith``), as do the targets of indirection (``name``) and the
values of ``${x@P}`` (``prompt``), so code hidden in them is classified. Whatever cannot be
evaluated gives :data:`DYN`, never an empty or wrong literal.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from . import ast
from ._arith_eval import evaluate
from ._defaultpath import TEMP_VARS, default_source, temp_source
from ._digits import DIGIT_PARAMS, NUM
from ._paramops import transform
from ._pidlists import AGENT_KIND, AGENT_PID_VARS
from ._values import DYN, NO_TAINT, Field, Source, Taint, Var, secret_name, to_int

if TYPE_CHECKING:
    from ._words import Expander

__all__ = ["element", "lookup", "ordered", "EMPTY_VAR"]

Result = tuple[tuple[str, ...], Taint, bool]

# Variables whose value is known in any agent shell: $HOME is ~, $SHELL/$BASH/$0 are a shell.
_DEFAULTS: dict[str, Var] = {
    "HOME": Var(alts=("~",)),
    "IFS": Var(alts=(" \t\n",)),
    "SHELL": Var(alts=("/bin/bash",)),  # an absolute path: ${SHELL%bash} is /bin/
    "BASH": Var(alts=("/bin/bash",)),
    "0": Var(alts=("bash",)),
    # The working directory: unknown, but a directory, not attacker-chosen text. "$PWD/build"
    # is ./build; a cd to a known directory replaces it (cd / && rm -rf "$PWD" is rm -rf /).
    "PWD": Var(alts=(".",)),
}

EMPTY_VAR = Var(alts=(DYN, ""))
_ALWAYS_SET = frozenset({"USER", "LOGNAME", "PATH", "HOSTNAME", "UID", "EUID", "PPID",
                         "RANDOM", "SECONDS", "LINENO", "BASHPID", "BASH_VERSION", "HOSTTYPE",
                         "OSTYPE", "MACHTYPE", "TERM", "LANG", "SHLVL", "_"})
_NO_ARGS = Var(alts=("",), items=())
_LIST = ("@", "*")
_PLACEHOLDERS = frozenset({"HOME", "PWD"})
# A user name that patterns can match like any word, swapped for DYN after the operator.
_USER = "\ue000user"
_HOME_SAMPLE = "/home/" + _USER
_PATTERN_OPS = frozenset({"#", "##", "%", "%%", "/", "//", "/#", "/%"})
_CONDITIONAL = frozenset({None, ":-", "-", ":=", "=", ":+", "+", ":?", "?"})
_MAX_ROTATE = 8


def lookup(exp: Expander, pe: ast.ParamExp, choice: int) -> Result:
    """Return (values, taint, is_list) for a parameter expansion."""
    name = pe.name
    env = exp.env
    var = env.get(name if name != "*" else "@")
    if var is not None and var.ref is not None and pe.prefix != "!":
        return _through_ref(exp, pe, choice)
    if var is None:
        if name in DIGIT_PARAMS and pe.op is None and not pe.prefix and pe.index is None:
            return (NUM,), NO_TAINT, False  # $$, $RANDOM: digits, not any text
        var = _DEFAULTS.get(name)
        if var is None and name in _LIST:
            var = _NO_ARGS
        elif var is None and name not in _ALWAYS_SET and (
                name.isdecimal() or name[:1].isalpha() or name[:1] == "_"):
            # An unknown variable may be unset, hence empty: c${x}at /etc/sha${x}dow
            # is cat /etc/shadow, rm -rf $DIR/ may be rm -rf /. An agent's `bash -c`
            # has no arguments either ($1.. empty). Both worlds are checked.
            var = EMPTY_VAR
            if secret_name(name):
                # $AWS_SECRET_ACCESS_KEY, $GITHUB_TOKEN: unknown, but a secret.
                return _lookup_marked(exp, pe, name, choice, Source("secret", "$" + name,
                                                                    pe.span))
            if name in AGENT_PID_VARS:  # gdb -p "$SSH_AGENT_PID" (_pidlists)
                return _lookup_marked(exp, pe, name, choice, Source(AGENT_KIND, "ssh-agent",
                                                                    pe.span))
            if name in TEMP_VARS:  # rm -rf "$TMPDIR"/build-*: a temp directory (_defaultpath)
                return _lookup_marked(exp, pe, name, choice, temp_source(pe.span))
    if pe.prefix == "!":
        return _indirect(exp, pe, var, choice)
    values, taint, is_list = _values(exp, pe, var, choice)
    if (pe.op not in _CONDITIONAL or pe.prefix == "#") and var is not None and \
            var is _DEFAULTS.get(name) and name in _PLACEHOLDERS:
        # $HOME is "~" and $PWD "." for paths; their text is an absolute path not known.
        # Operators on $HOME work on a typical home, /home/<user>, the user name unknown
        # (a component without "/"): ${HOME%/*} is /home, ${HOME##*/} the user's name.
        values = (_HOME_SAMPLE,) if name == "HOME" and pe.op in _PATTERN_OPS \
            else ("/" + DYN,)
    elif var is None and name == "PATH" and pe.op is not None and pe.op not in _CONDITIONAL:
        values = ("/" + DYN,)  # a list of absolute directories: ${PATH:0:1} is "/"
    if pe.prefix == "#":
        if is_list:
            return (str(len(values)),), NO_TAINT, False
        return ((str(len(values[0])) if DYN not in values[0] else DYN),), NO_TAINT, False
    op = pe.op
    if op is None:
        return values, taint, is_list
    unknown = var is None or var is EMPTY_VAR  # may be unset or empty
    # Known to be unset (unset x, local x), or empty where the colon forms test emptiness.
    # An empty list ($@ with no arguments, an empty array) is unset for both forms:
    # "${@:-sh}" and "${@-sh}" are sh.
    absent = not unknown and var is not None and ((is_list and not values) or (
        not is_list and ("U" in var.attrs or (op[0] == ":" and values[0] == ""))))
    if op in (":-", "-", ":=", "=") and pe.args:
        if unknown:
            exp.alts_seen = max(exp.alts_seen, 2)
            default = exp.expand_one(pe.args[0], choice)
            values = (DYN,) if choice == 0 else (default.text,)
            taint = taint | default.taint
            if choice == 0:  # rm -rf "${TMPDIR:-/tmp}/x": the unknown value stands in for
                taint = taint | default_source(op, default, pe.span, name)  # (_defaultpath)
            if op in (":=", "=") and _valid_name(name) and not name.isdecimal():
                exp.assign(name, Field(default.text, pe.span, default.taint),
                           Var(alts=(DYN, default.text), taint=taint))
        elif absent:
            default = exp.expand_one(pe.args[0], choice)
            values = (default.text,)
            taint = taint | default.taint
            if op in (":=", "=") and _valid_name(name) and not name.isdecimal():
                exp.assign(name, Field(default.text, pe.span, default.taint),
                           Var(alts=(default.text,), taint=default.taint))
    elif op in (":+", "+") and pe.args:
        alt = exp.expand_one(pe.args[0], choice)
        if unknown:
            exp.alts_seen = max(exp.alts_seen, 2)
            values = (alt.text,) if choice == 0 else ("",)
        else:
            values = ("",) if absent else (alt.text,)
        taint = taint | alt.taint
    elif op in (":?", "?"):
        if unknown:
            values = (DYN,)  # ${x:?} fails when x is unset or empty: never ""
    elif op == ":" and is_list:
        values = _slice(exp, pe, var, values, choice)
    else:
        if op == "@" and _op_letter(pe) == "P":
            _prompt(exp, pe, var, values, taint)
        args = _op_args(exp, pe, op, choice)
        values = tuple(transform(v, op, args, exp.glob_budget) for v in values)
        if any(_USER[0] in v for v in values):
            # ${HOME%/}, ${HOME/#\/\//\/}: an operator that left the home unchanged gives
            # the home itself; what cut into or past the user's name is not known.
            values = tuple("~" if v == _HOME_SAMPLE else
                           v.replace(_USER, DYN).replace(_USER[0], DYN) for v in values)
    return values, taint, is_list


def _values(exp: Expander, pe: ast.ParamExp, var: Var | None, choice: int) -> Result:
    """The values before any operator: the scalar, the element, or the list."""
    name = pe.name
    if var is None:
        return (DYN,), NO_TAINT, name in _LIST
    index = pe.index
    if index is None and not (name in _LIST and var.items is not None):
        if var.items is not None:
            return (element(var, "0"),), var.taint, False
        if len(var.alts) > 1:
            exp.alts_seen = max(exp.alts_seen, len(var.alts))
        return (var.alts[min(choice, len(var.alts) - 1)],), var.taint, False
    sub = _index_text(index) if index is not None else "@"
    if sub in _LIST:
        if var.items is None:
            return (var.alts[min(choice, len(var.alts) - 1)],), var.taint, True
        return ordered(exp, var, choice), var.taint, True
    assert index is not None
    field = exp.expand_one(index, choice)  # classifies $(...) in the subscript
    if "A" in var.attrs:
        key: str | None = field.text
    else:
        exp.code("arith", field.text, field.taint, index.span)
        number = evaluate(field.text, exp.env)
        key = str(number) if number is not None else None
    if var.items is None and (var is EMPTY_VAR or _DEFAULTS.get(name) is var):
        # An unknown variable (or one of the defaults) read as an array: as before.
        return (var.alts[min(choice, len(var.alts) - 1)],), var.taint, False
    if key is None or DYN in key:
        return (DYN,), var.taint, False
    if var.items is None:  # a scalar is element 0 of an array
        value = var.alts[min(choice, len(var.alts) - 1)] if key in ("0", "-1") else ""
        return (value,), var.taint, False
    return (element(var, key),), var.taint, False


def ordered(exp: Expander, var: Var, choice: int) -> tuple[str, ...]:
    """The items of an array in expansion order; an associative array's order is bash's hash
    order, so each alternative ``choice`` puts another element first."""
    items = var.items or ()
    if "A" in var.attrs and len(items) > 1:
        exp.alts_seen = max(exp.alts_seen, min(len(items), _MAX_ROTATE))
        c = choice % len(items)
        return items[c:] + items[:c]
    return items


def element(var: Var, key: str) -> str:
    """The element ``key`` of a known array ("" when unset); DYN when not known."""
    items = var.items or ()
    keys = var.keys
    if keys is None:
        try:
            i = int(key)
        except ValueError:
            return DYN
        i = len(items) + i if i < 0 else i
        return items[i] if 0 <= i < len(items) else ""
    if key in keys:
        return items[keys.index(key)]
    number = to_int(key)
    if number is not None and number < 0 and "A" not in var.attrs and keys:
        last = max((n for n in map(to_int, keys) if n is not None), default=-1)
        return element(var, str(last + 1 + number)) if last + 1 + number >= 0 else ""
    return ""


def _slice(exp: Expander, pe: ast.ParamExp, var: Var | None, values: tuple[str, ...],
           choice: int) -> tuple[str, ...]:
    """``"${a[@]:off:len}"`` / ``"${@:off:len}"``: elements from subscript ``off``."""
    bounds = _op_args(exp, pe, ":", choice)
    numbers_ = [to_int(b) if b else 0 for b in bounds]
    if var is None or None in numbers_ or "A" in var.attrs or not bounds:
        return (DYN,)
    offset = numbers_[0] or 0
    length = numbers_[1] if len(bounds) > 1 else None
    if length is not None and length < 0:
        return (DYN,)  # bash: substring expression < 0
    if pe.name in _LIST:
        zero = exp.env.get("0") or _DEFAULTS["0"]
        items = (zero.alts[0], *values)
        keys = [str(i) for i in range(len(items))]
    else:
        items = values
        keys = list(var.keys) if var.keys is not None and len(var.keys) == len(items) \
            else [str(i) for i in range(len(items))]
    numbers = [n for n in map(to_int, keys) if n is not None]
    if len(numbers) != len(items):
        return (DYN,)
    if offset < 0:
        offset = (max(numbers, default=-1) + 1) + offset
        if offset < 0:
            return ()
    picked = [item for k, item in zip(numbers, items, strict=True) if k >= offset]
    return tuple(picked if length is None else picked[:length])


def _op_args(exp: Expander, pe: ast.ParamExp, op: str, choice: int) -> list[str]:
    if op == ":":
        out: list[str] = []
        for word in pe.args:
            f = exp.expand_one(word, choice)
            exp.code("arith", f.text, f.taint, word.span)
            number = evaluate(f.text, exp.env) if f.text.strip() else 0
            out.append(str(number) if number is not None else DYN)
        return out
    if op in ("#", "##", "%", "%%", "/", "//", "/#", "/%", "^", "^^", ",", ",,", "~", "~~"):
        if not pe.args:
            return []
        return [exp.pattern(pe.args[0], choice),
                *(exp.expand_one(a, choice).text for a in pe.args[1:])]
    return [exp.expand_one(a, choice).text for a in pe.args]


def _prompt(exp: Expander, pe: ast.ParamExp, var: Var | None, values: tuple[str, ...],
            taint: Taint) -> None:
    """``${x@P}`` expands ``$(...)``, backticks and ``$x`` in the value: that is code."""
    if var is not None and var.taint:
        exp.arith(pe, var.taint)
    for value in values:
        if DYN not in value and ("$" in value or "`" in value):
            exp.code("prompt", value, taint, pe.span)


def _indirect(exp: Expander, pe: ast.ParamExp, var: Var | None, choice: int) -> Result:
    """``${!y}``: the variable named by y's value; ``${!a[@]}``: the subscripts."""
    index = pe.index
    if index is not None and _index_text(index) in _LIST:
        if var is None or var is EMPTY_VAR:
            return (DYN,), NO_TAINT, True
        if var.items is None:
            return ("0",), NO_TAINT, True
        return var.keys or tuple(str(i) for i in range(len(var.items))), NO_TAINT, True
    if index is None and pe.op is None and pe.span[1] - pe.span[0] != len(pe.name) + 4:
        return (DYN,), NO_TAINT, True  # ${!prefix*}: names of variables, not known
    if var is not None and var.ref is not None and index is None:
        return (var.ref,), NO_TAINT, False  # ${!ref} of a nameref is the target's name
    taint = var.taint if var is not None else NO_TAINT
    if taint:
        exp.arith(pe, taint)
    if var is None or index is not None:
        return (DYN,), taint, False
    target = var.alts[min(choice, len(var.alts) - 1)] if var.items is None else \
        element(var, "0")
    if len(var.alts) > 1:
        exp.alts_seen = max(exp.alts_seen, len(var.alts))
    return _named(exp, pe, target, taint, choice, None)


def _through_ref(exp: Expander, pe: ast.ParamExp, choice: int) -> Result:
    """A nameref: look up the variable it names (chains are followed a bounded number of
    times; a cycle is unknown)."""
    target = pe.name
    for _ in range(8):
        var = exp.env.get(target)
        if var is None or var.ref is None:
            return _named(exp, pe, target, NO_TAINT, choice, pe.index)
        target = var.ref
    return (DYN,), NO_TAINT, False


def _named(exp: Expander, pe: ast.ParamExp, target: str, taint: Taint, choice: int,
           index: ast.Word | None) -> Result:
    """Look up the variable named by the text ``target`` (``x`` or ``a[1]``), with ``pe``'s
    operator."""
    name, bracket, sub = target.partition("[")
    if bracket:
        exp.code("name", target, taint, pe.span)
        if index is not None or not sub.endswith("]"):
            return (DYN,), taint, False
        index = ast.Word(pe.span, (ast.Literal(pe.span, sub[:-1]),))
    if not _valid_name(name):
        if DYN in name:
            # ${!v} with v read from input (compgen -v | while read v): any variable's
            # value, the secret ones included.
            taint = taint | {Source("secret", "${!" + pe.name + "}", pe.span)}
        return (DYN,), taint, False
    inner = dataclasses.replace(pe, name=name, prefix="", index=index)
    values, more, is_list = lookup(exp, inner, choice)
    return values, taint | more, is_list


def _valid_name(name: str) -> bool:
    if name.isdecimal() or name in ("@", "*", "#", "?", "-", "$", "!"):
        return True
    return bool(name) and (name[0].isalpha() or name[0] == "_") and \
        name.replace("_", "a").isalnum() and name.isascii()


def _lookup_marked(exp: Expander, pe: ast.ParamExp, name: str, choice: int, source: Source
                   ) -> Result:
    """An unknown variable whose value carries ``source`` (a secret, a daemon's pid)."""
    saved = exp.env.get(name)
    secret = Var(alts=(DYN, ""), taint=frozenset({source}))
    exp.env[name] = secret
    try:
        return lookup(exp, pe, choice)
    finally:
        if saved is None:
            del exp.env[name]
        else:
            exp.env[name] = saved


def _index_text(word: ast.Word) -> str | None:
    parts = word.parts
    if len(parts) == 1 and type(parts[0]) is ast.Literal:
        return parts[0].value
    return word.literal_value()


def _op_letter(pe: ast.ParamExp) -> str | None:
    if pe.args:
        return pe.args[0].literal_value()
    return None


