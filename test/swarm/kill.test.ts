// kill -9 during delivery: the server runs as a child process, is killed with SIGKILL while lines
// are being published and delivered, and restarted on the same data directory. Then every
// acknowledged publish reaches the kv: sink exactly once and in order (one write per line, the
// entry at the topic's last seq) and the wq: sink at least once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, expect, it, vi } from 'vitest';
import { register } from '../helpers/server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** The real server in a child process on `dir`; resolves with its URL once it listens. */
async function serve(dir: string): Promise<{ url: string; proc: ChildProcess; exited: Promise<NodeJS.Signals | null> }> {
  const env = {
    ...process.env,
    CX_DATA: dir,
    PORT: '0',
    CATALOG_PORT: '0',
    HOST: '127.0.0.1',
    CX_POW_BITS: '8',
    CX_BASE_URL: 'http://commons.test',
    CX_SEED: '0',
    CX_LOG_LEVEL: 'info',
  };
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.push(() => void proc.kill('SIGKILL'));
  const exited = new Promise<NodeJS.Signals | null>((res) => proc.once('exit', (_c, sig) => res(sig)));
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    const t = setTimeout(() => rej(new Error('server did not start')), 30_000);
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        clearTimeout(t);
        res(m[1]!);
      }
    });
  });
  return { url, proc, exited };
}

it('SIGKILL during delivery, restart: kv: got every line exactly once in order, wq: every acknowledged line', { timeout: 90_000 }, async () => {
  const topic = 'r:KillRoom_0123456789.work';
  /** One round: subscribe, publish four at a time, SIGKILL; whether delivery was under way at the kill. */
  const round = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-swarm-kill-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const first = await serve(dir);
    const bob = await register(first.url, 'bob');
    const auth = { authorization: `Bearer ${bob.token}` };
    for (const sink of ['kv:k/last', 'wq:q']) {
      const r = await fetch(`${first.url}/v1/subs`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ topic, sink }),
      });
      expect(r.status).toBe(201);
    }
    // Publishers, four at a time, until the server dies under them.
    const acked: number[] = [];
    let n = 0;
    const publisher = async (url: string) => {
      for (;;) {
        try {
          const r = await fetch(`${url}/v1/pub/${topic}`, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: `line ${n++}` });
          if (r.status !== 201) return;
          acked.push(Number(/seq=(\d+)/.exec(await r.text())![1]));
        } catch {
          return; // the server is gone
        }
      }
    };
    const pubs = Array.from({ length: 4 }, () => publisher(first.url));
    await vi.waitFor(() => expect(acked.length).toBeGreaterThanOrEqual(30), { timeout: 30_000, interval: 5 });
    first.proc.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    await Promise.all(pubs);
    expect(acked.length).toBeLessThanOrEqual(60);
    // Delivery under way at the kill: a subscription behind its topic or a delivery job pending.
    const db = new Database(join(dir, 'commons.db'));
    const lag = db.prepare('SELECT (SELECT head FROM event_heads WHERE topic = ?) - min(cursor) AS lag FROM swarm_subs').get(`ps:${topic}`) as { lag: number };
    const jobs = db.prepare("SELECT count(*) AS n FROM jobs WHERE queue = 'swarm'").get() as { n: number };
    db.close();
    return { dir, auth, acked, inflight: lag.lag + jobs.n };
  };
  // On a busy machine delivery can keep up with the publishers to the last line: such a round
  // tests nothing, so it is run again (at most 5 rounds); one must catch delivery under way.
  let r = await round();
  for (let i = 1; i < 5 && r.inflight === 0; i++) r = await round();
  expect(r.inflight).toBeGreaterThan(0);
  const { dir, auth, acked } = r;

  const second = await serve(dir);
  const head = async () => (await (await fetch(`${second.url}/v1/topics/${topic}?f=json&n=1`)).json()).head as number;
  const h = await head();
  expect(h).toBeGreaterThanOrEqual(Math.max(...acked));
  // kv: one write per line, none twice, none out of order: writes = lines, the entry at the head.
  await vi.waitFor(
    async () => {
      const kv = await (await fetch(`${second.url}/v1/kv/k/last?f=json`, { headers: auth })).json();
      expect(kv).toMatchObject({ seq: h, writes: h, missed: 0 });
    },
    { timeout: 40_000, interval: 250 },
  );
  // wq: every acknowledged line is there at least once.
  const seen: number[] = [];
  for (;;) {
    const c = (await (await fetch(`${second.url}/v1/wq/q/claim?f=json`, { method: 'POST', headers: auth })).json()).item;
    if (!c) {
      if (new Set(seen).size >= h) break;
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    seen.push(...c.lines.map((l: { seq: number }) => l.seq));
    expect((await fetch(`${second.url}/v1/wq/q/ack/${c.id}`, { method: 'POST', headers: auth })).status).toBe(200);
  }
  for (const seq of acked) expect(seen).toContain(seq);
  // A wq: item is enqueued just before its cursor moves: the cursors reach the head right after.
  await vi.waitFor(
    async () => {
      const subs = (await (await fetch(`${second.url}/v1/subs?f=json`, { headers: auth })).json()).subs;
      expect(subs.map((x: { cursor: number; missed: number }) => [x.cursor, x.missed])).toEqual([
        [h, 0],
        [h, 0],
      ]);
    },
    { timeout: 10_000, interval: 100 },
  );
  second.proc.kill('SIGTERM');
  await second.exited;
});
