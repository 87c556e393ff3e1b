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
  // (Only the services this start has: with none, nothing to wait for.)
  const unserved = async () => {
    const t = await (await fetch(`${s.url}/v1/svc`)).text();
    return Number(/^services n=(\d+)/.exec(t)?.[1] ?? 0) - (t.match(/ served/g)?.length ?? 0);
  };
  for (let i = 0; i < 300 && (await unserved()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
}, 60_000);
afterAll(async () => s.stop());

describe('a locked database', () => {
  it('answers a write 503 err busy with Retry-After, and the same write succeeds once the lock is gone', async () => {
    const me = await register(s.url);
    const post = () =>
      fetch(`${s.url}/v1/notes`, { method: 'POST', body: 'remember the lock', headers: { authorization: `Bearer ${me.token}`, 'content-type': 'text/plain' } });
    // Another process holds the write lock until this test has its answer (it writes a line to the
    // holder's stdin then), at most 60 s. A fixed hold (7 s, then 12 s) was a race: the server runs in
    // this process, and while it waits out its 5 s busy timeout on a background write this process's
    // event loop waits too, so on a loaded machine the write under test could begin after the lock
    // was gone (201).
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))}); const d = new D(${JSON.stringify(join(s.dir, 'commons.db'))}); d.exec('BEGIN IMMEDIATE'); console.log('locked'); const done = () => { d.exec('ROLLBACK'); d.close(); process.exit(0); }; process.stdin.once('data', done); setTimeout(done, 60000);`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const exited = new Promise((r) => holder.once('exit', r));
    await new Promise((r) => holder.stdout!.once('data', r));
    const r = await post();
    holder.stdin!.end('go\n');
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(await r.text()).toBe('err busy database busy, retry\n');
    await exited;
    expect((await post()).status).toBe(201);
  }, 60_000);
});
