"""Cloud instance metadata services: the ONE table of their hosts and credential paths.

A request to an instance metadata service for the instance role's keys or an access token
reads a credential, like ``cat ~/.aws/credentials``:

* hosts: AWS ``169.254.169.254`` (and its decimal, hex, octal and IPv6 spellings,
  ``instance-data``, ``instance-data.ec2.internal``), GCP ``metadata.google.internal``,
  ``metadata.goog`` and the bare ``metadata``, Azure and Oracle (the same link-local
  address), Alibaba ``100.100.100.200``;
* credential paths: ``/security-credentials`` (AWS, Alibaba's ``/ram/security-credentials``),
  ``/identity-credentials``, GCP's ``/service-accounts/../token`` and ``/identity?``, Azure's
  ``/metadata/identity/oauth2/token``, Oracle's instance-principal ``/opc/v1|v2/identity``;
* the IMDSv2 session token (``/latest/api/token``) only opens the door: it is no finding, but
  what it prints is secret data (:func:`metadata_secret`).

Other metadata paths (``/latest/meta-data/instance-id``, Oracle's ``/opc/v2/instance/``)
pass. Used by the HTTP command-line tools (``_exfil``, ``_outputs``) and by inline
interpreter code (:func:`code_metadata`: a credential URL in a string literal).
"""

from __future__ import annotations

from ._code import literals
from ._gate import word_gate

__all__ = ["code_metadata", "metadata_credential", "metadata_secret"]

# Hosts distinctive anywhere in a word (numeric spellings of 169.254.169.254 included).
_DISTINCT = ("169.254.169.254", "metadata.google.internal", "fd00:ec2::254", "2852039166",
             "0xa9fea9fe", "0251.0376.0251.0376", "a9fe:a9fe", "metadata.goog",
             "100.100.100.200", "instance-data.ec2.internal")
# Names that are metadata hosts only as the whole host of a URL (http://metadata/...).
_BARE = frozenset({"metadata", "instance-data"})
_GATE = ("169.254", "metadata", "instance-data", "2852039166", "0xa9fea9fe", "0251.0376",
         "a9fe:a9fe", "fd00:ec2", "100.100.100.200")
_GATE_RE = word_gate(_GATE)
_CREDENTIAL_PATHS = ("/security-credentials", "/identity/oauth2/token", "/token",
                     "/identity?", "/identity-credentials", "/opc/v1/identity",
                     "/opc/v2/identity")
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
    return any(h in text for h in _DISTINCT) or _host(text) in _BARE


def _path(text: str) -> str:
    """The part of a metadata URL whose path names what it serves (query kept for GCP's
    ``/identity?audience=``)."""
    return text if "/identity?" in text else text.split("?", 1)[0]


def metadata_credential(text: str) -> bool:
    """``text`` (a URL) asks a cloud metadata service for credentials (not the session
    token)."""
    if _GATE_RE.search(text) is None or not _metadata_host(text):
        return False
    return _SESSION_TOKEN not in text and any(p in _path(text) for p in _CREDENTIAL_PATHS)


def metadata_secret(texts: list[str]) -> bool:
    """An HTTP request whose answer is secret data: credentials or the IMDSv2 token."""
    for t in texts:
        if _GATE_RE.search(t) is not None and _metadata_host(t) and any(
                p in _path(t) for p in _SECRET_PATHS):
            return True
    return False


def code_metadata(code: str, backtick: bool) -> bool:
    """Inline code fetches cloud metadata credentials: a string literal that is a credential
    URL (``urlopen("http://169.254.169.254/latest/meta-data/iam/security-credentials/")``),
    or a metadata host in one literal and a credential path in another (``base + "iam/
    security-credentials/"``); ECS's ``169.254.170.2`` with the credentials path or variable."""
    if len(code) > 20000 or _GATE_RE.search(code) is None:
        return False
    if "169.254.170.2" in code and ("/v2/credentials" in code or "CONTAINER_CREDENTIALS" in
                                    code):  # ECS task role: + $AWS_CONTAINER_CREDENTIALS_..
        return True
    for count, word in enumerate(code.split()):  # irm http://.., urlopen("http://..")
        if count > 4096:
            break
        if _GATE_RE.search(word) is not None and metadata_credential(word):
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
        if _GATE_RE.search(value) is not None and _metadata_host(value):
            host = True
        if "credentials" in value or "/token" in value or "identity" in value:
            path = path or (_SESSION_TOKEN not in value and any(
                p.strip("/") in value for p in _CREDENTIAL_PATHS))
    return host and path
