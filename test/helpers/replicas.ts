// Replicas of the real server in this process for tests: each with a data directory of its own, all
// on one database (a PGlite instance shared in-process, or a real PostgreSQL URL), as on several hosts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig, newSecret } from '../../src/config.js';
import { SECRET_NAMES } from '../../src/core/platform/secrets/ports.js';
import { writeSecretsFile } from '../../src/store/files/external-keys.js';
import { startServer, type Running } from '../../src/server.js';
import { openPgStore } from '../../src/store/pg/index.js';
import { freshDatabase } from '../scale/cluster.js';

/** A complete secrets file at `file` (what npm run secrets:init writes, made in-process). */
export function newSecretsFile(file: string): string {
  writeSecretsFile(file, Object.fromEntries(SECRET_NAMES.map((n) => [n, newSecret(n)])));
  return file;
}

export type SharedDb = { kind: 'pglite'; db: PGlite } | { kind: 'pg'; url: string };

/** The databases replica tests run on: a PGlite always, a fresh database named `name_<pid>` on CX_PG_REAL when set. */
export function sharedDbs(name: string): Array<[string, () => Promise<SharedDb>]> {
  const out: Array<[string, () => Promise<SharedDb>]> = [['pglite', async () => ({ kind: 'pglite', db: new PGlite() })]];
  if (process.env.CX_PG_REAL)
    out.push(['real server', async () => ({ kind: 'pg', url: await freshDatabase(process.env.CX_PG_REAL!, `${name}_${process.pid}`) })]);
  return out;
}

/** A replica on `db` with a fresh data directory (returned; the caller removes it), its secrets from `env`. */
export async function replica(db: SharedDb, env: Record<string, string>): Promise<Running & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-replica-'));
  try {
    return await startIn(dir, db, env);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function startIn(dir: string, db: SharedDb, env: Record<string, string>): Promise<Running & { dir: string }> {
  const config = loadConfig({
    CX_DATA: dir,
    PORT: '0',
    CATALOG_PORT: '0',
    HOST: '127.0.0.1',
    CX_POW_BITS: '8',
    CX_BASE_URL: 'http://commons.test',
    CX_SEED: '0',
    CX_GIT_MIRROR: '0',
    CX_TRUST_PROXY: '1',
    // CX_SHED=0: measured shedding (per process, tested on its own) answers 503 busy when two servers,
    // PGlite and git share this machine's two cores with other work.
    CX_SHED: '0',
    ...(db.kind === 'pg' ? { CX_DATABASE_URL: db.url, CX_DATABASE_POOL: '4' } : {}),
    ...env,
  });
  if (db.kind === 'pg') return { ...(await startServer(config, { logger: false })), dir };
  const store = await openPgStore({ pglite: db.db }, { workspaceKey: config.workspaceKey, dataDir: config.dataDir });
  try {
    return { ...(await startServer(config, { logger: false, store })), dir };
  } catch (e) {
    await store.close();
    throw e;
  }
}
