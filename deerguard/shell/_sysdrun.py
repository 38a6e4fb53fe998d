"""``systemd-run`` commands that run later or in the background (``shell.deferred-exec``).

``systemd-run`` is a wrapper (its command is classified as the command itself:
``systemd-run --scope rm -rf ~`` blocks as ``rm -rf ~`` does). What it adds:

* a timer, path or socket (``--on-calendar=daily``, ``--on-boot=1``, ``--on-active=10``,
  ``--on-unit-active``, ``--on-clock-change``, ``--timer-property``, ``--path-property``,
  ``--socket-property``) starts the command later, like ``at``: warn;
* a transient *service* (the default without ``--scope``, ``--wait``, ``--pipe`` or
  ``--pty``/``--shell``) runs detached from this command, outside the agent's process tree
  and past its session (``--user --unit x CMD``; with ``loginctl enable-linger`` past
  logout): warn, as ``systemctl --user enable`` and ``at`` do (a cron table, which runs
  forever, blocks as ``shell.persistence``);
* ``--scope``, ``--wait``, ``--pipe``, ``-t``: the command runs now, attached (resource
  limits, a clean environment): nothing added.

``loginctl enable-linger`` (user services outlive logout and start at boot) is on the
default policy's warn list with the rest of ``loginctl``; its queries pass (``_queries``).
The option tables are shared with the wrapper table (``_wrappers``) so both find the same
command word.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._words import DYN

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["SDRUN_LONG", "SDRUN_SHORT", "systemd_run"]

SDRUN_SHORT = "pEuMHC"
"""systemd-run's short options that take a value (``-p PROP``, ``-u UNIT``, ``-H HOST``)."""
SDRUN_LONG = ("--property --setenv --unit --machine --host --capsule --uid --gid --nice "
              "--description --slice --service-type --working-directory --expand-environment "
              "--background --on-active --on-boot --on-startup --on-unit-active "
              "--on-unit-inactive --on-calendar --timer-property --path-property "
              "--socket-property")
"""systemd-run's long options that take the next word as value when written without ``=``."""

_LONG_VALUES = frozenset(SDRUN_LONG.split())
_LATER = frozenset({"--on-active", "--on-boot", "--on-startup", "--on-unit-active",
                    "--on-unit-inactive", "--on-calendar", "--on-clock-change",
                    "--on-timezone-change", "--timer-property", "--path-property",
                    "--socket-property"})
_ATTACHED = frozenset({"--scope", "--wait", "--pipe", "--pty", "--shell"})
_ATTACHED_LETTERS = frozenset("tPS")  # -t (--pty), -P (--pipe), -S (--shell)
_MAX_WORDS = 64


def _options(inv: Invocation) -> tuple[str | None, bool, int]:
    """The first option that defers the command, whether one keeps it attached, and the
    index of the command word (``len(args)`` when there is none)."""
    args = inv.args
    later: str | None = None
    attached = False
    take = False
    for index, f in enumerate(args[:_MAX_WORDS]):
        t = f.text
        if take:
            take = False
            continue
        if t == "--":
            return later, attached, index + 1
        if t.startswith("--"):
            key, eq, _ = t.partition("=")
            if key in _LATER and later is None:
                later = key
            attached = attached or key in _ATTACHED
            take = not eq and key in _LONG_VALUES
        elif t.startswith("-") and len(t) > 1:
            for k, letter in enumerate(t[1:]):
                attached = attached or letter in _ATTACHED_LETTERS
                if letter in SDRUN_SHORT:
                    take = k == len(t) - 2  # -pX=1 holds its value; -p takes the next word
                    break
        else:
            return later, attached, index
    return later, attached, min(len(args), _MAX_WORDS)


def systemd_run(run: Run, inv: Invocation) -> None:
    """Warn when ``systemd-run`` (``inv``) starts its command later or detached (see the
    module doc); the command itself is classified by the wrapper walk."""
    later, attached, start = _options(inv)
    if start >= len(inv.args):
        return  # no command: systemd-run --user --scope alone, or options only
    what = inv.args[start].text.replace(DYN, "?")[:60]
    if later is not None:
        run.add("shell.deferred-exec", inv.word.span, f"systemd-run {later} schedules "
                f"{what} to run later, outside this command", None)
    elif not attached:
        run.add("shell.deferred-exec", inv.word.span, f"systemd-run starts {what} as a "
                "background service that outlives this command", None)
