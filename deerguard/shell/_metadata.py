"""Cloud instance metadata services: the ONE table of their hosts and credential paths.

A request to an instance metadata service for the instance role's keys or an access token
reads a credential, like ``cat ~/.aws/credentials``:

* hosts: AWS ``169.254.169.254`` (``instance-data``, ``instance-data.ec2.internal``,
  ``fd00:ec2::254``), GCP ``metadata.google.internal``, ``metadata.goog`` and the bare
  ``metadata``, Azure and Oracle (the same link-local address), Alibaba
  ``100.100.100.200``; every spelling of the addresses an HTTP client accepts (hex, octal,
  one number, ``169.254.43518``, IPv4-mapped IPv6, ``169.254.169.254.nip.io``) is read by
  :mod:`._hostspell` when the host starts with a digit, ``[`` or ``%`` or names a
  wildcard-DNS domain; curl's ``--resolve``/``--connect-to``/``-x`` to such an address
  with a credential path in the URL count too (:func:`metadata_routed`);
* credential paths: ``/security-credentials`` (AWS, Alibaba's ``/ram/security-credentials``),
  ``/identity-credentials``, GCP's ``/service-accounts/../token`` and ``/identity?``, Azure's
  ``/metadata/identity/oauth2/token``, Oracle's instance-principal ``/opc/v1|v2/identity``;
* the IMDSv2 session token (``/latest/api/token``) only opens the door: it is no finding, but
  what it prints is secret data (:func:`metadata_secret`);
* ECS task roles (``169.254.170.2``: ``_exfil``) and EKS Pod Identity (``169.254.170.23``)
  serve credentials under ``/v2/credentials`` and ``/v1/credentials``;
* user data (``/latest/user-data``, Azure ``userData``, GCP ``startup-script``): bootstrap
  scripts often hold secrets, so a request warns (``_exfil``) and what it prints is secret
  data; GKE's ``/attributes/kube-env`` holds kubelet credentials (a credential path).

Other metadata paths (``/latest/meta-data/instance-id``, Oracle's ``/opc/v2/instance/``)
pass, in any spelling of the address. Used by the HTTP command-line tools (``_exfil``,
``_outputs``) and by inline interpreter code (:func:`code_metadata`: a credential URL in a
string literal).
"""

from __future__ import annotations

import re

from ._code import literals
from ._gate import word_gate
from ._hostspell import host_address, odd_host

__all__ = ["code_metadata", "metadata_credential", "metadata_routed", "metadata_secret",
           "metadata_userdata"]

# Hosts distinctive anywhere in a word (numeric spellings of 169.254.169.254 included).
_DISTINCT = ("169.254.169.254", "metadata.google.internal", "fd00:ec2::254", "2852039166",
             "0xa9fea9fe", "0251.0376.0251.0376", "a9fe:a9fe", "metadata.goog",
             "100.100.100.200", "instance-data.ec2.internal")
# Names that are metadata hosts only as the whole host of a URL (http://metadata/...).
_BARE = frozenset({"metadata", "instance-data"})
_GATE = ("169.254", "metadata", "instance-data", "2852039166", "0xa9fea9fe", "0251.0376",
         "a9fe:a9fe", "fd00:ec2", "100.100.100.200")
# Host names are case-insensitive (``http://METADATA.Google.Internal/``): the gate searches
# the lowercased text (cheaper than an IGNORECASE pattern).
_GATE_RE = word_gate(_GATE)
_CREDENTIAL_PATHS = ("/security-credentials", "/identity/oauth2/token", "/token",
                     "/identity?", "/identity-credentials", "/opc/v1/identity",
                     "/opc/v2/identity", "/attributes/kube-env")
# Metadata services by address (any spelling, :mod:`._hostspell`): 169.254.169.254 (AWS,
# GCP, Azure, Oracle, OpenStack, DigitalOcean), Alibaba's 100.100.100.200, Oracle's legacy
# 192.0.0.192, AWS's IPv6 fd00:ec2::254.
_ADDRESSES = frozenset({0xA9FEA9FE, 0x646464C8, 0xC00000C0,
                        0xFD000EC2000000000000000000000254})
# ECS task roles (169.254.170.2) and EKS Pod Identity (169.254.170.23, fd00:ec2::23) serve
# credentials under these paths only.
_CONTAINER_ADDRESSES = frozenset({0xA9FEAA02, 0xA9FEAA17, 0xFD000EC2000000000000000000000023})
_CONTAINER_PATHS = ("/v2/credentials", "/v1/credentials")
_ALL_ADDRESSES = _ADDRESSES | _CONTAINER_ADDRESSES
# The first bytes of the IPv4 metadata addresses, and what else starts a decimal byte.
_TOP_BYTES = ("169.", "100.", "192.")
_DECIMAL_FIRST = frozenset("123456789")
# The rest of a URL inside code: up to a quote, blank, bracket or separator.
_URL_TAIL = re.compile(r"[^\s\"'`()<>,;{}\\]{0,300}")
# A URL whose host may be another spelling of an address is parsed only when its host
# starts with one of these characters, it has user info (``@``), or it names a wildcard-DNS
# domain.
_ODD_FIRST = frozenset("0123456789[%")
_WILD_RE = word_gate(("nip.io", "sslip.io", "xip.io", "nip.direct", "traefik.me", "rbndr.us",
                      "1u.ms"))
# User data: the instance's bootstrap script or cloud-init config, which often holds
# secrets (AWS/Alibaba/OpenStack /user-data, Oracle user_data, Azure userData, GCP's
# startup-script attribute, DigitalOcean /metadata/v1/user-data).
_USER_DATA = ("/user-data", "/user_data", "/userdata", "/attributes/startup-script")
_SESSION_TOKEN = "/latest/api/token"
# What taints a response as secret: credentials, the session token, GCP service accounts and
# Azure managed identities under any path.
_SECRET_PATHS = (*_CREDENTIAL_PATHS, _SESSION_TOKEN, "/service-accounts/", "/metadata/identity/")


def _host(text: str) -> str:
    """The host of a URL or a scheme-less ``host/path`` word, lowercased."""
    rest = text.partition("://")[2] or text
    end = len(rest)
    for ch in "/?#":
        k = rest.find(ch)
        if k != -1 and k < end:
            end = k
    return rest[:end].rpartition("@")[2].partition(":")[0].lower()


def _metadata_host(text: str) -> bool:
    low = text.lower()
    return any(h in low for h in _DISTINCT) or _host(text) in _BARE


def _odd_url(text: str) -> bool:
    """The cheap gate of :func:`_address`: a URL (or scheme-less ``host/path``) whose host
    may be an address spelled as numbers, IPv6, %-escapes or a wildcard-DNS name."""
    k = text.find("://")
    if k < 0 and "/" not in text:
        return False  # no path: asks for no credentials (``--max-time 10``)
    first = text[k + 3:k + 4] if k >= 0 else text[:1]
    return first in _ODD_FIRST or "@" in text or _WILD_RE.search(text) is not None


def _address(text: str) -> int | None:
    """The address of the URL's host when it is spelled as numbers, IPv6 or wildcard DNS."""
    if not text or not _odd_url(text):
        return None
    host = _host(text)
    if host[:1] in _DECIMAL_FIRST and host.count(".") == 3 and not host.startswith(
            _TOP_BYTES):
        return None  # a dotted quad whose first byte no metadata address has (127.0.0.1)
    return host_address(host) if odd_host(host) else None


def _service(text: str) -> bool:
    """``text`` is a URL (or ``host/path``) on a metadata service, in any spelling."""
    if _GATE_RE.search(text.lower()) is not None and _metadata_host(text):
        return True
    return _address(text) in _ADDRESSES


def _container_path(text: str) -> bool:
    """ECS / EKS Pod Identity's credential path (after an address spelled as numbers)."""
    rest = text.partition("://")[2] or text
    path = rest[rest.find("/"):] if "/" in rest else ""
    return path.startswith(_CONTAINER_PATHS)


def _path(text: str) -> str:
    """The part of a metadata URL whose path names what it serves (query kept for GCP's
    ``/identity?audience=``)."""
    return text if "/identity?" in text else text.split("?", 1)[0]


def metadata_credential(text: str) -> bool:
    """``text`` (a URL) asks a cloud metadata service for credentials (not the session
    token)."""
    if _GATE_RE.search(text.lower()) is None or not _metadata_host(text):
        address = _address(text)
        if address is None:
            return False
        if address in _CONTAINER_ADDRESSES:
            return _container_path(text)
        if address not in _ADDRESSES:
            return False
    return _SESSION_TOKEN not in text and any(p in _path(text) for p in _CREDENTIAL_PATHS)


_ROUTES = ("--resolve", "--connect-to", "-x", "--proxy", "--preproxy")


def _routed_host(option: str, value: str) -> str:
    """The host a curl routing option sends requests to: ``--resolve H:P:ADDR``,
    ``--connect-to H1:P1:H2:P2``, ``-x|--proxy|--preproxy URL``."""
    if option == "--resolve":
        return value.split(":", 2)[2].lstrip("+").split(",")[0] if value.count(":") >= 2 else ""
    if option == "--connect-to":
        return value.rpartition(":")[0].split(":", 2)[2] if value.count(":") >= 3 else ""
    return _host(value)


def metadata_routed(texts: list[str]) -> bool:
    """curl sends a credential path to a metadata address through ``--resolve``,
    ``--connect-to`` or a proxy (``curl --resolve x:80:169.254.169.254 http://x/latest/
    meta-data/iam/security-credentials/``)."""
    service = False
    for index, t in enumerate(texts[:-1]):
        option, eq, value = t.partition("=") if t.startswith("--") else (t, "", "")
        if option.startswith("-x") and len(option) > 2:
            option, value, eq = "-x", option[2:], "="
        if option not in _ROUTES:
            continue
        host = (value if eq else texts[index + 1]).lower()
        host = _routed_host(option, host)
        service = service or host in _BARE or any(h in host for h in _DISTINCT) or (
            odd_host(host) and host_address(host) in _ADDRESSES)
    return service and any(_SESSION_TOKEN not in t and any(
        p in _path(t) for p in _CREDENTIAL_PATHS) for t in texts if "://" in t)


def metadata_userdata(text: str) -> bool:
    """``text`` (a URL) asks a metadata service for the instance's user data."""
    if "data" not in text and "startup" not in text and "Data" not in text:
        return False
    return _service(text) and any(p in text.lower() for p in _USER_DATA)


def metadata_secret(texts: list[str]) -> bool:
    """An HTTP request whose answer is secret data: credentials or the IMDSv2 token."""
    for t in texts:
        if _GATE_RE.search(t.lower()) is None or not _metadata_host(t):
            address = _address(t)
            if address is None:
                continue
            if address in _CONTAINER_ADDRESSES and _container_path(t):
                return True
            if address not in _ADDRESSES:
                continue
        if any(p in _path(t) for p in _SECRET_PATHS) or any(
                p in t.lower() for p in _USER_DATA):
            return True
    return False


def _odd_metadata_url(code: str) -> bool:
    """One of the first 64 URLs in ``code`` names a metadata address in another spelling
    (``urlopen("http://0xa9fea9fe/..")``): the gate of the slower literal scan."""
    k = code.find("://")
    for _ in range(64):
        if k < 0:
            return False
        tail = _URL_TAIL.match(code, k + 3)
        url = "://" + (tail.group() if tail is not None else "")
        if _address(url) in _ALL_ADDRESSES:
            return True
        k = code.find("://", k + 3)
    return False


def code_metadata(code: str, backtick: bool) -> bool:
    """Inline code fetches cloud metadata credentials: a string literal that is a credential
    URL (``urlopen("http://169.254.169.254/latest/meta-data/iam/security-credentials/")``),
    or a metadata host in one literal and a credential path in another (``base + "iam/
    security-credentials/"``); ECS's ``169.254.170.2`` with the credentials path or variable."""
    if len(code) > 20000:
        return False
    odd = _GATE_RE.search(code.lower()) is None
    if odd and not _odd_metadata_url(code):
        return False
    if "169.254.170.2" in code and ("/v2/credentials" in code or "CONTAINER_CREDENTIALS" in
                                    code):  # ECS task role: + $AWS_CONTAINER_CREDENTIALS_..
        return True
    for count, word in enumerate(code.split()):  # irm http://.., urlopen("http://..")
        if count > 4096:
            break
        if (_GATE_RE.search(word.lower()) is not None or (odd and "://" in word)) and \
                metadata_credential(word):
            return True
    host = False
    path = False
    for count, (_start, _end, text) in enumerate(literals(code, backtick)):
        if count > 256:
            break
        value = text[1:]
        if not value or len(value) > 400:
            continue
        if metadata_credential(value):
            return True
        if _service(value):
            host = True
        if "credentials" in value or "/token" in value or "identity" in value:
            path = path or (_SESSION_TOKEN not in value and any(
                p.strip("/") in value for p in _CREDENTIAL_PATHS))
    return host and path
