"""Which calls in interpreter code send their arguments over the network, and how.

:func:`send_calls` finds the calls of one-liner code (Python, Node, Ruby, Perl, PHP, R) whose
arguments leave the machine: HTTP clients (``requests.get``, ``urlopen``, ``fetch``,
``Net::HTTP.post_form``, ``URI.open``, R's ``httr::POST``), sockets (``sock.sendall``) and
DNS look-ups (``socket.gethostbyname``, ``dns.resolve``, ``Resolv.getaddress``), whose host
name reaches a name server the attacker runs (``$(cat .env | base64).e.example``, as ``dig``
does on the shell side). Names that are also everyday local calls count only where the call
reads as a network one: ``get`` on a client or with a URL (not ``config.get``), ``write``/
``end`` on a socket or request (not ``sys.stdout.write``), ``open`` of ``URI`` or a
URL (not a file), ``lookup``/``resolve`` on ``dns``/``Resolv``; the environment's own
look-ups (``os.environ.get``, ``ENV.fetch``) are never sends.

Linear: one regular-expression scan (a literal alternation), at most :data:`_MAX_CALLS`
calls, each closed within a bounded window.
"""

from __future__ import annotations

import re

from ._langapi import _SENDERS
from ._langpaths import name_before

__all__ = ["send_calls", "short_name"]

_MAX_CALLS = 48
# DNS look-ups: the host name asked for is sent to a name server.
_DNS = frozenset({"gethostbyname", "gethostbyname_ex", "getaddrinfo", "gethostbyaddr",
                  "getaddress", "getaddresses", "dns_get_record", "inet_aton", "lookup",
                  "resolve", "resolve4", "resolve6", "resolveTxt", "resolveAny", "query",
                  "getresources", "getresource", "checkdnsrr", "gethostbynamel"})
# DNS names that are everyday local calls unless called on a resolver.
_DNS_QUALIFIED = frozenset({"lookup", "resolve", "resolve4", "resolve6", "resolveTxt",
                            "resolveAny", "query", "getresources", "getresource",
                            "getaddress", "getaddresses"})
# HTTP calls of R (httr, curl), Perl's LWP shortcuts and Ruby's URI beyond _langapi's list.
_HTTP = frozenset({"POST", "GET", "PUT", "PATCH", "VERB", "open", "URI", "parse",
                   "curl_fetch_memory", "curl_fetch_disk", "getURL", "postForm",
                   "req_body_raw", "req_url_query", "get_print", "getstore", "head"})
_NAMES = _SENDERS | _DNS | _HTTP
# Ruby's and Perl's calls without brackets (RestClient.post "https://..", k: ENV["T"]).
_BARE_RE = re.compile(r"(?<![\w$])(post|post_form|put|patch|get)[ \t]+(?=[\"'A-Za-z_$@:])")
_CALL_RE = re.compile(r"(?<![\w$])(?:" + "|".join(sorted(_NAMES, key=len, reverse=True))
                      + r")[ \t]{0,8}\(")
# Receivers that make write/send/end/get network calls.
_NET_RECEIVERS = ("sock", "req", "conn", "client", "ws", "http", "stream", "session", "url",
                  "axios", "got", "api", "agent", "ua", "curl", "faraday", "rest")
_SHORT_RECEIVERS = frozenset({"s", "c", "r", "sess", "sk"})
_AMBIGUOUS = frozenset({"get", "write", "end", "head"})
# The environment's own look-ups, which share names with senders.
_ENV_LOOKUPS = ("environ.get", "env.get", "env.fetch", "getenv", "environ.setdefault")


def short_name(name: str) -> str:
    """The last part of a dotted, ``->`` or ``::`` qualified callee name."""
    return name.rsplit(".", 1)[-1].rsplit("->", 1)[-1].rsplit("::", 1)[-1]


def _url_first(code: str, at: int) -> bool:
    """The call's first argument starts with a URL literal (``get("https://..``)."""
    head = code[at + 1:at + 16].lstrip(" \t").lstrip("fbrFBR")
    return head[1:].lower().startswith(("http://", "https://", "ws://", "wss://", "ftp://"))


def _qualifier(name: str) -> str:
    short = short_name(name)
    return name[:len(name) - len(short)].rstrip(".:->").lower()


def _resolver(code: str, at: int, qual: str) -> bool:
    """The call is on a DNS resolver (``dns.resolve``, ``require("dns").lookup``,
    ``Resolv::DNS.new.getresources``), not a promise's or a path's ``resolve``."""
    if "dns" in qual or "resolv" in qual:
        return True
    near = code[max(0, at - 40):at].lower()
    return qual == "" and ("dns" in near or "resolv" in near)


def _kind(code: str, at: int, name: str) -> str:
    """``dns``, ``net`` or ``""`` for the call named ``name`` whose ``(`` is at ``at``."""
    short = short_name(name)
    low = name.lower()
    if low.endswith(_ENV_LOOKUPS):
        return ""
    qual = _qualifier(name)
    if short in _DNS:
        if short in _DNS_QUALIFIED and not _resolver(code, at, qual):
            return ""
        return "dns"
    if short == "open":  # URI.open(u), Kernel#open("https://..") with open-uri
        return "net" if qual.endswith("uri") or _url_first(code, at) else ""
    if short == "parse":
        return "net" if qual.endswith("uri") else ""
    if short in _AMBIGUOUS:
        last = qual.rsplit(".", 1)[-1].rsplit("->", 1)[-1].rsplit("::", 1)[-1].lstrip("$@")
        if last in _SHORT_RECEIVERS or any(r in qual for r in _NET_RECEIVERS):
            return "net"
        if name.startswith(".") and short != "get" and \
                "request(" in code[max(0, at - 200):at]:
            return "net"  # http.request(u).end(data): on the request a call returned
        if short in ("get", "head") and (not qual or _url_first(code, at)):
            return "net"  # from requests import get; get(u) / x.get("https://..")
        return ""
    return "net"


def send_calls(code: str, skip: frozenset[int] = frozenset()
               ) -> list[tuple[int, int, str]]:
    """(start, end or -1, ``net`` or ``dns``) of each sending call in ``code``: a call with
    brackets starts at its ``(`` (end -1: the caller closes it); Ruby's and Perl's calls
    without them (``RestClient.post "https://..", ENV["T"]``, ``get "https://.."``) run to
    the end of the statement. Calls whose ``(`` is in ``skip`` (a file-reading call) are
    left out."""
    out: list[tuple[int, int, str]] = []
    for m in _CALL_RE.finditer(code):
        at = m.end() - 1
        if at in skip:
            continue
        name, _ = name_before(code, at)
        kind = _kind(code, at, name)
        if kind:
            out.append((at, -1, kind))
            if len(out) >= _MAX_CALLS:
                return out
    if " " in code:
        for count, m in enumerate(_BARE_RE.finditer(code)):
            if count >= 16:
                break
            at = m.end() - 1
            if m.group(1) == "get" and not _url_first(code, at):
                continue  # a JavaScript getter (get token() {..}), not LWP's get "URL"
            out.append((at, _statement_end(code, at), "net"))
    return out


def _statement_end(code: str, at: int) -> int:
    """The end of the statement holding ``at`` (``;`` or a newline; bounded)."""
    limit = min(len(code), at + 400)
    ends = [k for k in (code.find(";", at, limit), code.find("\n", at, limit)) if k != -1]
    return min(ends) if ends else limit
