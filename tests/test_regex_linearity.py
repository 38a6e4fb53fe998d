"""No reader regex in the package has the quadratic whitespace shape.

A run of whitespace, an optional atom or group, then another run of the same whitespace
(``open\\s*\\(?\\s*``, ``for[ \\t]*(?:await[ \\t]*)?\\(?[ \\t]*``), none of them possessive,
backtracks over every split of a long whitespace run: ``perl -e 'open`` followed by 9,000
spaces took 1.2 s before its runs were made possessive (``\\s*+``). The fuzzers do not build
such runs, so this reads every ``re.compile`` pattern in ``deerguard/`` (string constants of
the pattern expression joined) and fails on the shape.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "deerguard"
_WS = r"(?:\\s|\[ \\t\]|\[ \\t\\n\]|\[\\s\]| )"
_RUN = _WS + r"[*+](?![+?])"
# an escaped character, a class, a plain character, or a short group without a quantified
# whitespace run of its own being possessive
_ATOM = r"(?:\\.|\[[^\]]*\]|[^\\\[\](){}*+?|]|\((?:\?:)?[^()]{0,40}\))"
SHAPE = re.compile(_RUN + r"(?:" + _ATOM + r"\?){1,4}" + _RUN)


def _patterns() -> list[tuple[str, int, str]]:
    out: list[tuple[str, int, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "compile" \
                    and node.args:
                pieces = [n.value for n in ast.walk(node.args[0])
                          if isinstance(n, ast.Constant) and isinstance(n.value, str)]
                out.append((str(path.relative_to(PACKAGE.parent)), node.lineno,
                            "".join(pieces)))
    return out


def test_the_lint_recognizes_the_shape_it_guards_against() -> None:
    assert SHAPE.search(r"\bopen\s*\(?\s*(?:my\s+)?")
    assert SHAPE.search(r"for[ \t]*(?:await[ \t]*)?\(?[ \t]*x")
    assert not SHAPE.search(r"\bopen\s*+\(?\s*+")
    assert not SHAPE.search(r"key\s*=\s*value")


@pytest.mark.parametrize(("where", "line", "pattern"), _patterns())
def test_no_regex_has_two_whitespace_runs_around_an_optional_atom(
        where: str, line: int, pattern: str) -> None:
    assert SHAPE.search(pattern) is None, (
        f"{where}:{line}: two whitespace runs around an optional atom backtrack "
        f"quadratically on a long run; make them possessive (\\s*+): {pattern[:120]!r}")
