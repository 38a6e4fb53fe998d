"""Compound commands: groups, conditionals, loops, case, tests, functions, fork bombs.

Bodies are walked in order; assignments made inside a branch or a loop keep the earlier value
as an alternative (``x=rm; if c; then x=ls; fi; $x`` is checked as both). An endless loop
that starts background processes, and a function that runs copies of itself in a pipeline or
in the background, are fork bombs whatever their spelling.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from . import ast
from ._arith import test_words
from ._assign import store
from ._flow import EMPTY, Flow
from ._flow import union as _union
from ._guardmore import GUARD_NAME, guard_shadow
from ._traps import check_traps
from ._words import DYN, NO_TAINT, Field, Var, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["compound"]


def compound(run: Run, cmd: ast.Command, stdin: Flow | None) -> Flow:
    if isinstance(cmd, ast.Subshell):
        mark = run.env.checkpoint()
        noted = len(run.traps)
        try:
            out = run.body(cmd.body, stdin)
            if len(run.traps) > noted:  # ( trap CODE EXIT; ... ): CODE runs as it ends
                check_traps(run, len(run.frames), noted)
            return out
        finally:
            run.env.rollback(mark)  # a subshell's assignments do not leak out
    if isinstance(cmd, ast.BraceGroup):
        return run.body(cmd.body, stdin)
    if isinstance(cmd, ast.If):
        out = EMPTY
        for index, clause in enumerate(cmd.clauses):
            run.cond += index > 0
            out = _union(out, run.body(clause.condition, stdin))
            run.cond += 1
            out = _union(out, run.body(clause.body, stdin))
            run.cond -= 1 + (index > 0)
        if cmd.else_body is not None:
            run.cond += 1
            out = _union(out, run.body(cmd.else_body, stdin))
            run.cond -= 1
        return out
    if isinstance(cmd, ast.For | ast.Select):
        items: list[Field] = []
        if cmd.items is not None:
            for w in cmd.items:
                items.extend(run.exp.expand(w))
        taint = frozenset().union(*(f.taint for f in items)) if items else NO_TAINT
        alts = tuple(dict.fromkeys(f.text for f in items))[:8] or (DYN,)
        store(run, cmd.name, Field(alts[0], cmd.span, taint), Var(alts=alts, taint=taint),
              cmd.span)
        run.cond += 1
        out = run.body(cmd.body, stdin)
        run.cond -= 1
        return out
    if isinstance(cmd, ast.ArithFor):
        if cmd.init is not None:
            run.exp._arith(cmd.init)
        run.cond += 1  # the test and the step run any number of times, like the body
        for arith in (cmd.condition, cmd.step):
            if arith is not None:
                run.exp._arith(arith)
        if (cmd.condition is None or not cmd.condition.text.strip()) and \
                _spawns_background(cmd.body):
            run.add("shell.fork-bomb", cmd.span, "an endless loop starts background "
                     "processes without bound", None)
        out = run.body(cmd.body, stdin)
        run.cond -= 1
        return out
    if isinstance(cmd, ast.While):
        run.body(cmd.condition, stdin)
        if _always_true(cmd.condition, cmd.until) and _spawns_background(cmd.body):
            run.add("shell.fork-bomb", cmd.span, "an endless loop starts background "
                     "processes without bound", None)
        run.cond += 1
        out = run.body(cmd.body, stdin)
        run.cond -= 1
        return out
    if isinstance(cmd, ast.Case):
        run.exp.expand(cmd.word)
        out = EMPTY
        run.cond += 1
        for item in cmd.items:
            out = _union(out, run.body(item.body, stdin))
        run.cond -= 1
        return out
    if isinstance(cmd, ast.TestCommand):
        fields: list[Field] = []
        for w in cmd.words:
            fields.append(run.exp.expand_one(w))  # [[ ]] neither splits nor globs
        for index, f in enumerate(fields):
            if f.text in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
                for other in fields[max(0, index - 1):index + 2:2]:
                    if first_source(other.taint) is not None:
                        _arith_field(run, other)
        test_words(run, fields)
        return EMPTY
    if isinstance(cmd, ast.ArithCommand):
        run.exp._arith(cmd.expr)
        return EMPTY
    if isinstance(cmd, ast.FunctionDef):
        run.funcs[cmd.name] = cmd
        if cmd.name == GUARD_NAME:
            guard_shadow(run, cmd.span, "function")  # deerguard() { :; } (_guardmore)
        if _calls_itself(cmd):
            run.add("shell.fork-bomb", cmd.span, f"function {cmd.name} starts copies "
                     "of itself without bound", None)
        return EMPTY
    if isinstance(cmd, ast.Coproc):
        out = run.command(cmd.command, None)
        # coproc NAME CMD: ${NAME[0]} is a descriptor reading CMD's output (like exec N<).
        fd = str(63 - len(run.fds))
        run.env[cmd.name or "COPROC"] = Var(items=(fd, str(int(fd) - 1)))
        run.env_version += 1
        if len(run.fds) < 16:
            run.fds[fd] = Flow(out.taint, out.producer or _coproc_name(cmd), cmd.span,
                               out.text, "pipe")
            for path in ("/dev/fd/" + fd, "/proc/self/fd/" + fd):  # source /dev/fd/${F[0]}
                if out.taint:
                    run.files[path] = out.taint
                if out.text is not None and len(run.file_text) < 64:
                    run.file_text[path] = out.text
        return EMPTY
    return EMPTY


def _coproc_name(cmd: ast.Coproc) -> str:
    inner = cmd.command
    if isinstance(inner, ast.SimpleCommand) and inner.words:
        return inner.words[0].literal_value() or "a coprocess"
    return "a coprocess"

def _arith_field(run: Run, f: Field) -> None:
    src = first_source(f.taint)
    if src is not None:
        run.add("shell.tainted-exec", f.span, "fetched or decoded data is evaluated as "
                 "arithmetic, which runs command substitutions",
                 f"{src.describe()} reaches an arithmetic comparison")

# --- redirections -----------------------------------------------------------------------


def _always_true(condition: tuple[ast.Statement, ...], until: bool) -> bool:
    if len(condition) != 1:
        return False
    c = condition[0].command
    if not isinstance(c, ast.SimpleCommand) or not c.words:
        return isinstance(c, ast.ArithCommand) and c.expr.text.strip() not in ("0", "")
    name = c.words[0].literal_value()
    if until:
        return name == "false"
    return name in ("true", ":") or (name in ("[", "test") and len(c.words) <= 3)


# Field names of each node type that may hold child nodes, computed once:
# ``dataclasses.fields`` per node dominated the walks below on scripts with thousands of
# functions or loops. Fields annotated as plain data (spans, names, flags) never hold a node.
_DATA_FIELDS = frozenset({"Span", "bool", "str", "str | None", "int", "int | None",
                          "tuple[str, ...]", "tuple[int, int]"})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {
    t: tuple(f.name for f in dataclasses.fields(t) if f.type not in _DATA_FIELDS)
    for t in ast._NODE_TYPES}
_NODE_SET = frozenset(ast._NODE_TYPES)


def _walk(node: ast.Node, visit: Callable[[ast.Node], bool]) -> None:
    """Same visits in the same order as :func:`ast.walk` (depth-first, source order,
    pruned where ``visit`` returns False), iterative, with the field names precomputed."""
    stack: list[ast.Node] = [node]
    pop = stack.pop
    push = stack.append
    names = _FIELD_NAMES
    nodes = _NODE_SET
    while stack:
        current = pop()
        if visit(current) is False:
            continue
        children: list[ast.Node] = []
        for name in names[type(current)]:
            value = getattr(current, name)
            kind = type(value)
            if kind in nodes:
                children.append(value)
            elif kind is tuple:
                for item in value:
                    if type(item) in nodes:
                        children.append(item)
        while children:
            push(children.pop())


def _spawns_background(body: tuple[ast.Statement, ...]) -> bool:
    found = False

    def visit(node: ast.Node) -> bool:
        nonlocal found
        if isinstance(node, ast.Statement) and node.background:
            found = True
        return not found and not isinstance(node, ast.FunctionDef)

    for st in body:
        _walk(st, visit)
    return found


def _calls_itself(fn: ast.FunctionDef) -> bool:
    """The body runs the function itself in a pipeline or in the background."""
    found = False

    def is_self(c: ast.Command) -> bool:
        return isinstance(c, ast.SimpleCommand) and bool(c.words) and \
            c.words[0].literal_value() == fn.name

    def visit(node: ast.Node) -> bool:
        nonlocal found
        if isinstance(node, ast.Pipeline) and sum(is_self(c) for c in node.commands) >= 1 \
                and len(node.commands) > 1:
            found = True
        elif isinstance(node, ast.Statement) and node.background and (
                is_self(node.command) or (isinstance(node.command, ast.Pipeline) and
                                          any(is_self(c) for c in node.command.commands))):
            found = True
        return not found

    _walk(fn.body, visit)
    return found


