// The engine switch (issue 23): CX_DATABASE_URL=postgres://… opens the PostgreSQL store, unset keeps
// SQLite under the data directory. A bad URL, or a server that cannot be reached, stops the start
// with one line and a non-zero exit, never a stack trace.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Runs the server as `npm start` would (tsx here), returns its exit code and stderr. */
function run(env: Record<string, string>): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_DATA: dir, CX_LOG_LEVEL: 'error', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const t = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, err });
    });
  });
}

describe('CX_DATABASE_URL', () => {
  it('unset or empty: SQLite; a postgres URL is kept; anything else is refused by the config', () => {
    expect(loadConfig({ CX_DATA: dir }).databaseUrl).toBeNull();
    expect(loadConfig({ CX_DATA: dir, CX_DATABASE_URL: ' ' }).databaseUrl).toBeNull();
    expect(loadConfig({ CX_DATA: dir, CX_DATABASE_URL: 'postgres://u:p@db.internal:6432/cx' }).databaseUrl).toBe('postgres://u:p@db.internal:6432/cx');
    expect(loadConfig({ CX_DATA: dir, CX_DATABASE_URL: 'postgresql://db/cx' }).databasePool).toBe(10);
    for (const bad of ['mysql://db/cx', 'db.internal:5432', 'postgres://', 'postgres:///cx'])
      expect(() => loadConfig({ CX_DATA: dir, CX_DATABASE_URL: bad })).toThrow(
        'config: CX_DATABASE_URL must be a postgres://user[:password]@host[:port]/database URL',
      );
    expect(() => loadConfig({ CX_DATA: dir, CX_DATABASE_POOL: '0' })).toThrow('config: CX_DATABASE_POOL must be at least 1');
  });

  it('CX_DATABASE_PREPARE: named statements by default; off by default behind a pooler (CX_DATABASE_SESSION_URL set); 0 or 1 otherwise', () => {
    const db = { CX_DATA: dir, CX_DATABASE_URL: 'postgres://db:6432/cx' };
    expect(loadConfig(db).databasePrepare).toBe(true);
    expect(loadConfig({ ...db, CX_DATABASE_SESSION_URL: 'postgres://db:5432/cx' }).databasePrepare).toBe(false);
    expect(loadConfig({ ...db, CX_DATABASE_SESSION_URL: 'postgres://db:5432/cx', CX_DATABASE_PREPARE: '1' }).databasePrepare).toBe(true);
    expect(loadConfig({ ...db, CX_DATABASE_PREPARE: '0' }).databasePrepare).toBe(false);
    expect(() => loadConfig({ ...db, CX_DATABASE_PREPARE: 'yes' })).toThrow('config: CX_DATABASE_PREPARE must be 0 or 1');
  });

  it('CX_DATABASE_READ_URL: a standby of the primary, refused without CX_DATABASE_URL or when not a postgres:// URL', () => {
    const db = { CX_DATA: dir, CX_DATABASE_URL: 'postgres://db:5432/cx' };
    expect(loadConfig(db).databaseReadUrl).toBeNull();
    expect(loadConfig({ ...db, CX_DATABASE_READ_URL: 'postgres://standby:5432/cx' }).databaseReadUrl).toBe('postgres://standby:5432/cx');
    expect(() => loadConfig({ CX_DATA: dir, CX_DATABASE_READ_URL: 'postgres://standby:5432/cx' })).toThrow(
      'config: CX_DATABASE_READ_URL needs CX_DATABASE_URL (the primary)',
    );
    expect(() => loadConfig({ ...db, CX_DATABASE_READ_URL: 'standby:5432' })).toThrow('config: CX_DATABASE_READ_URL must be a postgres://');
  });

  it('a server that cannot be reached: one line naming it (no password), exit 1', async () => {
    const port = await closedPort();
    const { code, err } = await run({ CX_DATABASE_URL: `postgres://cx:secret@127.0.0.1:${port}/commons` });
    expect(code).toBe(1);
    expect(err).toMatch(
      new RegExp(`^agent commons failed to start: postgres adapter: cannot connect to 127\\.0\\.0\\.1:${port}/commons: (connect )?ECONNREFUSED[^\\n]*\\n$`),
    );
    expect(err).not.toContain('secret');
  }, 60_000);

  it('a bad URL: one line, exit 1', async () => {
    const { code, err } = await run({ CX_DATABASE_URL: 'mysql://db/cx' });
    expect(code).toBe(1);
    expect(err).toBe('agent commons failed to start: config: CX_DATABASE_URL must be a postgres://user[:password]@host[:port]/database URL\n');
  }, 60_000);
});
