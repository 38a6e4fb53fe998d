"""``norm_path``: every spelling of a path normalizes to one text, dot files included.

The classifier matches normalized paths against its globs (``~/.ssh/*``, ``/etc/shadow``), so
``~/./.ssh``, ``~/.aws/../.ssh/`` and ``~/.ssh`` must all read as ``~/.ssh``. Dot files
(``~/.kaggle``, ``x/.env``) are plain components: they take the fast path, while ``.`` and
``..`` components, empty components and ``~user`` are resolved.
"""

from __future__ import annotations

import pytest

from deerguard.shell._paths import norm_path
from deerguard.shell._words import DYN


@pytest.mark.parametrize("text, cwd, expected", [
    ("~/.kaggle/", None, "~/.kaggle"),
    ("~/.kaggle/kaggle.json", None, "~/.kaggle/kaggle.json"),
    ("~/./.ssh", None, "~/.ssh"),
    ("~/.aws/../.ssh/", None, "~/.ssh"),
    ("~//.ssh", None, "~/.ssh"),
    ("~/.", None, "~"),
    ("~/..", None, "~"),
    ("~/../bob/.ssh", None, "/home/bob/.ssh"),
    ("~bob/.ssh", None, "/home/bob/.ssh"),
    ("/etc/./shadow", None, "/etc/shadow"),
    ("/etc/.", None, "/etc"),
    ("/etc/..", None, "/"),
    ("/a/.b/", None, "/a/.b"),
    ("/a/..b/c", None, "/a/..b/c"),
    ("x/.env", None, "x/.env"),
    ("x/.env", "/w", "/w/x/.env"),
    (".env", "/w", "/w/.env"),
    ("./.env", "/w", "/w/.env"),
    ("../.env", "/w/p", "/w/.env"),
])
def test_spellings_of_a_path_normalize_to_one_text(text: str, cwd: str | None,
                                                     expected: str) -> None:
    assert norm_path(text, cwd) == expected


@pytest.mark.parametrize("text", ["", DYN, f"~/{DYN}/.ssh", f"/etc/{DYN}"])
def test_empty_and_dynamic_texts_are_not_paths(text: str) -> None:
    assert norm_path(text) is None
