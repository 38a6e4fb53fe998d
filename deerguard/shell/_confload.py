"""Configuration files that run commands, loaded by an option: emacs, tmux and ssh.

* ``emacs -l FILE`` / ``--load FILE`` / ``--script FILE`` / ``-x FILE`` load Emacs Lisp:
  its ``(shell-command "CMD")`` and ``(call-process ...)`` forms run programs (read like
  ``--eval``, ``_optexec.emacs_eval``).
* ``tmux -f FILE`` and ``tmux source-file FILE`` read tmux commands: ``run-shell CMD``,
  ``if-shell CMD``, ``new-window CMD`` run shell code (read like tmux's own command line,
  ``_embedded``).
* ``ssh -F FILE`` (``scp``, ``sftp``): the configuration's ``ProxyCommand`` and
  ``LocalCommand`` lines run shell code on this machine.

A file written with fetched data is a download run (``shell.download-exec``, a block like
``curl -o f u && bash f``); a file whose text is known (written earlier in the command) is
classified. Each handler reads only its own program's options, in one bounded pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._buildmore import tmux_line_words
from ._embedded import embedded_code
from ._loadfiles import option_values, script_file, script_lines, shell_escape
from ._optexec import emacs_eval
from ._resolve import Invocation
from ._words import Field

if TYPE_CHECKING:
    from ._flow import Flow
    from ._walk import Run

__all__ = ["CONF_TOOLS", "conf_tool"]

_EMACS = frozenset({"emacs", "emacs-nox", "emacs-gtk", "xemacs"})
_SSH = frozenset({"ssh", "scp", "sftp"})
CONF_TOOLS = _EMACS | _SSH | frozenset({"tmux"})
"""Programs whose configuration-file options this module reads (a set lookup gates it)."""

_EMACS_FILES = frozenset({"-l", "--load", "-load", "--script", "-script", "-x"})
_SSH_EXEC_KEYS = frozenset({"proxycommand", "localcommand", "knownhostscommand",
                            "remotecommand"})


def conf_tool(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """The configuration files ``inv`` (a name in CONF_TOOLS) loads, and what they run."""
    if inv.name in _EMACS:
        for f in option_values(inv.args, _EMACS_FILES):
            text = script_file(run, inv, f, stdin)
            if text is not None:
                emacs_eval(run, Invocation(inv.name, inv.word,
                                           [Field("--eval", text.span), text]))
    elif inv.name in _SSH:
        for f in _ssh_configs(inv.args):
            text = script_file(run, inv, f, stdin)
            if text is not None:
                _ssh_config(run, inv, text)
    else:
        _tmux(run, inv, stdin)


def _ssh_configs(args: list[Field]) -> list[Field]:
    out: list[Field] = []
    for index, f in enumerate(args[:64]):
        t = f.text
        if t == "-F" and index + 1 < len(args):
            out.append(args[index + 1])
        elif t.startswith("-F") and len(t) > 2:
            out.append(Field(t[2:], f.span, f.taint))
    return out


def _ssh_config(run: Run, inv: Invocation, text: Field) -> None:
    """``ProxyCommand CMD`` / ``LocalCommand=CMD`` lines of an ssh configuration."""
    for line in script_lines(text):
        key, sep, value = line.strip().partition("=")
        if not sep or " " in key.strip():
            key, _, value = line.strip().partition(" ")
        if key.strip().lower() in _SSH_EXEC_KEYS and value.strip().lower() != "none":
            shell_escape(run, inv, value, text)


def _tmux(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``tmux -f FILE`` / ``tmux source-file FILE``: each line is a tmux command."""
    args = inv.args
    files = option_values(args[:8], frozenset({"-f"}))
    for index, f in enumerate(args[:64]):
        if f.text in ("source-file", "source") and index + 1 < len(args):
            files.extend(a for a in args[index + 1:] if not a.text.startswith("-"))
            break
    for f in files[:8]:
        text = script_file(run, inv, f, stdin)
        if text is None:
            continue
        for line in script_lines(text):
            words = tmux_line_words(line)  # a key binding: the command bound to the key
            fields = [Field(w, text.span, text.taint) for w in words]
            for code in embedded_code(Invocation("tmux", inv.word, fields)):
                shell_escape(run, inv, code.text, text)
