#!/usr/bin/env bash
# Runs the PostgreSQL contracts (test/contract, adapter `postgres`) against a REAL PostgreSQL server:
# a throwaway cluster under a temporary directory (initdb + pg_ctl, no Docker), on a free loopback
# port, trust authentication, stopped and removed at the end whatever happens. Then the replica
# test (test/scale/replicas.test.ts: 3 replicas of the server behind HAProxy on that cluster), when
# haproxy is installed, and the two-replica tests of issue 37 (own data directories). Between them, test/operating/pg.test.ts (readiness, pool metrics, pg_dump and
# pg_restore of the service's schema). Then, when pgbouncer is installed (Debian `pgbouncer`), the
# replica test again with the replicas' pools going through PgBouncer in transaction mode
# (CX_DATABASE_URL) and their session connections to the server (CX_DATABASE_SESSION_URL), as
# docs/scaling.md describes. pg_stat_statements is loaded (the replica test counts statements
# with it). A streaming standby of the cluster (pg_basebackup -R) serves the read-standby test
# (CX_DATABASE_READ_URL).
# Usage: scripts/pg-test.sh [extra vitest args]      (PG_BIN overrides where initdb/pg_ctl are;
#        PG_TEST_PGBOUNCER=0 skips the PgBouncer run, PG_TEST_PGBOUNCER=only runs only it)
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian keeps the server binaries off PATH, under /usr/lib/postgresql/<major>/bin (newest first).
PG_BIN=${PG_BIN:-$(dirname "$(command -v initdb || ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1 || true)")}
if [ ! -x "$PG_BIN/initdb" ]; then
  echo "pg-test: initdb not found (Debian: apt-get install -y postgresql; or set PG_BIN)" >&2
  exit 1
fi
dir=$(mktemp -d /tmp/cx-pg-XXXXXX)
chmod 755 "$dir"
# initdb refuses to run as root: the cluster belongs to the postgres user when we are root.
as=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$dir"
  as=(runuser -u postgres --)
fi
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')

stop() {
  [ -f "$dir/pgbouncer.pid" ] && kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true
  [ -d "$dir/standby" ] && "${as[@]}" "$PG_BIN/pg_ctl" -D "$dir/standby" -m immediate stop >/dev/null 2>&1 || true
  "${as[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

"${as[@]}" "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; exit 1; }
# fsync off: a test cluster that is thrown away needs no durability (the contracts test the adapter).
# pg_stat_statements ships with the server (Debian's postgresql-<major>); the replica test counts
# statements with it. PG_BIN may be a directory of links (/usr/local/bin): its lib is beside the real one.
libdir="$(dirname "$(readlink -f "$PG_BIN/postgres")")/../lib"
if [ ! -f "$libdir/pg_stat_statements.so" ]; then
  echo "pg-test: pg_stat_statements.so not found in $libdir (it ships with the PostgreSQL server package)" >&2
  exit 1
fi
preload="-c shared_preload_libraries=pg_stat_statements"
"${as[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -h 127.0.0.1 -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 $preload" start >/dev/null

export CX_PG_REAL="postgres://postgres@127.0.0.1:$port/postgres"

# A streaming standby of that cluster (issue 38: reads from a standby, test/scale/read-standby.test.ts):
# pg_basebackup -R (a base backup that starts as a standby of the primary, streaming on loopback;
# initdb's trust lines allow replication from 127.0.0.1), hot standby on a port of its own.
# $dir/standby.sh stop|start lets the test stop it and start it again.
sport=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
# (Beside the real server binaries: PG_BIN may be a directory of links without it.)
basebackup="$PG_BIN/pg_basebackup"
[ -x "$basebackup" ] || basebackup="$(dirname "$(readlink -f "$PG_BIN/postgres")")/pg_basebackup"
"${as[@]}" "$basebackup" -D "$dir/standby" -R -X stream -h 127.0.0.1 -p "$port" -U postgres >"$dir/basebackup.log" 2>&1 || { cat "$dir/basebackup.log"; exit 1; }
printf '%s\n' '#!/bin/sh' "case \"\$1\" in" \
  "  stop) ${as[*]} \"$PG_BIN/pg_ctl\" -D \"$dir/standby\" -m fast -w stop >/dev/null ;;" \
  "  start) ${as[*]} \"$PG_BIN/pg_ctl\" -D \"$dir/standby\" -l \"$dir/standby.log\" -w -o \"-p $sport -h 127.0.0.1 -k $dir -c fsync=off -c max_connections=200 $preload\" start >/dev/null ;;" \
  'esac' >"$dir/standby.sh"
chmod 755 "$dir/standby.sh"
"$dir/standby.sh" start
export CX_PG_STANDBY="postgres://postgres@127.0.0.1:$sport/postgres" CX_PG_STANDBY_CTL="$dir/standby.sh"
# pg_dump / pg_restore of the same major version as the server (test/operating/pg.test.ts).
export PG_BIN
mode=${PG_TEST_PGBOUNCER:-1}
if [ "$mode" != only ]; then
  npx vitest run test/contract/contracts.test.ts test/store/pg-migrations.test.ts test/store/pg-events-notify.test.ts test/store/pg-replicas.test.ts test/store/pg-hot.test.ts test/store/pg-kb-memo.test.ts test/store/pg-token-memo.test.ts test/store/pg-group.test.ts -t '^(postgres |real server)' "$@"
  # Operating on PostgreSQL: readiness (migrations, database gone), the pool in /metrics, and the
  # backup round trip: pg_dump under writes, pg_restore into another database, served with the same keys.
  npx vitest run test/operating/pg.test.ts "$@"
  # Reads from the standby: anonymous KB reads there, a token's on the primary, failover when it
  # lags or is stopped, the lag in /metrics and /admin/stats.
  npx vitest run test/scale/read-standby.test.ts "$@"
  # Two replicas with data directories of their own (issue 37): secrets from a file, the refusal on
  # other keys, the git mirror through HAProxy, the KB read memo invalidated across them (issue 38);
  # their PGlite cases ran in the main suite.
  npx vitest run test/core/replica-secrets.test.ts test/scale/git-replicas.test.ts test/scale/kb-memo-replicas.test.ts -t 'real server' "$@"
  if command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ]; then
    npx vitest run test/scale/replicas.test.ts "$@"
  else
    echo "pg-test: haproxy not found (Debian: apt-get install -y haproxy): the replica test did not run" >&2
    exit 1
  fi
fi
[ "$mode" = 0 ] && exit 0
bouncer=$(command -v pgbouncer || ls /usr/sbin/pgbouncer 2>/dev/null || true)
if [ -z "$bouncer" ]; then
  echo "pg-test: pgbouncer not found (Debian: apt-get install -y pgbouncer): the replica test through PgBouncer did not run" >&2
  [ "$mode" = only ] && exit 1
  exit 0
fi
# PgBouncer in transaction mode in front of the cluster, every database as the postgres user (trust
# on loopback). Before 1.21 it cannot carry named prepared statements: the replicas leave them off,
# as they do by default with CX_DATABASE_SESSION_URL set (docs/scaling.md).
bport=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
printf '%s\n' '[databases]' "* = host=127.0.0.1 port=$port user=postgres" '[pgbouncer]' 'listen_addr = 127.0.0.1' "listen_port = $bport" \
  'unix_socket_dir =' 'auth_type = any' 'pool_mode = transaction' 'max_client_conn = 500' 'default_pool_size = 20' 'admin_users = postgres' \
  "logfile = $dir/pgbouncer.log" "pidfile = $dir/pgbouncer.pid" >"$dir/pgbouncer.ini"
[ "$(id -u)" = 0 ] && chown postgres "$dir/pgbouncer.ini"
# PgBouncer refuses to run as root: as the cluster's owner then.
"${as[@]}" "$bouncer" -d "$dir/pgbouncer.ini"
echo "pg-test: the replica test again, through $("$bouncer" --version | head -1) in transaction mode"
CX_PG_BOUNCER="postgres://postgres@127.0.0.1:$bport/postgres" npx vitest run test/scale/replicas.test.ts "$@"
