"""Policy documents: TOML/YAML parsing with file and line on every error."""

from __future__ import annotations

from pathlib import Path

import pytest

from deerguard._policyfile import load_document, parse_document
from deerguard.errors import PolicyError

TOML = """\
# a comment
[commands]
deny = ["rm"]
warn = [
  "sudo",
]
allow = []

[rules]
"shell.pipe-to-shell" = "block"
"""


def test_toml_keys_map_to_their_lines() -> None:
    doc = parse_document(TOML, file="p.toml")
    assert doc.data["commands"]["deny"] == ["rm"]
    assert doc.keys.line_of("commands.deny") == 3
    assert doc.keys.line_of("commands.warn") == 4
    assert doc.keys.line_of("commands.allow") == 7
    assert doc.keys.line_of("rules.shell.pipe-to-shell") == 10
    # A key with no line of its own falls back to its nearest ancestor.
    assert doc.keys.line_of("commands.deny.0") == 3


def test_document_error_fills_in_the_line() -> None:
    doc = parse_document(TOML, file="p.toml")
    err = doc.error("commands.warn", "bad value", hint="use a list")
    assert (err.file, err.line, err.key) == ("p.toml", 4, "commands.warn")


def test_toml_syntax_error_names_file_and_line() -> None:
    with pytest.raises(PolicyError) as info:
        parse_document("[a]\nb = = 1\n", file="bad.toml")
    assert info.value.file == "bad.toml"
    assert info.value.line == 2


def test_yaml_keys_and_syntax_errors_have_lines() -> None:
    doc = parse_document("roles:\n  admin:\n    tools:\n      allow: '*'\n", file="r.yaml")
    assert doc.keys.line_of("roles.admin.tools.allow") == 4
    with pytest.raises(PolicyError) as info:
        parse_document("roles:\n  admin: [\n", file="r.yaml")
    assert info.value.file == "r.yaml" and info.value.line is not None


def test_yaml_aliases_are_refused_to_rule_out_alias_bombs() -> None:
    bomb = "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n"
    with pytest.raises(PolicyError, match="aliases"):
        parse_document(bomb, file="bomb.yaml")


def test_yaml_python_tags_are_not_constructed() -> None:
    with pytest.raises(PolicyError):
        parse_document("x: !!python/object/apply:os.system ['true']\n", file="evil.yaml")


@pytest.mark.parametrize("text", ["[1, 2]\n", "just a string\n"])
def test_top_level_must_be_a_mapping(text: str) -> None:
    with pytest.raises(PolicyError, match="top level"):
        parse_document(text, file="x.yaml")


def test_unknown_format_and_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match="unknown policy format"):
        parse_document("", file="x.ini")
    with pytest.raises(PolicyError, match="cannot read"):
        load_document(tmp_path / "missing.toml")
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"a = '\xff'\n")
    with pytest.raises(PolicyError, match="cannot read"):
        load_document(latin)


def test_hostile_yaml_text_raises_policy_error_not_a_crash() -> None:
    for text in ("\ud800: x\n", "[" * 5000, "a: " + "{" * 3000):
        with pytest.raises(PolicyError):
            parse_document(text, file="hostile.yaml")


def test_yaml_data_is_built_once_from_the_composed_nodes() -> None:
    doc = parse_document("a:\n  - 1\n  - two\nb: {c: true}\n", file="x.yaml")
    assert doc.data == {"a": [1, "two"], "b": {"c": True}}
    assert doc.keys.line_of("a.1") == 3
