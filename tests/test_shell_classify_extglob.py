"""Extended globs and broad globs in paths: ``rm -rf ~/!(keep)`` is ``rm -rf ~/*``.

bash's ``extglob`` groups (``@(a|b)``, ``!(x)``, ``?(x)``, ``*(x)``, ``+(x)``) name paths
like plain globs do, and a glob that matches nearly every entry of a critical directory
(``~/.[!.]*``, ``~/[a-z]*``) deletes it as surely as ``~/*``.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict, classify
from deerguard.shell._extglob import plain_glob


@pytest.mark.parametrize(("text", "expected"), [
    ("~/!(keep)", "~/*"),
    ("/@(etc|usr)", "/*"),
    ("/etc/sha@(dow)", "/etc/shadow"),
    ("/etc/@(@(shadow))", "/etc/shadow"),
    ("a@(b@(c|d))e", "ab*e"),
    ("x?(y)z", "x*z"),
    ("+(a|b).txt", "*.txt"),
    ("*(x)", "*"),
    ("plain/path", "plain/path"),
    ("f(x)", "f(x)"),            # no opener before "(": not a group
    ("!(unclosed", "!(unclosed"),
    ("a\\@(b)", "a\\@(b)"),      # an escaped opener is literal
])
def test_plain_glob_covers_each_extended_group(text: str, expected: str) -> None:
    assert plain_glob(text) == expected


def test_plain_glob_is_bounded_on_deep_nesting() -> None:
    deep = "@(" * 5000 + "x" + ")" * 5000
    assert plain_glob(deep) == "*"
    assert plain_glob("(" * 5000 + ")" * 5000) == "(" * 5000 + ")" * 5000


@pytest.mark.parametrize("command", [
    "rm -rf ~/!(keep)",
    "rm -rf ~/!(.|..)",
    "shopt -s extglob; rm -rf ~/!(x)",
    "rm -rf /@(etc|usr)",
    "rm -fr /@(e*)",
    "rm -rf $HOME/+(?)*",
    "find ~/!(x) -delete",
    "rm -rf ~/.[!.]*",
    "rm -rf ~/.??*",
    "rm -rf ~/.*",
    "rm -rf ~/[a-z]*",
    "rm -rf ~/[!.]*",
    "rm -rf /home/*/[a-z]*",
    "rm -rf /usr/?*",
])
def test_extended_and_broad_globs_over_critical_directories_block(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.recursive-delete" in {f.rule_id for f in result.findings}


@pytest.mark.parametrize(("command", "rule"), [
    ("cat /etc/sha@(dow)", "shell.sensitive-read"),
    ("cat ~/.ss@(h|x)/id_rsa", "shell.sensitive-read"),
    ("echo x > ~/.bash@(rc)", "shell.persistence"),
    ("cp k ~/.ssh/authorized_@(keys)", "shell.persistence"),
])
def test_extended_globs_name_sensitive_and_persistence_paths(command: str, rule: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK
    assert rule in {f.rule_id for f in result.findings}


@pytest.mark.parametrize("command", [
    "rm -rf ~/*.log",             # only the .log files of the home directory
    "rm -rf ~/.c*",               # a prefix narrows the glob
    "rm -rf ./*",
    "rm -rf build/!(keep)",
    "rm -rf node_modules/@(a|b)",
    "rm -rf /tmp/@(a|b)",
    "rm -rf /tmp/.*",
    "rm -rf ~/projects/*",
    "rm -rf ~/.cache/*",
    "rm -rf /var/lib/apt/lists/*",
    "ls !(*.txt)",
    "echo 'rm -rf ~/!(x)'",
    "cp -r src/@(a|b) dist/",
])
def test_narrow_and_project_globs_pass(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.to_dict()
