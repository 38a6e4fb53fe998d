"""Variable assignment: the one place the classifier writes a variable, and the
declaration builtins (``declare``/``typeset``/``local``/``export``/``readonly``).

:func:`store` applies what bash applies to every assignment, whatever its spelling: namerefs
(``declare -n r=x; r=rm`` assigns x), attributes (``-l``/``-u``/``-c`` change case, ``-i``
evaluates arithmetic), ``+=`` (appends to a string or an array), subscripts
(``a[1]=rm``, ``m[k]=rm``), and the checks on the name (``LD_PRELOAD``, ``PATH``, code
variables) through ``_varcheck.check_assignment``, so ``printf -v LD_PRELOAD x`` and
``read PATH <<< /tmp`` are seen like ``LD_PRELOAD=x`` and ``PATH=/tmp``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import ast
from ._arith import arith_text, name_slot
from ._arith_eval import evaluate
from ._lookup import EMPTY_VAR
from ._values import DYN, NO_TAINT, Field, Source, Taint, Var, merge_alts, to_int
from ._varcheck import check_assignment

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["Element", "assign_node", "assignment_word", "declare_names", "store", "unset"]

_MAX_VALUE = 4096
_MAX_ITEMS = 256
_CASE = "luc"
Element = tuple[str | None, str]


def store(run: Run, name: str, value: Field, new: Var | None, span: tuple[int, int], *,
          elements: list[Element] | None = None, sub: str | None = None,
          sub_taint: Taint = NO_TAINT, append: bool = False, persist: bool = True,
          add: str = "", remove: str = "") -> None:
    """Assign ``name`` (a scalar ``new``, or an array literal's ``elements``)."""
    env = run.env
    old = env.get(name)
    if old is not None and old.ref is not None and "n" not in add:
        for _ in range(8):  # follow namerefs: r=x assigns the variable r names
            if old is None or old.ref is None:
                break
            target, bracket, rest = old.ref.partition("[")
            name = target
            if bracket and sub is None:
                sub = rest[:-1] if rest.endswith("]") else DYN
            old = env.get(name)
    check_assignment(run, name, value, span, persist=persist)
    if not persist or (old is not None and "r" in old.attrs):
        return  # a readonly variable keeps its value
    if old is None and new is not None and sub is None and not add and not remove:
        # The common case: a plain variable without attributes.
        if len(new.alts[0]) > _MAX_VALUE:
            new = Var(alts=(DYN,), taint=new.taint)
        env[name] = new
        run.env_version += 1
        return
    if sub is None and elements is None and old is not None and old.items is not None and \
            "n" not in add:
        sub = "0"  # a=x on an array assigns its element 0
    attrs = _attrs(old.attrs if old is not None else "", add, remove)
    if elements is not None:
        if "i" in attrs:
            elements = [(k, _integer(run, Var(alts=(v,), taint=value.taint), span).alts[0])
                        for k, v in elements]
        var = _array(run, old if append else None, elements, value.taint, attrs, span)
    else:
        assert new is not None
        if "i" in attrs:
            new = _integer(run, new, span)
        if sub is not None:
            var = _element(run, old, sub, sub_taint, new, attrs, append, span)
        elif append and old is not None and old.ref is None and "i" not in attrs:
            if old.items is not None:
                var = _element(run, old, "0", NO_TAINT, new, attrs, True, span)
            else:
                var = Var(alts=(old.alts[0] + new.alts[0],), taint=old.taint | new.taint)
        elif append and "i" in attrs:
            arith_text(run, name, NO_TAINT, span)  # n+=1 on an integer reads n as arithmetic
            var = Var(alts=(DYN,), taint=new.taint | (old.taint if old else NO_TAINT))
        else:
            var = new
    if attrs:
        var = _cased(var, attrs)
    if len(var.alts[0]) > _MAX_VALUE or (var.items is not None and (
            len(var.items) > _MAX_ITEMS or sum(map(len, var.items)) > _MAX_VALUE)):
        # x=$x$x doubles per step: keep values bounded (linear time and memory).
        var = Var(alts=(DYN,), taint=var.taint)
    if var.attrs != attrs:
        var = Var(var.alts, var.taint, var.items, var.keys, attrs, var.ref)
    env[name] = merge_alts(old, var, conditional=run.cond > 0)
    run.env_version += 1


def _attrs(old: str, add: str, remove: str) -> str:
    old = old.replace("U", "") if "U" in old else old  # assigned: no longer unset
    if not add and not remove:
        return old
    out = [c for c in old if c not in remove or c in "aA"]  # arrays stay arrays
    if "l" in add and "u" in add:
        remove, add = remove + "lu", add.replace("l", "").replace("u", "")
        out = [c for c in out if c not in "lu"]
    for c in add:
        if c in _CASE:
            out = [o for o in out if o not in _CASE]  # -l, -u and -c exclude each other
        if c not in out and c in "lucinaAr":
            out.append(c)
    return "".join(out)


def _cased(var: Var, attrs: str) -> Var:
    case = next((c for c in attrs if c in _CASE), None)
    if case is None:
        return var

    def change(text: str) -> str:
        if case == "l":
            return text.lower()
        if case == "u":
            return text.upper()
        return text[:1].upper() + text[1:].lower()

    items = tuple(map(change, var.items)) if var.items is not None else None
    return Var(tuple(map(change, var.alts)), var.taint, items, var.keys, var.attrs, var.ref)


def _integer(run: Run, new: Var, span: tuple[int, int]) -> Var:
    """``declare -i n; n=EXPR``: the value is evaluated as arithmetic."""
    out: list[str] = []
    for text in new.alts:
        arith_text(run, text, new.taint, span)
        number = evaluate(text, run.env) if DYN not in text else None
        out.append(str(number) if number is not None else DYN)
    return Var(alts=tuple(dict.fromkeys(out)), taint=new.taint)


def _base(old: Var | None) -> tuple[list[str], list[str]]:
    """(keys, items) of an existing variable seen as an array."""
    if old is None or old is EMPTY_VAR or old.ref is not None:
        return [], []
    if old.items is None:
        return ["0"], [old.alts[0]]
    keys = list(old.keys) if old.keys is not None else [str(i) for i in range(len(old.items))]
    return keys, list(old.items)


def _make(keys: list[str], items: list[str], taint: Taint, attrs: str) -> Var:
    if DYN in keys:
        return Var(alts=(DYN,), taint=taint, items=(DYN,), attrs=attrs)
    if "A" not in attrs:
        numbers = [to_int(k) for k in keys]
        if None in numbers:
            return Var(alts=(DYN,), taint=taint, items=(DYN,), attrs=attrs)
        order = sorted(range(len(keys)), key=lambda i: numbers[i] or 0)
        keys = [keys[i] for i in order]
        items = [items[i] for i in order]
        dense = keys == [str(i) for i in range(len(keys))]
    else:
        dense = False
    first = items[0] if items else ""
    return Var(alts=(first,), taint=taint, items=tuple(items),
               keys=None if dense else tuple(keys), attrs=attrs)


def _key(run: Run, sub: str, taint: Taint, attrs: str, keys: list[str],
         span: tuple[int, int]) -> str:
    if "A" in attrs:
        return sub
    arith_text(run, sub, taint, span)
    number = evaluate(sub, run.env) if DYN not in sub else None
    if number is None:
        return DYN
    if number < 0:
        number += _last(keys) + 1
    return str(number) if number >= 0 else DYN


def _last(keys: list[str]) -> int:
    """The highest subscript of an indexed array (-1 when empty)."""
    return max((n for n in map(to_int, keys) if n is not None), default=-1)


def _element(run: Run, old: Var | None, sub: str, sub_taint: Taint, new: Var, attrs: str,
             append: bool, span: tuple[int, int]) -> Var:
    """``a[sub]=value`` (or ``+=``)."""
    keys, items = _base(old)
    key = _key(run, sub, sub_taint, attrs, keys, span)
    value = new.alts[0]
    taint = new.taint | (old.taint if old is not None else NO_TAINT)
    if key in keys:
        index = keys.index(key)
        items[index] = items[index] + value if append else value
    else:
        keys.append(key)
        items.append(value)
    return _make(keys, items, taint, attrs)


def _array(run: Run, old: Var | None, elements: list[Element], taint: Taint, attrs: str,
           span: tuple[int, int]) -> Var:
    """``a=(x [3]=y z)``, ``a+=(...)``, ``declare -A m=([k]=v k2 v2)``."""
    if old is None and "A" not in attrs and all(k is None for k, _ in elements):
        values = tuple(v for _, v in elements)  # a=(x y z): the common case
        return Var(alts=(values[0] if values else "",), taint=taint, items=values,
                   attrs=attrs)
    keys, items = _base(old)
    if old is not None:
        taint = taint | old.taint
    if "A" in attrs:
        if elements and all(k is None for k, _ in elements):  # m=(k1 v1 k2 v2)
            elements = [(elements[i][1], elements[i + 1][1] if i + 1 < len(elements) else "")
                        for i in range(0, len(elements), 2)]
        for k, v in elements:
            if k is None:
                continue
            if k in keys:
                items[keys.index(k)] = v
            else:
                keys.append(k)
                items.append(v)
        return _make(keys, items, taint, attrs)
    nxt = _last(keys) + 1
    for k, v in elements:
        key = str(nxt) if k is None else _key(run, k, NO_TAINT, attrs, keys, span)
        if key == DYN:
            return _make([DYN], [DYN], taint, attrs)
        if key in keys:
            items[keys.index(key)] = v
        else:
            keys.append(key)
            items.append(v)
        nxt = (to_int(key) or 0) + 1
    return _make(keys, items, taint, attrs)


def assign_node(run: Run, a: ast.Assignment, *, persist: bool) -> Field:
    """An assignment in the syntax: ``x=v``, ``x+=v``, ``a[i]=v``, ``a=(...)``."""
    exp = run.exp
    if a.array is not None:
        elements: list[Element] = []
        taint: set[Source] = set()
        for w in a.array:
            keyed = _keyed(w)
            if keyed is not None:
                key_word, value_word = keyed
                k = exp.expand_one(key_word)
                v = exp.expand_one(value_word)
                taint.update(k.taint, v.taint)
                elements.append((k.text, v.text))
                continue
            for f in exp.expand(w):
                elements.append((None, f.text))
                taint.update(f.taint)
        value = Field(" ".join(v for _, v in elements), a.span, frozenset(taint))
        store(run, a.name, value, None, a.span, elements=elements, append=a.append,
              persist=persist)
        return value
    saved, exp.alts_seen = exp.alts_seen, 1
    value = exp.expand_one(a.value) if a.value is not None else Field("", a.span)
    alts = [value.text]
    if a.value is not None:
        # c=${x:-r}${y:-m}; $c: keep each possible value (bounded), like words do.
        for choice in range(1, min(exp.alts_seen, 4)):
            alt = exp.expand_one(a.value, choice).text
            if alt not in alts and len(alt) <= _MAX_VALUE:
                alts.append(alt)
    exp.alts_seen = saved
    sub: str | None = None
    sub_taint = NO_TAINT
    if a.index is not None:
        f = exp.expand_one(a.index)  # classifies $(...) in the subscript
        sub, sub_taint = f.text, f.taint
    store(run, a.name, value, Var(alts=tuple(alts), taint=value.taint), a.span, sub=sub,
          sub_taint=sub_taint, append=a.append, persist=persist)
    return value


def _keyed(w: ast.Word) -> tuple[ast.Word, ast.Word] | None:
    """Split an array-literal element ``[key]=value`` into (key word, value word)."""
    parts = w.parts
    if not parts or type(parts[0]) is not ast.Literal or \
            not parts[0].value.startswith("["):
        return None
    for index, part in enumerate(parts):
        if type(part) is not ast.Literal:
            continue
        text = part.value
        cut = text.find("]=", 1 if index == 0 else 0)
        if cut < 0:
            continue
        head = text[1:cut] if index == 0 else text[:cut]
        first = parts[0].value[1:] if index else head
        key_parts: list[ast.WordPart] = []
        if index:
            key_parts.append(ast.Literal(parts[0].span, first))
            key_parts.extend(parts[1:index])
        key_parts.append(ast.Literal(part.span, head))
        rest = text[cut + 2:]
        value_parts: list[ast.WordPart] = [ast.Literal(part.span, rest)] if rest else []
        value_parts.extend(parts[index + 1:])
        return ast.Word(w.span, tuple(key_parts)), ast.Word(w.span, tuple(value_parts))
    return None


_ASSIGNMENT_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")


def assignment_word(w: ast.Word) -> bool:
    """``NAME=...`` after a declaration builtin: expanded like an assignment (no splitting)."""
    parts = w.parts
    return bool(parts) and type(parts[0]) is ast.Literal and \
        _ASSIGNMENT_WORD.match(parts[0].value) is not None


def declare_names(run: Run, inv: Invocation, array: object) -> bool:
    """``declare``/``typeset``/``local``/``export``/``readonly``: options then names.

    Returns whether no name was given (``declare -p`` and friends print variables).
    ``array`` re-reads an ``a=(...)`` argument as an array assignment.
    """
    add: list[str] = ["r"] if inv.name == "readonly" else []
    remove: list[str] = []
    names = False
    functions = False
    for f in inv.args:
        text = f.text
        if not names and len(text) > 1 and text[0] in "-+" and text != "--":
            (add if text[0] == "-" else remove).extend(text[1:])
            functions = functions or any(c in "fF" for c in text[1:])
            continue
        if text == "--" and not names:
            names = True
            continue
        names = True
        if functions:
            continue
        head, eq, value = text.partition("=")
        if run.locals and inv.name != "export" and inv.name != "readonly" and "g" not in add:
            _make_local(run, head.partition("[")[0].rstrip("+"), bool(eq or add))
        append = head.endswith("+")
        head = head[:-1] if append else head
        sub: str | None = None
        if "[" in head:
            if inv.name in ("export", "readonly"):
                continue  # these reject a subscript: nothing is evaluated
            head, sub = name_slot(run, head, f.taint, f.span)
        if not head.replace("_", "a").isalnum() or not head.isascii() or head[0].isdecimal():
            continue
        plus = "".join(add)
        if eq and value.startswith("(") and sub is None and "n" not in plus:
            if plus or remove:
                _declare_only(run, head, plus, "".join(remove), f.span)
            if callable(array) and array(run, f):
                continue
        if "n" in plus and eq:
            ref_name = value.partition("[")[0]
            if "[" in value:
                name_slot(run, value, f.taint, f.span)
            if ref_name.replace("_", "a").isalnum() and ref_name != head:
                store(run, head, Field(value, f.span, f.taint), Var(alts=("",), ref=value),
                      f.span, add=plus, remove="".join(remove))
            continue
        if not eq:
            if plus or remove:
                _declare_only(run, head, plus, "".join(remove), f.span)
            continue
        vf = Field(value, f.span, f.taint)
        store(run, head, vf, Var(alts=(value,), taint=f.taint), f.span, sub=sub,
              append=append, add=plus, remove="".join(remove))
    return not names


def unset(run: Run, name: str, sub: str | None) -> None:
    """``unset x`` (x is now empty, not its old value) or ``unset 'a[k]'``."""
    env = run.env
    for _ in range(8):
        old = env.get(name)
        if old is None or old.ref is None:
            break
        name = old.ref.partition("[")[0]
    old = env.get(name)
    if old is not None and "r" in old.attrs:
        return
    # Unset ("U": ${x-d} gives d); unset IFS splits as the default.
    new = Var(alts=(" \t\n" if name == "IFS" else "",), attrs="" if name == "IFS" else "U")
    if sub is not None and old is not None and old.items is not None:
        keys, items = _base(old)
        key = _key(run, sub, NO_TAINT, old.attrs, keys, (0, 0))
        if key == DYN:
            new = Var(alts=(DYN,), items=(DYN,), taint=old.taint, attrs=old.attrs)
        else:
            if key in keys:
                index = keys.index(key)
                del keys[index], items[index]
            new = _make(keys, items, old.taint, old.attrs)
    elif sub is not None and sub not in ("0", "-1"):
        return  # another element of a scalar: nothing changes
    env[name] = merge_alts(old, new, conditional=run.cond > 0)
    run.env_version += 1


def shift(run: Run, inv: Invocation) -> None:
    """``shift [N]``: the positional parameters move down (``"$@"``, ``$1``...)."""
    env = run.env
    at = env.get("@")
    if at is None or at.items is None or DYN in at.items:
        return  # no parameters: shift fails; unknown ones stay unknown
    count = to_int(inv.args[0].text) if inv.args else 1
    old = at.items
    if count is not None and (count < 0 or count > len(old)):
        return
    if count is None:
        new: tuple[str, ...] = (DYN,)
        numbered = [Var(alts=(DYN, ""), taint=at.taint)] * len(old)
    else:
        new = old[count:]
        numbered = [env.get(str(i + count), Var(alts=("",))) for i in range(1, len(old) + 1)]
    env["@"] = Var(items=new, taint=at.taint)
    for i, var in enumerate(numbered, start=1):
        env[str(i)] = var
    run.env_version += 1


def _make_local(run: Run, name: str, assigned: bool) -> None:
    """``local x`` in a function: x is the function's own until it returns (the caller's
    value is saved); without a value it starts empty."""
    scope = run.locals[-1]
    if name in scope or len(scope) > 256:
        return
    scope[name] = run.env.get(name)
    if not assigned:
        run.env[name] = Var(alts=("",), attrs="U")
        run.env_version += 1


def _declare_only(run: Run, name: str, add: str, remove: str, span: tuple[int, int]
                  ) -> None:
    """``declare -l x`` with no value: only the attributes change."""
    old = run.env.get(name)
    attrs = _attrs(old.attrs if old is not None else "", add, remove)
    if old is None:
        old = Var(items=(), alts=("",)) if any(c in attrs for c in "aA") else EMPTY_VAR
    if "A" in attrs and old.items == () and old.keys is None:
        old = Var(alts=("",), items=(), keys=())
    run.env[name] = Var(old.alts, old.taint, old.items, old.keys, attrs, old.ref)
    run.env_version += 1
