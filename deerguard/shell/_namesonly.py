"""JSON filters that print only the names or the count of what they read, never a value.

``kubectl get secret app -o json | jq '.data | keys'`` lists which keys a secret holds, the
way ``kubectl get secrets -o name`` lists secrets: no credential reaches the terminal, so the
printed credential is consumed (no ``shell.secret-display``), as ``| wc -c`` consumes it.

Only a strict grammar counts: path stages (``.``, ``.data``, ``.a.b``) piped into a last
stage of ``keys``, ``keys[]``, ``keys_unsorted`` or ``length``. Anything else (``keys,
.data``, ``{(.data.x): 1} | keys`` whose key is a value, ``debug``, ``error``, ``$ENV``, a
program file ``-f``, string interpolation) prints values or cannot be read: still shown.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._resolve import Invocation

__all__ = ["prints_names_only"]

_JQ = frozenset({"jq", "gojq", "jaq", "yq"})
_PATH = re.compile(r"\.(?:[A-Za-z_][A-Za-z_0-9]{0,63})?(?:\.[A-Za-z_][A-Za-z_0-9]{0,63}){0,16}")
_LAST = frozenset({"keys", "keys[]", "keys_unsorted", "keys_unsorted[]", "length"})
# Flags that take no value and do not change what the program prints.
_FLAGS = frozenset({"-r", "-c", "-M", "-C", "-S", "-e", "-j", "--raw-output", "--compact-output",
                    "--sort-keys", "--monochrome-output", "--color-output", "-rc", "-cr",
                    "-er", "-re", "--exit-status"})


def prints_names_only(inv: Invocation) -> bool:
    """True when ``inv`` is a jq-like filter whose program prints only names or a count."""
    if inv.name not in _JQ:
        return False
    operands = []
    for f in inv.args:
        t = f.text
        if t.startswith("-"):
            if t not in _FLAGS:
                return False  # --arg, -f FILE, --slurpfile...: not read
            continue
        operands.append(t)
    if len(operands) != 1 or len(operands[0]) > 512:
        return False  # no program, or files named (their values are not the stdin)
    stages = [s.strip() for s in operands[0].split("|")]
    if stages[-1] not in _LAST:
        return False
    return all(_PATH.fullmatch(s) is not None for s in stages[:-1])
