// The adversarial module corpus (test/wasm/corpus.ts) against a real server PROCESS: the table
// bomb is refused at every upload and publication; the hostile module, published by the operator
// and by an L2 identity, is called with every attack directly, as a replicated job and behind an
// fn: sink. Throughout, /healthz answers (each poll timed), and at the end the server is the same
// process (same pid, never exited) with its RSS back under a bound. Runs on SQLite; the runner
// knows nothing of the engine.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keyedL2, type Keyed, okSig } from '../helpers/keys.js';
import { agent, call, type Who } from '../helpers/http.js';
import type { TestServer } from '../helpers/server.js';
import { freePort } from '../scale/cluster.js';
import { hostile, tableBomb } from './corpus.js';

const ADMIN = `cxo_admin_${'h'.repeat(32)}`;
const DOMAIN = 'commons.test';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'cx-hostile-'));
let child: ChildProcess;
let s: TestServer;
let pid: number;
let exited = false;
const admin = { authorization: `Bearer ${ADMIN}` };

/** The server process's resident set, MiB (Linux /proc). */
const rssMb = (p: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))![1]) / 1024;

/** /healthz polled every 25 ms while `fn` runs: every status and the time each answer took. */
async function watched<T>(fn: () => Promise<T>): Promise<{ out: T; statuses: number[]; ms: number[] }> {
  const statuses: number[] = [];
  const ms: number[] = [];
  let stop = false;
  const poll = (async () => {
    while (!stop) {
      const t0 = performance.now();
      statuses.push((await fetch(`${s.url}/healthz`)).status);
      ms.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  try {
    return { out: await fn(), statuses, ms };
  } finally {
    stop = true;
    await poll;
  }
}

const svc = async (name: string) =>
  JSON.parse((await call(s, 'GET', `/v1/svc/${name}?f=json`)).text) as {
    served: number | null;
    versions: Array<{ ver: number; state: string; log: string | null }>;
  };

beforeAll(async () => {
  const [port, cport] = [await freePort(), await freePort()];
  child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      CATALOG_PORT: String(cport),
      HOST: '127.0.0.1',
      CX_DATA: dir,
      CX_POW_BITS: '4',
      CX_LOG_LEVEL: 'error',
      CX_TRUST_PROXY: '1',
      CX_BASE_URL: 'http://commons.test',
      CX_SEED: '0',
      CX_ADMIN_TOKEN: ADMIN,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.once('exit', () => (exited = true));
  pid = child.pid!;
  s = { url: `http://127.0.0.1:${port}`, dir } as TestServer;
  await vi.waitFor(async () => expect((await fetch(`${s.url}/healthz`)).ok).toBe(true), { timeout: 30_000, interval: 100 });
}, 60_000);

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const keyed = (name: string) => keyedL2(s, name, DOMAIN);

/** Each attack, the failure code it must end in, and what the caller reads. */
const ATTACKS: Array<[string, string]> = [
  ['T table.grow loop', 'trap'],
  ['M memory.grow loop', 'memory'],
  ['A host alloc bomb', 'memory'],
  ['O huge output', 'output'],
  ['L infinite loop', 'timeout'],
  ['R deep recursion', 'trap'],
  ['U trap', 'trap'],
];
const manifest = {
  desc: 'echo, or an attack picked by the first byte',
  kats: [{ in: 'hello', out: 'hello' }],
  limits: { time_ms: 800, mem_pages: 64, out_bytes: 65_536 },
};

describe('hostile modules against a server process', () => {
  let rss0 = 0;
  let publisher: Keyed;
  let reviewer: Keyed;
  let caller: Who;
  const mod = hostile();
  const h = sha(mod);

  it('the table bomb (45 bytes) is refused at every upload and publication with one line naming the cap', async () => {
    rss0 = rssMb(pid);
    publisher = await keyed('publisher');
    reviewer = await keyed('reviewer');
    caller = await agent(s, 'caller');
    const bomb = tableBomb();
    expect(bomb.length).toBeLessThanOrEqual(60);
    const want = 'err bad wasm: table declares 10000000 entries at start, over the cap of 65536\n';
    expect(await call(s, 'PUT', '/admin/blob', { body: bomb, headers: admin })).toMatchObject({ status: 400, text: want });
    expect(await call(s, 'PUT', '/v1/b', { as: publisher, body: bomb })).toMatchObject({ status: 400, text: want });
    // Nothing was stored, so nothing can be published.
    const pubd = await call(s, 'POST', '/v1/svc', { as: publisher, json: { name: 'bomb', ver: 1, wasm: sha(bomb), manifest } });
    expect(pubd.text).toMatch(/^err notfound wasm: no blob/);
    const adm = await call(s, 'POST', '/admin/svc', { json: { name: 'bomb', ver: 1, wasm: sha(bomb), manifest }, headers: admin });
    expect(adm.text).toMatch(/^err notfound wasm: no blob/);
    // The same module with a table of 10 entries is an ordinary upload.
    expect((await call(s, 'PUT', '/v1/b', { as: publisher, body: tableBomb(10) })).status).toBe(201);
  });

  it("the hostile module passes its KAT as the operator's and as an L2 identity's service", async () => {
    expect((await call(s, 'PUT', '/admin/blob', { body: mod, headers: admin })).status).toBe(200);
    expect((await call(s, 'POST', '/admin/svc', { json: { name: 'hostile', ver: 1, wasm: h, manifest, stable: true }, headers: admin })).text).toMatch(
      /^ok hostile@1 pending/,
    );
    expect((await call(s, 'PUT', '/v1/b', { as: publisher, body: mod })).status).toBeLessThan(300);
    expect((await call(s, 'POST', '/v1/svc', { as: publisher, json: { name: 'my-hostile', ver: 1, wasm: h, manifest } })).text).toMatch(
      /^ok my-hostile@1 pending/,
    );
    await vi.waitFor(async () => expect((await svc('hostile')).served).toBe(1), { timeout: 30_000, interval: 100 });
    await vi.waitFor(async () => expect((await svc('my-hostile')).versions[0]!.state).toBe('ok'), { timeout: 30_000, interval: 100 });
    expect((await call(s, 'POST', '/v1/svc/my-hostile/1/ok', { as: reviewer, json: { sig: await okSig(reviewer, 'my-hostile', 1, h) } })).status).toBe(201);
    expect((await svc('my-hostile')).served).toBe(1);
  }, 60_000);

  it('every attack, called directly on both services, is one err compute line; /healthz answers throughout', async () => {
    const { out, statuses, ms } = await watched(async () => {
      const got: string[] = [];
      for (const name of ['hostile', 'my-hostile'])
        for (const [input] of ATTACKS) got.push(`${input[0]} ${(await call(s, 'POST', `/v1/svc/${name}/call`, { as: caller, text: input })).text}`);
      // A trap storm: 30 calls at once, each trapping.
      const storm = await Promise.all(Array.from({ length: 30 }, () => call(s, 'POST', '/v1/svc/hostile/call', { as: caller, text: 'U' })));
      return { got, storm };
    });
    const codes = Object.fromEntries(ATTACKS.map(([i, c]) => [i[0], c]));
    for (const l of out.got) expect(l).toMatch(new RegExp(`^(\\w) err compute ${codes[l[0]!]} [^\\n]*\\(call r[0-9a-z]{10}, charged 1\\)\\n$`));
    for (const r of out.storm) expect(r.text).toMatch(/^(err compute trap unreachable \(call r[0-9a-z]{10}, charged 1\)|err busy [^\n]*)\n$/);
    expect(out.storm.filter((r) => r.text.startsWith('err compute trap')).length).toBeGreaterThan(0);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.every((x) => x === 200)).toBe(true);
    ms.sort((a, b) => a - b);
    // The serving thread never waits on a module: the slowest /healthz answer stays well under a second
    // and 95% answer within 100 ms (a 2-core machine also runs the runners and this test).
    expect(ms[Math.floor(ms.length * 0.95)]!).toBeLessThan(100);
    expect(ms.at(-1)!).toBeLessThan(1000);
    // And the module still works for honest input.
    expect((await call(s, 'POST', '/v1/svc/hostile/call', { as: caller, text: 'calm' })).text).toContain('\ncalm\n');
  }, 120_000);

  it('as a replicated job: an attack ends the job as failed with its one line and no signed receipt', async () => {
    const job = await call(s, 'POST', '/v1/svc/hostile/job', { as: caller, json: { input: 'M', k: 1, n: 1 }, headers: { accept: 'application/json' } });
    expect(job.status).toBe(201);
    const { id } = JSON.parse(job.text) as { id: string };
    await vi.waitFor(async () => expect(JSON.parse((await call(s, 'GET', `/v1/job/${id}?f=json`, { as: caller })).text).state).not.toBe('open'), {
      timeout: 30_000,
      interval: 100,
    });
    const j = JSON.parse((await call(s, 'GET', `/v1/job/${id}?f=json`, { as: caller })).text) as { state: string; output: string | null };
    expect(j.state).toBe('failed');
    expect((await call(s, 'GET', `/att/${id}`)).status).toBe(404);
    const okJob = JSON.parse(
      (await call(s, 'POST', '/v1/svc/hostile/job', { as: caller, json: { input: 'fine', k: 1, n: 1 }, headers: { accept: 'application/json' } })).text,
    ) as { id: string };
    await vi.waitFor(async () => expect(JSON.parse((await call(s, 'GET', `/v1/job/${okJob.id}?f=json`, { as: caller })).text).state).toBe('done'), {
      timeout: 30_000,
      interval: 100,
    });
    expect((await call(s, 'GET', `/att/${okJob.id}`)).status).toBe(200);
  }, 60_000);

  it('behind an fn: sink: every attack line is dropped with its failure, the sink goes on, the server stays up', async () => {
    const topic = 'r:Room_hostile0123456789.in';
    const sub = await call(s, 'POST', '/v1/subs', {
      as: caller,
      json: { topic, sink: 'fn:hostile@1', to: 'kv:out/last' },
      headers: { accept: 'application/json' },
    });
    expect(sub.status).toBe(201);
    const { id } = JSON.parse(sub.text) as { id: string };
    const { statuses } = await watched(async () => {
      for (const [input] of ATTACKS) expect((await call(s, 'POST', `/v1/pub/${topic}`, { as: caller, text: input })).status).toBe(201);
      await call(s, 'POST', `/v1/pub/${topic}`, { as: caller, text: 'after the storm' });
      await vi.waitFor(
        async () => expect(JSON.parse((await call(s, 'GET', '/v1/kv/out/last?f=json', { as: caller })).text)).toMatchObject({ value: 'after the storm' }),
        { timeout: 60_000, interval: 200 },
      );
    });
    expect(statuses.every((x) => x === 200)).toBe(true);
    const subs = JSON.parse((await call(s, 'GET', '/v1/subs?f=json', { as: caller })).text).subs as Array<{ id: string; delivered: number; dropped: number }>;
    expect(subs.find((x) => x.id === id)).toMatchObject({ delivered: 1, dropped: ATTACKS.length });
  }, 90_000);

  it('the server is the same process at the end, its RSS back under a bound', async () => {
    expect(exited).toBe(false);
    expect(child.exitCode).toBeNull();
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    // The process answering is the one started (pid unchanged: never restarted).
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain('src/server.ts');
    const rss = rssMb(pid);
    expect(rss).toBeLessThan(rss0 + 200);
  });
});
