// A database that stays locked past the store's busy timeout is a `503 err busy` to retry, with
// Retry-After, on every face: never `500 err internal`.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';

const require = createRequire(import.meta.url);
let s: TestServer;
beforeAll(async () => {
  s = await start();
  // The start's own background writes (the sample services' KAT jobs, which run in runner
  // processes and settle a moment later) finish first: each of them would wait out the busy
  // timeout on the serving thread while the lock below is held, and the write under test behind them.
  const served = async () => (await (await fetch(`${s.url}/v1/svc`)).text()).match(/ served/g)?.length ?? 0;
  for (let i = 0; i < 300 && (await served()) < 3; i++) await new Promise((r) => setTimeout(r, 100));
}, 60_000);
afterAll(async () => s.stop());

describe('a locked database', () => {
  it('answers a write 503 err busy with Retry-After, and the same write succeeds once the lock is gone', async () => {
    const me = await register(s.url);
    const post = () =>
      fetch(`${s.url}/v1/notes`, { method: 'POST', body: 'remember the lock', headers: { authorization: `Bearer ${me.token}`, 'content-type': 'text/plain' } });
    // Another process holds the write lock for longer than the store's 5 s busy timeout: 12 s, so
    // that the write still begins while it is held on a loaded machine (CI once began it over 2 s
    // late with a 7 s hold, and the write then found the lock gone: 201). The server runs in this
    // process, so the test cannot tell the holder when to let go: while the server waits for the
    // lock, this process's event loop waits too.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))}); const d = new D(${JSON.stringify(join(s.dir, 'commons.db'))}); d.exec('BEGIN IMMEDIATE'); console.log('locked'); setTimeout(() => { d.exec('ROLLBACK'); d.close(); }, 12000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((r) => holder.stdout!.once('data', r));
    const r = await post();
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(await r.text()).toBe('err busy database busy, retry\n');
    await new Promise((r) => holder.once('exit', r));
    expect((await post()).status).toBe(201);
  }, 60_000);
});
