"""Other spellings of an IP address in a URL's host: what address a host really names.

HTTP clients (curl, browsers, Python's ``socket.inet_aton``) accept many spellings of one
IPv4 address, and filters that compare text miss them:

* ``inet_aton`` forms: 1 to 4 dot-separated parts, each decimal, octal (leading ``0``) or hex
  (``0x``); the last part fills the bytes left (``169.254.43518``: a.b.c with c 16 bits,
  ``169.16689662``: a.b with b 24 bits, ``2852039166``: one 32-bit number), so
  ``0xa9.0xfe.0xa9.0xfe``, ``0251.0376.0251.0376`` and ``0xa9fea9fe`` all name
  169.254.169.254; one trailing dot is allowed, percent-escapes are decoded;
* IPv6 hosts in brackets that carry an IPv4 address: IPv4-mapped ``[::ffff:169.254.169.254]``
  / ``[::ffff:a9fe:a9fe]``, IPv4-compatible ``[::a9fe:a9fe]``, NAT64 ``[64:ff9b::a9fe:a9fe]``;
  other IPv6 addresses compare as themselves;
* wildcard-DNS names that resolve to the address they spell (``169.254.169.254.nip.io``,
  ``app-169-254-169-254.sslip.io``, ``a9fea9fe.nip.io``).

:func:`host_address` returns the address as an integer (IPv4: below 2**32), else None. It
is called only on a host that starts with a digit or ``[`` or ends in a wildcard-DNS domain
(a cheap test callers make first), and it is linear in the host (at most 255 characters).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import unquote

__all__ = ["host_address", "odd_host"]

_WILDCARD_DNS = (".nip.io", ".sslip.io", ".xip.io", ".nip.direct", ".traefik.me",
                 ".rbndr.us", ".1u.ms", ".localtest.me")
_HEX = frozenset("0123456789abcdef")
_NAT64 = int(ipaddress.IPv6Address("64:ff9b::"))


def odd_host(host: str) -> bool:
    """The cheap gate: ``host`` may spell an address :func:`host_address` can read."""
    return bool(host) and (host[0] in "0123456789[%" or host.endswith(_WILDCARD_DNS))


def _part(text: str) -> int | None:
    """One ``inet_aton`` part: ``0x`` hex, ``0`` octal or decimal; None when invalid."""
    if not text or len(text) > 34:
        return None
    if text.startswith("0x"):
        digits = text[2:]
        if not all(c in _HEX for c in digits):
            return None
        return int(digits, 16) if digits else 0
    if not text.isascii() or not text.isdecimal():
        return None
    if len(text) > 1 and text[0] == "0":
        return int(text, 8) if all(c in "01234567" for c in text) else None
    return int(text)


def ipv4_value(host: str) -> int | None:
    """The IPv4 address ``host`` spells the way ``inet_aton`` reads it, else None."""
    if host.endswith("."):
        host = host[:-1]
    parts = host.split(".", 4)
    count = len(parts)
    if count > 4:
        return None
    value = 0
    for index in range(count - 1):
        n = _part(parts[index])
        if n is None or n > 255:
            return None
        value = (value << 8) | n
    last = _part(parts[-1])
    bits = 8 * (5 - count)  # the last part fills the bytes left
    if last is None or last >= 1 << bits:
        return None
    return (value << bits) | last


def _ipv6_value(host: str) -> int | None:
    inner = host[1:].partition("]")[0].partition("%")[0]
    try:
        value = int(ipaddress.IPv6Address(inner))
    except ValueError:
        return None
    if value >> 32 in (0, 0xFFFF) or (value >> 32) << 32 == _NAT64:
        return value & 0xFFFFFFFF  # ::a.b.c.d, ::ffff:a.b.c.d, 64:ff9b::a.b.c.d
    return value


def _wildcard_value(host: str) -> int | None:
    """``169.254.169.254.nip.io``, ``x-169-254-169-254.sslip.io``, ``a9fea9fe.nip.io``: the
    address a wildcard-DNS name resolves to (the last one it spells)."""
    name = next((host[:-len(s)] for s in _WILDCARD_DNS if host.endswith(s)), "")
    tokens = name.replace("-", ".").split(".")[-64:]
    for end in range(len(tokens), 0, -1):
        if end >= 4 and all(t.isascii() and t.isdecimal() for t in tokens[end - 4:end]):
            value = ipv4_value(".".join(str(int(t)) for t in tokens[end - 4:end]))
            if value is not None:
                return value
        token = tokens[end - 1]
        if len(token) == 8 and all(c in _HEX for c in token):
            return int(token, 16)
    return None


def host_address(host: str) -> int | None:
    """The address ``host`` (lowercase, no port) names in any spelling above, else None."""
    if not host or len(host) > 255:
        return None
    if "%" in host and not host.startswith("["):
        host = unquote(host)
    if host.startswith("["):
        return _ipv6_value(host)
    if host[0] in "0123456789":
        value = ipv4_value(host)
        if value is not None:
            return value
    if host.endswith(_WILDCARD_DNS):
        return _wildcard_value(host)
    return None
