"""Table tests for the shell parser: input -> expected tree (compact dump), per construct."""

from __future__ import annotations

import pytest
from test_shell_parse_support import check_coverage, check_spans, dump

from deerguard.shell._parse import parse

SIMPLE = [
    ("echo hi | grep h", "[(echo hi) | (grep h)]"),
    ("X=1 a=(x y) cmd \"a $b\" 'c' && ls", '{(X=1 a=(x y) cmd "a $b" \'c\') && (ls)}'),
    ("a; b & c\n", "(a); (b)& (c)\\n"),
]


@pytest.mark.parametrize(("source", "expected"), SIMPLE)
def test_parse_builds_expected_tree(source: str, expected: str) -> None:
    script = parse(source)
    assert dump(script) == expected
    assert script.issues == ()
    check_spans(script, source)
    check_coverage(script, source)
