// Load benchmark: autocannon against the real server (child process) and, in the same run,
// a bare node:http server answering a constant as the baseline. Prints a table.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DURATION = Number(process.env.BENCH_SECONDS || 8);
const CONNECTIONS = 50;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

const BASELINE = `
const http = require('node:http');
http.createServer((req, res) => { res.writeHead(200, {'content-type': 'text/plain'}); res.end('ok\\n'); }).listen(Number(process.env.PORT), '127.0.0.1');
`;

interface Row { route: string; rps: number; p50: number; p99: number; non2xx: number }

async function run(route: string, url: string, opts: Partial<autocannon.Options> = {}): Promise<Row> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...opts });
  return { route, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-bench-'));
  const [bport, port, cport] = [await freePort(), await freePort(), await freePort()];
  const kids: ChildProcess[] = [];
  try {
    kids.push(spawn(process.execPath, ['-e', BASELINE], { env: { ...process.env, PORT: String(bport) }, stdio: 'ignore' }));
    kids.push(
      spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        env: { ...process.env, PORT: String(port), CATALOG_PORT: String(cport), HOST: '127.0.0.1', CX_DATA: dir, CX_LOG_LEVEL: 'warn', CX_TRUST_PROXY: '1' },
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
    const base = `http://127.0.0.1:${bport}`;
    const cx = `http://127.0.0.1:${port}`;
    await waitUp(base);
    await waitUp(`${cx}/healthz`);
    let n = 0;
    const rows: Row[] = [];
    rows.push(await run('baseline node:http constant', base));
    rows.push(await run('GET /healthz', `${cx}/healthz`));
    rows.push(await run('GET /limits', `${cx}/limits`));
    // Challenges are quota'd per /24: spread the load over many (trusted X-Forwarded-For), as real traffic is.
    rows.push(
      await run('POST /v1/challenge', `${cx}/v1/challenge`, {
        method: 'POST',
        requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': `10.${(n >> 8) & 255}.${n++ & 255}.1` } }) }],
      }),
    );
    const b = rows[0]!.rps;
    const pad = (s: string, w: number) => s.padEnd(w);
    console.log(`\nautocannon, ${CONNECTIONS} connections, ${DURATION} s per route, same machine, same run\n`);
    console.log(`${pad('route', 30)} ${pad('req/s', 9)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)} ${pad('non-2xx', 8)} ratio`);
    for (const r of rows) console.log(`${pad(r.route, 30)} ${pad(r.rps.toFixed(0), 9)} ${pad(String(r.p50), 7)} ${pad(String(r.p99), 7)} ${pad(String(r.non2xx), 8)} ${(r.rps / b).toFixed(2)}`);
  } finally {
    for (const k of kids) k.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
