"""awk variables that hold a constant command: the command read as the literal it is.

``awk 'BEGIN { cmd = "date +%s"; cmd | getline t; print t }'`` runs ``date +%s``: ``cmd``
is assigned one literal in the program and nothing else writes it, so its runs
(``cmd | getline``, ``system(cmd)``, ``print | cmd``) are rewritten with that literal and
classified as the shell code they are (``cmd = "curl -s u | sh"; cmd | getline`` still
blocks). A variable any other statement writes (``cmd = $0``, ``getline cmd``, ``cmd = cmd
$1``, ``sub(/x/, y, cmd)``, ``cmd++``, an operand ``cmd=VALUE`` after the program, a
``function`` parameter) is not folded: a command built from the input stays dynamic. A
variable assigned several literals is not folded either; its values are returned so each is
still classified. One pass over the literals plus bounded scans per candidate name: linear.
"""

from __future__ import annotations

from bisect import bisect_right

from ._code import literals
from ._interp import awk_assigns
from ._words import DYN, Field

__all__ = ["awk_constants", "fold_awk"]

_MAX_NAMES = 16
_MAX_USES = 64
_STMT_END = frozenset(";}\n")
_OP_ASSIGN = ("+=", "-=", "*=", "/=", "%=", "^=", "++", "--")


def _is_word(code: str, at: int, name: str) -> bool:
    end = at + len(name)
    return (at == 0 or not (code[at - 1].isalnum() or code[at - 1] in "_$")) and (
        end >= len(code) or not (code[end].isalnum() or code[end] == "_"))


def _skip(code: str, k: int, step: int) -> int:
    """From ``k``, skip blanks forwards (``step`` 1) or backwards (-1, ``k`` exclusive)."""
    n = len(code)
    if step > 0:
        while k < n and code[k] in " \t":
            k += 1
        return k
    while k > 0 and code[k - 1] in " \t":
        k -= 1
    return k


def _literal_assignments(code: str, lits: tuple[tuple[int, int, str], ...]
                         ) -> dict[str, dict[int, str]]:
    """``NAME = "literal"`` statements (the literal ends the statement): for each name, the
    offset of the name in each such statement and the literal's source text."""
    out: dict[str, dict[int, str]] = {}
    for start, end, value in lits[:256]:
        if value[:1] != '"':
            continue
        after = _skip(code, end, 1)
        if after < len(code) and code[after] not in _STMT_END:
            continue  # cmd = "ls " dir: a concatenation
        j = _skip(code, start, -1)
        if j == 0 or code[j - 1] != "=" or (j > 1 and code[j - 2] in "=!<>+-*/%^"):
            continue
        j = _skip(code, j - 1, -1)
        k = j
        floor = max(0, j - 64)
        while k > floor and (code[k - 1].isalnum() or code[k - 1] == "_"):
            k -= 1
        if k < j and not code[k].isdecimal() and (k == 0 or code[k - 1] not in "$.["):
            out.setdefault(code[k:j], {})[k] = code[start:end]
    return out


def _in_literal(lits: tuple[tuple[int, int, str], ...], starts: list[int], at: int) -> bool:
    k = bisect_right(starts, at) - 1
    return k >= 0 and at < lits[k][1]


def _params(code: str) -> set[str]:
    """Parameter names of the program's ``function``/``func`` definitions (bounded)."""
    out: set[str] = set()
    at = code.find("func")
    for _ in range(_MAX_NAMES):
        if at == -1:
            break
        opened = code.find("(", at, at + 96)
        closed = code.find(")", opened, opened + 256) if opened != -1 else -1
        if closed != -1:
            out.update(p.strip() for p in code[opened + 1:closed].split(","))
        at = code.find("func", at + 4)
    return out


def _set_outside(args: list[Field]) -> set[str]:
    """Names set outside the program: operands ``NAME=VALUE`` and ``-vNAME=VALUE``."""
    out: set[str] = set()
    for f in args:
        text = f.text
        if text.startswith("--assign="):
            text = text[len("--assign="):]
        elif text.startswith("-v") and len(text) > 2:
            text = text[2:]
        name, eq, _ = text.partition("=")
        if eq and name and (name[0].isalpha() or name[0] == "_") and \
                all(c.isalnum() or c == "_" for c in name):
            out.add(name)
    return out


def _only_literal_writes(code: str, name: str, writes: dict[int, str],
                         lits: tuple[tuple[int, int, str], ...]) -> bool:
    """Whether every write of ``name`` in ``code`` is one of ``writes``."""
    starts = [s for s, _, _ in lits]
    at = code.find(name)
    seen = 0
    while at != -1:
        seen += 1
        if seen > _MAX_USES:
            return False
        if _is_word(code, at, name) and at not in writes and not _in_literal(lits, starts, at):
            after = _skip(code, at + len(name), 1)
            before = _skip(code, at, -1)
            nxt = code[after:after + 2]
            if (nxt[:1] == "=" and nxt != "==") or nxt in _OP_ASSIGN or nxt[:1] == "[" or \
                    code[max(0, before - 2):before] in ("++", "--") or \
                    code[max(0, before - 7):before] == "getline" or \
                    code[before - 1:before] == "," or \
                    code[after:after + 3] == "in " or code[after:after + 3] == "in)":
                return False  # cmd = $0, getline cmd, sub(/x/, y, cmd), for (cmd in a)
        at = code.find(name, at + len(name))
    return True


def awk_constants(code: str, args: list[Field]) -> tuple[dict[str, str], list[str]]:
    """Names bound to one constant (its literal source: ``"date"``; ``-v cmd=date`` as a
    quoted literal) and the values of names bound only to several different literals."""
    lits = literals(code, False)
    assigned = _literal_assignments(code, lits)
    given = {k: '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
             for k, v in awk_assigns(args).items()}
    given_words = {f"{k}={v}" for k, v in awk_assigns(args).items()}
    outside = _set_outside([f for f in args if f.text not in given_words])
    if "func" in code:
        outside |= _params(code)  # a parameter shadows the global: not followed
    consts: dict[str, str] = {}
    several: list[str] = []
    for name in list(dict.fromkeys([*assigned, *given]))[:_MAX_NAMES]:
        writes = assigned.get(name, {})
        if name in outside or not _only_literal_writes(code, name, writes, lits):
            continue
        values = set(writes.values()) | ({given[name]} if name in given else set())
        if DYN in "".join(values):
            continue
        if len(values) == 1:
            consts[name] = values.pop()
        else:
            several.extend(v[1:-1] for v in sorted(values))
    return consts, several[:_MAX_NAMES]


def _starts_expr(code: str, at: int) -> bool:
    """Whether the expression holding the word at ``at`` starts there: after ``;``, a
    brace, ``(``, a newline, the start, ``else`` or ``do``."""
    before = _skip(code, at, -1)
    return before == 0 or code[before - 1] in ";{}(\n" or \
        code[max(0, before - 4):before] == "else" or code[max(0, before - 2):before] == "do"


def _run_site(code: str, at: int, name: str) -> bool:
    """Whether the word ``name`` at ``at`` is a whole command awk runs: ``system(NAME)``,
    ``NAME | getline``, ``NAME |& getline``, ``print .. | NAME``."""
    after = _skip(code, at + len(name), 1)
    before = _skip(code, at, -1)
    if code[after:after + 1] == ")" and code[max(0, before - 7):before] == "system(":
        return True
    pipe = code[after:after + 2]
    if pipe[:1] == "|" and pipe != "||" and _starts_expr(code, at):
        rest = _skip(code, after + (2 if pipe == "|&" else 1), 1)
        return code.startswith("getline", rest)
    if code[before - 1:before] == "|" and code[before - 2:before] != "||" and (
            after >= len(code) or code[after] in ";})\n"):
        floor = max(0, before - 512)
        stmt = max(code.rfind(";", floor, before), code.rfind("{", floor, before),
                   code.rfind("\n", floor, before))
        return code[stmt + 1:before].lstrip().startswith("print")
    return False


def fold_awk(code: str, args: list[Field]) -> tuple[str, list[str]]:
    """``code`` with each run of a constant-bound name replaced by its literal, and the
    values of names bound to several literals (each classified by the caller)."""
    if "=" not in code and not any(f.text in ("-v", "--assign") for f in args):
        return code, []
    consts, several = awk_constants(code, args)
    if not consts:
        return code, several
    lits = literals(code, False)
    starts = [s for s, _, _ in lits]
    edits: list[tuple[int, int, str]] = []
    for name, literal in consts.items():
        at = code.find(name)
        for _ in range(_MAX_USES):
            if at == -1:
                break
            if _is_word(code, at, name) and not _in_literal(lits, starts, at) and \
                    _run_site(code, at, name):
                edits.append((at, at + len(name), literal))
            at = code.find(name, at + len(name))
    if not edits:
        return code, several
    out: list[str] = []
    last = 0
    for start, end, text in sorted(edits):
        out.append(code[last:start])
        out.append(text)
        last = end
    out.append(code[last:])
    return "".join(out), several
