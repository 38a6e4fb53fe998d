"""Commands started through a running terminal's remote control: kitty, zellij, wezterm.

A terminal's control command starts a program in a new window or pane, or types text into
one, without showing it as a program word:

* ``kitty @ [--to ADDR] launch|new-window|run [OPTS] CMD ARGS`` (also ``kitten @`` and
  ``kitty +kitten @``) runs CMD ARGS; ``kitty @ send-text TEXT`` types TEXT (with Python
  escapes: ``\\r`` is Enter) into a window, where its shell reads it;
* ``zellij [OPTS] run [OPTS] [--] CMD ARGS`` and ``zellij action new-pane [OPTS] -- CMD``
  run CMD; ``zellij action write-chars TEXT`` types TEXT;
* ``wezterm [OPTS] cli spawn|split-pane [OPTS] [--] CMD`` and ``wezterm start [OPTS] [--]
  CMD`` run CMD; ``wezterm cli send-text TEXT`` types TEXT.

Any other control command (``kitty @ ls``, ``zellij attach``, ``wezterm cli list``) runs
no program; forms without a control subcommand keep their usual handling (``kitty sh -c
CMD``, ``wezterm -e CMD``: ``_wrappers``, ``_argv``). Typed text is returned as a command
string, read like ``tmux send-keys`` (``_embedded``). Linear in the words.
"""

from __future__ import annotations

from collections.abc import Callable

from ._words import Field

__all__ = ["TERMCTL_NAMES", "termctl_step"]

TERMCTL_NAMES = frozenset({"kitty", "kitten", "zellij", "wezterm"})

Step = tuple[int, Field | None, list[Field]]

# Options taking a separate value (a value can also be attached as --opt=value).
_KITTY_GLOBAL = frozenset({"--to", "--password", "--password-file", "--password-env",
                           "--use-password"})
_KITTY_LAUNCH = frozenset({
    "--title", "--window-title", "--tab-title", "--type", "--window-type", "--cwd", "--env",
    "--var", "--location", "--remote-control-password", "--stdin-source", "--marker",
    "--os-window-class", "--os-window-name", "--os-window-title", "--os-window-state",
    "--logo", "--logo-position", "--logo-alpha", "--color", "--spacing", "--watcher", "-w",
    "--os-panel", "--source-window", "--next-to", "--bias", "--match", "-m",
    "--add-to-session", "--response-timeout", "--match-tab", "-t", "--from-file"})
_KITTY_RUN = frozenset({"launch", "new-window", "run"})
_KITTY_TYPE = frozenset({"send-text"})

_ZELLIJ_GLOBAL = frozenset({"-c", "--config", "--config-dir", "--data-dir", "-l", "--layout",
                            "--max-panes", "-s", "--session", "-n",
                            "--new-session-with-layout"})
_ZELLIJ_PANE = frozenset({"--cwd", "-n", "--name", "-d", "--direction", "-p", "--plugin",
                          "--configuration", "--width", "--height", "--x", "--y"})
_ZELLIJ_RUN = frozenset({"run", "r"})
_ZELLIJ_ACTION = frozenset({"action", "ac"})
_ZELLIJ_NEW_PANE = frozenset({"new-pane", "np"})
_ZELLIJ_TYPE = frozenset({"write-chars", "wc"})

_WEZ_GLOBAL = frozenset({"--config-file", "--config", "--class"})
_WEZ_PANE = frozenset({"--cwd", "--class", "--workspace", "--position", "--domain",
                       "--domain-name", "--pane-id", "--window-id", "--cells", "--percent",
                       "--move-pane-id"})
_WEZ_CLI_RUN = frozenset({"spawn", "split-pane"})


def termctl_step(name: str, fields: list[Field], i: int,
                 keys: Callable[[str], str]) -> Step | None:
    """For ``fields[i]`` (a :data:`TERMCTL_NAMES` program): (index where the command
    starts, or -1 for none; a command string it types; the fields), or None for the usual
    handling. ``keys`` decodes typed text (escapes, Enter) into shell code."""
    if name == "zellij":
        return _zellij(fields, i)
    if name == "wezterm":
        return _wezterm(fields, i)
    return _kitty(name, fields, i, keys)


def _operand(fields: list[Field], j: int, valued: frozenset[str]) -> int:
    """The index of the first operand from ``j`` (past options; ``--`` ends them)."""
    n = len(fields)
    while j < n:
        f = fields[j]
        t = f.text
        if not f.static or not t.startswith("-") or len(t) == 1:
            return j
        if t == "--":
            return j + 1
        j += 2 if t in valued else 1  # --opt=value and unknown flags: one word
    return n


def _sub(fields: list[Field], j: int) -> str:
    """The static word at ``j``, or "" (past the end, or dynamic)."""
    return fields[j].text if j < len(fields) and fields[j].static else ""


def _typed(fields: list[Field], j: int, keys: Callable[[str], str] | None) -> Step:
    """Text typed from ``fields[j:]`` as a command string (its words joined by blanks)."""
    words = fields[j:]
    if not words:
        return -1, None, fields
    text = " ".join(f.text for f in words)
    code = Field(keys(text) if keys is not None else text,
                 (words[0].span[0], words[-1].span[1]),
                 frozenset().union(*(f.taint for f in words)))
    return -1, code, fields


def _runs(fields: list[Field], j: int, valued: frozenset[str]) -> Step:
    k = _operand(fields, j, valued)
    return (k if k < len(fields) else -1), None, fields


def _kitty(name: str, fields: list[Field], i: int, keys: Callable[[str], str]) -> Step | None:
    j = i + 1
    if name == "kitty":
        sub = _sub(fields, j)
        if sub == "+kitten":
            j += 1
        elif sub == "+" and _sub(fields, j + 1) == "kitten":
            j += 2
    if _sub(fields, j) != "@":
        return None  # kitty CMD, kitten ssh HOST...: the usual handling
    j = _operand(fields, j + 1, _KITTY_GLOBAL)
    sub = _sub(fields, j)
    if sub in _KITTY_RUN:
        return _runs(fields, j + 1, _KITTY_LAUNCH)
    if sub in _KITTY_TYPE:
        return _typed(fields, _operand(fields, j + 1, _KITTY_LAUNCH), keys)
    return -1, None, fields  # kitty @ ls, set-colors, close-window...: no program runs


def _zellij(fields: list[Field], i: int) -> Step | None:
    j = _operand(fields, i + 1, _ZELLIJ_GLOBAL)
    sub = _sub(fields, j)
    if sub in _ZELLIJ_RUN:
        return _runs(fields, j + 1, _ZELLIJ_PANE)
    if sub in _ZELLIJ_ACTION:
        j = _operand(fields, j + 1, frozenset())
        action = _sub(fields, j)
        if action in _ZELLIJ_NEW_PANE:
            return _runs(fields, j + 1, _ZELLIJ_PANE)
        if action in _ZELLIJ_TYPE:
            return _typed(fields, _operand(fields, j + 1, frozenset()), None)
    return None  # zellij attach, zellij -s dev...: no command word (not a wrapper)


def _wezterm(fields: list[Field], i: int) -> Step | None:
    j = _operand(fields, i + 1, _WEZ_GLOBAL)
    sub = _sub(fields, j)
    if sub == "start":
        return _runs(fields, j + 1, _WEZ_PANE)
    if sub != "cli":
        return None  # wezterm -e CMD: _argv
    j = _operand(fields, j + 1, _WEZ_GLOBAL)
    sub = _sub(fields, j)
    if sub in _WEZ_CLI_RUN:
        return _runs(fields, j + 1, _WEZ_PANE)
    if sub == "send-text":
        return _typed(fields, _operand(fields, j + 1, _WEZ_PANE), None)
    return -1, None, fields  # wezterm cli list, activate-pane...: no program runs
