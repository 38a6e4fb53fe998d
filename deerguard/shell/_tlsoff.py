"""TLS certificate verification turned off for later commands (``shell.tls-off``, warn).

* Variables: ``GIT_SSL_NO_VERIFY`` (git checks only that it is set), ``NODE_TLS_REJECT_
  UNAUTHORIZED=0``, ``PYTHONHTTPSVERIFY=0``, ``NPM_CONFIG_STRICT_SSL=false``,
  ``YARN_ENABLE_STRICT_SSL=false``, ``GOINSECURE=...``, ``UV_INSECURE_HOST=...``.
* Settings: ``git config [scope] http[.URL].sslVerify false``, ``npm|pnpm|yarn config set
  strict-ssl false`` (yarn 2+: ``enableStrictSsl``), ``conda config --set ssl_verify
  false``, ``bundle config ssl_verify_mode 0``, ``composer config disable-tls true``/
  ``secure-http false``, ``kubectl config set-cluster ... --insecure-skip-tls-verify``.
* Files: ``insecure``/``-k`` written to ``~/.curlrc``, ``check_certificate = off`` to
  ``~/.wgetrc``, ``strict-ssl=false`` to a project ``.npmrc``/``.yarnrc``.

Only settings that outlive the command count: ``export``/``X=1`` in the script, config
commands and rc files. ``GIT_SSL_NO_VERIFY=1 git clone``, ``git clone -c http.sslVerify=false``,
``curl -k URL`` and ``wget --no-check-certificate URL`` turn it off for one command against a
host the command names (everyday against localhost and self-signed staging servers); when
what such a command fetches is run, the fetch-to-execution rules already block.

Severity: warn. Turning verification off is a common first step of a man-in-the-middle or
package-substitution setup, and it outlives the command; it is also what developers do
against a self-signed staging server, so a human decides.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._netredirect import rc_redirect
from ._resolve import Invocation
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["TLS_PROGRAMS", "TLS_VARS", "tls_program", "tls_variable", "tls_write"]

TLS_VARS = frozenset({"GIT_SSL_NO_VERIFY", "NODE_TLS_REJECT_UNAUTHORIZED", "PYTHONHTTPSVERIFY",
                      "NPM_CONFIG_STRICT_SSL", "npm_config_strict_ssl", "YARN_STRICT_SSL",
                      "YARN_ENABLE_STRICT_SSL", "GOINSECURE", "UV_INSECURE_HOST",
                      "BUNDLE_SSL_VERIFY_MODE", "COMPOSER_DISABLE_TLS"})
TLS_PROGRAMS = frozenset({"git", "npm", "pnpm", "yarn", "conda", "mamba", "bundle",
                          "composer", "kubectl"})
"""Programs :func:`tls_program` looks at."""

_FALSE = frozenset({"false", "no", "off", "0", ""})


def tls_variable(run: Run, name: str, value: Field, span: tuple[int, int]) -> None:
    text = value.text
    if name == "GIT_SSL_NO_VERIFY":
        off = True  # git tests getenv() only: any value, even 0 or empty, turns it off
    elif name in ("NODE_TLS_REJECT_UNAUTHORIZED", "PYTHONHTTPSVERIFY",
                  "BUNDLE_SSL_VERIFY_MODE"):
        off = text == "0"
    elif name in ("GOINSECURE", "UV_INSECURE_HOST"):
        off = bool(text)
    elif name == "COMPOSER_DISABLE_TLS":
        off = text.lower() in ("1", "true")
    else:
        off = text.lower() in ("false", "0")
    if off:
        run.add("shell.tls-off", span, f"{name}={text.replace(DYN, '?')} turns off TLS "
                "certificate verification", None)


def _key(text: str) -> str:
    return text.lower().replace("-", "").replace("_", "")


def tls_program(run: Run, inv: Invocation) -> None:
    name = inv.name
    args = inv.args
    texts = [f.text for f in args]
    if name == "git":
        # git config [scope] http[.URL].sslVerify false: stored for every later command.
        # git -c / clone -c http.sslVerify=false is one command's option, like curl -k.
        if "config" not in texts or not any("sslverify" in t.lower() for t in texts):
            return
        for index, t in enumerate(texts[:-1]):
            low = t.lower()
            if low.startswith("http.") and low.endswith(".sslverify") and \
                    texts[index + 1].lower() in _FALSE and texts[index - 1] != "-c":
                _report(run, args[index], f"git config sets {t} {texts[index + 1]}")
                return
        return
    if "config" not in texts and "set" not in texts and not any(
            t.startswith("--insecure-skip-tls-verify") for t in texts):
        return
    words = [t for t in texts if not t.startswith("-")]
    if name in ("npm", "pnpm", "yarn"):
        rest = words[2:] if words[:2] == ["config", "set"] else \
            words[1:] if words[:1] == ["set"] else []
        if rest:
            key, eq, inline = rest[0].partition("=")
            value = inline if eq else (rest[1] if len(rest) > 1 else "")
            if _key(key).rpartition(":")[2] in ("strictssl", "enablestrictssl") and \
                    value.lower() in _FALSE:
                _report(run, inv.word, f"{name} config sets {key} {value}")
    elif name in ("conda", "mamba"):
        for index, t in enumerate(texts):
            if t == "--set" and index + 2 < len(texts) and _key(texts[index + 1]) == \
                    "sslverify" and texts[index + 2].lower() in _FALSE:
                _report(run, args[index], f"{name} config sets ssl_verify false")
    elif name == "bundle":
        if words[:1] == ["config"] and "ssl_verify_mode" in words and words[-1] == "0":
            _report(run, inv.word, "bundle config sets ssl_verify_mode 0")
    elif name == "composer":
        if words[:1] == ["config"] and len(words) >= 3 and (
                (words[1] == "disable-tls" and words[2] in ("true", "1")) or
                (words[1] == "secure-http" and words[2] in ("false", "0"))):
            _report(run, inv.word, f"composer config sets {words[1]} {words[2]}")
    elif name == "kubectl" and words[:1] == ["config"]:
        for index, t in enumerate(texts):
            if t == "--insecure-skip-tls-verify" or t.lower() in (
                    "--insecure-skip-tls-verify=true", "--insecure-skip-tls-verify=1"):
                _report(run, args[index], "kubectl config stores a cluster without TLS "
                        "verification")


def _report(run: Run, f: Field, what: str) -> None:
    run.add("shell.tls-off", f.span, f"{what.replace(DYN, '?')}: turns off TLS certificate "
            "verification for later commands", None)


_RC_FILES = {".curlrc": "curl", "curlrc": "curl", "_curlrc": "curl", ".wgetrc": "wget",
             "wgetrc": "wget", ".npmrc": "npm", ".yarnrc": "yarn", ".yarnrc.yml": "yarn"}


def tls_write(run: Run, f: Field, text: str | None) -> None:
    """``echo insecure >> ~/.curlrc``: every later curl skips verification."""
    if text is None:
        return
    base = f.text.rpartition("/")[2]
    tool = _RC_FILES.get(base)
    if tool is None or (tool == "curl" and base == "curlrc" and ".config" not in f.text):
        return
    for line in text.splitlines()[:200]:
        low = line.strip().lower().replace(" ", "").replace("\t", "")
        if tool == "curl":
            off = low in ("insecure", "-k", "--insecure", "k") or low.startswith(
                ("insecure=", "insecure:", "--insecure=")) and low[-4:] not in ("=off", ":off")
        elif tool == "wget":
            off = low.replace("-", "_") in ("check_certificate=off", "checkcertificate=off",
                                            "check_certificate=0", "check_certificateoff")
        else:
            key, _, value = low.replace(":", "=", 1).partition("=")
            off = _key(key) in ("strictssl", "enablestrictssl") and value.strip("'\"") in (
                "false", "0")
        if off:
            run.add("shell.tls-off", f.span, f"writes {line.strip()!r} to {f.text}: every "
                    f"later {tool} skips TLS certificate verification", None)
            return
        redirect = rc_redirect(run, line) if "pro" in low or "ca" in low else None
        if redirect is not None:  # proxy = URL, cacert = /tmp/ca.pem (_netredirect)
            run.add(redirect[0], f.span, f"writes {line.strip()!r} to {f.text}: every later "
                    f"{tool} {redirect[1].replace(DYN, '?')}", None)
            return
