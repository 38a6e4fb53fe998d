"""The shell classifier's rules and vocabularies, as frozen data.

Each rule has a stable id (``shell.pipe-to-shell``), a default severity and a message. A policy
can change a rule's severity or turn it off (``[rules] "shell.privilege" = "off"``); the
classifier itself never hard-codes a severity. The command vocabularies below (fetchers,
shells, interpreters, sensitive paths...) are what the classifier reasons with; they are data
so they can be reviewed and extended in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .._result import Verdict
from ._credpaths import APP_STORE_GLOBS, CREDENTIAL_DIRS, TOKEN_FILE_GLOBS

__all__ = ["RULES", "Rule"]


@dataclass(frozen=True, slots=True)
class Rule:
    """A classifier rule: its id, the verdict it implies by default, and what it means."""

    rule_id: str
    severity: Verdict
    summary: str


_B, _W = Verdict.BLOCK, Verdict.WARN

_RULE_LIST: tuple[Rule, ...] = (
    Rule("internal-error", _B, "the classifier failed internally; failing closed"),
    Rule("shell.too-long", _B, "command is longer than limits.max_length"),
    Rule("shell.parse-incomplete", _W, "command does not parse cleanly"),
    Rule("shell.nul-byte", _B, "command contains a NUL byte (what runs differs from the text)"),
    Rule("shell.nesting-too-deep", _B, "nested code or syntax deeper than the classifier follows"),
    Rule("shell.denied-command", _B, "program is on the policy's deny list"),
    Rule("shell.warned-command", _W, "program is on the policy's warn list"),
    Rule("shell.not-allowed", _B, "program is not on the policy's allow list"),
    Rule("shell.protected-path", _B, "command names a protected path"),
    Rule("shell.dynamic-command", _W, "program name cannot be resolved statically"),
    Rule("shell.dynamic-code", _W, "code string cannot be resolved statically"),
    Rule("shell.pipe-to-shell", _B, "output of a command is piped into a shell or interpreter"),
    Rule("shell.tainted-exec", _B, "fetched or decoded data reaches an execution sink"),
    Rule("shell.download-exec", _B, "a downloaded or decoded file is executed"),
    Rule("shell.recursive-delete", _B, "recursive delete of the root, home or a system directory"),
    Rule("shell.data-delete", _B, "recursive delete of a database's or a package manager's "
         "data directory (/var/lib/postgresql, /var/lib/mysql, /var/lib/dpkg)"),
    Rule("shell.dynamic-delete", _W, "recursive delete of a path that is not known statically"),
    Rule("shell.disk-write", _B, "raw write to a disk device or filesystem creation"),
    Rule("shell.kill-all", _B, "signals every process or init (kill -9 -1, kill 1)"),
    Rule("shell.fork-bomb", _B, "unbounded process creation (fork bomb)"),
    Rule("shell.sensitive-read", _B, "reads a secret: password hashes, keys, credentials"),
    Rule("shell.exfiltration", _B, "secrets or the environment flow to a network tool"),
    Rule("shell.secret-in-request", _W, "a secret-named variable is sent in a URL, body or "
         "gh text field, or a service's token in a header to another host"),
    Rule("shell.secret-display", _W, "prints a stored password or token to the terminal "
         "(git credential fill, security find-generic-password -w, gh auth token)"),
    Rule("shell.ssh-agent", _W, "uses, relays or forwards an ssh agent other than the "
         "session's own (SSH_AUTH_SOCK found under /tmp, ssh -A to an unchecked host)"),
    Rule("shell.reverse-shell", _B, "network-connected shell or raw /dev/tcp socket"),
    Rule("shell.container-escape", _B, "gives a container or namespace the host (privileged, "
         "host namespaces, host root or docker socket mounts)"),
    Rule("shell.secret-mount", _W, "mounts a credential file or folder of the host into a "
         "container (docker run -v ~/.aws:/root/.aws): the image can read every key in it"),
    Rule("shell.network-expose", _W, "opens a port of this machine to other hosts (ssh -R, "
         "ngrok, cloudflared tunnel)"),
    Rule("shell.persistence", _B, "writes shell startup files, ssh keys, sudoers or cron, or "
         "grants cloud/cluster admin rights or mints long-lived cloud keys"),
    Rule("shell.ssh-config", _W, "writes a user's ssh client config with settings known "
         "statically that run no program (Host, HostName, User, IdentityFile): it decides "
         "where later ssh and git connections go"),
    Rule("shell.system-write", _B, "writes to /etc or to system binaries"),
    Rule("shell.loader-hijack", _B, "sets LD_PRELOAD or LD_LIBRARY_PATH"),
    Rule("shell.interpreter-hook", _W, "an environment variable makes an interpreter load a "
         "file's code first (NODE_OPTIONS=--require, RUBYOPT=-r, PERL5OPT=-M, "
         "JAVA_TOOL_OPTIONS=-javaagent, PYTHONSTARTUP) or opens a debugger to the network"),
    Rule("shell.package-install", _W, "installs or removes packages"),
    Rule("shell.package-source", _W, "points later package installs or clones at another "
         "source (pip index-url, npm registry, git url.insteadOf, PIP_INDEX_URL)"),
    Rule("shell.privilege", _W, "runs with elevated privileges (sudo, su, doas) or grants "
         "cloud/cluster permissions"),
    Rule("shell.path-change", _W, "changes PATH"),
    Rule("shell.chmod-world", _W, "makes files world-writable or setuid"),
    Rule("shell.git-destructive", _W, "discards or overwrites git history or files"),
    Rule("shell.git-config-exec", _W, "git -c can run arbitrary programs through config"),
    Rule("shell.vcs-config-exec", _W, "hg --config or svn --config-option sets a key that "
         "runs a program (ui.ssh, hooks.*, config:tunnels)"),
    Rule("shell.git-hook", _W, "writes a git hook, which later git commands run"),
    Rule("shell.deferred-exec", _W, "writes fetched data or code into a file a tool runs "
         "later by itself (conftest.py, package.json, Makefile, .vscode/tasks.json, .pth), "
         "or starts a command later or detached (at, systemd-run --on-calendar)"),
    Rule("shell.resource-destroy", _W, "destroys cloud, cluster, volume or database "
         "resources (terraform destroy, DROP DATABASE, aws s3 rb)"),
    Rule("shell.mass-destroy", _B, "destroys a whole database, stack, project or bucket, or "
         "everything of a kind, unattended (kubectl delete --all, terraform destroy "
         "-auto-approve, DROP DATABASE, FLUSHALL, a target list computed at run time)"),
    Rule("shell.repo-export", _W, "pushes the repository to a host named only in the same "
         "command (git push URL HEAD, git remote add x URL && git push x --all), or sends "
         "an archive of the working tree to a network tool (tar czf - . | nc h p)"),
    Rule("shell.rg-pre", _W, "rg --pre runs a program on every searched file"),
    # Defenses (_defense, _tamper, _tlsoff). Block: turning off audit, SELinux/AppArmor, an
    # EDR agent, the firewall or kernel hardening, setuid-root shells and wiping system logs
    # or history have no everyday agent use and outlive the command. Warn: knobs debuggers
    # and profilers use, history settings (an agent's shell keeps none anyway), TLS off.
    Rule("shell.defense-off", _B, "turns off a host security control (SELinux, AppArmor, "
         "audit, EDR agents, the firewall, ASLR, Gatekeeper/SIP)"),
    Rule("shell.defense-weaken", _W, "weakens a security control for debugging or one "
         "program (ptrace_scope=0, AppArmor complain mode, quarantine flag removed)"),
    Rule("shell.privilege-bypass", _B, "runs as root past a sudoers rule that forbids root "
         "(sudo -u#-1, CVE-2019-14287: user id -1 is read as 0)"),
    Rule("shell.setuid-backdoor", _B, "makes a shell, interpreter or command runner setuid "
         "or gives it root capabilities (setcap cap_setuid+ep, chmod u+s)"),
    Rule("shell.recovery-off", _B, "deletes shadow copies or backups, or turns off system "
         "recovery (vssadmin delete shadows, wbadmin delete catalog, bcdedit recoveryenabled no)"),
    Rule("shell.log-wipe", _B, "erases system logs, the journal or shell history "
         "(anti-forensics)"),
    Rule("shell.history-off", _W, "turns off or clears the shell history (history -c, "
         "unset HISTFILE, HISTSIZE=0)"),
    Rule("shell.tls-off", _W, "turns off TLS certificate verification for later commands "
         "(GIT_SSL_NO_VERIFY, http.sslVerify false, strict-ssl false)"),
)

RULES: MappingProxyType[str, Rule] = MappingProxyType({r.rule_id: r for r in _RULE_LIST})
"""Every rule by id (read-only)."""


def _fs(*names: str) -> frozenset[str]:
    return frozenset(names)


SHELLS = _fs("sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "yash", "fish", "rbash",
             "csh", "tcsh", "pdksh", "busybox-sh", "xonsh",
             # Other builds and forks of the Bourne/Korn shells (AT&T ksh93 and ksh2020,
             # OpenBSD ksh ports, Debian's posh, schily's bosh, busybox hush, static builds).
             "ksh93", "ksh2020", "ksh88", "lksh", "oksh", "loksh", "posh", "bosh", "jsh",
             "hush", "rksh", "rzsh", "bash-static", "zsh-static", "sash",
             # Shells of their own syntax whose simple commands read like sh's (``nu -c``,
             # ``elvish -c``), and the Oils shells (osh runs bash scripts, ysh its own).
             "nu", "nushell", "elvish", "osh", "ysh")
"""Programs that run shell code: from ``-c``, a script file, or stdin."""

# Interpreter -> the flags whose argument is inline code.
INTERPRETER_CODE_FLAGS: MappingProxyType[str, frozenset[str]] = MappingProxyType({
    "python": _fs("-c"),
    "perl": _fs("-e", "-E"),
    "ruby": _fs("-e"),
    "node": _fs("-e", "--eval", "-p", "--print"),
    "php": _fs("-r", "-R", "-B", "-E"),  # -R/-B/-E: per input line, before, after
    "lua": _fs("-e"),
    "deno": _fs("eval"),
    "bun": _fs("-e", "--eval", "-p", "--print"),
    "osascript": _fs("-e"),
    "julia": _fs("-e", "--eval", "-E", "--print"),
    "pwsh": _fs("-c", "-command", "-Command"),
    "Rscript": _fs("-e"),
    "R": _fs("-e"),
    "expect": _fs("-c"),
    "tclsh": _fs(),
    "wish": _fs(),
    "jshell": _fs(),
})

# Interpreter flags that take a separate argument which is not code (skip it).
INTERPRETER_ARG_FLAGS = _fs("-m", "-W", "-X", "-I", "-r", "--require", "-M", "-x",
                            "--import", "--loader", "-C", "-d", "-l")

INTERPRETER_ALIASES: MappingProxyType[str, str] = MappingProxyType({
    "nodejs": "node", "powershell": "pwsh", "pwsh.exe": "pwsh", "powershell.exe": "pwsh",
    "perl5": "perl", "python2": "python",
    "python3": "python", "pypy": "python", "pypy3": "python", "php8": "php", "php7": "php",
    "luajit": "lua", "irb": "ruby", "py": "python", "py3": "python",
    # TypeScript runners on node: node's options, -e/-p code, and a script read from stdin
    # when none is named (ts-node documents `echo CODE | ts-node`).
    "ts-node": "node", "ts-node-esm": "node", "tsx": "node",
})

FETCHERS = _fs("curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "fetch", "http",
               "https", "xh", "aria2c", "lynx", "links", "w3m", "ftp", "tftp", "httpie",
               "invoke-webrequest", "iwr", "openssl", "ssh", "s3cmd", "gsutil", "rclone")
"""Programs whose output is remote data (``openssl`` and ``ssh`` only in a pipeline)."""

NETWORK_SENDERS = _fs("curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ssh",
                      "scp", "sftp", "rsync", "ftp", "tftp", "http", "https", "xh", "mail",
                      "sendmail", "mutt", "openssl", "gsutil", "s3cmd", "rclone", "aws",
                      # A name looked up in DNS reaches the resolver and the domain's
                      # nameserver: $(cat secret).evil.com is exfiltration.
                      "dig", "nslookup", "host", "drill", "kdig", "delv", "ping", "ping6",
                      "traceroute", "traceroute6", "tracepath", "mtr", "whois", "getent",
                      "resolvectl", "systemd-resolve", "dog", "doggo", "fping", "nping",
                      "hping3", "lftp", "smbclient")
"""Programs that can send what they read (or are given) to another machine."""

DECODERS = _fs("base64", "base32", "basenc", "xxd", "uudecode", "openssl", "gpg", "rev",
               "gunzip", "zcat", "bunzip2", "xz", "unxz", "zstd", "gzip", "tr", "od")

DATA_COMMANDS = _fs("echo", "printf", ":", "true", "false", "test", "[", "expr")
"""Builtins whose arguments are data: they never open or run what they are given."""

ENV_DUMPERS = _fs("env", "printenv", "set", "export", "declare", "typeset", "compgen")

METADATA_ONLY = _fs("ls", "stat", "chmod", "chown", "chgrp", "test", "[", "file", "du",
                    "realpath", "readlink", "dirname", "basename", "ssh", "ssh-add",
                    "ssh-keygen", "touch", "mkdir", "echo", "printf", "cd", "pushd", "git",
                    "find", "tree")
"""Programs that name a path without reading its contents (or use a key legitimately)."""

PACKAGE_MANAGERS: MappingProxyType[str, frozenset[str]] = MappingProxyType({
    "pip": _fs("install", "uninstall", "download"),
    "pip3": _fs("install", "uninstall", "download"),
    "pipx": _fs("install", "uninstall", "inject", "run"),
    "uv": _fs("add", "remove", "tool", "pip", "sync"),
    # npm exec runs the project's own binaries (like pnpm exec); npx warns as a one-shot runner.
    "npm": _fs("install", "i", "add", "ci", "uninstall", "remove", "rm", "update", "link"),
    "pnpm": _fs("install", "i", "add", "remove", "update", "dlx"),
    "yarn": _fs("add", "install", "remove", "global", "dlx"),
    "bun": _fs("add", "install", "i", "remove", "x", "update"),
    "npx": _fs("*"),
    "pnpx": _fs("*"),
    "bunx": _fs("*"),
    "uvx": _fs("*"),
    "easy_install": _fs("*"),
    "cpan": _fs("*"),
    "cpanm": _fs("*"),
    "luarocks": _fs("install", "remove"),
    "deno": _fs("install", "add", "uninstall", "remove"),
    "nix": _fs("profile"),  # nix profile install|remove|upgrade (see _checks)
    "dotnet": _fs("tool", "add", "workload"),  # dotnet tool install, dotnet add package
    "apt": _fs("install", "reinstall", "remove", "purge", "upgrade", "full-upgrade",
               "dist-upgrade", "autoremove"),
    "apt-get": _fs("install", "reinstall", "remove", "purge", "upgrade", "dist-upgrade",
                   "autoremove", "build-dep"),
    "aptitude": _fs("install", "remove", "purge", "upgrade"),
    "dpkg": _fs("-i", "--install", "-r", "--remove", "-P", "--purge"),
    "yum": _fs("install", "remove", "erase", "update", "upgrade", "localinstall"),
    "dnf": _fs("install", "remove", "erase", "update", "upgrade"),
    "rpm": _fs("-i", "-U", "-e", "--install", "--upgrade", "--erase", "-ivh", "-Uvh"),
    "apk": _fs("add", "del", "upgrade"),
    "pacman": _fs("-S", "-U", "-R", "-Syu", "-Sy", "-Rs"),
    "zypper": _fs("install", "in", "remove", "rm", "update", "up"),
    "brew": _fs("install", "uninstall", "reinstall", "upgrade", "tap"),
    "gem": _fs("install", "uninstall", "update"),
    "cargo": _fs("install", "uninstall"),
    "go": _fs("install", "get"),
    "conda": _fs("install", "remove", "update", "create"),
    "mamba": _fs("install", "remove", "update", "create"),
    "poetry": _fs("add", "remove", "install"),
    "pipenv": _fs("install", "uninstall"),
    "pdm": _fs("add", "remove", "install"),
    "rye": _fs("add", "remove", "install"),
    "bundle": _fs("install", "add"),
    "nix-env": _fs("-i", "-iA", "--install", "-e", "--uninstall", "-u", "--upgrade"),
    "pkg": _fs("install", "add"),
    "composer": _fs("require", "install", "global"),
    "snap": _fs("install", "remove"),
    "flatpak": _fs("install", "uninstall"),
    "port": _fs("install", "uninstall"),
    "choco": _fs("install", "uninstall"),
    # Version managers: their subcommands are in _pkgver (asdf plugin add, rustup toolchain
    # install, mise use).
    **{n: _fs() for n in ("asdf", "mise", "rtx", "proto", "volta", "nvm", "fnm", "pyenv",
                          "rbenv", "nodenv", "goenv", "plenv", "phpenv", "tfenv", "jenv",
                          "rustup", "sdk", "ghcup", "juliaup", "gvm", "elan", "corepack",
                          "opam", "cabal", "stack", "tlmgr", "vcpkg", "raco")},
})
"""Package managers and the subcommands that change what is installed."""

DISK_FORMATTERS = _fs("mkfs", "mke2fs", "mkswap", "wipefs", "fdisk", "sfdisk", "parted",
                      "cfdisk", "sgdisk", "mkdosfs", "mkntfs", "blkdiscard")

DENY_DEVICE_PREFIXES = ("/dev/sd", "/dev/hd", "/dev/nvme", "/dev/vd", "/dev/xvd",
                        "/dev/mmcblk", "/dev/disk", "/dev/dm-", "/dev/md", "/dev/mapper/",
                        "/dev/loop", "/dev/mem", "/dev/kmem", "/dev/port", "/dev/nbd")

# Paths whose recursive deletion destroys the machine or the user's home. Matched after
# normalization (``$HOME`` -> ``~``, ``//`` and ``/./`` collapsed, ``..`` resolved).
CRITICAL_DIRS = _fs("/", "~", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32",
                    "/lib64", "/libx32", "/media", "/mnt", "/opt", "/proc", "/root", "/run",
                    "/sbin", "/srv", "/sys", "/usr", "/var", "/usr/bin", "/usr/lib",
                    "/usr/local", "/usr/sbin", "/usr/share", "/var/lib", "/var/log",
                    "/usr/local/bin", "/usr/local/sbin", "/usr/local/lib", "/usr/libexec",
                    "/usr/include", "/var/lib/dpkg", "/var/lib/rpm", "/var/lib/apt",
                    "/etc/ssl", "/var/spool",
                    "/System", "/Users", "/Library", "/Applications", "/private",
                    # Windows, from WSL (/mnt/c) and in PowerShell/cmd code (C:\ read as /):
                    # the drive, profiles, programs, and the Windows directories whose loss
                    # leaves a machine that does not boot (not Temp, not the update cache).
                    *(d + s for d in ("/mnt/c", "") for s in (
                        "/Windows", "/Windows/System32", "/Windows/SysWOW64",
                        "/Windows/WinSxS", "/Windows/System32/config",
                        "/Windows/System32/drivers", "/Program Files", "/Program Files (x86)",
                        "/ProgramData")),
                    "/mnt/c", "/mnt/c/Users")

SENSITIVE_READ_GLOBS = (
    "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/master.passwd",
    "/etc/sudoers", "/etc/sudoers.d/*", "/etc/ssh/ssh_host_*_key", "/proc/*/environ",
    "/proc/*/task/*/environ", "/proc/*/mem", "/proc/kcore",
    "~/.ssh/id_*", "~/.ssh/*_rsa", "~/.ssh/*_ed25519", "~/.ssh/*_ecdsa", "~/.ssh/*.pem",
    "*/.ssh/id_rsa", "*/.ssh/id_ed25519", "*/.ssh/id_ecdsa", "*/.ssh/id_dsa",
    "~/.aws/credentials", "~/.config/gcloud/*", "~/.azure/*",
    "~/.kube/config", "~/.docker/config.json", "~/.netrc", "~/.git-credentials",
    "~/.pgpass", "~/.npmrc",
    "~/.pypirc", "~/.gnupg/*", "~/.password-store/*",
    "~/.config/gh/hosts.yml", "/var/run/secrets/*", "/run/secrets/*", "/etc/ssl/private/*",
    "~/.terraform.d/credentials.tfrc.json", "~/.config/doctl/*", "~/.oci/config", "~/.boto",
    "~/.s3cfg", "~/.vault-token", "~/.config/hub", "~/.cargo/credentials*",
    "~/.gem/credentials", "~/.my.cnf", "~/.config/rclone/rclone.conf",
    # Browser password and cookie stores (Chrome, Chromium, Brave, Edge, Slack and other
    # Electron apps keep "Login Data", "Cookies" and the "Local State" key under a profile;
    # Firefox keeps logins.json, key4.db and cookies.sqlite), OS keychains and keyrings.
    "~/.config/*/Login Data", "~/.config/*/Cookies", "~/.config/*/Local State",
    "~/Library/Application Support/*/Login Data", "~/Library/Application Support/*/Cookies",
    "~/Library/Application Support/*/Local State", "~/.mozilla/firefox/*/logins.json",
    "~/.mozilla/firefox/*/key4.db", "~/.mozilla/firefox/*/cookies.sqlite",
    "~/Library/Application Support/Firefox/*/logins.json",
    "~/Library/Application Support/Firefox/*/key4.db", "~/Library/Keychains/*",
    "/Library/Keychains/*", "~/.local/share/keyrings/*", *APP_STORE_GLOBS,
    *TOKEN_FILE_GLOBS,
    # Credential folders: archiving, syncing or mounting one carries every key in it.
    *CREDENTIAL_DIRS,
)
"""Files whose contents are secrets (globs; ``*`` also crosses ``/``). A ``~/`` glob also
covers ``/root/``, ``/home/*/`` and ``/Users/*/``: ``/root`` is root's home, and a project
cloned under it is no more secret than one under ``~``."""

PERSISTENCE_GLOBS = (
    "~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.bash_logout", "~/.profile",
    "~/.zshrc", "~/.zprofile", "~/.zshenv", "~/.zlogin", "~/.kshrc", "~/.cshrc",
    "~/.tcshrc", "~/.config/fish/*", "~/.ssh/authorized_keys*", "~/.ssh/config",
    "~/.ssh/rc", "*/.ssh/authorized_keys*", "/etc/profile", "/etc/profile.d/*",
    "/etc/bash.bashrc", "/etc/zsh/*", "/etc/environment", "/etc/sudoers", "/etc/sudoers.d/*",
    "/etc/cron*", "/var/spool/cron/*", "/etc/systemd/*", "~/.config/systemd/*",
    "~/.config/autostart/*", "/etc/rc.local", "/etc/init.d/*", "/etc/ld.so.preload",
    "~/Library/LaunchAgents/*", "/Library/LaunchDaemons/*", "/Library/LaunchAgents/*",
    "/root/.bashrc", "/root/.profile", "/root/.ssh/*", "~/.gitconfig",
    # Sourced by Debian/Ubuntu's default .bashrc; git's XDG config (like ~/.gitconfig).
    "~/.bash_aliases", "~/.config/git/config",
    # Python runs .pth lines and sitecustomize/usercustomize at every start (user site and
    # the local system site; /usr/lib is a system write already).
    "~/.local/lib/python*/site-packages/*.pth",
    "~/.local/lib/python*/site-packages/sitecustomize.py",
    "~/.local/lib/python*/site-packages/usercustomize.py",
    "/usr/local/lib/python*-packages/*.pth", "/usr/local/lib/python*/sitecustomize.py",
    # Environment and session files read at login (they can set LD_PRELOAD or run code).
    "~/.config/environment.d/*", "~/.pam_environment", "~/.ssh/environment", "~/.xprofile",
    "~/.xinitrc", "~/.xsessionrc", "~/.xsession",
    # Editors and REPLs run these at every start, and they can run shell commands
    # (vim's :!cmd, init.lua's os.execute, Emacs Lisp, IPython startup scripts).
    "~/.vimrc", "~/.exrc", "~/.vim/plugin/*", "~/.vim/autoload/*", "~/.config/nvim/*",
    "~/.vim/pack/*", "~/.vim/ftplugin/*", "~/.local/share/nvim/site/*",
    # Sourced at every start: oh-my-zsh's custom folder, Fedora's ~/.bashrc.d.
    "~/.oh-my-zsh/custom/*", "~/.bashrc.d/*",
    "~/.emacs", "~/.emacs.el", "~/.emacs.d/*", "~/.config/emacs/*",
    "~/.ipython/profile_*/startup/*", "~/.ipython/profile_*/ipython_config.py",
    "~/.pythonrc", "~/.pythonrc.py", "~/.irbrc", "~/.pryrc",
    # PowerShell profiles ($PROFILE), run at every pwsh start.
    "~/.config/powershell/*", "~/Documents/PowerShell/*", "~/Documents/WindowsPowerShell/*",
)
"""Files whose modification makes code run later (startup files, keys, sudoers, cron)."""

USER_BIN_DIRS = _fs("~/.local/bin", "~/bin", "~/.bin", "~/.cargo/bin", "~/go/bin",
                    "~/.npm-global/bin", "~/.yarn/bin", "~/.deno/bin", "~/.bun/bin",
                    "/opt/homebrew/bin", "/opt/local/bin")
"""Directories that shells put on PATH, usually ahead of the system's own: a file written
there under the name of a system command runs instead of it."""

SHADOWED_COMMANDS = _fs(
    "sudo", "su", "doas", "pkexec", "passwd", "login", "ssh", "scp", "sftp", "ssh-add",
    "ssh-agent", "ssh-keygen", "gpg", "gpg2", "git", "sh", "bash", "zsh", "dash", "ls", "cat",
    "cp", "mv", "rm", "ln", "chmod", "chown", "ps", "kill", "id", "whoami", "env", "which",
    "curl", "wget", "grep", "sed", "awk", "find", "tar", "mount", "systemctl", "crontab",
    "apt", "apt-get", "dpkg", "yum", "dnf", "docker", "openssl", "security", "keychain",
    "cd", "echo", "printf", "test", "head", "tail", "sort", "xargs", "mkdir", "touch")
"""System commands an agent has no reason to replace with its own file in a user PATH
directory (an interpreter such as ``python3`` is left out: pointing it at another version
there is common)."""

GIT_HOOK_GLOBS = ("*/.git/hooks/*", ".git/hooks/*", "*/.git/config", ".git/config")
"""Git hooks: code a repository's own git commands run (installing one is a common
contributor step, so it warns instead of blocking like persistence)."""

SYSTEM_WRITE_GLOBS = (
    "/etc/*", "/bin/*", "/sbin/*", "/usr/bin/*", "/usr/sbin/*", "/usr/local/bin/*",
    "/usr/local/sbin/*", "/usr/lib/*", "/lib/*", "/lib64/*", "/boot/*", "/usr/libexec/*",
    "/etc", "/bin", "/sbin", "/usr/bin", "/boot", "/proc/sysrq-trigger", "/proc/sys/*",
    "/sys/*",
)
"""System locations an agent has no business writing."""

PACKAGE_CONFIG_GLOBS = (
    "~/.config/pip/pip.conf", "~/.pip/pip.conf", "/etc/pip.conf", "~/.pydistutils.cfg",
    "~/.yarnrc", "~/.yarnrc.yml", "~/.gemrc", "~/.condarc", "~/.cargo/config*",
    "~/.config/uv/uv.toml", "~/.m2/settings.xml", "~/.gradle/gradle.properties",
)
"""Package managers' user configuration: where packages come from."""

RULE_FOR_SENSITIVE = "shell.sensitive-read"

SECRET_PRINTERS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("gpg", ("--export-secret-keys",), True),
    ("gpg", ("--export-secret-key",), True),
    ("gpg", ("--export-secret-subkeys",), True),
    ("gpg2", ("--export-secret-keys",), True),
    ("security", ("dump-keychain",), True),
    ("security", ("find-generic-password", "-w"), False),
    ("security", ("find-internet-password", "-w"), False),
    ("security", ("find-generic-password", "-g"), False),
    ("gh", ("auth", "token"), False),
    ("glab", ("auth", "status", "--show-token"), False),
    ("gcloud", ("auth", "print-access-token"), False),
    ("gcloud", ("auth", "print-identity-token"), False),
    ("aws", ("configure", "get", "aws_secret_access_key"), False),
    ("aws", ("configure", "get", "aws_session_token"), False),
    ("aws", ("configure", "export-credentials"), False),
    ("aws", ("sts", "get-session-token"), False),
    ("aws", ("ecr", "get-login-password"), False),
    ("az", ("account", "get-access-token"), False),
    ("aws", ("secretsmanager", "get-secret-value"), False),
    ("aws", ("ssm", "get-parameter", "--with-decryption"), False),
    ("aws", ("ssm", "get-parameters", "--with-decryption"), False),
    ("gcloud", ("secrets", "versions", "access"), False),
    ("az", ("keyvault", "secret", "show"), False),
    ("doppler", ("secrets", "get"), False),
    ("doppler", ("secrets", "download"), False),
    ("bw", ("get", "password"), False),
    ("infisical", ("secrets", "get"), False),
    ("kubectl", ("config", "view", "--raw"), False),
    ("kubectl", ("config", "view", "--flatten"), False),
    ("kubectl", ("create", "token"), False),
    ("vault", ("read",), False),
    ("vault", ("kv", "get"), False),
    ("vault", ("print", "token"), False),
    ("pass", ("show",), False),
    ("op", ("read",), False),
    ("op", ("item", "get"), False),
    ("heroku", ("auth:token",), False),
    ("git", ("credential", "fill"), False),
    ("gh", ("auth", "status", "--show-token"), False),
    ("gh", ("auth", "status", "-t"), False),
    # Docker's credential helpers print the stored registry password for a server on stdin.
    *((f"docker-credential-{_h}", ("get",), False) for _h in (
        "desktop", "osxkeychain", "secretservice", "pass", "wincred", "ecr-login", "gcloud",
        "acr-env", "gcr")),
    # Infrastructure state and outputs in plain text (sensitive values included), files
    # decrypted to stdout, freshly made access keys, an app's config variables.
    *((_tf, _w, False) for _tf in ("terraform", "tofu") for _w in (
        ("state", "pull"), ("show", "-json"), ("output", "-json"), ("output", "-raw"))),
    ("pulumi", ("--show-secrets",), False),
    ("sops", ("-d",), False),
    ("sops", ("--decrypt",), False),
    ("ansible-vault", ("view",), False),
    ("aws", ("iam", "create-access-key"), False),
    ("heroku", ("config",), False),
    ("heroku", ("config:get",), False),
    # Password managers' and keyrings' reads and exports, a chart's values and manifests
    # (its secrets), and secret scanners' findings (trufflehog prints each raw secret;
    # gitleaks unless --redact: see _secrets). npm's auth settings are in _secrets.
    ("bw", ("get", "item"), False),
    ("bw", ("export",), False),
    ("op", ("document", "get"), False),
    ("lpass", ("show",), False),
    ("gopass", ("show",), False),
    ("gopass", ("cat",), False),
    ("keepassxc-cli", ("show",), False),
    ("keepassxc-cli", ("export",), False),
    ("chamber", ("read",), False),
    ("chamber", ("export",), False),
    ("secret-tool", ("search",), False),
    ("kwallet-query", ("-r",), False),
    ("kwallet-query", ("--read-password",), False),
    *(("helm", ("get", _w), False) for _w in ("values", "manifest", "all")),
    ("trufflehog", (), False),
    *(("gitleaks", (_w,), False) for _w in ("detect", "protect", "git", "dir", "stdin")),
    ("noseyparker", ("report",), False),
    *((_age, (_w,), False) for _age in ("age", "rage") for _w in ("-d", "--decrypt")),
    ("getent", ("shadow",), True),
    ("getent", ("gshadow",), True),
    ("history", (), False),
    ("fc", ("-l",), False),
)
"""Programs whose output is a secret: (name, words that must all appear, reading alone blocks).

``gpg --export-secret-keys`` prints private key material (a secret read, like ``cat`` of a
key file); the others print tokens an agent may legitimately use, so their output is only
tainted as a secret: it blocks when it flows to a network tool."""

SECRET_FILE_NAMES = (".env", ".env.local", ".env.production", ".env.prod", ".envrc",
                     ".bash_history", ".zsh_history", ".history", ".sh_history",
                     ".python_history", ".psql_history", ".mysql_history", ".node_repl_history",
                     ".sqlite_history", ".lesshst", ".viminfo", "id_rsa", "id_ed25519",
                     "id_ecdsa", "id_dsa", "credentials", ".netrc", ".pgpass",
                     ".git-credentials")  # git's stored passwords in plain text
"""File names whose contents are commonly secret wherever they are: reading them alone passes
(projects read their own .env), but their contents reaching a network tool is exfiltration."""
