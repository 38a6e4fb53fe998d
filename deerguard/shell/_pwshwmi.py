"""PowerShell pipelines that delete shadow copies through WMI objects (for ``_pwshcode``).

``Get-WmiObject Win32_ShadowCopy | Remove-WmiObject``, ``Get-CimInstance Win32_ShadowCopy |
Remove-CimInstance`` and ``gwmi Win32_ShadowCopy | % { $_.Delete() }`` do what ``wmic
shadowcopy delete`` does (ransomware's usual first step): the pipeline is read as that
command, so ``_windestroy`` judges it. A getter alone lists shadow copies and runs nothing.
"""

from __future__ import annotations

from ._pwshcmd import Tok

__all__ = ["SHADOW_DELETE", "shadow_step"]

SHADOW_DELETE = "wmic shadowcopy delete"

_GETTERS = frozenset({"get-wmiobject", "gwmi", "get-ciminstance", "gcim"})
_REMOVERS = frozenset({"remove-wmiobject", "rwmi", "remove-ciminstance", "rcim"})
_EACH = frozenset({"foreach-object", "%", "foreach"})


def shadow_step(words: list[Tok], text: str, reading: bool) -> str | None:
    """One pipeline step: ``""`` for a getter of shadow copies (nothing runs yet),
    :data:`SHADOW_DELETE` for a removal of the objects a getter before it (``reading``)
    produced, None for any other step."""
    head = (words[0].value or "").lower() if words else ""
    low = text.lower()
    if head in _GETTERS and "win32_shadowcopy" in low:
        return ""
    if reading and (head in _REMOVERS or (head in _EACH and ".delete(" in low)):
        return SHADOW_DELETE
    return None
