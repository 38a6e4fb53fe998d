"""File modes as chmod, install -m and mkdir -m read them: octal or symbolic.

A mode is risky when it makes a file writable by every user (the ``o+w`` bit, ``0o002``) or
setuid (``0o4000``, ``u+s``). Setgid alone (``g+s``, ``2775``) is the usual setting for a
shared directory and is not risky by itself; the sticky bit neither.
"""

from __future__ import annotations

__all__ = ["mode_risk"]

_WORLD_WRITE = 0o002
_SETUID = 0o4000


def mode_risk(text: str) -> tuple[bool, bool] | None:
    """``(world_writable, setuid)`` for a mode string, or None when it is not a mode."""
    if not text:
        return None
    if text.isdigit():
        if len(text) > 8 or any(c in "89" for c in text):
            return None
        value = int(text, 8)
        return bool(value & _WORLD_WRITE), bool(value & _SETUID)
    return _symbolic(text)


def _symbolic(text: str) -> tuple[bool, bool] | None:
    """``[ugoa]*([-+=]([rwxXst]*|[ugo]))+`` clauses separated by commas."""
    world = setuid = False
    if len(text) > 256:
        return None
    for clause in text.split(","):
        k = 0
        while k < len(clause) and clause[k] in "ugoa":
            k += 1
        who = clause[:k]
        if k == len(clause) or clause[k] not in "+-=":
            return None
        others = not who or "o" in who or "a" in who
        user = not who or "u" in who or "a" in who
        while k < len(clause):
            op = clause[k]
            if op not in "+-=":
                return None
            k += 1
            start = k
            while k < len(clause) and clause[k] not in "+-=":
                k += 1
            perms = clause[start:k]
            if perms in ("u", "g", "o"):
                perms = "rwx" if op != "-" and perms == "u" and others else ""
            elif any(c not in "rwxXst" for c in perms):
                return None
            if op == "-":
                continue
            # With no who (chmod +w), the umask (022 nearly everywhere) keeps w from others.
            if "w" in perms and others and who:
                world = True
            if "s" in perms and user:
                setuid = True
    return world, setuid
