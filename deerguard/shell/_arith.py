"""Text that bash evaluates later: arithmetic, array subscripts in names, prompt expansion.

Bash expands an array subscript (``$(...)`` included) whenever it evaluates a name with one:
in arithmetic (``$((x))``, ``((x))``, ``let``, ``[[ x -eq 1 ]]``, ``${s:x}``, ``${a[x]}``,
``declare -i``), where a variable's *value* is evaluated again as arithmetic
(``x='a[$(cmd)]'; echo $((x))`` runs cmd), and in the name slots of ``[[ -v ]]``,
``printf -v``, ``read``, ``declare`` and ``unset``. ``${x@P}`` expands the value like a
double-quoted string. Such text is classified as code here (the way ``eval`` strings are),
and fetched or decoded data reaching arithmetic is ``shell.tainted-exec``. Variables that
arithmetic assigns (``((x=1))``, ``let x++``) lose their known value.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._arith_eval import evaluate
from ._values import DYN, NO_TAINT, Field, Taint, Var, first_source

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["arith_text", "code_hook", "let_builtin", "name_slot", "slot_builtin"]

_SCRATCH = "__deerguard_expansion"
_NAME_OR_SUBSCRIPT = re.compile(r"[A-Za-z_\[`]")
_MAX_DEPTH = 4
_MAX_NAMES = 32
_OPS_BEFORE_EQ = frozenset("+-*/%&^|")


def code_hook(run: Run, slot: str, text: str, taint: Taint, span: tuple[int, int]) -> None:
    """The expander's hook for text reaching an evaluating slot (see ``_words.CodeHook``)."""
    if slot == "arith":
        arith_text(run, text, taint, span)
    elif slot == "name":
        subscript_code(run, text, taint, span, "an array subscript")
    elif slot == "prompt":
        _as_word(run, text, taint, span, "${x@P} prompt expansion")


def arith_text(run: Run, text: str, taint: Taint, span: tuple[int, int]) -> None:
    """``text`` is evaluated as arithmetic: report taint, classify code in subscripts, and
    evaluate the variables it names (their values are arithmetic too)."""
    if taint and first_source(taint) is not None:
        _tainted(run, taint, span)
    if not text or _NAME_OR_SUBSCRIPT.search(text) is None:
        return  # only numbers and operators: nothing to evaluate
    _scan(run, text, span, 0, set())


def _scan(run: Run, text: str, span: tuple[int, int], depth: int, seen: set[str]) -> None:
    if "[" in text and ("$(" in text or "`" in text):
        subscript_code(run, text, NO_TAINT, span, "an arithmetic array subscript")
    known = _known_assignment(run, text) if depth == 0 else None
    for name, assigned in _names(text):
        if assigned == "update" and name not in seen and depth < _MAX_DEPTH:
            # x++, x+=1, --x read the old value first, as arithmetic: a fetched value (or
            # 'a[$(cmd)]') runs before the new one replaces it.
            seen.add(name)
            _value(run, name, span, depth, seen)
        if assigned:
            from ._assign import store  # late: _assign imports this module

            if known is not None and known[0] == name:
                value = known[1]  # ((x=2)), let x+=1, ((i++)): the new value is known
                store(run, name, Field(value, span), Var(alts=(value,)), span)
                known = None
                continue
            store(run, name, Field(DYN, span), Var(alts=(DYN,)), span)
        if name in seen or depth >= _MAX_DEPTH:
            continue
        seen.add(name)
        _value(run, name, span, depth, seen)


def _value(run: Run, name: str, span: tuple[int, int], depth: int, seen: set[str]) -> None:
    """Evaluate variable ``name``'s value as arithmetic (following namerefs): report its
    taint and scan the value's own names and subscripts."""
    var = run.env.get(name)
    for _ in range(8):
        if var is None or var.ref is None:
            break
        var = run.env.get(var.ref.partition("[")[0])
    if var is None:
        return
    if var.taint and first_source(var.taint) is not None:
        _tainted(run, var.taint, span)
    for value in (var.items if var.items is not None else var.alts)[:8]:
        if value and not value.isdecimal() and value != DYN:
            _scan(run, value, span, depth + 1, seen)


_UPDATES = ("<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "=")


def _known_assignment(run: Run, text: str) -> tuple[str, str] | None:
    """``NAME = EXPR``, ``NAME op= EXPR``, ``NAME++``, ``--NAME`` (one statement) whose new
    value is known statically: (name, value as text); None otherwise. Linear."""
    body = text.strip()
    step = ""
    if body[:2] in ("++", "--"):
        step, body = body[:2], body[2:].strip()
    elif body[-2:] in ("++", "--"):
        step, body = body[-2:], body[:-2].strip()
    end = 0
    while end < len(body) and body[end].isascii() and (body[end].isalnum() or
                                                       body[end] == "_"):
        end += 1
    name, rest = body[:end], body[end:].strip()
    if not name or name[0].isdecimal():
        return None
    if step:
        expr = f"{name} {step[0]} 1" if not rest else None
    else:
        op = next((u for u in _UPDATES if rest.startswith(u)), None)
        if op is None or rest[len(op):len(op) + 1] == "=" and op == "=":
            return None  # not an assignment (x == 1)
        value = rest[len(op):]
        expr = f"({value})" if op == "=" else f"{name} {op[:-1]} ({value})"
    if expr is None:
        return None
    result = evaluate(expr, run.env)
    return (name, str(result)) if result is not None else None


def _tainted(run: Run, taint: Taint, span: tuple[int, int]) -> None:
    src = first_source(taint)
    if src is None:
        return
    where = run.map_span(span)
    run.add("shell.tainted-exec", span, "fetched or decoded data is evaluated as arithmetic "
            "or prompt expansion, which runs command substitutions",
            f"{src.describe()} reaches an arithmetic or ${{x@P}} context "
            f"({where[0]}-{where[1]})")


def _names(text: str) -> list[tuple[str, str]]:
    """The variable names in arithmetic ``text`` (bounded), each with how the text assigns
    it: ``"="`` (``x=``), ``"update"`` (``x+=``, ``x++``, ``--x``: the old value is read
    first) or ``""`` (``==`` is a comparison)."""
    out: list[tuple[str, str]] = []
    n = len(text)
    i = 0
    while i < n and len(out) < _MAX_NAMES:
        c = text[i]
        if not (c.isalpha() or c == "_") or not c.isascii():
            if c.isalnum():  # a number (0x1f, 10#12): skip its letters
                while i < n and (text[i].isalnum() or text[i] in "#_"):
                    i += 1
                continue
            i += 1
            continue
        start = i
        while i < n and (text[i].isalnum() or text[i] == "_") and text[i].isascii():
            i += 1
        name = text[start:i]
        j = i
        if j < n and text[j] == "[":
            close = text.find("]", j, j + 256)
            j = close + 1 if close > 0 else j
        while j < n and text[j] in " \t\n":
            j += 1
        after = text[j:j + 3]
        before = text[max(0, start - 2):start]
        if after[:1] == "=" and after[1:2] != "=":
            assigned = "="
        elif after[:2] in ("++", "--") or (after[:1] in _OPS_BEFORE_EQ and after[1:2] == "=") \
                or after in ("<<=", ">>=") or before in ("++", "--"):
            assigned = "update"
        else:
            assigned = ""
        out.append((name, assigned))
    return out


def subscript_code(run: Run, text: str, taint: Taint, span: tuple[int, int], owner: str
                   ) -> None:
    """A name with a subscript (``a[$(cmd)]``) is evaluated: classify the subscript's
    substitutions as code."""
    start = text.find("[")
    if start < 0:
        return
    end = text.rfind("]")
    sub = text[start + 1:end] if end > start else text[start + 1:]
    if "$(" not in sub and "`" not in sub:
        return
    _as_word(run, sub, taint, span, owner)


def _as_word(run: Run, text: str, taint: Taint, span: tuple[int, int], owner: str) -> None:
    """Classify the substitutions of ``text`` expanded like a double-quoted word (as the
    value of a throwaway assignment: nothing runs as a command but what it substitutes)."""
    run.run_code(Field(_SCRATCH + '="' + text + '"', span, taint), owner, span, None,
                 positional=[])


def name_slot(run: Run, text: str, taint: Taint, span: tuple[int, int]
              ) -> tuple[str, str | None]:
    """A variable name given as text (``printf -v NAME``, ``read NAME``): its subscript is
    evaluated (code in it is classified). Returns (name, subscript or None)."""
    name, bracket, rest = text.partition("[")
    if not bracket:
        return name, None
    subscript_code(run, text, taint, span, "an array subscript in a variable name")
    return name, rest[:-1] if rest.endswith("]") else DYN


def let_builtin(run: Run, inv: Invocation) -> None:
    """``let EXPR...``: each argument is arithmetic."""
    for f in inv.args:
        if f.text != "--":
            arith_text(run, f.text, f.taint, f.span)


def slot_builtin(run: Run, inv: Invocation) -> None:
    """``test -v NAME``/``[ -v NAME ]``, ``wait -p NAME`` and ``unset NAME...`` evaluate
    subscripts."""
    args = inv.args
    if inv.name == "unset":
        from ._assign import unset  # late: _assign imports this module

        functions = False
        for f in args:
            if f.text.startswith("-"):
                functions = "f" in f.text
                continue
            if not functions and DYN not in f.text:
                name, sub = name_slot(run, f.text, f.taint, f.span)
                unset(run, name, sub)
        return
    flag = "-p" if inv.name == "wait" else "-v"
    for index, f in enumerate(args[:-1]):
        if f.text == flag:
            other = args[index + 1]
            name_slot(run, other.text, other.taint, other.span)


def test_words(run: Run, fields: list[Field]) -> None:
    """``[[ ... ]]``: ``-v NAME`` operands are names; ``-eq``-style operands arithmetic."""
    for index, f in enumerate(fields):
        text = f.text
        if text == "-v" and index + 1 < len(fields):
            other = fields[index + 1]
            name_slot(run, other.text, other.taint, other.span)
        elif text in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
            for other in fields[max(0, index - 1):index + 2:2]:
                if not other.text.isdecimal():
                    arith_text(run, other.text, NO_TAINT, other.span)


