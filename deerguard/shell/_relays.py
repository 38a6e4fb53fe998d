"""Relays that open a local-only service to the network: ``socat`` listeners and
``kubectl port-forward|proxy --address``.

* ``socat TCP-LISTEN:2222,fork TCP:localhost:22`` listens on every interface and relays each
  connection to a local service that is not meant for the network (ssh here, a database or
  cache, a debugger, the Docker or Kubernetes API; a web port such as 80 or 8080 passes):
  ``shell.network-expose`` (warn, as for ``ssh -R`` and ngrok). When the far side is a
  container engine's socket (``UNIX-CONNECT:/var/run/docker.sock``), whoever connects drives
  the engine and so is root on this host: ``shell.container-escape`` (block). A listener bound
  to loopback (``bind=127.0.0.1``, ``range=127.0.0.1/32``), a relay to another host, to
  stdio or to a file pass.
* ``kubectl port-forward --address 0.0.0.0 svc/db 5432``: the cluster service is reachable
  from the network through this machine; ``kubectl proxy --address 0.0.0.0`` does the same for
  the API server with the user's credentials. Both warn; the default (localhost) passes.

* ``kubectl expose --type=LoadBalancer|NodePort`` of such a service port warns;
  ``dockerd -H tcp://0.0.0.0:2375`` without ``--tlsverify`` (and ``podman system service
  tcp:...``) serves the engine's API to the network unauthenticated: block, as socat to its
  socket does.

One pass over the words; addresses are split on ``:`` and ``,`` once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cloudtable import VALUE_OPTS
from ._container import SOCKETS
from ._optwalk import operand_words
from ._words import Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["engine_listener", "forward", "relay"]

_SOCAT_ARG = frozenset({"-lf", "-t", "-T", "-b", "-L", "-W", "-lp", "-ly", "-S", "-r",
                        "-R", "-x", "-X"})
_LISTEN = frozenset({"tcp-listen", "tcp-l", "tcp4-listen", "tcp4-l", "tcp6-listen",
                     "tcp6-l", "udp-listen", "udp-l", "udp4-listen", "udp4-l",
                     "udp6-listen", "udp6-l", "openssl-listen", "ssl-l", "sctp-listen",
                     "sctp-l", "sctp4-listen", "sctp6-listen"})
_CONNECT = frozenset({"tcp", "tcp4", "tcp6", "tcp-connect", "tcp4-connect", "tcp6-connect",
                      "udp", "udp4", "udp6", "udp-connect", "openssl", "ssl", "sctp",
                      "sctp-connect"})
_UNIX = frozenset({"unix-connect", "unix-client", "unix", "gopen", "open"})
# Local services that are not meant for the network: ssh, databases and caches, container
# and cluster control planes, debuggers, remote desktops. A web port (80, 3000, 8080) is
# relayed by developers every day (a VM or container reaching a dev server) and passes.
_SERVICE_PORTS = frozenset({
    "22", "ssh", "23", "445", "3306", "mysql", "5432", "postgresql", "6379", "redis", "11211",
    "27017", "9200", "9300", "2375", "2376", "2379", "2380", "6443", "10250", "10255",
    "9229", "5005", "5678", "3389", "5900", "5901", "1433", "1521", "5984", "8086", "9092",
    "2181", "15672", "5672", "8500", "8200", "4646", "9000", "61616"})
_LOOPBACK = ("localhost", "127.", "[::1]", "::1", "0", "ip6-localhost")


def _addresses(args: list[Field]) -> list[str]:
    return operand_words(args, _SOCAT_ARG)


def _local_listener(options: str) -> bool:
    """A listener restricted to this machine (``bind=127.0.0.1``, ``range=127.0.0.0/8``)."""
    for opt in options.lower().split(","):
        key, _, value = opt.partition("=")
        if key in ("bind", "range", "b") and value.startswith(_LOOPBACK[:4]):
            return True
    return False


def _target(address: str) -> str | None:
    """What a connecting address reaches on this machine: ``"engine"`` for a container
    engine's socket, ``"local"`` for a loopback port or another local socket, else None."""
    kind, colon, rest = address.partition(":")
    low = kind.lower()
    if not colon and address.startswith("/"):
        low, rest = "gopen", address
    if low in _UNIX:
        path = rest.split(",", 1)[0]
        if path.startswith(SOCKETS) or path.endswith(("docker.sock", "podman.sock")):
            return "engine"
        return "local" if low != "gopen" and low != "open" else None
    if low in _CONNECT:
        host, _, port = rest.split(",", 1)[0].rpartition(":")
        if (host.startswith(_LOOPBACK) or host in ("", "0.0.0.0")) and \
                port.lower() in _SERVICE_PORTS:
            return "local"
    return None


def relay(run: Run, args: list[Field], span: tuple[int, int]) -> None:
    """``socat LISTENER TARGET`` (either order): a network listener relaying to a local
    service."""
    addrs = _addresses(args)
    if len(addrs) != 2:
        return
    for here, there in ((addrs[0], addrs[1]), (addrs[1], addrs[0])):
        kind, _, options = here.partition(":")
        if kind.lower() not in _LISTEN or _local_listener(options):
            continue
        reached = _target(there)
        if reached == "engine":
            run.add("shell.container-escape", span, f"socat {here} relays the network to "
                    f"{there}: whoever connects drives the container engine, root on this "
                    "host", None)
        elif reached == "local":
            run.add("shell.network-expose", span, f"socat {here} relays the network to the "
                    f"local service {there}", None)
        return


_LOCAL_ADDRESSES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def forward(run: Run, name: str, texts: list[str], span: tuple[int, int]) -> None:
    """``kubectl port-forward|proxy --address ADDR`` with an address other than loopback."""
    verb = ""
    values = VALUE_OPTS["kubectl"]
    for k, t in enumerate(texts):
        if not t.startswith("-") and (k == 0 or texts[k - 1] not in values):
            verb = t
            break
    if verb == "expose":
        _expose_service(run, name, texts, span)
    if verb not in ("port-forward", "proxy"):
        return
    for k, t in enumerate(texts):
        if t == "--address" and k + 1 < len(texts):
            value = texts[k + 1]
        elif t.startswith("--address="):
            value = t[10:]
        else:
            continue
        if any(a.strip() not in _LOCAL_ADDRESSES for a in value.split(",")):
            run.add("shell.network-expose", span, f"{name} {verb} --address {value} opens "
                    "a cluster " + ("service" if verb == "port-forward" else "API, with "
                                    "your credentials,") + " to the network", None)
        return


def _value(texts: list[str], name: str) -> str | None:
    for k, t in enumerate(texts):
        if t == name and k + 1 < len(texts):
            return texts[k + 1]
        if t.startswith(name + "="):
            return t[len(name) + 1:]
    return None


def _expose_service(run: Run, name: str, texts: list[str], span: tuple[int, int]) -> None:
    """``kubectl expose ... --type=LoadBalancer|NodePort --port=5432``: a service that is not
    meant for the network (a database, ssh, a control plane) given an outside address. A web
    port passes (exposing a web app is what a load balancer is for)."""
    kind = (_value(texts, "--type") or "").lower()
    if kind not in ("loadbalancer", "nodeport"):
        return
    ports = {_value(texts, "--port"), _value(texts, "--target-port")}
    if ports & _SERVICE_PORTS:
        run.add("shell.network-expose", span, f"{name} expose --type={kind} opens a cluster "
                "service that is not meant for the network to outside addresses", None)


def engine_listener(run: Run, name: str, texts: list[str], span: tuple[int, int]) -> None:
    """``dockerd -H tcp://0.0.0.0:2375`` (no ``--tlsverify``) or ``podman system service
    tcp:0.0.0.0:8888``: the engine's API on the network without authentication, so whoever
    connects is root on this host (``shell.container-escape``)."""
    if name == "podman":
        if texts[:2] != ["system", "service"]:
            return
        hosts = [t for t in texts[2:] if t.startswith("tcp:")]
    else:
        if any(t.startswith("--tlsverify") and not t.endswith("=false") for t in texts):
            return
        hosts = [v for k, t in enumerate(texts)
                 for v in ([texts[k + 1]] if t in ("-H", "--host") and k + 1 < len(texts)
                           else [t[7:]] if t.startswith("--host=")
                           else [t[2:]] if t.startswith("-Htcp") else [])]
    for host in hosts:
        if not host.startswith("tcp:"):
            continue
        address = host[4:].lstrip("/").rpartition(":")[0]
        if not address.startswith(_LOOPBACK[:4]):
            run.add("shell.container-escape", span, f"{name} serves the container engine's "
                    f"API on {host} without TLS: whoever connects is root on this host", None)
            return
