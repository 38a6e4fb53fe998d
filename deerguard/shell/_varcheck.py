"""Assignments to variables that change what later programs run or load.

Every way a variable gets a value (``NAME=V cmd``, ``env NAME=V``, ``export``, ``declare``,
``printf -v``, ``read``) ends here: ``LD_PRELOAD`` and friends hijack the loader, ``PATH``
decides what every command name runs, and the variable families (git's and tools' command
variables, interpreter hooks, package sources, shell code variables) each have their module.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import _codevars as CV
from . import _hookvars as HV
from . import _sinks as S
from ._defense import DEFENSE_VARS, defense_variable
from ._netredirect import NET_VARS, net_variable
from ._pkgsource import SOURCE_VARS, source_variable
from ._sshagent import agent_socket
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["check_assignment"]

# GCONV_PATH: glibc's iconv_open() loads the gconv modules (shared objects) named by the
# gconv-modules file in that directory, in any program that converts a character set.
_LOADER_VARS = frozenset({"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES",
                          "DYLD_LIBRARY_PATH", "GCONV_PATH"})
_CODE_VARS = frozenset({"BASH_ENV", "ENV", "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS4"})


# $NAME and ${NAME} in a prompt string: parameter expansions, which run nothing.
_PROMPT_REFS = re.compile(r"\$(?:\{[A-Za-z_][A-Za-z_0-9]{0,63}\}|[A-Za-z_][A-Za-z_0-9]{0,63})")


def _plain_prompt(value: Field) -> bool:
    """A prompt string (``PS4='+ ${BASH_SOURCE}:${LINENO}: '``) whose expansion runs no code:
    known text whose only expansions are plain variables (no ``$(``, backquote, ``$((``,
    ``${x@P}`` prompt re-expansion or ``[`` subscript, which bash evaluates arithmetically)."""
    text = value.text
    if not value.static or len(text) > 1024 or "`" in text or "[" in text:
        return False
    return "$" not in _PROMPT_REFS.sub("", text)


def check_assignment(run: Run, name: str, value: Field, span: tuple[int, int], *,
                     persist: bool = False) -> None:
    """Report what an assignment of ``value`` to ``name`` makes later programs do.
    ``persist``: the variable keeps its value after this command (``X=1``, ``export X=1``;
    not ``X=1 cmd`` nor ``env X=1 cmd``)."""
    if name in _LOADER_VARS:
        run.add("shell.loader-hijack", span, f"{name} makes every program load "
                "attacker-chosen libraries", None)
    elif name == "SSH_AUTH_SOCK":
        agent_socket(run, value, span)  # another session's agent (_sshagent)
    elif name == "PATH":
        run.add("shell.path-change", span, "changes PATH, which decides what every "
                "command name runs", None)
    elif name in CV.CMD_VARS or name.startswith(CV.CMD_VAR_PREFIXES):
        CV.command_variable(run, name, value, span)
    elif name in HV.HOOK_VARS:
        HV.hook_variable(run, name, value, span)
    elif name in SOURCE_VARS:
        source_variable(run, name, value, span)
        if name in DEFENSE_VARS and persist:  # GOINSECURE: another source, and TLS off
            defense_variable(run, name, value, span)
    elif name in DEFENSE_VARS and persist:  # export GIT_SSL_NO_VERIFY=1 (_defense); for
        defense_variable(run, name, value, span)  # one command it is like curl -k: quiet
    elif name in NET_VARS and persist:  # export HTTPS_PROXY=URL, REQUESTS_CA_BUNDLE=/tmp/x
        net_variable(run, name, value, span)
    elif name in _CODE_VARS and value.text:
        if name not in ("PS0", "PS1", "PS2") and not (name == "PS4" and _plain_prompt(value)):
            run.add("shell.dynamic-code", span, f"{name} makes shells run code", None)
        S.code_variable(run, name, value, span)
