// Operating on PostgreSQL (registered only with CX_PG_REAL, set by scripts/pg-test.sh, which starts a
// throwaway cluster): readiness while migrations wait for another replica's lock and while the
// database refuses connections; the pool in /metrics; pg_dump / pg_restore of the service's schema
// taken under writes, restored into another database, served with the same keys.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SECRET_FILES } from '../../src/store/files/keys.js';
import { startServer, type Running } from '../../src/server.js';
import { agent, req, type Who } from '../helpers/http.js';
import type { TestServer } from '../helpers/server.js';

const url = process.env.CX_PG_REAL;
// The server's own major version (PG_BIN, as pg-test.sh found initdb), else Debian's wrapper on PATH.
const bin = (name: string) => (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, name)) ? join(process.env.PG_BIN, name) : name);
const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
/** Status and the first line (a reply's `next:` line follows it; test/operating/ready.test.ts checks it). */
const get = async (u: string) => {
  const r = await fetch(u);
  return `${r.status} ${(await r.text()).split('\n')[0]!.trim()}`;
};
const until = async (what: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe.skipIf(!url)('operating on PostgreSQL', () => {
  const name = `cx_op_${process.pid}`;
  const dbUrl = (db: string) => {
    const u = new URL(url!);
    u.pathname = `/${db}`;
    return u.toString();
  };
  const admin = new pg.Client({ connectionString: url });
  const dirs: string[] = [];
  const running: Running[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'cx-pgop-'));
    dirs.push(d);
    return d;
  };
  /** A server on `db` with the data directory `dir` (keys), on a fixed port when given. */
  const serve = async (db: string, dir: string, port = 0) => {
    const config = loadConfig({
      CX_DATA: dir,
      PORT: String(port),
      CATALOG_PORT: '0',
      HOST: '127.0.0.1',
      CX_POW_BITS: '8',
      CX_BASE_URL: 'http://commons.test',
      CX_DATABASE_URL: dbUrl(db),
      CX_SEED: '0',
      CX_GIT_MIRROR: '0',
      CX_TRUST_PROXY: '1',
      CX_QUOTA_MULT: '1000',
    });
    const r = await startServer(config, { logger: false });
    running.push(r);
    return Object.assign(r, { dir, config, stop: () => r.close() }) as TestServer;
  };
  let first: TestServer;

  afterAll(async () => {
    for (const r of running) await r.close().catch(() => undefined);
    for (const db of [name, `${name}_r`]) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('readiness: "starting" while migrations wait for the lock another replica holds, ready after', async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    // Another replica migrating: it holds the migration lock of the schema (locks are per database).
    const other = new pg.Client({ connectionString: dbUrl(name) });
    await other.connect();
    await other.query("SELECT pg_advisory_lock(hashtext('cx.migrate.' || current_schema()))");
    const port = await freePort();
    const dir = tmp();
    const started = serve(name, dir, port);
    const base = `http://127.0.0.1:${port}`;
    await until(async () => (await get(`${base}/readyz`).catch(() => 'refused')) !== 'refused');
    expect(await get(`${base}/readyz`)).toBe('503 not ready: starting');
    expect(await get(`${base}/healthz`)).toBe('503 err busy starting');
    expect(await get(`${base}/limits`)).toBe('503 err busy starting');
    await new Promise((r) => setTimeout(r, 500));
    expect(await get(`${base}/readyz`)).toBe('503 not ready: starting');
    await other.end();
    first = await started;
    expect(await get(`${base}/readyz`)).toBe('200 ready');
  }, 60_000);

  it('readiness: 503 while the database refuses connections; ready again when it is back', async () => {
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    // Calls in flight while their backends are terminated fail; the process lives on (a pooled
    // client that loses its backend while checked out must not raise an unhandled 'error').
    let going = true;
    const load = (async () => {
      while (going)
        await Promise.all(
          Array.from({ length: 10 }, () =>
            fetch(`${first.url}/metrics`, { headers: { authorization: `Bearer ${first.config.operatorTokens.poll}` } }).then(
              (r) => r.text(),
              () => null,
            ),
          ),
        );
    })();
    await new Promise((r) => setTimeout(r, 100));
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    await new Promise((r) => setTimeout(r, 200));
    going = false;
    await load;
    await until(async () => (await get(`${first.url}/readyz`)) === '503 not ready: database unreachable');
    expect(await get(`${first.url}/healthz`)).toMatch(/^200 degraded .* db=down$/);
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    await until(async () => (await get(`${first.url}/readyz`)) === '200 ready');
  }, 60_000);

  it('/metrics shows the pool', async () => {
    await fetch(`${first.url}/limits`);
    const t = await (await fetch(`${first.url}/metrics`, { headers: { authorization: `Bearer ${first.config.operatorTokens.poll}` } })).text();
    expect(t).toMatch(/^cx_db_pool_connections\{state="max"\} 10$/m);
    expect(t).toMatch(/^cx_db_pool_connections\{state="in_use"\} \d+$/m);
    expect(t).toMatch(/^cx_db_pool_waiting \d+$/m);
    expect(t).toMatch(/^cx_db_pool_slow_waits_total \d+$/m);
    expect(t).not.toMatch(/^cx_sqlite_wal_bytes/m);
  });

  it('pg_dump under writes, pg_restore into another database: every write acknowledged before the dump began is served (with the same keys)', async () => {
    const who: Who[] = await Promise.all(Array.from({ length: 3 }, () => agent(first)));
    const acked: Array<{ w: Who; id: string; body: string }> = [];
    let stop = false;
    let n = 0;
    const writer = async (w: Who) => {
      while (!stop) {
        const body = `pg note ${n++}`;
        const r = await req(first, 'POST', '/v1/notes?f=json', { as: w, json: { body } });
        if (r.status === 201) acked.push({ w, id: ((await r.json()) as { id: string }).id, body });
        else await r.text();
      }
    };
    const writers = who.map(writer);
    await until(async () => acked.length >= 30);
    const before = acked.length;
    const file = join(tmp(), 'commons.dump');
    // The service's schema (public unless the URL sets a search_path), custom format.
    const dump = spawnSync(bin('pg_dump'), ['-Fc', '-n', 'public', '-f', file, dbUrl(name)], { encoding: 'utf8' });
    stop = true;
    await Promise.all(writers);
    expect(dump.error).toBeUndefined();
    expect(dump.stderr).toBe('');
    expect(dump.status).toBe(0);
    // A new database: its empty public schema is replaced by the dump's (--clean --if-exists).
    await admin.query(`CREATE DATABASE ${name}_r`);
    const restore = spawnSync(bin('pg_restore'), ['--no-owner', '--clean', '--if-exists', '--exit-on-error', '-d', dbUrl(`${name}_r`), file], {
      encoding: 'utf8',
    });
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    // Another host: its own data directory, with the secrets files of the first (notes are sealed with them).
    const dir = tmp();
    for (const f of readdirSync(first.dir)) if (SECRET_FILES.includes(f)) copyFileSync(join(first.dir, f), join(dir, f));
    const second = await serve(`${name}_r`, dir);
    const missing: string[] = [];
    for (const a of acked.slice(0, before)) {
      const g = await req(second, 'GET', `/v1/notes/${a.id}?f=json`, { as: a.w });
      if (g.status !== 200 || ((await g.json()) as { body: string }).body !== a.body) missing.push(a.id);
    }
    expect(missing).toEqual([]);
  }, 90_000);
});
