"""The system's proxy settings, which every later connection of the desktop follows (warn).

``networksetup -setwebproxy SERVICE HOST PORT`` (also ``-setsecurewebproxy``,
``-setsocksfirewallproxy``, ``-setftpproxy``, ``-setautoproxyurl SERVICE PAC_URL``) on
macOS, ``gsettings set org.gnome.system.proxy.http host HOST`` (``.https``, ``.ftp``,
``.socks``, ``org.gnome.system.proxy autoconfig-url URL``) on GNOME, ``kwriteconfig5 --file
kioslaverc --group 'Proxy Settings' --key httpProxy URL`` on KDE and ``netsh winhttp set
proxy HOST:PORT`` on Windows store a proxy for every later request of the machine's
programs, like ``pip config set global.proxy URL``: a remote proxy warns
(``shell.package-source``, via ``_netredirect.proxy_setting``); a local one, turning the
proxy off and ``gsettings set ... mode manual`` alone (no host named) pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._netredirect import proxy_setting

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["SYSPROXY_PROGRAMS", "system_proxy"]

SYSPROXY_PROGRAMS = frozenset({"networksetup", "gsettings", "kwriteconfig5", "kwriteconfig6",
                               "netsh"})
"""Programs :func:`system_proxy` looks at."""

_NETWORKSETUP = frozenset({"-setwebproxy", "-setsecurewebproxy", "-setsocksfirewallproxy",
                           "-setftpproxy", "-setstreamingproxy", "-setgopherproxy",
                           "-setautoproxyurl"})
_GNOME_HOSTS = frozenset({"org.gnome.system.proxy.http", "org.gnome.system.proxy.https",
                          "org.gnome.system.proxy.ftp", "org.gnome.system.proxy.socks"})
_KDE_KEYS = frozenset({"httpproxy", "httpsproxy", "ftpproxy", "socksproxy",
                       "proxy config script"})


def system_proxy(run: Run, inv: Invocation) -> None:
    """A command of :data:`SYSPROXY_PROGRAMS` storing a system proxy (see the module doc)."""
    args = inv.args
    texts = [f.text for f in args]
    name = inv.name
    span = inv.word.span
    if name == "networksetup":
        for k, t in enumerate(texts[:-2]):
            if t.lower() in _NETWORKSETUP:
                port = texts[k + 3] if k + 3 < len(texts) and t.lower() != "-setautoproxyurl" \
                    else ""
                value = texts[k + 2] + (":" + port if port.isdecimal() else "")
                proxy_setting(run, f"networksetup {t}", value, span)
                return
    elif name == "gsettings":
        if len(texts) >= 4 and texts[0] == "set":
            schema, key, value = texts[1], texts[2], texts[3]
            if (schema in _GNOME_HOSTS and key == "host") or (
                    schema == "org.gnome.system.proxy" and key == "autoconfig-url"):
                proxy_setting(run, f"gsettings sets {schema} {key}", value.strip("'\""), span)
    elif name == "netsh":
        low = [t.lower() for t in texts]
        if low[:3] == ["winhttp", "set", "proxy"] and len(texts) > 3:
            value = texts[3].partition("=")[2] if "=" in texts[3] else texts[3]
            value = value.strip("\"'").rpartition("=")[2].partition(";")[0]  # http=H:P;...
            proxy_setting(run, "netsh winhttp set proxy", value, span)
    else:
        _kde(run, inv, texts)


def _kde(run: Run, inv: Invocation, texts: list[str]) -> None:
    """``kwriteconfig5 --file kioslaverc --group 'Proxy Settings' --key httpProxy URL``."""
    if "kioslaverc" not in " ".join(texts):
        return
    for k, t in enumerate(texts[:-2]):
        if t == "--key" and texts[k + 1].lower() in _KDE_KEYS:
            value = texts[k + 2].replace(" ", ":")  # KDE writes "http://host 8080"
            proxy_setting(run, f"{inv.name} sets {texts[k + 1]}", value, inv.word.span)
            return
