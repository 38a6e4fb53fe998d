"""Perl and Ruby shell calls written without parentheses, given a value that is not a literal.

``system $c``, ``exec @ARGV``, ``system join(" ", @a)``, ``exec { $sh } @args``, Ruby
``system cmd`` and ``Process.spawn *argv`` run a command built at run time, like
``system($c)`` does (which :func:`._code.shell_strings` reads as dynamic). A literal argument
(``system "ls"``, ``system 'ls', $d``) is read by the literal scanner instead. The call must
start a statement or an expression (after ``;``, a brace, ``(``, ``=``, ``,``, ``|``, ``&``,
``!``, or as a method of ``Kernel``/``Process``; not a Ruby symbol ``:system``): words in a
comment (``# run system tests``) call nothing. One C-level search, linear.
"""

from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["bare_dynamic_call"]

# A run function as a whole word (not a variable, a sub reference or an ->method), then
# blanks, then what starts a value other than a literal or a parenthesised argument list.
_BARE = re.compile(r"(?<![\w$@%&>-])(?:system|exec|spawn)[ \t]+(?=[A-Za-z_$@{*&%<])")
_BEFORE = frozenset(";{}(\n=,|&!:.")


def bare_dynamic_call(code: str, starts: list[int],
                      lits: tuple[tuple[int, int, str], ...]) -> bool:
    """Whether ``code`` (Perl or Ruby; its literals ``lits`` starting at ``starts``) calls
    ``system``/``exec``/``spawn`` without parentheses on a value that is not a literal."""
    for m in _BARE.finditer(code):
        at = bisect_right(starts, m.start()) - 1
        if at >= 0 and m.start() < lits[at][1]:
            continue  # inside a string literal
        j = m.start()
        while j > 0 and code[j - 1] in " \t":
            j -= 1
        if j == 0 or (code[j - 1] in _BEFORE and (code[j - 1] != ":" or code[j - 2:j] == "::")):
            return True  # (a lone ":" makes a Ruby symbol, :system; Kernel::system calls)
    return False
