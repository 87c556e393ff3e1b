#!/usr/bin/env bash
# Runs the PostgreSQL contracts (test/contract, adapter `postgres`) against a REAL PostgreSQL server:
# a throwaway cluster under a temporary directory (initdb + pg_ctl, no Docker), on a free loopback
# port, trust authentication, stopped and removed at the end whatever happens.
# Usage: scripts/pg-test.sh [extra vitest args]      (PG_BIN overrides where initdb/pg_ctl are)
set -euo pipefail
cd "$(dirname "$0")/.."

PG_BIN=${PG_BIN:-$(dirname "$(command -v initdb || echo /usr/lib/postgresql/15/bin/initdb)")}
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
  "${as[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

"${as[@]}" "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; exit 1; }
# fsync off: a test cluster that is thrown away needs no durability (the contracts test the adapter).
"${as[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -h 127.0.0.1 -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null

export CX_PG_REAL="postgres://postgres@127.0.0.1:$port/postgres"
npx vitest run test/contract/contracts.test.ts test/store/pg-migrations.test.ts test/store/pg-events-notify.test.ts -t '^(postgres |real server)' "$@"
