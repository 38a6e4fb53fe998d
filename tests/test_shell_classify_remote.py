"""Round-5 "remote" slice: data directories, commands run elsewhere, container escapes through
other front ends, and pushing the repository to a host named in the same command.

Properties checked (each table has both directions):

* a recursive delete of a database's or package manager's data directory below the protected
  top levels blocks (``shell.data-delete``) however it is spelled (rm flags, find -delete,
  find -exec rm, a version suffix), locally and through ssh / kubectl exec / docker exec;
  container engine state and direct children of /srv warn; Dockerfile cleanups
  (``/var/lib/apt/lists/*``), logs inside a data directory and scratch paths pass;
"""

from __future__ import annotations

import pytest

from deerguard import classify


def _verdict(command: str) -> str:
    return classify(command).verdict.value


def _rules(command: str) -> set[str]:
    return {f.rule_id for f in classify(command).findings}


# --- P: data directories below the protected top levels ---------------------------------------

DATA_DELETE_BLOCKS = [
    "rm -rf /var/lib/postgresql",
    "rm -rf /var/lib/postgresql/16/main",
    "rm -r -f /var/lib/postgresql/data/*",
    "rm --recursive --force /var/lib/mysql/",
    "sudo rm -fr /var/lib/mongodb",
    "rm -rf /var/lib/pgsql/15/data",
    "rm -Rf /var/lib/redis",
    "rm -rf /var/lib/etcd/member",
    "rm -rf /var/lib/elasticsearch/nodes",
    "rm -rf /var/opt/mssql/data",
    "rm -rf /var/lib/pacman/local",
    "rm -rf /usr/local/var/postgres",
    "rm -rf /opt/homebrew/var/postgresql@14",
    "rm -rf /var/lib/my*",
    "find /var/lib/mysql -delete",
    "find /var/lib/postgresql/ -type f -exec rm -f {} +",
    "find /var/lib/clickhouse -mindepth 1 -exec rm -rf {} +",
    "cd /tmp && rm -rf /var/lib/rabbitmq/mnesia",
    "ssh prod-db 'rm -rf /var/lib/postgresql'",
    "ssh -p 2200 db1 sudo rm -rf /var/lib/mysql",
    "kubectl exec -it db-0 -- sh -c 'rm -rf /var/lib/postgresql/data'",
    "kubectl exec mongo-0 -c mongo -- rm -rf /var/lib/mongodb",
    "docker exec pg rm -rf /var/lib/postgresql/data",
    "bash -c 'rm -rf /var/lib/influxdb'",
]

DATA_DELETE_WARNS = [
    "rm -rf /var/lib/docker",
    "sudo rm -rf /var/lib/containerd",
    "rm -rf /srv/data",
    "rm -rf /srv/www/",
    "rm -rf /var/lib/snapd",
]

DATA_DELETE_PASSES = [
    "rm -rf /var/lib/apt/lists/*",
    "apt-get clean && rm -rf /var/lib/apt/lists/* /tmp/* /var/tmp/*",
    "rm -rf /tmp/x",
    "rm -rf /opt/app",
    "rm -rf /srv/www/site/cache",
    "rm -rf /var/lib/postgresql/16/main/pg_log/*",
    "find /var/lib/postgresql -name '*.log' -mtime +7 -delete",
    "rm -rf /var/lib/jenkins/workspace/app",
    "rm /var/lib/postgresql/.psql_history",
    "ls -la /var/lib/postgresql",
    "du -sh /var/lib/docker",
    "kubectl exec api-0 -- rm -rf /tmp/cache",
    "rm -rf ./var/lib/mysql",
]


@pytest.mark.parametrize("command", DATA_DELETE_BLOCKS)
def test_data_directory_delete_blocks(command: str) -> None:
    assert _verdict(command) == "block", command
    assert "shell.data-delete" in _rules(command), command


@pytest.mark.parametrize("command", DATA_DELETE_WARNS)
def test_engine_state_and_srv_delete_warns(command: str) -> None:
    assert _verdict(command) == "warn", command
    assert "shell.resource-destroy" in _rules(command), command


@pytest.mark.parametrize("command", DATA_DELETE_PASSES)
def test_everyday_deletes_near_data_directories_pass(command: str) -> None:
    assert _verdict(command) == "pass", command
