"""git commands that lose commits, stashes or uncommitted work warn (shell.git-destructive).

An agent that clears every stash, expires the reflog or rewrites history can destroy work
that exists nowhere else; the everyday forms of the same subcommands (``stash drop`` of one
entry, ``branch -D`` after a squash merge, ``reflog show``, ``rm --cached``) stay quiet.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict, classify


@pytest.mark.parametrize("command", [
    "git stash clear",
    "git -C ../repo stash clear",
    "git reflog expire --expire=now --all",
    "git reflog delete HEAD@{1}",
    "git gc --prune=now",
    "git gc --aggressive --prune=all",
    "git filter-branch --force --index-filter 'git rm --cached -r x' HEAD",
    "git filter-repo --force --path secrets --invert-paths",
    "git update-ref -d refs/heads/main",
    "git rm -rf .",
    "git rm --force -r src",
    "sudo git stash clear",
])
def test_git_commands_that_lose_work_warn(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.to_dict()
    assert "shell.git-destructive" in {f.rule_id for f in result.findings}


@pytest.mark.parametrize("command", [
    "git stash",
    "git stash pop",
    "git stash drop",               # one entry: everyday
    "git stash drop stash@{2}",
    "git branch -D old-feature",    # cleanup after a squash merge: everyday
    "git branch -d feature/old && git branch -D spike/experiment",
    "git stash list",
    "git stash show -p stash@{0}",
    "git branch -d feat",
    "git branch --delete feat",
    "git branch -vv",
    "git branch -f main HEAD~1",
    "git reflog",
    "git reflog show main",
    "git gc",
    "git filter-branch --msg-filter 'sed s/a/b/' HEAD",   # keeps refs/original
    "git filter-repo --path src",                         # refuses outside a fresh clone
    "git rm old.txt",
    "git rm -r --cached .",
    "git rm -rf --cached node_modules",
    "git update-ref refs/heads/x HEAD",
    "git log --grep 'stash drop'",
    "echo git stash clear",
])
def test_everyday_forms_of_the_same_subcommands_pass(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.to_dict()
