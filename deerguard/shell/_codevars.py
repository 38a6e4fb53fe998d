"""Environment variables whose value is a command line that some program runs.

``GIT_SSH_COMMAND='curl u|sh' git fetch`` runs the value with ``sh -c``; so do pagers
(``PAGER``, ``GIT_PAGER``, ``MANPAGER``), editors (``EDITOR``, ``VISUAL``, ``GIT_EDITOR``...),
``GIT_EXTERNAL_DIFF``, askpass helpers, ``LESSOPEN='|cmd %s'``, the git config pair
``GIT_CONFIG_KEY_<n>=core.pager GIT_CONFIG_VALUE_<n>=CMD``, and bash's exported functions
``BASH_FUNC_name%%='() { body; }'``. Their values are classified as nested code wherever the
variable is set: a prefix assignment, ``env NAME=V``, ``export NAME=V``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._embedded import git_exec_key, is_hooks_path
from ._flow import Flow
from ._githooks import note_hooks_dir
from ._gitkeys import credential_stdin, is_credential_helper
from ._optexec import hook_script
from ._words import DYN, Field, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["CMD_VARS", "CMD_VAR_PREFIXES", "command_variable", "git_config_pairs"]

CMD_VARS = frozenset({
    "GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "PAGER", "MANPAGER", "SYSTEMD_PAGER",
    "EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "SUDO_EDITOR",
    "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "LESSOPEN",
    "LESSCLOSE", "GIT_PROXY_COMMAND", "FCEDIT", "GIT_CONFIG_PARAMETERS",
    "SVN_SSH", "SVN_EDITOR", "HGEDITOR", "RSYNC_RSH", "CVS_RSH", "BORG_RSH",
    "RCLONE_SFTP_SSH"})
"""Variables whose whole value is a command line run by a shell."""

CMD_VAR_PREFIXES = ("GIT_CONFIG_VALUE_", "BASH_FUNC_")


def command_variable(run: Run, name: str, value: Field, span: tuple[int, int]) -> None:
    """Classify the command line held by ``name`` (a variable of :data:`CMD_VARS`, an
    exported function, or a ``GIT_CONFIG_VALUE_<n>`` whose key is already known)."""
    text = value.text
    if name.startswith("GIT_CONFIG_VALUE_"):
        key = run.env.get("GIT_CONFIG_KEY_" + name[len("GIT_CONFIG_VALUE_"):])
        if key is None or len(key.alts) != 1:
            return
        if is_hooks_path(key.alts[0]):
            _hooks_path(run, name, span, text)
            return
        code = git_exec_key(key.alts[0], text)
        if code is None:
            return
        if is_credential_helper(key.alts[0]):
            _classify(run, name, Field(code, value.span, value.taint), span,
                      credential_stdin(span))
            return
        text = code
    elif name.startswith("BASH_FUNC_"):
        if not name.endswith("%%") or not text.startswith("()"):
            return  # bash imports only NAME%%='() {...}' as a function
        text = text[2:]
    elif name in ("LESSOPEN", "LESSCLOSE"):
        text = text.lstrip("|-")  # '|cmd %s' pipes the file through cmd
    elif name == "GIT_CONFIG_PARAMETERS":
        # git -c's own channel: "'core.pager=CMD'" or "'core.pager'='CMD'", space-separated.
        for setting in _split_quoted(text):
            setting_key, _, val = setting.partition("=")
            if is_hooks_path(setting_key):
                _hooks_path(run, name, span, val)
            code = git_exec_key(setting_key, val)
            if code is not None:
                _classify(run, name, Field(code, value.span, value.taint), span,
                          credential_stdin(span) if is_credential_helper(setting_key)
                          else None)
        return
    _classify(run, name, Field(text, value.span, value.taint), span)


def git_config_pairs(run: Run, assigns: list[tuple[str, Field]]) -> None:
    """``GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=CMD git log`` (prefix or ``env``):
    pair keys and values set together and classify the values of exec keys."""
    if not assigns:
        return
    keys: dict[str, str] = {}
    for name, value in assigns:
        if name.startswith("GIT_CONFIG_KEY_"):
            keys[name[len("GIT_CONFIG_KEY_"):]] = value.text
    if not keys:
        return
    for name, value in assigns:
        if name.startswith("GIT_CONFIG_VALUE_"):
            key = keys.get(name[len("GIT_CONFIG_VALUE_"):])
            if key is not None and is_hooks_path(key):
                _hooks_path(run, name, value.span, value.text)
            code = git_exec_key(key, value.text) if key is not None else None
            if code is not None:
                secret = key is not None and is_credential_helper(key)
                _classify(run, name, Field(code, value.span, value.taint), value.span,
                          credential_stdin(value.span) if secret else None)


def _hooks_path(run: Run, name: str, span: tuple[int, int], directory: str) -> None:
    run.add("shell.git-hook", span, f"{name} sets core.hooksPath, which makes git run hook "
            "scripts from that directory", None)
    note_hooks_dir(run, directory)


def _split_quoted(text: str) -> list[str]:
    """Words of a value quoted the way git writes GIT_CONFIG_PARAMETERS (single quotes,
    backslash escapes outside them); linear, never raises."""
    words: list[str] = []
    cur: list[str] = []
    quoted = False
    i = 0
    while i < len(text):
        c = text[i]
        if c == "'":
            quoted = not quoted
        elif c == "\\" and not quoted and i + 1 < len(text):
            i += 1
            cur.append(text[i])
        elif c in " \t\n" and not quoted:
            if cur:
                words.append("".join(cur))
                cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        words.append("".join(cur))
    return words


def _classify(run: Run, name: str, code: Field, span: tuple[int, int],
              stdin: Flow | None = None) -> None:
    src = first_source(code.taint)
    if src is not None:
        run.add("shell.tainted-exec", span, f"{name} runs fetched or decoded code",
                f"{src.describe()} reaches {name}")
        return
    if DYN in code.text or not code.text.strip():
        return  # EDITOR="$VISUAL": not known statically, and usually an editor
    hook_script(run, code, name)  # GIT_EXTERNAL_DIFF=/tmp/x.sh: like tar's exec hook
    run.run_code(code, name, span, stdin, positional=[])
