"""Helpers for the shell parser tests: a compact, unambiguous tree dump and span checks."""

from __future__ import annotations

from deerguard.shell import ast


def dump(node: ast.Node | None) -> str:  # noqa: C901 - one case per node kind
    """Render a node as a compact S-expression (used as the expected value in table tests)."""
    if node is None:
        return "-"
    d = dump
    if isinstance(node, ast.Script):
        return " ".join(d(s) for s in node.statements)
    if isinstance(node, ast.Statement):
        term = {None: "", ";": ";", "&": "&", "\n": "\\n"}[node.terminator]
        return d(node.command) + term
    if isinstance(node, ast.SimpleCommand):
        items = [d(a) for a in node.assignments] + [d(w) for w in node.words]
        items += [d(r) for r in node.redirects]
        return "(" + " ".join(items) + ")"
    if isinstance(node, ast.Pipeline):
        head = ("time " if node.timed else "") + ("! " if node.negated else "")
        body = d(node.commands[0])
        for op, cmd in zip(node.ops, node.commands[1:], strict=True):
            body += f" {op} {d(cmd)}"
        return f"[{head}{body}]"
    if isinstance(node, ast.AndOr):
        body = d(node.commands[0])
        for op, cmd in zip(node.ops, node.commands[1:], strict=True):
            body += f" {op} {d(cmd)}"
        return "{" + body + "}"
    if isinstance(node, ast.Subshell):
        return "(sub " + _body(node.body) + ")" + _redirs(node.redirects)
    if isinstance(node, ast.BraceGroup):
        return "(group " + _body(node.body) + ")" + _redirs(node.redirects)
    if isinstance(node, ast.If):
        out = "(if"
        for clause in node.clauses:
            out += f" [{_body(clause.condition)}] then [{_body(clause.body)}]"
        if node.else_body is not None:
            out += f" else [{_body(node.else_body)}]"
        return out + ")" + _redirs(node.redirects)
    if isinstance(node, ast.For | ast.Select):
        kw = "for" if isinstance(node, ast.For) else "select"
        items = "" if node.items is None else " in " + " ".join(d(w) for w in node.items)
        return f"({kw} {node.name}{items} do [{_body(node.body)}])" + _redirs(node.redirects)
    if isinstance(node, ast.ArithFor):
        parts = (node.init, node.condition, node.step)
        clauses = ";".join("-" if c is None else c.text for c in parts)
        return f"(for (({clauses})) do [{_body(node.body)}])"
    if isinstance(node, ast.While):
        kw = "until" if node.until else "while"
        return f"({kw} [{_body(node.condition)}] do [{_body(node.body)}])" + _redirs(node.redirects)
    if isinstance(node, ast.Case):
        items = " ".join(
            "|".join(d(p) for p in item.patterns) + f") [{_body(item.body)}]{item.terminator or ''}"
            for item in node.items
        )
        return f"(case {d(node.word)} {items})" + _redirs(node.redirects)
    if isinstance(node, ast.TestCommand):
        return "[[ " + " ".join(d(w) for w in node.words) + " ]]" + _redirs(node.redirects)
    if isinstance(node, ast.ArithCommand):
        return f"(({node.expr.text}))" + _redirs(node.redirects)
    if isinstance(node, ast.FunctionDef):
        kw = "function " if node.keyword else ""
        return f"(def {kw}{node.name} {d(node.body)})" + _redirs(node.redirects)
    if isinstance(node, ast.Coproc):
        return f"(coproc {node.name or '-'} {d(node.command)})"
    if isinstance(node, ast.Assignment):
        op = "+=" if node.append else "="
        idx = f"[{d(node.index)}]" if node.index is not None else ""
        if node.array is not None:
            return f"{node.name}{idx}{op}(" + " ".join(d(w) for w in node.array) + ")"
        return f"{node.name}{idx}{op}{d(node.value) if node.value is not None else ''}"
    if isinstance(node, ast.Redirect):
        out = f"{node.fd or ''}{node.op}{d(node.target)}"
        if node.heredoc is not None:
            out += "<<" + d(node.heredoc) + ">>"
        return out
    if isinstance(node, ast.Heredoc):
        return "".join(d(p) for p in node.parts) if not node.quoted else repr(node.text)
    if isinstance(node, ast.Word):
        return "+".join(d(p) for p in node.parts) if node.parts else "''"
    if isinstance(node, ast.Literal):
        return node.value
    if isinstance(node, ast.Escaped):
        return "\\" + node.char
    if isinstance(node, ast.SingleQuoted):
        return f"'{node.value}'"
    if isinstance(node, ast.AnsiCQuoted):
        return f"$'{node.value!r}'"
    if isinstance(node, ast.DoubleQuoted):
        return ('$"' if node.locale else '"') + "".join(d(p) for p in node.parts) + '"'
    if isinstance(node, ast.ParamExp):
        if node.short:
            return "$" + node.name
        idx = f"[{d(node.index)}]" if node.index is not None else ""
        args = ",".join(d(a) for a in node.args)
        op = f" {node.op} {args}" if node.op is not None else ""
        return "${" + node.prefix + node.name + idx + op + "}"
    if isinstance(node, ast.CmdSubst):
        return ("`" if node.backtick else "$(") + _body(node.body) + ("`" if node.backtick else ")")
    if isinstance(node, ast.ArithExp):
        inner = "".join(d(p) for p in node.parts)
        return "$[[" + inner + "]]"
    if isinstance(node, ast.ProcSubst):
        return node.op + "(" + _body(node.body) + ")"
    if isinstance(node, ast.BraceExp):
        sep = ".." if node.sequence else ","
        return "{" + sep.join(d(w) for w in node.items) + "}"
    if isinstance(node, ast.Tilde):
        return "~" + node.user
    raise AssertionError(f"unknown node {node!r}")


def _body(stmts: tuple[ast.Statement, ...]) -> str:
    return " ".join(dump(s) for s in stmts)


def _redirs(redirects: tuple[ast.Redirect, ...]) -> str:
    return "".join(" " + dump(r) for r in redirects)


def heredoc_regions(script: ast.Script, source: str) -> list[tuple[int, int]]:
    """Each heredoc body plus its delimiter line (what a statement span does not cover)."""
    regions: list[tuple[int, int]] = []

    def visit(node: ast.Node) -> None:
        if isinstance(node, ast.Heredoc):
            start, end = node.span
            if node.terminated:
                nl = source.find("\n", end)
                end = len(source) if nl < 0 else nl + 1
            regions.append((start, end))

    ast.walk(script, visit)
    return regions


def check_spans(script: ast.Script, source: str) -> None:
    """Spans are in bounds and children nest inside parents (heredoc bodies excepted)."""
    n = len(source)
    stack: list[tuple[ast.Node, tuple[int, int]]] = [(script, (0, n))]
    while stack:
        node, (lo, hi) = stack.pop()
        start, end = node.span
        assert 0 <= start <= end <= n, (node, n)
        if not isinstance(node, ast.Heredoc):
            assert lo <= start and end <= hi, (node, (lo, hi))
        bounds = (0, n) if isinstance(node, ast.Redirect) else node.span
        for child in ast.iter_children(node):
            stack.append((child, (0, n) if isinstance(child, ast.Heredoc) else bounds))


def check_coverage(script: ast.Script, source: str) -> None:
    """Every character is in exactly one top-level statement, heredoc region or comment,
    or is whitespace."""
    regions = [s.span for s in script.statements]
    for start, end in sorted(heredoc_regions(script, source)):
        if not any(a <= start < b for a, b in regions):  # not nested in a statement/heredoc
            regions.append((start, end))
    covered = [False] * len(source)
    for start, end in regions:
        for k in range(start, end):
            assert not covered[k], (k, source[k], regions)
            covered[k] = True
    for comment in script.comments:
        start, end = comment.span
        if any(covered[start:end]):
            continue  # a comment inside a statement
        for k in range(start, end):
            covered[k] = True
    for k, c in enumerate(source):
        assert covered[k] or c in " \t\n" or (c == "\\" and source[k + 1 : k + 2] == "\n") or (
            c == "\n" and source[k - 1 : k] == "\\"
        ), (k, c, source)
