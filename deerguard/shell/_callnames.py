"""Call names computed in interpreter code, written back as plain calls.

After :mod:`._strfold` has folded the constant strings, a call reached by name lookup reads
like the plain call it is: Python ``getattr(os, "system")(cmd)`` and JavaScript
``Reflect.get(cp, "execSync")(cmd)`` as ``os.system(cmd)``; a subscript holding a name and
called (``cp["execSync"](cmd)``, ``os.__dict__["system"](cmd)``) as ``cp.execSync(cmd)``; Ruby
``Kernel.send(:system, cmd)``, ``public_send``/``__send__`` and ``method(:system).call(cmd)``
as ``Kernel.system(cmd)``; PHP ``call_user_func("system", cmd)`` as ``system(cmd)``; and a
name bound to a run or eval function (``f = os.system``, ``$f = "system"``,
``const {execSync: run} = require("child_process")``) called later (``f(cmd)``,
``$f(cmd)``, ``&$f(cmd)``, ``$f->(cmd)``) as that function. :func:`eval_literals` finds the
constant code strings given to the language's own eval (``exec("..")``,
``exec(compile("..", "f", "exec"))``, ``eval "..."``, ``new Function("..")``,
``load("..")``), so they are classified as code of the same language.

Token-based (the tokens of ``_strfold``), bounded: at most 64 rewrites and 16 eval strings.
"""

from __future__ import annotations

import re

from ._code import _CALLS_COMMON, _CALLS_NOT_PYTHON
from ._edits import apply_edits
from ._strfold import FOLDED, Tok, tokens
from ._strfuncs import bind_name
from ._strfuncs import quote as _quote

__all__ = ["eval_literals", "rename_calls"]

_RUNS = frozenset(_CALLS_COMMON + _CALLS_NOT_PYTHON + (
    "eval", "exec", "popen", "system", "shell_exec", "passthru", "execfile", "instance_eval",
    "class_eval", "module_eval", "runInThisContext", "runInNewContext", "spawn",
    "loadstring", "load", "dostring", "create_function", "assert", "pcntl_exec", "compile"))
_SHELL_CALLS = frozenset(_CALLS_COMMON + _CALLS_NOT_PYTHON)
_SENDS = frozenset({"send", "public_send", "__send__"})
# Evidence of a computed call name, sought before any token is read: a lookup by name,
# a subscript called, or a name bound to a literal or to a function (then called).
_GATE = re.compile(r"""getattr|Reflect|send|method|call_user_func|\][ \t]{0,4}\(|"""
                   r"""=[ \t]{0,8}["']|=[ \t]{0,8}[\w.$:>-]{0,80}(?:system|exec|popen|spawn|"""
                   r"""Sync|passthru|eval|run|call|Popen|output|execute|load)[ \t]*(?:[;\n)]|$)|"""
                   r"""\{[ \t]{0,8}\w{1,64}[ \t]{0,8}:""")
_MAX_EDITS = 64
# What may follow a call's sole argument: system($c); system $c } (a block ends), Ruby end.
_ARG_ENDS = frozenset({")", ",", ";", "\n", "}", "end"})


def _ident(text: str) -> bool:
    return bool(text) and len(text) <= 64 and (text[0].isalpha() or text[0] == "_") and \
        all(c.isalnum() or c == "_" for c in text)


def _close(toks: list[Tok], k: int) -> int:
    """Index of the ``)``/``]`` closing the opener at ``k`` (bounded), or -1."""
    depth = 0
    for j in range(k, min(len(toks), k + 400)):
        t = toks[j]
        if t[0] != "op":
            continue
        if t[1] in "([{":
            depth += 1
        elif t[1] in ")]}":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _top_comma(toks: list[Tok], k: int, end: int) -> int:
    """The first comma at depth one between ``k`` (an opener) and ``end``, or -1."""
    depth = 0
    for j in range(k, end):
        t = toks[j]
        if t[0] != "op":
            continue
        if t[1] in "([{":
            depth += 1
        elif t[1] in ")]}":
            depth -= 1
        elif t[1] == "," and depth == 1:
            return j
    return -1


def _name_value(tok: Tok, toks: list[Tok], j: int, consts: dict[str, str]) -> str | None:
    """A call name given as a string, a Ruby symbol (``:system``) or a constant name."""
    if tok[0] == "str":
        return tok[1] if _ident(tok[1]) else None
    if tok[0] == "op" and tok[1] == ":" and j + 1 < len(toks) and toks[j + 1][0] == "name":
        return toks[j + 1][1]
    if tok[0] == "name" and tok[1] in consts:
        return consts[tok[1]]
    return None


def _consts(toks: list[Tok]) -> dict[str, str]:
    """``NAME = "literal"`` statements (a name assigned twice to different values holds
    none) and ``NAME = chain.run_function`` aliases, as NAME -> the string or function."""
    out: dict[str, str] = {}
    dropped: set[str] = set()
    n = len(toks)
    for k in range(1, n - 1):
        if toks[k][1] != "=" or toks[k][0] != "op" or toks[k - 1][0] != "name":
            continue
        name = toks[k - 1][1]
        j = k + 1
        value: str | None = None
        if toks[j][0] == "str":
            value = toks[j][1]
            j += 1
        elif toks[j][0] == "name":
            last = toks[j][1]
            j += 1
            while j + 1 < n and toks[j][1] in (".", "::", "->", ":") and \
                    toks[j + 1][0] == "name":
                last = toks[j + 1][1]
                j += 2
            if last in _RUNS:
                value = last
        if value is None or (j < n and toks[j][1] not in (";", "\n", ")", "}", ",")):
            continue
        bind_name(name, value, out, dropped)
    return out


def _destructured(toks: list[Tok], out: dict[str, str]) -> None:
    """JavaScript ``const {execSync: run, exec} = require(..)``: run -> execSync."""
    scans = 0
    for k in range(len(toks) - 3):
        if toks[k][1] == "{" and toks[k][0] == "op" and toks[k + 1][0] == "name" and \
                toks[k + 2][1] in (":", ",", "}") and scans < 16:
            scans += 1
            end = _close(toks, k)
            if end < 0 or end + 1 >= len(toks) or toks[end + 1][1] != "=":
                continue
            for j in range(k + 1, end - 2):
                if toks[j][0] == "name" and toks[j + 1][1] == ":" and \
                        toks[j + 2][0] == "name" and toks[j][1] in _RUNS:
                    out[toks[j + 2][1]] = toks[j][1]


def rename_calls(code: str, language: str) -> str:
    """``code`` with computed call names written as plain calls; ``code`` itself when none."""
    if language not in FOLDED or len(code) > 20000 or _GATE.search(code) is None:
        return code
    toks = tokens(code, language)
    if not toks:
        return code
    consts = _consts(toks)
    if language in ("node", "deno", "bun"):
        _destructured(toks, consts)
    edits: list[tuple[int, int, str]] = []
    n = len(toks)
    k = 0
    scans = 0
    while k < n and len(edits) < _MAX_EDITS:
        kind, text, start, end = toks[k]
        nxt = toks[k + 1] if k + 1 < n else None
        prev = toks[k - 1] if k > 0 else None
        if kind == "name" and nxt is not None and nxt[1] == "(" and scans < 32 and (
                text == "getattr" or (text == "get" and prev is not None and prev[1] == "."
                                      and k > 1 and toks[k - 2][1] == "Reflect")):
            scans += 1  # each scan reads at most 400 tokens
            close = _close(toks, k + 1)
            comma = _top_comma(toks, k + 1, close) if close > 0 else -1
            if comma > k + 2 and comma + 1 < close:
                value = _name_value(toks[comma + 1], toks, comma + 1, consts)
                after = toks[comma + 2][1] if comma + 2 < n else ""
                if value is not None and _ident(value) and after in (")", ","):
                    first = toks[k - 2][2] if text == "get" else start
                    obj = code[toks[k + 2][2]:toks[comma - 1][3]]
                    edits.append((first, toks[close][3], obj + "." + value))
                    k = close + 1
                    continue
        if kind == "op" and text == "[" and prev is not None and (
                prev[0] == "name" or prev[1] in (")", "]")) and k + 3 < n and \
                toks[k + 1][0] == "str" and toks[k + 2][1] == "]" and toks[k + 3][1] == "(" \
                and _ident(toks[k + 1][1]):
            edits.append((start, toks[k + 2][3], "." + toks[k + 1][1]))
            k += 3
            continue
        if kind == "name" and text in _SENDS and language == "ruby" and nxt is not None:
            paren = nxt[1] == "("
            j = k + 2 if paren else k + 1
            if j < n:
                value = _name_value(toks[j], toks, j, consts)
                j += 2 if toks[j][1] == ":" else 1
                if value is not None and _ident(value) and j < n:
                    if toks[j][1] == ",":
                        edits.append((start, toks[j][3], value + ("(" if paren else " ")))
                        k = j + 1
                        continue
                    if toks[j][1] == ")" and paren:
                        edits.append((start, toks[j][3], value + "()"))
                        k = j + 1
                        continue
        if kind == "name" and text == "method" and language == "ruby" and nxt is not None \
                and nxt[1] == "(" and k + 5 < n:
            value = _name_value(toks[k + 2], toks, k + 2, consts)
            j = k + (4 if toks[k + 2][1] == ":" else 3)
            if value is not None and _ident(value) and j + 2 < n and toks[j][1] == ")" and \
                    toks[j + 1][1] == ".":
                stop = j + 2
                if toks[stop][1] == "call":
                    stop += 1
                if stop < n and toks[stop][1] in ("(", " "):
                    edits.append((start, toks[stop][3], value + "("))
                    k = stop + 1
                    continue
        if kind == "name" and text in ("call_user_func", "call_user_func_array") and \
                language == "php" and nxt is not None and nxt[1] == "(" and k + 3 < n:
            value = _name_value(toks[k + 2], toks, k + 2, consts)
            if value is not None and _ident(value) and toks[k + 3][1] in (",", ")"):
                tail = "(" if toks[k + 3][1] == "," else "()"
                edits.append((start, toks[k + 3][3], value + tail))
                k += 4
                continue
        if kind == "name" and text in consts and consts[text] not in _RUNS and \
                prev is not None and (nxt is None or nxt[1] in _ARG_ENDS) and (
                    (prev[1] == "(" and k > 1 and toks[k - 2][1] in _SHELL_CALLS) or
                    (prev[1] in _SHELL_CALLS and language in ("perl", "ruby"))):
            edits.append((start, end, _quote(consts[text])))  # $c = "rm -rf /"; system($c)
            k += 1
            continue
        if kind == "name" and text in consts and consts[text] in _RUNS and (
                prev is None or prev[1] not in (".", "->", "::")) and nxt is not None:
            target = consts[text]
            if nxt[1] == "(" and nxt[2] == end:
                begin = start
                if prev is not None and prev[1] == "&" and prev[3] == start:
                    begin = prev[2]  # perl &$f(..)
                edits.append((begin, end, target))
            elif nxt[1] == "->" and k + 2 < n and toks[k + 2][1] == "(":
                edits.append((start, nxt[3], target))  # perl $f->(..)
        k += 1
    return apply_edits(code, edits)


# Eval functions whose constant string argument is code of the same language.
_EVALS_BY_LANGUAGE = {"python": frozenset({"exec", "eval"}),
                      "perl": frozenset({"eval", "evalq"}),
                      "ruby": frozenset({"eval", "instance_eval", "class_eval",
                                         "module_eval", "instance_exec"}),
                      "node": frozenset({"eval", "function", "runinthiscontext",
                                         "runinnewcontext", "runincontext", "settimeout",
                                         "setinterval"}),
                      "php": frozenset({"eval", "assert", "create_function"}),
                      "lua": frozenset({"load", "loadstring", "dostring"})}
_EVALS_BY_LANGUAGE["deno"] = _EVALS_BY_LANGUAGE["bun"] = _EVALS_BY_LANGUAGE["node"]


# Per language, one C-level search for a sink as a whole name token as tokens() reads names
# ([A-Za-z_$@] then [\w$]*, compared lowercased): "uploads" or "json.loads" holds none.
_EVAL_GATES = {
    language: re.compile(r"(?<![A-Za-z_$@])(?:" + "|".join(sorted(sinks, key=len, reverse=True))
                         + r")(?![\w$])", re.IGNORECASE)
    for language, sinks in _EVALS_BY_LANGUAGE.items()}


def eval_literals(code: str, language: str) -> list[str]:
    """The constant code strings ``code`` evaluates in its own language (at most 16):
    a literal argument of an eval call (``exec(compile("..", ..))`` counts only under an
    eval: ``re.compile("..")`` is a pattern), or a name bound to a literal and evaluated
    (``c = ".."; exec(c)``)."""
    sinks = _EVALS_BY_LANGUAGE.get(language)
    if sinks is None or len(code) > 20000 or _EVAL_GATES[language].search(code) is None:
        return []
    toks = tokens(code, language)
    if not toks:
        return []
    out: list[str] = []
    n = len(toks)
    names = _consts(toks)
    for k, tok in enumerate(toks):
        if len(out) >= 16:
            break
        if tok[0] != "name" or tok[1].lower() not in sinks:
            continue
        if k > 0 and toks[k - 1][1] in (".", "->", "::") and tok[1].lower() in (
                "compile", "load") and language in ("python", "lua"):
            continue  # cursor.execute / re.compile / json.load: not the builtin
        j = k + 1
        if tok[1].lower() == "function" and language in ("node", "deno", "bun") and (
                j >= n or toks[j][1] != "("):
            continue
        if j < n and toks[j][1] == "(":
            j += 1
        elif language not in ("perl", "ruby"):
            continue  # bare calls: Perl eval "..", Ruby eval ".."
        if j < n and toks[j][0] == "name" and toks[j][1] == "compile" and language == "python" \
                and j + 2 < n and toks[j + 1][1] == "(":
            j += 2
        if j >= n:
            continue
        arg = toks[j]
        after = toks[j + 1][1] if j + 1 < n else ")"
        if arg[0] == "str" and after in (")", ",", ";", "\n", "}") and arg[1].strip():
            if arg[1] not in out:
                out.append(arg[1])
        elif arg[0] == "name" and arg[1] in names and after in (")", ",", ";", "\n"):
            value = names[arg[1]]
            if value not in _RUNS and value.strip():
                out.append(value)
        if tok[1].lower() == "function" and arg[0] == "str":
            # new Function("a", "body"): the last literal is the body.
            close = _close(toks, k + 1)
            if close > 0 and toks[close - 1][0] == "str" and close - 1 != j:
                out[-1:] = [toks[close - 1][1]]
    return out
