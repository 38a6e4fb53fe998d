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
    """``[ugoa]*([-+=]([rwxXst]*|[ugo]))+`` clauses separated by commas; each clause's
    operators apply in order (``go=u-w`` copies the user's bits, then drops w)."""
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
        # With no who (chmod +w), the umask (022 nearly everywhere) keeps w from others.
        others = bool(who) and ("o" in who or "a" in who)
        user = not who or "u" in who or "a" in who
        writable = sets_uid = False
        while k < len(clause):
            op = clause[k]
            k += 1
            start = k
            while k < len(clause) and clause[k] not in "+-=":
                k += 1
            perms = clause[start:k]
            if perms in ("u", "g", "o"):
                perms = "rw" if perms == "u" else ""  # o=u copies the owner's (rw) bits
            elif any(c not in "rwxXst" for c in perms):
                return None
            if op == "=":
                writable, sets_uid = "w" in perms, "s" in perms
            elif op == "+":
                writable, sets_uid = writable or "w" in perms, sets_uid or "s" in perms
            else:
                writable = writable and "w" not in perms
                sets_uid = sets_uid and "s" not in perms
        world = world or (writable and others)
        setuid = setuid or (sets_uid and user)
    return world, setuid
