"""Secret variables in an HTTP client's auth headers and options (``curl -H``, ``wget
--header``, ``curl -u``, httpie/xh ``Header:value`` items).

A secret in an auth header is how an API authenticates to the URL it is sent to, so
:func:`_secrets.sent_args` leaves headers out of the data a request sends. Two cases are
leaks all the same:

* A signing secret that no service ever receives (``$AWS_SECRET_ACCESS_KEY`` signs requests,
  a ``*_PRIVATE_KEY`` or ``*_SIGNING_KEY`` signs tokens: :func:`_exfil.never_sent`) in a
  header sends the key itself: ``shell.exfiltration`` (block), whatever the host.
* A well-known service token sent to a host that is not its service (``$GITHUB_TOKEN`` to
  anything but GitHub's hosts, ``$OPENAI_API_KEY`` to anything but OpenAI's...): warn
  (``shell.secret-in-request``). Not block: a GitHub Enterprise server or a service that
  accepts GitHub tokens (a CI uploader) is legitimate, and a human can tell. The same token to
  its own service, to this machine or a private address, or to a host the classifier cannot
  read (``$API_URL``) stays quiet, as before.

Only the HTTP clients reach this module (one name test in ``_outputs``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._exfil import never_sent
from ._values import Source, source_order
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["header_secrets"]

# Options whose value is a header or a credential (curl, wget, httpie/xh -a).
_AUTH = frozenset({"-H", "--header", "-u", "--user", "--oauth2-bearer", "--proxy-user",
                   "-U", "--password", "--http-password", "--proxy-password", "-a", "--auth"})
# Options with a separate value that is not a URL (so it is no host either).
_VALUE = _AUTH | frozenset({
    "-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--data-ascii",
    "--json", "-F", "--form", "--form-string", "-o", "--output", "-X", "--request", "-A",
    "--user-agent", "-e", "--referer", "-T", "--upload-file", "-x", "--proxy", "-b",
    "--cookie", "-c", "--cookie-jar", "-w", "--write-out", "-K", "--config", "--cacert",
    "--capath", "--cert", "--key", "-E", "-r", "--range", "-m", "--max-time",
    "--connect-timeout", "--retry", "--retry-delay", "--retry-max-time", "-C",
    "--continue-at", "--resolve", "--connect-to", "--limit-rate", "--max-redirs",
    "--output-dir", "--interface", "--dns-servers", "-z", "--time-cond", "-O",
    "--output-document", "--output-file", "--append-output", "-P", "--directory-prefix",
    "--http-user", "--execute", "-t", "--tries", "--timeout", "--wait", "--post-data",
    "--post-file", "--body-data", "--body-file", "--method", "-i", "--input-file",
    "--print", "-p", "--session", "--verify", "--ssl"})
# Short options with a value, last in a cluster (curl -sSo FILE, -sSH HEADER...).
_VALUE_LETTERS = frozenset("oOdHuXAeTxbcwKErmCzPtiF")

# Tokens of well-known services and the host suffixes that receive them.
_GITHUB = ("github.com", "githubusercontent.com", "ghcr.io", "githubcopilot.com",
           "github.ai", "models.inference.ai.azure.com")
_TOKEN_HOSTS: dict[str, tuple[str, ...]] = {
    "GITHUB_TOKEN": _GITHUB, "GH_TOKEN": _GITHUB, "GITHUB_PAT": _GITHUB, "GH_PAT": _GITHUB,
    "GITHUB_PERSONAL_ACCESS_TOKEN": _GITHUB,
    "OPENAI_API_KEY": ("openai.com", "openai.azure.com"),
    "ANTHROPIC_API_KEY": ("anthropic.com",),
    "NPM_TOKEN": ("npmjs.org", "npmjs.com"),
    "HF_TOKEN": ("huggingface.co", "hf.co"), "HUGGING_FACE_HUB_TOKEN": ("huggingface.co",
                                                                        "hf.co"),
}


def _var(src: Source) -> str:
    return src.program.lstrip("$").strip("{}").upper()


def _host(text: str) -> str | None:
    """The host of URL-like ``text`` (``https://u:p@Host:443/x`` -> ``host``), or None."""
    rest = text.partition("://")[2] if "://" in text else text
    auth = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    host = auth.rpartition("@")[2]
    if host.startswith("["):
        return host[1:].partition("]")[0].lower() or None
    host = host.partition(":")[0].lower().rstrip(".")
    if "://" not in text:  # a bare operand: only a host name (example.com/x) counts
        if "." not in host or not all(c.isalnum() or c in ".-" for c in host):
            return None
        tld = host.rpartition(".")[2]
        if not tld.isalpha() and not all(p.isdecimal() for p in host.split(".")):
            return None
    return host or None


def _local(host: str) -> bool:
    """This machine or a private address (not a place a secret leaves to)."""
    if host in ("localhost", "0.0.0.0", "::1", "host.docker.internal") or host.endswith(
            (".localhost", ".local", ".internal")):
        return True
    parts = host.split(".")
    if len(parts) == 4 and all(p.isdecimal() for p in parts):
        a, b = int(parts[0]), int(parts[1])
        return a in (10, 127) or (a, b) == (192, 168) or (a == 172 and 16 <= b <= 31)
    return False


def header_secrets(run: Run, inv: Invocation) -> None:
    """Findings for secret variables in ``inv``'s headers and auth options (module doc)."""
    args = inv.args
    if not any(f.taint for f in args):
        return  # no secret variable anywhere: nothing to look at
    headers: list[Field] = []
    users: list[Field] = []  # -u USER:KEY, which curl --aws-sigv4 signs with, not sends
    hosts: list[str] = []
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        opt, eq, val = t.partition("=")
        long = t.startswith("--")
        value = args[i + 1] if i + 1 < len(args) else None
        if t.startswith("-") and len(t) > 1:
            if long and eq:  # --header=V, --url=U: the value is in the word
                if opt in _AUTH:
                    headers.append(f)
                elif opt == "--url":
                    hosts.append(val)
            elif opt in _AUTH or opt == "--url":
                if value is not None and opt == "--url":
                    hosts.append(value.text)
                elif value is not None:
                    headers.append(value)
                    if opt in ("-u", "--user"):
                        users.append(value)
                i += 2
                continue
            elif not long and t[1] in "Hu" and len(t) > 2:
                headers.append(f)  # -H'X: y' attached
            elif opt in _VALUE or (not long and t[1:].isalpha() and t[-1] in _VALUE_LETTERS):
                if t[-1] in "Hu" and not long and value is not None:
                    headers.append(value)  # -sSH 'Authorization: ...'
                i += 2  # -o FILE, -sSo FILE: the value is no host
                continue
        elif ":" in t and "://" not in t and t.partition(":")[0].replace("-", "").isalpha():
            headers.append(f)  # httpie / xh item: Authorization:Bearer\ $TOKEN
        else:
            hosts.append(t)
        i += 1
    secrets = sorted({s for f in headers for s in f.taint
                      if s.kind == "secret" and s.program.startswith("$")}, key=source_order)
    if not secrets:
        return
    desc = run._desc(inv.name, inv.word.span)
    if any(a.text.startswith("--aws-sigv4") for a in args):
        signers = {id(f) for f in users}
        headers = [f for f in headers if id(f) not in signers]
    signing = min((s for f in headers for s in f.taint if s.kind == "secret" and
                   never_sent(s.program)), key=source_order, default=None)
    if signing is not None:
        run.add("shell.exfiltration", inv.word.span, f"{inv.name} sends a signing secret in "
                "a header: no service receives that key itself",
                f"{signing.describe()} reaches {desc}")
        return
    named = sorted({h for h in map(_host, hosts) if h is not None and DYN not in h and
                    not _local(h)})
    done: set[str] = set()
    for src in secrets:
        own = _TOKEN_HOSTS.get(_var(src))
        if own is None or _var(src) in done:
            continue
        done.add(_var(src))
        foreign = next((h for h in named if not any(h == s or h.endswith("." + s)
                                                      for s in own)), None)
        if foreign is not None:
            run.add("shell.secret-in-request", inv.word.span, f"{inv.name} sends "
                    f"{src.program} to {foreign}, which is not its service's host",
                    f"{src.describe()} reaches {desc}")
            return
