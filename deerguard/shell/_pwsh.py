"""PowerShell's ``-EncodedCommand``: the command line is base64 of UTF-16LE text.

``pwsh -enc SQBFAFgA...`` (``-e``, ``-ec``, ``-en``... any prefix of ``-EncodedCommand``, in
any case) hides its code from a reader; it is the classic way to smuggle a download-and-run
past a review. The payload is decoded and classified as the PowerShell code it is (like
``pwsh -c``), and running hidden code warns at least (``shell.dynamic-code``). A payload that
does not decode is dynamic code. ``-c``/``-Command`` in any case is the plain form.
"""

from __future__ import annotations

import base64
import binascii

__all__ = ["command_flag", "decode_encoded", "encoded_flag", "value_flag"]

_ENCODED = "encodedcommand"
# pwsh options that take a value (full names and documented aliases, lower case).
_VALUE_OPTIONS = frozenset({
    "-executionpolicy", "-ex", "-ep", "-windowstyle", "-w", "-configurationname", "-config",
    "-workingdirectory", "-wd", "-outputformat", "-o", "-of", "-inputformat", "-in", "-if",
    "-version", "-v", "-psconsolefile", "-custompipename", "-settingsfile", "-settings",
    "-encodedarguments", "-ea",
})


def encoded_flag(text: str) -> bool:
    """Whether ``text`` names ``-EncodedCommand`` (``-e``, ``-ec`` or a 3+ letter prefix)."""
    if not text.startswith("-") or len(text) > len(_ENCODED) + 1:
        return False
    name = text[1:].lower()
    return name in ("e", "ec") or (len(name) >= 2 and _ENCODED.startswith(name))


def command_flag(text: str) -> bool:
    """Whether ``text`` is ``-c`` or ``-Command`` in any case (pwsh's inline-code flag)."""
    return text.lower() in ("-c", "-command")


def decode_encoded(text: str) -> str | None:
    """The command an ``-EncodedCommand`` argument holds, or None when it does not decode."""
    if len(text) > 1_000_000:
        return None
    try:
        raw = base64.b64decode(text.strip(), validate=True)
        return raw.decode("utf-16-le")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None


def value_flag(text: str) -> bool:
    """Whether ``text`` is a pwsh option that takes a value (``-ExecutionPolicy Bypass``)."""
    return text.lower() in _VALUE_OPTIONS
