// Readiness beside liveness: GET /readyz is 200 only while the process takes requests: 503 while it
// starts (its port answers "starting" during start-up work) and while it drains after SIGTERM
// (shutdown.unready), when /healthz and requests are still served. The database-unreachable and
// migrations cases need a PostgreSQL server: test/operating/pg.test.ts (scripts/pg-test.sh).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { limit } from '../../src/core/kernel/limits.js';
import { start } from '../helpers/server.js';

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
/** Status and first line (a reply's next line follows it). */
const get = async (url: string) => {
  const r = await fetch(url);
  return `${r.status} ${(await r.text()).trim().split('\n')[0]}`;
};

describe('GET /readyz', () => {
  it('ready once started; JSON form; draining: 503 while /healthz and other requests are still served', async () => {
    const s = await start();
    try {
      expect(await get(`${s.url}/readyz`)).toBe('200 ready');
      expect(await (await fetch(`${s.url}/readyz`)).text()).toBe('ready\nnext: GET /healthz?v=2 for shed levels, freezes and maintenance\n');
      expect(await (await fetch(`${s.url}/readyz?f=json`)).json()).toEqual({ ready: true, phase: 'ready', db: true });
      const drained = s.drain(1500);
      expect(await get(`${s.url}/readyz`)).toBe('503 not ready: draining');
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${s.url}/limits`)).status).toBe(200);
      await drained;
      await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
    } finally {
      await s.stop();
    }
  });

  it('a started process on a fixed port: "starting" before ready; SIGTERM: not ready for shutdown.unready, then exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-ready-'));
    const [port, cport] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: String(port), CATALOG_PORT: String(cport), HOST: '127.0.0.1', CX_DATA: dir, CX_LOG_LEVEL: 'error', CX_GIT_MIRROR: '0' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      // Seen while it starts (the sample KB loads, services are published): 503, /healthz included.
      const seen = new Set<string>();
      for (const end = Date.now() + 50_000; Date.now() < end; ) {
        const r = await get(`${url}/readyz`).catch(() => 'refused');
        seen.add(r);
        if (r === '503 not ready: starting') {
          expect(await get(`${url}/healthz`)).toBe('503 err busy starting');
          expect(await get(`${url}/limits`)).toBe('503 err busy starting');
        }
        if (r.startsWith('200')) break;
        await new Promise((ok) => setTimeout(ok, 20));
      }
      // On SQLite the store opens and migrates synchronously (the loop cannot answer then), so
      // "starting" is seen only if the poll falls in the start-up work after it; nothing else is.
      expect([...seen].filter((x) => x !== 'refused' && x !== '503 not ready: starting')).toEqual(['200 ready']);
      const t0 = Date.now();
      child.kill('SIGTERM');
      const exited = new Promise<number | null>((ok) => child.once('exit', (c) => ok(c)));
      await new Promise((ok) => setTimeout(ok, 200));
      expect(await get(`${url}/readyz`)).toBe('503 not ready: draining');
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(await exited).toBe(0);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(limit('shutdown.unready'));
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
