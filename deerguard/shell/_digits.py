"""Shell values that are digits only: ``$$``, ``$!``, ``$PPID``, ``$RANDOM``, ``$UID``...

Their value is not known, but it is a run of digits: it holds no ``/``, is never ``..`` and
never empty, so a path whose only unknown parts are such values names one directory that
the rest of the path fixes (``/tmp/build-$$`` is a fresh directory in ``/tmp``, not any
other). They expand to :data:`NUM`, a placeholder character that stands for "some digits":
unlike :data:`DYN` it leaves the path static, so the path rules read ``/tmp/build-NUM``
(nothing to report), ``~/$$/..`` (``~``: blocks) and ``/$RANDOM`` (a top-level directory
chosen at run time: blocks, as before). Arithmetic cannot evaluate it (unknown stays
unknown: ``${a[RANDOM%2]}``), and a program name holding it is not known statically.
"""

from __future__ import annotations

__all__ = ["DIGIT_PARAMS", "NUM", "top_level_num"]

NUM = "\ue001"
"""Stands for a run of digits whose value is not known (``$$``, ``$RANDOM``)."""

# Special parameters and shell variables whose value is always a decimal number.
DIGIT_PARAMS = frozenset({"$", "!", "PPID", "BASHPID", "RANDOM", "SRANDOM", "SECONDS", "UID",
                          "EUID", "EPOCHSECONDS", "LINENO"})


def top_level_num(path: str) -> bool:
    """``/$RANDOM``, ``/x$$/``: a path whose first component is chosen at run time."""
    return path.startswith("/") and NUM in path.split("/", 2)[1]
