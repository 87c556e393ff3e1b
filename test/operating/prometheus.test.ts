// deploy/prometheus.yml and deploy/alerts.yml pass promtool; Debian's prometheus scrapes a running
// server (poll token from a file, as deploy/prometheus.yml reads it) and answers a query for one of
// its series. Skipped, saying so, where prometheus is not installed (.ci/run installs it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

const deploy = resolve(import.meta.dirname, '../../deploy');
const has = (bin: string) => !spawnSync(bin, ['--version']).error;
const promtool = has('promtool');
const prometheus = has('prometheus');
if (!promtool || !prometheus) console.warn('test/operating/prometheus.test.ts: promtool/prometheus not installed (apt-get install prometheus): skipped');

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'cx-prom-'));
  dirs.push(d);
  return d;
};
let server: TestServer | null = null;
let child: ChildProcess | null = null;
afterAll(async () => {
  child?.kill('SIGKILL');
  await server?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** deploy/'s files in a folder of their own, the token file where the config names it. */
function deployCopy(token: string, target?: string, interval?: string): string {
  const d = tmp();
  writeFileSync(join(d, 'cx-poll-token'), token + '\n', { mode: 0o600 });
  let cfg = readFileSync(join(deploy, 'prometheus.yml'), 'utf8').replace('/etc/prometheus/cx-poll-token', join(d, 'cx-poll-token'));
  if (target) cfg = cfg.replace(/- targets: \[.*\]/, `- targets: ['${target}']`);
  if (interval)
    cfg = cfg.replace(/scrape_interval: \S+/, `scrape_interval: ${interval}`).replace(/evaluation_interval: \S+/, `evaluation_interval: ${interval}`);
  writeFileSync(join(d, 'prometheus.yml'), cfg);
  copyFileSync(join(deploy, 'alerts.yml'), join(d, 'alerts.yml'));
  return d;
}

describe.skipIf(!promtool)('promtool', () => {
  it('check rules: deploy/alerts.yml', () => {
    const r = spawnSync('promtool', ['check', 'rules', join(deploy, 'alerts.yml')], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toMatch(/SUCCESS: \d+ rules found/);
    expect(r.status).toBe(0);
  });

  it('check config: deploy/prometheus.yml (with its token file in place; as is, its syntax)', () => {
    const d = deployCopy('cx_poll_example');
    const r = spawnSync('promtool', ['check', 'config', join(d, 'prometheus.yml')], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toMatch(/SUCCESS/);
    expect(r.status).toBe(0);
    expect(spawnSync('promtool', ['check', 'config', '--syntax-only', join(deploy, 'prometheus.yml')]).status).toBe(0);
  });
});

describe.skipIf(!prometheus)('prometheus scrapes a running server', () => {
  it('a series of the server comes back from the query API', async () => {
    server = await start();
    await fetch(`${server.url}/healthz`);
    const d = deployCopy(server.config.operatorTokens.poll, new URL(server.url).host, '1s');
    const port = await freePort();
    child = spawn(
      'prometheus',
      [`--config.file=${join(d, 'prometheus.yml')}`, `--storage.tsdb.path=${join(d, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    child.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    const q = encodeURIComponent('cx_requests_total{op="sys.health",face="rest",code="ok"}');
    const until = Date.now() + 20_000;
    let got: Array<{ metric: Record<string, string>; value: [number, string] }> = [];
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${q}`).catch(() => null);
      if (!r?.ok) continue;
      got = ((await r.json()) as { data: { result: typeof got } }).data.result;
      if (got.length) break;
    }
    expect(got, log).toHaveLength(1);
    expect(got[0]!.metric).toMatchObject({ job: 'commons', op: 'sys.health', face: 'rest', code: 'ok' });
    expect(Number(got[0]!.value[1])).toBeGreaterThanOrEqual(1);
    // The scrape itself authenticated: the target is up, and the rules file loaded.
    const up = (await (await fetch(`http://127.0.0.1:${port}/api/v1/query?query=up`)).json()) as { data: { result: Array<{ value: [number, string] }> } };
    expect(up.data.result[0]!.value[1]).toBe('1');
    const rules = (await (await fetch(`http://127.0.0.1:${port}/api/v1/rules`)).json()) as { data: { groups: Array<{ rules: unknown[] }> } };
    expect(rules.data.groups[0]!.rules.length).toBeGreaterThan(5);
  }, 40_000);
});
