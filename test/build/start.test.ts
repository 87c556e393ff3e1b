// `npm start` builds to JavaScript and runs it with plain node: the built service must find
// everything it reads at run time (migrations, ErrSig files, sample fixes, cards, catalog).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Inside the checkout, so the built code resolves the project's node_modules as dist/ does.
mkdirSync('.tmp', { recursive: true });
const out = mkdtempSync(join('.tmp', 'build-'));
const data = mkdtempSync(join(tmpdir(), 'cx-build-data-'));
let child: ChildProcess;
let url = '';
let catalogUrl = '';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs', out], { stdio: 'pipe' });
  const [port, cport] = [await freePort(), await freePort()];
  child = spawn(process.execPath, [join(out, 'src/server.js')], {
    env: { ...process.env, PORT: String(port), CATALOG_PORT: String(cport), HOST: '127.0.0.1', CX_DATA: data, CX_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  url = `http://127.0.0.1:${port}`;
  catalogUrl = `http://127.0.0.1:${cport}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      if (i > 100) throw new Error('built server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}, 60_000);

afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(out, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

describe('the built service (npm start)', () => {
  it('answers a common error from the sample data loaded on first start', async () => {
    const r = await fetch(`${url}/e`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'Traceback (most recent call last):\n  File "app.py", line 1\nModuleNotFoundError: No module named \'requests\'',
    });
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/^e: py:ModuleNotFoundError: No module named 'requests' hits=\d+ /);
  });

  it('serves the ErrSig files, the MCP card and the hosting catalog', async () => {
    expect(await (await fetch(`${url}/errsig.js`)).text()).toMatch(/^\/\/ ErrSig v3/);
    expect((await (await fetch(`${url}/errsig.tsv`)).text()).split('\n').length).toBeGreaterThan(50);
    expect(((await (await fetch(`${url}/.well-known/mcp.json`)).json()) as { version: string }).version).toBeTruthy();
    expect((await fetch(`${catalogUrl}/`)).status).toBe(200);
  });

  it('reads the changelog from the CHANGELOG.md the build copies', async () => {
    const c = (await (await fetch(`${url}/changelog.json`)).json()) as { entries: Array<{ version: string }> };
    expect(c.entries.length).toBeGreaterThan(1);
    expect(c.entries.at(-1)!.version).toBe('1.0.0');
  });
});
