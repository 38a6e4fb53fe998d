"""Wrappers that build the command's argument vector from their own options.

Most wrappers run the words after their options (``nice -n 5 CMD``, described as data in
``_wrappers``). A few name the program inside an option and take its arguments from
elsewhere, so the command is rebuilt before resolution goes on:

* ``coreutils --coreutils-prog=rm ARGS``: the multi-call coreutils binary runs ``rm``;
* ``start-stop-daemon --start --exec /bin/rm [--startas P] -- ARGS``: runs ``--startas``
  (else ``--exec``) with the words after ``--``;
* ``gdb [opts] --args PROG ARGS``: the debugger starts ``PROG ARGS``; terminal emulators
  run the words after ``-e`` (``xterm``, ``konsole``), ``-x`` or ``--``
  (``gnome-terminal``).

``busybox APPLET`` and ``toybox APPLET`` (multi-call binaries) are handled by the resolver.
"""

from __future__ import annotations

from ._words import Field

__all__ = ["MULTICALL", "REWRITERS", "TERMINALS", "rewrite", "terminal_code"]

MULTICALL = frozenset({"busybox", "toybox"})
"""Multi-call binaries: ``busybox rm``, ``toybox rm`` run the applet named next."""

# Programs whose command (with its arguments) is every word after one option:
# ``gdb --args PROG ARGS``, ``xterm -e PROG ARGS``, ``gnome-terminal -- PROG ARGS``.
_AFTER_OPTION: dict[str, frozenset[str]] = {
    "gdb": frozenset({"--args"}),
    **dict.fromkeys(("xterm", "uxterm", "urxvt", "rxvt", "konsole", "x-terminal-emulator",
                     "urxvtc", "st", "tilix", "terminology", "lxterminal", "qterminal",
                     "sakura", "guake", "eterm", "aterm", "cool-retro-term", "ghostty",
                     "deepin-terminal", "termite", "hyper", "kgx"), frozenset({"-e"})),
    "alacritty": frozenset({"-e", "--command"}),
    **dict.fromkeys(("terminator", "xfce4-terminal", "mate-terminal"),
                    frozenset({"-x", "--execute"})),
    **dict.fromkeys(("gnome-terminal", "ptyxis", "gnome-console"),
                    frozenset({"--", "-x", "--execute"})),
    "wezterm": frozenset({"--", "-e"}),
}
# Terminals whose option takes the whole command as one string (``gnome-terminal -e 'a b'``,
# ``xfce4-terminal --command='a b'``): that word alone is the command line.
_STRING_OPTS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("gnome-terminal", "xfce4-terminal", "mate-terminal", "terminator",
                     "lxterminal", "tilix", "qterminal", "sakura"),
                    frozenset({"-e", "--command"})),
    "guake": frozenset({"-e", "--execute-command"}),
    "terminology": frozenset({"-e", "--exec"}),
}
for _name, _opts in _STRING_OPTS.items():
    _AFTER_OPTION[_name] = _AFTER_OPTION.get(_name, frozenset()) | _opts

TERMINALS = frozenset(_AFTER_OPTION) - {"gdb"}
"""Terminal emulators: a lone word after ``-e`` with blanks or shell syntax
(``xterm -e 'curl u | sh'``) is run by a shell (xterm falls back to ``$SHELL -c``)."""

_SHELL_SYNTAX = frozenset(" \t\n|&;<>()$`*?[]{}~'\"")


def terminal_code(name: str, fields: list[Field], i: int, program: Field | None
                  ) -> Field | None:
    """The command line for a shell that terminal ``name`` runs from ``fields[i]`` (or the
    ``--command=`` value ``program``): a lone word (the last, or a string option's value)
    holding blanks or shell syntax; else None."""
    if name not in TERMINALS:
        return None
    word = program if program is not None else fields[i]
    lone = program is not None or i == len(fields) - 1 or (
        i > 0 and fields[i - 1].text in _STRING_OPTS.get(name, ()))
    return word if lone and not _SHELL_SYNTAX.isdisjoint(word.text) else None


REWRITERS = frozenset({"coreutils", "start-stop-daemon", *_AFTER_OPTION})
"""Wrappers whose command is rebuilt by :func:`rewrite`."""

# start-stop-daemon options that take an argument (short and long spellings).
_SSD_SHORT_ARG = frozenset("xanpugcrdNPIksR")
_SSD_LONG_ARG = frozenset({
    "--exec", "--startas", "--name", "--pidfile", "--user", "--group", "--chuid", "--chroot",
    "--chdir", "--nicelevel", "--procsched", "--iosched", "--umask", "--signal", "--retry",
    "--ppid", "--output", "--notify-timeout", "--remove-pidfile"})
_SSD_NO_RUN = frozenset({"-K", "--stop", "-T", "--status", "-H", "--help", "-V", "--version"})


def rewrite(name: str, fields: list[Field], i: int) -> tuple[int, Field | None] | None:
    """Where the command that ``fields[i]`` (a rewriter) runs starts: its index, and the
    field that replaces the word there (the program named by an option), or None when it
    runs no command. Cost is linear in the words it reads."""
    if name == "coreutils":
        if i + 1 < len(fields) and fields[i + 1].text.startswith("--coreutils-prog="):
            f = fields[i + 1]
            prog = f.text.split("=", 1)[1]
            return (i + 1, Field(prog, f.span, f.taint)) if prog else None
        return None
    after = _AFTER_OPTION.get(name)
    if after is not None:
        strings = _STRING_OPTS.get(name, frozenset())
        for j in range(i + 1, len(fields)):
            f = fields[j]
            if f.text in after:
                return (j + 1, None) if j + 1 < len(fields) else None
            opt, eq, value = f.text.partition("=")
            if eq and opt in strings and value:  # --command='a | b'
                return j, Field(value, f.span, f.taint)
        return None
    return _start_stop_daemon(fields, i)


def _start_stop_daemon(fields: list[Field], i: int) -> tuple[int, Field | None] | None:
    program: Field | None = None
    startas: Field | None = None
    j = i + 1
    n = len(fields)
    while j < n:
        f = fields[j]
        text = f.text
        if text == "--":
            break
        if text in _SSD_NO_RUN:
            return None
        value: Field | None = None
        opt = ""
        if text.startswith("--"):
            opt, eq, val = text.partition("=")
            if opt in _SSD_LONG_ARG:
                if eq:
                    value = Field(val, f.span, f.taint)
                elif j + 1 < n:
                    value = fields[j + 1]
                    j += 1
        elif text.startswith("-") and len(text) > 1:
            opt = text[:2]
            if text[1] in _SSD_SHORT_ARG:
                if len(text) > 2:
                    value = Field(text[2:], f.span, f.taint)
                elif j + 1 < n:
                    value = fields[j + 1]
                    j += 1
        if value is not None and opt in ("-x", "--exec"):
            program = value
        elif value is not None and opt in ("-a", "--startas"):
            startas = value
        j += 1
    chosen = startas or program
    if chosen is None:
        return None
    # The program takes the place of ``--`` (or of the last word): its arguments follow.
    return min(j, n - 1), chosen
