"""Properties of the shell parser: totality, spans, coverage, and targeted semantics.

Hypothesis draws from a shell-flavoured alphabet (quotes, operators, keywords, heredoc
markers) so the properties exercise real constructs, not only random text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_shell_parse_support import check_coverage, check_spans

from deerguard.shell import ast
from deerguard.shell._lexer import decode_ansi_c
from deerguard.shell._parse import parse

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "shell" / "parse" / "commands.jsonl"

_TOKENS = [
    " ", "\t", "\n", ";", "&", "|", "&&", "||", "|&", "(", ")", "((", "))", "{", "}", "[[", "]]",
    "<", ">", "<<", "<<-", "<<<", ">>", "&>", "2>&1", "'", '"', "`", "\\", "\\\n", "$", "$(",
    "${", "$((", "$'", '$"', "#", "~", "=", "+=", "[", "]", ",", "..", "*", "?", "@(", "!",
    "if", "then", "elif", "else", "fi", "for", "in", "do", "done", "while", "until", "case",
    "esac", ";;", ";&", ";;&", "select", "function", "coproc", "time", "-p", "EOF", "x", "a=",
    "a[i]=", "echo", "\\x41", "\\u00e9", "\0", "\ud800", "é",
]  # fmt: skip
shellish = st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join)
anything = st.text(max_size=200)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.one_of(shellish, anything))
def test_parse_never_raises_and_spans_are_in_bounds_and_nest(source: str) -> None:
    script = parse(source)
    assert script.span == (0, len(source))
    check_spans(script, source)
    assert all(0 <= issue.offset <= len(source) for issue in script.issues)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.one_of(shellish, anything))
def test_every_character_is_in_one_statement_heredoc_comment_or_whitespace(source: str) -> None:
    script = parse(source)
    if any("internal parser error" in issue.message for issue in script.issues):
        pytest.fail(f"internal error on {source!r}")
    check_coverage(script, source)


@settings(max_examples=200, deadline=None)
@given(shellish)
def test_parse_is_deterministic(source: str) -> None:
    assert parse(source) == parse(source)


_WORDS = ["a", "'q r'", '"$x y"', "$(d e)", "{1,2}", "a\\ b", "`f g`", "${x:-a b}", "x=1", "~/p"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1), st.sampled_from([" ", "\t", "  "]))
def test_command_words_keep_their_boundaries(words: list[str], sep: str) -> None:
    source = "echo" + "".join(sep + w for w in words)
    cmd = parse(source).statements[0].command
    assert isinstance(cmd, ast.SimpleCommand)
    assert [source[w.span[0] : w.span[1]] for w in cmd.words] == ["echo", *words]


# --- corpus-wide properties ---------------------------------------------------------------


def test_corpus_has_at_least_300_commands_and_all_parse_with_clean_spans() -> None:
    commands = [json.loads(line)["command"] for line in CORPUS.read_text().splitlines()]
    assert len(commands) >= 300
    for command in commands:
        script = parse(command)
        check_spans(script, command)
        check_coverage(script, command)


# --- totality and depth -------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "$(" * 10_000,
        "(" * 10_000,
        "{ " * 10_000,
        '"$(' * 5_000,
        "${x:-" * 5_000,
        "`" * 10_001,
        "$((" * 5_000,
        "if " * 5_000,
        "\\`" * 3_000 + "`",
    ],
    ids=["cmdsubst", "subshell", "group", "dq-subst", "param", "backticks", "arith", "if", "esc"],
)
def test_hostile_nesting_returns_with_an_issue_instead_of_recursing(source: str) -> None:
    script = parse(source)
    assert script.issues
    check_spans(script, source)


def test_nul_surrogates_and_garbage_never_raise() -> None:
    for source in ["\0", "\ud800$(\udfff", "a\0b|c\0", "".join(chr(c) for c in range(0x300))]:
        script = parse(source)
        check_spans(script, source)
    garbage = (";)|&<>(\"'`$\\{}\n\0é" * 70_000)[:1_000_000]
    assert parse(garbage).issues


def test_deep_nesting_limit_reports_the_offset_where_parsing_stopped() -> None:
    source = "echo " + "$(" * 500 + "x" + ")" * 500
    script = parse(source)
    [issue] = [i for i in script.issues if "nesting" in i.message]
    assert 5 < issue.offset < len(source)
    assert not issue.incomplete


@pytest.mark.parametrize(
    "source",
    ["( " * 60 + "ls" + " )" * 60, "echo " + "$(" * 60 + "x" + ")" * 60,
     "if true; then " * 60 + "ls" + "; fi" * 60, "echo " + "$((" * 60 + "1" + "))" * 60,
     "echo " + "${x:-" * 60 + "}" * 60],
    ids=["subshell", "cmdsubst", "if", "arith", "param"],
)
def test_nesting_limit_is_the_same_from_any_reasonable_call_depth(source: str) -> None:
    """The limit is fixed, not the caller's remaining stack: the same input gives the same
    tree (and the same "nesting deeper than 48 levels" issue) from 200 frames down."""

    def nested(depth: int) -> ast.Script:
        return parse(source) if depth == 0 else nested(depth - 1)

    top = parse(source)
    assert any("nesting deeper than 48 levels" in i.message for i in top.issues)
    assert nested(200) == top


# --- semantics the classifier relies on ---------------------------------------------------


def _simple(source: str) -> ast.SimpleCommand:
    cmd = parse(source).statements[0].command
    assert isinstance(cmd, ast.SimpleCommand), cmd
    return cmd


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("r''m", "rm"),
        ('"r"m', "rm"),
        ("\\rm", "rm"),
        ("$'\\x72m'", "rm"),
        ("$'\\162\\155'", "rm"),
        ("$'\\u0072m'", "rm"),
        ("$'r\\0m'", "r"),
        ("$'\\cA'", "\x01"),
        ("'a b'", "a b"),
        ('"a\\"b"', 'a"b'),
        ('"a\\b"', "a\\b"),
        ("a\\\nb", "ab"),
        ("$x", None),
        ("*.py", None),
        ("{a,b}", None),
        ("~", None),
        ("a$(b)", None),
        ("'{a,b}'", "{a,b}"),
        ("@(a|b)", None),
    ],
)
def test_literal_value_is_the_word_after_quote_removal_or_none(source: str, value: str) -> None:
    assert _simple("echo " + source).words[1].literal_value() == value


def test_assignment_words_only_before_the_command_name() -> None:
    cmd = _simple("X=1 a[i]=v b=(x y) C+=z cmd D=2")
    assert [a.name for a in cmd.assignments] == ["X", "a", "b", "C"]
    assert cmd.assignments[1].index is not None
    assert cmd.assignments[2].array is not None and len(cmd.assignments[2].array) == 2
    assert cmd.assignments[3].append
    assert [w.literal_value() for w in cmd.words] == ["cmd", "D=2"]


def test_heredoc_body_starts_after_the_line_even_inside_substitution() -> None:
    source = "echo $(cat <<EOF) tail\nbody $x\nEOF\nnext"
    script = parse(source)
    assert not script.issues
    docs: list[ast.Heredoc] = []
    ast.walk(script, lambda n: docs.append(n) if isinstance(n, ast.Heredoc) else None)
    [doc] = docs
    assert source[doc.span[0] : doc.span[1]] == "body $x\n"
    assert any(isinstance(p, ast.ParamExp) and p.name == "x" for p in doc.parts)
    assert [s.command.words[0].literal_value() for s in script.statements] == ["echo", "next"]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("delimiter", "quoted"), [("EOF", False), ("'EOF'", True), ('"EOF"', True), ('E"O"F', True)]
)
def test_quoted_heredoc_delimiters_keep_the_body_literal(delimiter: str, quoted: bool) -> None:
    source = f"cat <<{delimiter}\n$(id)\nEOF\n"
    doc = _simple(source).redirects[0].heredoc
    assert doc is not None and doc.delimiter == "EOF" and doc.quoted is quoted
    has_subst = any(isinstance(p, ast.CmdSubst) for p in doc.parts)
    assert has_subst is not quoted


def test_strip_tabs_heredoc_text_drops_leading_tabs() -> None:
    doc = _simple("cat <<-EOF\n\t\tx\n\tEOF\n").redirects[0].heredoc
    assert doc is not None and doc.text == "x\n" and doc.strip_tabs and doc.terminated


def test_unterminated_heredoc_is_incomplete() -> None:
    script = parse("cat <<EOF\nbody")
    assert script.incomplete
    doc = script.statements[0].command.redirects[0].heredoc  # type: ignore[union-attr]
    assert doc is not None and not doc.terminated and doc.text == "body"


def test_shift_inside_arithmetic_is_not_a_heredoc() -> None:
    script = parse("echo $((1 << 2))\nEOF")
    assert not script.issues and len(script.statements) == 2


def test_comment_only_at_word_start() -> None:
    script = parse("echo a#b # real comment\n")
    assert [c.text for c in script.comments] == [" real comment"]
    assert _simple("echo a#b").words[1].literal_value() == "a#b"


@pytest.mark.parametrize(
    ("source", "kind"),
    [("((x))", ast.ArithCommand), ("( (x) )", ast.Subshell), ("[[ a < b ]]", ast.TestCommand)],
)
def test_double_paren_and_test_command_forms(source: str, kind: type) -> None:
    script = parse(source)
    assert isinstance(script.statements[0].command, kind)
    assert not script.issues


def test_test_command_keeps_angle_brackets_as_operator_words() -> None:
    cmd = parse("[[ $a < $b ]]").statements[0].command
    assert isinstance(cmd, ast.TestCommand)
    assert [w.literal_value() for w in cmd.words] == [None, "<", None]
    assert cmd.redirects == ()


@pytest.mark.parametrize(
    ("text", "decoded"),
    [
        ("\\x41\\x4a", "AJ"),
        ("\\u00e9\\U0001F600", "é\U0001f600"),
        ("\\101\\7", "A\x07"),
        ("\\cA\\c?", "\x01\x7f"),
        ("\\a\\b\\e\\E\\f\\n\\r\\t\\v\\\\\\'\\\"\\?", "\a\b\x1b\x1b\f\n\r\t\v\\'\"?"),
        ("\\xff", "\udcff"),
        ("\\q", "\\q"),
        ("a\\0b", "a"),
    ],
)
def test_ansi_c_decoding_matches_bash(text: str, decoded: str) -> None:
    assert decode_ansi_c(text) == decoded


@pytest.mark.parametrize("closing", ["EOF)", "EOF   )", "EOF\n)"])
def test_heredoc_inside_substitution_may_end_at_the_closing_paren(closing: str) -> None:
    source = f"x=$(cat <<'EOF'\nbody\n{closing}; echo after"
    script = parse(source)
    assert not script.issues
    assert len(script.statements) == 2
    assign = script.statements[0].command.assignments[0]  # type: ignore[union-attr]
    assert assign.value is not None
    [subst] = assign.value.parts
    assert isinstance(subst, ast.CmdSubst)
    doc = subst.body[0].command.redirects[0].heredoc  # type: ignore[union-attr]
    assert doc is not None and doc.text == "body\n"


def test_delimiter_followed_by_paren_outside_substitution_is_body_text() -> None:
    script = parse("( cat <<EOF\na\nEOF)\nEOF\n)")
    assert not script.issues
    doc = script.statements[0].command.body[0].command.redirects[0].heredoc  # type: ignore[union-attr]
    assert doc is not None and doc.text == "a\nEOF)\n"


def test_nul_character_is_reported() -> None:
    script = parse("ls\0; rm -rf /")
    assert [(i.offset, i.incomplete) for i in script.issues] == [(2, False)]
    assert len(script.statements) == 2


def test_large_parse_leaves_the_garbage_collector_as_it_found_it() -> None:
    """Parsing large input pauses the cyclic GC (it rescans the growing tree) and restores it."""
    import gc

    big = "echo a | b && c; " * 2000
    assert gc.isenabled()
    parse(big)
    assert gc.isenabled()
    gc.disable()
    try:
        parse(big)
        assert not gc.isenabled(), "a caller's disabled GC stays disabled"
    finally:
        gc.enable()
