"""Git hooks written in the same command: programs git starts on a later commit or checkout.

A hook is a file git executes itself: ``.git/hooks/NAME`` for a hook name git runs (a
submodule's ``.git/modules/M/hooks/NAME``, husky's ``.husky/NAME``), or ``DIR/NAME`` under a
directory set by ``git config core.hooksPath DIR`` (``git -c core.hooksPath=DIR``,
``GIT_CONFIG_KEY_n``/``GIT_CONFIG_PARAMETERS``) in the same command, in either order.
Once the command is walked, every file it wrote is looked at:

* a hook written with fetched or decoded data (``curl -o .git/hooks/pre-commit u``,
  ``curl u | base64 -d > .git/hooks/pre-push``, ``tar x -C .git/hooks``) is a download run
  (``shell.download-exec``), like ``curl -o f u && bash f``;
* a hook written with known text (``echo 'CODE' > .git/hooks/pre-commit``) is classified as
  that shell code (unless its ``#!`` line names another interpreter), like a known ``.envrc``
  given to ``direnv allow``, and its findings are kept when they block: ``curl u | sh``
  blocks, while ``make lint`` or ``npx lint-staged`` stay the write's ``shell.git-hook``
  warning (or pass, for husky's ``.husky/NAME``).

A directory that was only cloned (``git clone u r && git config core.hooksPath r/.githooks``,
a project's own hooks) keeps the ``shell.git-hook`` warning: only a hook file (or the hook
directory itself) written with fetched data counts, not a parent of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._embedded import GIT_GLOBAL_ARG, git_sub_index, is_hooks_path
from ._git import config_setting
from ._gitkeys import check_config_writes
from ._keep import keep_if_blocking
from ._paths import norm_path
from ._resolve import Invocation
from ._words import DYN, Field, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["HOOK_NAMES", "check_hooks", "note_hooks_dir", "note_hooks_path"]

HOOK_NAMES = frozenset({
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
    "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout",
    "post-merge", "pre-push", "pre-receive", "update", "proc-receive", "post-receive",
    "post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite",
    "sendemail-validate", "fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist",
    "p4-post-changelist", "p4-pre-submit", "post-index-change"})
"""The hook names git runs (githooks(5)); ``pre-commit.sample`` is not run."""

# Where users keep hooks for every repository: core.hooksPath's usual home, and the
# template directories git init/clone copy hooks from (init.templateDir).
_GLOBAL_HOOK_DIRS = ("/.config/git/hooks", "/.config/git/template/hooks",
                     "/.config/git/templates/hooks", "/.git-templates/hooks",
                     "/.git_template/hooks", "/.git-template/hooks", "/.git_templates/hooks",
                     "/git-core/templates/hooks")
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "busybox"})
_MAX_DIRS = 16


def note_hooks_path(run: Run, inv: Invocation) -> None:
    """Record the directory ``git config core.hooksPath DIR`` or ``git -c core.hooksPath=DIR``
    names (for ``check_hooks``)."""
    args = inv.args
    found: list[str] = []
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        t = args[i].text
        setting = (args[i + 1].text if i + 1 < len(args) else "") if t == "-c" else \
            t[2:] if t.startswith("-c") else ""
        key, _, value = setting.partition("=")
        if is_hooks_path(key):
            found.append(value)
        elif key.lower() == "init.templatedir":  # git init/clone copy DIR/hooks into .git
            found.append(value.rstrip("/") + "/hooks")
        i += 2 if t in GIT_GLOBAL_ARG else 1
    sub = git_sub_index(args)
    if sub < len(args) and args[sub].text == "config":
        written = config_setting([f.text for f in args[sub + 1:]])
        if written is not None and is_hooks_path(written[0]):
            found.append(written[1])
        elif written is not None and written[0].lower() == "init.templatedir":
            found.append(written[1].rstrip("/") + "/hooks")
    for value in found:
        note_hooks_dir(run, value)


def note_hooks_dir(run: Run, value: str) -> None:
    """Record ``value`` (a core.hooksPath setting, from any channel) as a hook directory."""
    path = norm_path(value.strip("'\""), run.cwd)
    if path is not None and path not in run.hook_dirs and len(run.hook_dirs) < _MAX_DIRS:
        run.hook_dirs.append(path)


def _hook_name(path: str, dirs: list[str]) -> str | None:
    """The hook name of a written path (``*`` for the whole hook directory), else None."""
    folder, _, name = path.rpartition("/")
    if name != "*" and name not in HOOK_NAMES:
        return None
    if folder == ".git/hooks" or folder.endswith("/.git/hooks") or (
            folder.endswith("/hooks") and ".git/modules/" in folder):
        return name  # the repository's own hooks, or a submodule's
    if folder in (".husky", ".husky/_") or folder.endswith(("/.husky", "/.husky/_")):
        return name  # husky: git's core.hooksPath is .husky/_, which runs .husky/NAME
    if folder.endswith(_GLOBAL_HOOK_DIRS):
        return name  # a user's global hooks (core.hooksPath) or git's template hooks
    return name if folder in dirs else None


def _span(run: Run, path: str, name: str) -> tuple[int, int]:
    """Where the hook is written: the write's git-hook finding, else the hook's name in the
    text, else the whole command."""
    source = run.source
    word = path.rstrip("/*").rpartition("/")[2] if name == "*" else name
    for f in run.findings:
        if f.rule_id == "shell.git-hook" and source[f.span.start:f.span.end].rstrip(
                "/*").endswith(word):
            return f.span.start, f.span.end
    k = source.find(word) if word else -1
    return (k, k + len(word)) if k >= 0 else (0, len(source))


def _shell_text(text: str) -> bool:
    """Hook text git runs with a shell: no ``#!`` line, or one naming a shell."""
    if not text.startswith("#!"):
        return True
    words = text[2:].split("\n", 1)[0].split()
    if words and words[0].rsplit("/", 1)[-1] == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
    return bool(words) and words[0].rsplit("/", 1)[-1] in _SHELLS


def check_hooks(run: Run) -> None:
    """After the walk: hooks written with fetched data block; known hook text is classified."""
    if not run.files and not run.file_text:
        return
    if run.file_text:
        check_config_writes(run)  # echo '[core] sshCommand = CMD' >> .git/config
    dirs = run.hook_dirs
    for path, taint in list(run.files.items())[:256]:
        name = _hook_name(path, dirs)
        src = first_source(taint, frozenset({"fetch", "decode", "exec", "file"})) \
            if name is not None else None
        if name is None or src is None:
            continue
        what = "the git hook directory" if name == "*" else "the git hook"
        run.add("shell.download-exec", _span(run, path, name), f"writes fetched or decoded "
                f"data into {what} {path.rstrip('/*') if name == '*' else path}, which git "
                "runs as a program", f"{src.describe()} was written to {path}")
    for path, text in list(run.file_text.items())[:64]:
        name = _hook_name(path, dirs)
        if name is None or name == "*" or DYN in text or not _shell_text(text):
            continue
        span = _span(run, path, name)
        # Hook text that does not block stays the write's git-hook warning (husky's
        # `echo 'npx lint-staged' > .husky/pre-commit` passes as before).
        keep_if_blocking(run, run.run_code, Field(text, span), f"the git hook {path}", span,
                         None, positional=[])
