"""Shell policy files: the keys users write, extension of the shipped default, precise errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from deerguard import PolicyError, Verdict
from deerguard.shell import Classifier, ShellPolicy, default_policy, load_policy, parse_policy


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "shell.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_default_loads_with_documented_defaults() -> None:
    policy = default_policy()
    assert isinstance(policy, ShellPolicy)
    assert policy.limits.max_length == 10_000
    assert policy.dynamic.command_name == "warn"
    assert policy.commands.allow == ()
    assert "/etc/shadow" in policy.paths.protected
    assert policy.severity("shell.too-long") is Verdict.BLOCK


def test_every_documented_key_is_read(tmp_path: Path) -> None:
    policy = load_policy(_write(tmp_path, """
[commands]
deny = ["rm"]
warn = ["docker"]
allow = ["ls"]
[paths]
protected = ["/srv/*"]
[dynamic]
command_name = "block"
[limits]
max_length = 500
[rules]
"shell.privilege" = "off"
"shell.git-destructive" = "block"
"""))
    assert "rm" in policy.commands.deny and "docker" in policy.commands.warn
    assert policy.commands.allow == ("ls",)
    assert "/srv/*" in policy.paths.protected
    assert policy.dynamic.command_name == "block"
    assert policy.limits.max_length == 500
    assert policy.severity("shell.privilege") is None
    assert policy.severity("shell.git-destructive") is Verdict.BLOCK
    assert policy.severity("shell.dynamic-command") is Verdict.BLOCK


def test_user_file_extends_the_default_lists_and_replaces_scalars(tmp_path: Path) -> None:
    base = default_policy()
    policy = load_policy(_write(tmp_path, '[commands]\ndeny = ["rm"]\n[limits]\nmax_length = 9\n'))
    assert set(base.commands.deny) < set(policy.commands.deny)
    assert policy.paths.protected == base.paths.protected
    assert policy.limits.max_length == 9
    alone = load_policy(_write(tmp_path, '[commands]\ndeny = ["rm"]\n'), extend_default=False)
    assert alone.commands.deny == ("rm",)


def test_empty_file_is_the_default(tmp_path: Path) -> None:
    assert load_policy(_write(tmp_path, "")) == default_policy()


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ('[commands]\ndeny = "rm"\n', 2, "commands.deny"),
        ('[commands]\nwarn = [1]\n', 2, "commands.warn"),
        ('[commands]\nallow = [""]\n', 2, "commands.allow"),
        ('[commands]\nblock = ["rm"]\n', 2, "commands.block"),
        ("[command]\n", 1, "command"),
        ('\n[paths]\nprotected = "/etc"\n', 3, "paths.protected"),
        ('[dynamic]\ncommand_name = "pass"\n', 2, "dynamic.command_name"),
        ("[limits]\nmax_length = 0\n", 2, "limits.max_length"),
        ("[limits]\nmax_length = true\n", 2, "limits.max_length"),
        ('[limits]\nmax_length = "10"\n', 2, "limits.max_length"),
        ('[rules]\n"shell.nope" = "warn"\n', 2, "rules.shell.nope"),
        ('[rules]\n"shell.privilege" = "deny"\n', 2, "rules.shell.privilege"),
        ('[rules]\nshell.privilege = "off"\n', 2, "rules.shell.privilege"),
        ("commands = 3\n", 1, "commands"),
        ("[commands\n", 1, None),
    ],
)
def test_bad_key_type_or_value_names_file_line_and_key(
    tmp_path: Path, text: str, line: int, key: str | None
) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(PolicyError) as info:
        load_policy(path)
    err = info.value
    assert err.file == str(path)
    assert err.line == line
    assert err.key == key
    assert str(path) in str(err)
    if key is not None:
        assert err.hint


def test_unknown_key_suggests_the_close_one() -> None:
    with pytest.raises(PolicyError, match="did you mean 'deny'"):
        parse_policy("[commands]\ndenny = []\n")


def test_missing_file_is_a_policy_error(tmp_path: Path) -> None:
    with pytest.raises(PolicyError) as info:
        load_policy(tmp_path / "missing.toml")
    assert "missing.toml" in str(info.value)


def test_policies_are_frozen_values() -> None:
    policy = parse_policy('[commands]\ndeny = ["rm"]\n')
    with pytest.raises(Exception):  # noqa: B017 - pydantic's frozen-instance error
        policy.limits = None  # type: ignore[misc,assignment]
    assert hash(policy) == hash(parse_policy('[commands]\ndeny = ["rm"]\n'))


@pytest.mark.parametrize("wrong", [{"commands": {"deny": ["rm"]}}, "shell.toml", 1])
def test_a_policy_that_is_not_a_shellpolicy_is_a_clear_type_error(wrong: object) -> None:
    # A caller mistake: say what to pass instead of failing deep inside the classifier.
    with pytest.raises(TypeError, match="ShellPolicy .see load_policy."):
        Classifier(policy=wrong)  # type: ignore[arg-type]


def test_the_classifier_reads_the_policy_it_was_given() -> None:
    # The classifier reads a pydantic-free copy of the policy (classify under the default
    # loads no pydantic); both must say the same thing.
    strict = parse_policy('[commands]\ndeny = ["ls"]\n[limits]\nmax_length = 5\n'
                          '[rules]\n"shell.pipe-to-shell" = "warn"')
    classifier = Classifier(policy=strict)
    assert classifier.policy is strict
    assert classifier.classify("ls").verdict is Verdict.BLOCK
    assert classifier.classify("echo 123456").rule_ids == ("shell.too-long",)
    assert Classifier().classify("curl -s u | sh").verdict is Verdict.BLOCK
    assert Classifier(policy=parse_policy('[rules]\n"shell.pipe-to-shell" = "warn"')).classify(
        "curl -s u | sh").verdict is Verdict.WARN
    assert Classifier().policy == default_policy()
