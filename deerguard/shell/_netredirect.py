"""Later traffic sent through another host's proxy, or TLS trust given to a planted CA (warn).

* Proxies: ``export HTTPS_PROXY=URL`` (``http_proxy``, ``https_proxy``, ``all_proxy``,
  ``ftp_proxy`` in either case, ``npm_config_proxy``, ``npm_config_https_proxy``,
  ``PIP_PROXY``, ``YARN_HTTP(S)_PROXY``), ``git config [scope] http[.URL].proxy|https.proxy|
  remote.NAME.proxy URL``, ``npm|pnpm|yarn config set proxy|https-proxy|httpProxy URL``,
  ``pip config set global.proxy URL``, ``conda config --set proxy_servers.https URL``. The
  proxy sees every later request of the shell (every URL and plain-HTTP body, and with a CA
  it chose, the TLS ones too) and can answer installs with its own packages:
  ``shell.package-source`` warns. A proxy on this machine or the local network (loopback,
  private addresses, a one-label name, ``.internal``/``.corp``/``.local``/``.lan``/
  ``.intranet``/``.home.arpa`` names) is the everyday corporate setup and passes, as do a
  proxy named only by a variable (``export https_proxy=$HTTP_PROXY``) and ``NO_PROXY``.
* CA bundles: ``REQUESTS_CA_BUNDLE``, ``CURL_CA_BUNDLE``, ``SSL_CERT_FILE``/``_DIR``,
  ``NODE_EXTRA_CA_CERTS``, ``GIT_SSL_CAINFO``, ``PIP_CERT``, ``AWS_CA_BUNDLE``... and
  ``git config http.sslCAInfo``, ``npm config set cafile``, ``pip config set global.cert``,
  ``conda config --set ssl_verify PATH``, naming a file in a directory anyone can write
  (``/tmp``, ``/var/tmp``, ``/dev/shm``) or one written with fetched data in the same
  command: whoever writes that file can intercept TLS (``shell.tls-off`` warns). The system
  store (``/etc/ssl/certs/...``) and a user's own files pass.

Only settings that outlive the command count (``export``/``X=1``, config commands), as for
``_tlsoff``: ``HTTPS_PROXY=URL cmd`` is one command's choice, like ``curl -x URL``. The same
lines written to a tool's rc file (``proxy = URL`` or ``cacert = /tmp/ca.pem`` in
``~/.curlrc``, ``https_proxy``/``ca_certificate`` in ``~/.wgetrc``, ``https-proxy=``/
``cafile=`` in a project ``.npmrc``/``.yarnrc(.yml)``) are :func:`rc_redirect`'s. Each check
is one pass over the command's own words; callers gate by name.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

from ._files import file_taint
from ._git import config_setting
from ._hostspell import host_address
from ._paths import norm_path
from ._values import DYN, Field, first_source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["NET_PROGRAMS", "NET_VARS", "net_setting", "net_variable", "proxy_setting",
           "rc_redirect", "temp_path"]

_PROXY_VARS = frozenset({"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                         "ALL_PROXY", "ftp_proxy", "FTP_PROXY", "npm_config_proxy",
                         "NPM_CONFIG_PROXY", "npm_config_https_proxy", "NPM_CONFIG_HTTPS_PROXY",
                         "PIP_PROXY", "YARN_HTTP_PROXY", "YARN_HTTPS_PROXY", "RSYNC_PROXY"})
_CA_VARS = frozenset({"REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR",
                      "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO", "GIT_SSL_CAPATH", "PIP_CERT",
                      "AWS_CA_BUNDLE", "NPM_CONFIG_CAFILE", "npm_config_cafile",
                      "YARN_CAFILE", "YARN_HTTPS_CA_FILE_PATH", "HTTPLIB2_CA_CERTS",
                      "GRPC_DEFAULT_SSL_ROOTS_FILE_PATH", "DENO_CERT", "CARGO_HTTP_CAINFO",
                      "NIX_SSL_CERT_FILE", "BUNDLE_SSL_CA_CERT", "CONDA_SSL_VERIFY"})
NET_VARS = _PROXY_VARS | _CA_VARS
"""Variables :func:`net_variable` looks at."""

NET_PROGRAMS = frozenset({"git", "npm", "pnpm", "yarn", "pip", "pip3", "conda", "mamba"})
"""Programs :func:`net_setting` looks at (after the caller saw ``config`` or ``set``)."""

_TEMP_DIRS = ("/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/")
_LOCAL_SUFFIXES = (".localhost", ".internal", ".corp", ".local", ".lan", ".intranet",
                   ".home.arpa", ".localdomain", ".intra", ".private", ".home")
_NO_PROXY_VALUES = frozenset({"", "null", "false", "none", "off", "direct"})
_NPM_PROXY_KEYS = frozenset({"proxy", "https-proxy", "http-proxy", "httpproxy", "httpsproxy"})
_NPM_CA_KEYS = frozenset({"cafile", "httpscafilepath"})


def _proxy_host(url: str) -> str:
    """The host of ``http://user:pw@host:port/``, ``host:port`` or ``[::1]:3128``."""
    rest = url.partition("://")[2] or url
    rest = rest.partition("/")[0].rpartition("@")[2]
    if rest.startswith("["):
        return rest.partition("]")[0] + "]"
    return rest.partition(":")[0].lower().rstrip(".")


def _local_host(host: str) -> bool:
    """A host on this machine or the local network, or one not known statically."""
    if not host or DYN in host or ("." not in host and not host.startswith("[")
                                   and not host[0].isdecimal()):
        return True  # $PROXY, or a one-label name (proxy, squid): the local network
    if host == "localhost" or host.endswith(_LOCAL_SUFFIXES):
        return True
    value = host_address(host) if host[0] in "0123456789[" else None
    if value is None:
        return False
    address = ipaddress.IPv4Address(value) if value < 1 << 32 else ipaddress.IPv6Address(value)
    return address.is_private or address.is_loopback


def temp_path(run: Run, text: str) -> bool:
    """``text`` names a path in a directory anyone can write to (``/tmp/x``, ``/dev/shm``)."""
    path = norm_path(text, run.cwd)
    if path is None:
        return False
    return path.startswith(_TEMP_DIRS) or path.rstrip("/") in ("/tmp", "/var/tmp", "/dev/shm")


def _planted_ca(run: Run, text: str) -> str | None:
    """Why a CA bundle at ``text`` is not the user's own: a temp directory or fetched data."""
    if temp_path(run, text):
        return f"{text} (a directory anyone can write to)"
    if run.files:
        src = first_source(file_taint(run.files, norm_path(text, run.cwd)),
                           frozenset({"fetch", "decode"}))
        if src is not None:
            return f"{text} (written with fetched data in the same command)"
    return None


def proxy_setting(run: Run, who: str, value: str, span: tuple[int, int]) -> None:
    """``who`` stores the proxy ``value`` for later traffic: warn unless it is local."""
    if value.strip().lower() in _NO_PROXY_VALUES or _local_host(_proxy_host(value.strip())):
        return
    run.add("shell.package-source", span, f"{who} sends every later request (and package "
            f"install) through the proxy {value.replace(DYN, '?')}", None)


def _ca(run: Run, who: str, value: str, span: tuple[int, int]) -> None:
    why = _planted_ca(run, value.strip())
    if why is not None:
        run.add("shell.tls-off", span, f"{who} makes TLS trust the certificates in "
                f"{why.replace(DYN, '?')}: whoever writes it can intercept HTTPS", None)


# rc-file keys (lowercase, without - and _) naming a proxy or a CA bundle.
_RC_PROXY_KEYS = frozenset({"proxy", "x", "httpsproxy", "httpproxy", "allproxy", "preproxy"})
_RC_CA_KEYS = frozenset({"cacert", "capath", "cafile", "cacertificate", "cadirectory",
                         "httpscafilepath"})


def rc_redirect(run: Run, line: str) -> tuple[str, str] | None:
    """The rule and what an rc-file line (``proxy = URL``, ``--cacert /tmp/ca.pem``,
    ``https-proxy=URL``, ``httpsProxy: URL``) does when it sends traffic to a remote proxy or
    trusts a CA in a temp directory, else None."""
    s = line.strip().lstrip("-")
    end = 0
    while end < len(s) and (s[end].isalnum() or s[end] in "-_"):
        end += 1
    key = s[:end].lower().replace("-", "").replace("_", "")
    if key not in _RC_PROXY_KEYS and key not in _RC_CA_KEYS:
        return None
    value = s[end:].strip(" \t=:").strip("'\"")
    if key in _RC_PROXY_KEYS:
        if value.lower() in _NO_PROXY_VALUES or _local_host(_proxy_host(value)):
            return None
        return "shell.package-source", f"sends its requests through the proxy {value}"
    if not temp_path(run, value):
        return None
    return "shell.tls-off", f"trusts the certificates in {value} (anyone can write there)"


def net_variable(run: Run, name: str, value: Field, span: tuple[int, int]) -> None:
    """``export HTTPS_PROXY=URL``, ``export REQUESTS_CA_BUNDLE=/tmp/ca.pem`` (see the doc)."""
    if name in _PROXY_VARS:
        proxy_setting(run, name, value.text, span)
    else:
        _ca(run, name, value.text, span)


def net_setting(run: Run, name: str, texts: list[str], span: tuple[int, int]) -> None:
    """A config command that stores a proxy or a CA bundle (see the module doc)."""
    words = [t for t in texts if not t.startswith("-")]
    if name == "git":
        if "config" not in texts:
            return
        setting = config_setting(texts[texts.index("config") + 1:])
        if setting is None:
            return
        key, value = setting[0].lower(), setting[1]
        section, _, last = key.partition(".")
        last = last.rpartition(".")[2]
        if last == "proxy" and section in ("http", "https", "remote"):
            proxy_setting(run, f"git config {setting[0]}", value, span)
        elif section == "http" and last in ("sslcainfo", "sslcapath"):
            _ca(run, f"git config {setting[0]}", value, span)
    elif name in ("npm", "pnpm", "yarn"):
        rest = words[2:] if words[:2] == ["config", "set"] else words[1:] if \
            words[:1] == ["set"] else []
        key, eq, value = rest[0].partition("=") if rest else ("", "", "")
        value = value if eq else (rest[1] if len(rest) > 1 else "")
        base = key.lower().rpartition(":")[2]
        if base in _NPM_PROXY_KEYS:
            proxy_setting(run, f"{name} config sets {key}", value, span)
        elif base in _NPM_CA_KEYS:
            _ca(run, f"{name} config sets {key}", value, span)
    elif name in ("pip", "pip3") and words[:2] == ["config", "set"] and len(words) >= 4:
        base = words[2].lower().rpartition(".")[2]
        if base == "proxy":
            proxy_setting(run, f"pip config sets {words[2]}", words[3], span)
        elif base == "cert":
            _ca(run, f"pip config sets {words[2]}", words[3], span)
    elif name in ("conda", "mamba") and "--set" in texts:
        at = texts.index("--set")
        key, value = (texts[at + 1:at + 3] + ["", ""])[:2]
        if key.startswith("proxy_servers."):
            proxy_setting(run, f"{name} config sets {key}", value, span)
        elif key == "ssl_verify" and value.lower() not in ("true", "false", "yes", "no"):
            _ca(run, f"{name} config sets ssl_verify", value, span)
