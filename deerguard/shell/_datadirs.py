"""Data directories below the protected top levels: databases, package databases, container
and service state.

``rm -rf /var/lib`` is a recursive delete of a system directory (``CRITICAL_DIRS``), but the
directories that hold a machine's *data* sit one level lower: ``/var/lib/postgresql``,
``/var/lib/mysql``, ``/srv/data``. Deleting them is the irreversible act itself (the data is
not reinstallable the way ``/opt/app`` or ``/var/lib/apt/lists`` is), on this machine or
through ``ssh host '...'`` / ``kubectl exec db-0 -- ...``, which are classified as the code
they run.

Severity (justified per table):

* ``shell.data-delete`` (block): a whole user folder in a home directory (``~/Documents``,
  ``~/Desktop/*``, ``/Users/x/Pictures``, a ``~/Dropbox``; files inside them pass); a
  database's or a cluster store's data directory, the package databases, at any depth
  (``/var/lib/postgresql/16/main/pg_wal/*`` is how data is lost). No everyday developer
  command deletes these; a database is dropped with its own tools, which
  ``shell.resource-destroy`` already warns on.
* ``shell.resource-destroy`` (warn): container and VM engine state (``/var/lib/docker``,
  which holds every volume, ``/var/lib/containerd``, ``/var/lib/libvirt``...), a direct child
  of ``/srv`` (a served site's data, also a deploy step: ``rm -rf /srv/app && cp -r ...``) and
  any other direct child of ``/var/lib`` or ``/var/opt`` (``/var/lib/snapd`` in an uninstall
  guide). Deeper paths there pass: ``rm -rf /var/lib/apt/lists/*`` in a Dockerfile is
  everyday, and so is clearing a cache below a service directory.
"""

from __future__ import annotations

from ._paths import HOME_PARENTS

__all__ = ["data_dir_delete"]

# Data directories whose recursive delete blocks, at any depth (the directory, its
# contents, anything inside it).
_DATA_DIRS = frozenset({
    # relational, document, key-value, search, column and graph databases
    "postgresql", "pgsql", "postgres", "mysql", "mariadb", "mysql-files", "mongodb", "mongo",
    "redis", "redis-server", "valkey", "keydb", "elasticsearch", "opensearch", "solr",
    "cassandra", "scylla", "couchdb", "couchbase", "neo4j", "clickhouse", "influxdb",
    "timescaledb", "questdb", "cockroach", "cockroachdb", "mssql", "firebird", "memgraph",
    "arangodb3", "rethinkdb", "dgraph", "qdrant", "milvus", "weaviate", "chroma", "ldap",
    "openldap", "dirsrv", "riak", "aerospike", "foundationdb", "tidb", "tikv",
    "prometheus", "grafana", "loki", "mimir", "tempo", "victoriametrics",
    # message queues and coordination stores
    "rabbitmq", "kafka", "zookeeper", "nats", "pulsar", "activemq", "etcd", "consul",
    "vault", "nomad", "minio", "ceph", "glusterd",
    # package databases (what is installed; the system cannot be updated without them)
    "dpkg", "rpm", "pacman", "dnf", "yum",
    # self-hosted forges and CI homes (repositories, job history)
    "gitlab", "gitea", "forgejo", "jenkins", "gogs",
})
# Engine state whose recursive delete warns (volumes, images, VM disks): the documented
# uninstall of these engines deletes exactly these directories.
_ENGINE_DIRS = frozenset({"docker", "containerd", "containers", "kubelet", "lxd", "lxc",
                          "incus", "libvirt", "podman", "rancher", "k3s", "rke2", "cni",
                          "flatpak", "snapd"})
_KEEP = frozenset({"log", "logs", "pg_log", "tmp", "temp", "cache", ".cache", "workspace",
                   "workspaces"})
_DATA_ROOTS = ("/var/lib/", "/var/opt/", "/srv/", "/var/db/", "/usr/local/var/",
               "/opt/homebrew/var/")


# A person's own files: the folders desktop systems make in every home (XDG user
# directories, macOS's, Windows's seen from WSL) and cloud-synced folders. An agent has no
# everyday reason to delete one of them whole; a file or folder inside them is another
# matter (``rm -rf ~/Documents/old-drafts`` passes). ``~/Downloads`` is left out: emptying
# it is a user's everyday chore (``rm -rf ~/Downloads/*`` is a labelled pass row).
_USER_DIRS = frozenset({
    "Documents", "Desktop", "Pictures", "Photos", "Music", "Videos", "Movies",
    "Public", "Templates", "Library", "Dropbox", "OneDrive", "Google Drive", "iCloud Drive",
    "Nextcloud", "ownCloud", "Sync", "Zotero", "Calibre Library", "Obsidian", "Notes"})


def _user_dir_delete(path: str) -> tuple[str, str] | None:
    """A recursive delete of a whole user folder (``~/Documents``, ``/home/u/Desktop/*``)."""
    if path.startswith("~/"):
        rest = path[2:]
    elif path.startswith("/root/"):
        rest = path[6:]
    else:
        home = next((h for h in HOME_PARENTS if path.startswith(h)), None)
        if home is None:
            return None
        rest = path[len(home):].partition("/")[2]  # below /home/NAME
    name, _, below = rest.partition("/")
    if name not in _USER_DIRS or below not in ("", "*", ".*"):
        return None
    return ("shell.data-delete", f"recursive delete of the user's {name} folder ({path})")


def data_dir_delete(path: str) -> tuple[str, str] | None:
    """(rule id, message) for a recursive delete of the normalized ``path``; None for any
    other path. Constant work per path (a few string splits)."""
    root = next((r for r in _DATA_ROOTS if path.startswith(r)), None)
    if root is None:
        return _user_dir_delete(path) if "/" in path else None
    rest = path[len(root):]
    name, _, below = rest.partition("/")
    if not name or name in (".", ".."):
        return None
    # /var/lib/pgsql, /var/lib/postgresql-16, /var/lib/mysql8: the name up to a version.
    base = name.split("@", 1)[0].rstrip("0123456789.-_") or name
    if name in _DATA_DIRS or base in _DATA_DIRS:
        if below and not _KEEP.isdisjoint(below.split("/")):
            return None  # .../pg_log/*, .../tmp: logs and scratch space inside a data dir
        return ("shell.data-delete", f"recursive delete of the data directory {root}{name} "
                f"({path})")
    if below not in ("", "*", ".*"):
        return None  # /var/lib/apt/lists/*, /srv/app/cache: deeper paths pass
    if "*" in name or "?" in name or "[" in name:
        return ("shell.data-delete", f"recursive delete of every data directory under "
                f"{root} ({path})")
    if name in _ENGINE_DIRS or base in _ENGINE_DIRS:
        what = "container or VM engine state (every volume and image)"
    elif root == "/srv/":
        what = "a served site's data"
    else:
        what = "a service's state"
    return ("shell.resource-destroy", f"recursive delete of {root}{name}, {what}")
