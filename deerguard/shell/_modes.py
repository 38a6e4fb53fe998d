"""File modes as chmod, install -m and mkdir -m read them: octal or symbolic.

A mode is risky when it makes a file writable by every user (the ``o+w`` bit, ``0o002``) or
setuid (``0o4000``, ``u+s``). Setgid alone (``g+s``, ``2775``) is the usual setting for a
shared directory and is not risky by itself; the sticky bit neither. The same test applies
to setfacl entries for "other" and to the umask (which decides the mode of every new file).
"""

from __future__ import annotations

__all__ = ["acl_world_writable", "mode_risk", "umask_world_writable"]

_WORLD_WRITE = 0o002
_SETUID = 0o4000


def mode_risk(text: str) -> tuple[bool, bool] | None:
    """``(world_writable, setuid)`` for a mode string, or None when it is not a mode."""
    if not text:
        return None
    if text.isdecimal():  # "²755", "٧٧٧": digits to str.isdigit, not to chmod (not a mode)
        if not text.isascii() or len(text) > 8 or any(c in "89" for c in text):
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


def acl_world_writable(spec: str) -> bool:
    """Whether a setfacl ACL spec (``o::rwx``, ``other:rw``, ``u:bob:r,o::w``) gives every
    user write permission: an ``o``/``other`` entry (or a default ``d:o::...`` one) with w."""
    for entry in spec[:4096].split(","):
        parts = entry.strip().split(":")
        if parts and parts[0] in ("d", "default"):
            parts = parts[1:]
        if len(parts) >= 2 and parts[0] in ("o", "other") and "w" in parts[-1]:
            return True
    return False


def umask_world_writable(text: str) -> bool:
    """Whether ``umask TEXT`` lets new files be written by every user: an octal mask
    without the others-write bit (``000``, ``0``, ``020``), or a symbolic mask that allows
    it (``o+w``, ``a=rwx``)."""
    if text.isdecimal():
        if not text.isascii() or len(text) > 4 or any(c in "89" for c in text):
            return False
        return not int(text, 8) & _WORLD_WRITE
    risk = _symbolic(text)
    return risk is not None and risk[0]
