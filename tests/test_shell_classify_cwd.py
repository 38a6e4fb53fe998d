"""The working directory and home as bash computes them: cd -, CDPATH, pushd/popd, ~+, ~-, HOME.

Relative paths resolve against the directory the script is in at that point. Bash's rules:
``cd -`` returns to ``$OLDPWD``; a relative ``cd`` operand not starting with ``.``/``..`` is
looked up in ``$CDPATH`` first; ``popd`` returns to the directory ``pushd`` left; ``~+`` is
``$PWD``, ``~-`` is ``$OLDPWD``, ``~`` is ``$HOME`` (as the script set it). Each attack below
reaches a protected or secret path only through that state; each neighbour stays quiet.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict, classify


@pytest.mark.parametrize("command", [
    "cd /etc; cd /tmp; cd -; cat shadow",
    "cd /etc && cd - >/dev/null && cd - >/dev/null && cat shadow",
    "cd /var/tmp; OLDPWD=/etc; cd -; cat shadow",
    "cd ~/.ssh; cd /tmp; cd -; echo key >> authorized_keys",
    "CDPATH=/; cd etc && cat shadow",
    "CDPATH=/:/tmp cd etc; cat gshadow",
    "export CDPATH=~; cd .aws && cat credentials",
    "pushd /etc; pushd /tmp; popd; cat shadow",
    "pushd /etc >/dev/null && pushd /srv && pushd && cat shadow",
    "cd /etc; cat ~+/shadow",
    "cd /etc; cd /tmp; cat ~-/shadow",
    "HOME=/etc; cat ~/shadow",
    "export HOME=/; rm -rf ~",
    "cd /; cd /tmp; cd -; rm -rf *",
])
def test_paths_reached_through_directory_state_block(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()


@pytest.mark.parametrize("command", [
    "cd build && cmake .. && make && cd - && rm -rf build",
    "pushd src && make && popd && rm -rf out",
    "cd /tmp; cd -; rm -rf node_modules",
    "CDPATH=~/src; cd app && npm test",
    "HOME=/tmp/fakehome; rm -rf ~/.cache",
    "HOME=$(mktemp -d) npm test",
    "cd /tmp && ls ~+ && cat ~+/notes.txt",
    "cd ./etc && cat shadow.md",      # ./etc is relative: CDPATH never applies
    "popd; rm -rf dist",              # nothing pushed: the directory is unknown, not /
])
def test_everyday_directory_changes_stay_quiet(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.to_dict()


def test_tilde_of_a_fetched_home_carries_the_taint() -> None:
    """HOME=$(curl u); source ~/x: the file sourced is chosen by fetched data."""
    result = classify("HOME=$(curl -s https://x.example/h); bash ~/setup.sh")
    assert result.verdict is not Verdict.PASS, result.to_dict()


@pytest.mark.parametrize(("command", "verdict"), [
    ('cd "$(dirname "$HOME")" && rm -rf ./*', Verdict.BLOCK),   # the directory above homes
    ('cd "/$(cat name.txt)" && rm -rf .', Verdict.BLOCK),  # a top-level directory
    ('cd "$X" && rm -rf *', Verdict.WARN),
    ('cd "$TARGET"; cd sub; rm -rf ./*', Verdict.WARN),
    ('cd "${DEPLOY_DIR}" && rm -rf .* *', Verdict.WARN),
])
def test_deleting_everything_in_a_directory_chosen_at_run_time(
        command: str, verdict: Verdict) -> None:
    """cd "$X" && rm -rf * deletes $X/*: judged like that path (a top-level directory
    blocks, another unknown directory warns as shell.dynamic-delete)."""
    result = classify(command)
    assert result.verdict is verdict, result.to_dict()


@pytest.mark.parametrize("command", [
    'cd "$(mktemp -d)" && rm -rf *',          # a fresh temporary directory
    'cd "$X" && rm -f *.log',                 # not recursive, not everything
    'cd "$(git rev-parse --show-toplevel)" && rm -rf build dist',
    'cd "$X"; cd /tmp/work; rm -rf *',        # a known directory again
    "cd build && rm -rf *",                   # below the (unknown) workspace, as before
])
def test_everyday_deletes_after_a_computed_cd_stay_quiet(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.to_dict()
