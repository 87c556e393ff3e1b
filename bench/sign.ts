// Signing benchmark (runnable alone: npx tsx bench/sign.ts). Two parts:
// 1. Statements signed and verified per second through src/core/platform/trust (canonical bytes + node:crypto
//    Ed25519), beside a bare crypto.sign / crypto.verify loop on the same bytes, in the same run.
// 2. CPU per request of a KB entry read (GET /k/{id}) with X-Cx-Sig-Server and without it: the same
//    server and route, once with the key ring's header() replaced by a constant string (so the only
//    difference is the signature). Client and server share this process, so CPU per request counts
//    both; the difference between the rows is the cost of signing. "with" is measured twice: signing
//    every body anew (the signature memo off: what a cold or changing entry costs) and as served (a
//    repeated body's header comes from the memo, trust.sig_memo).
// BENCH_MS (default 1500) is the length of each timed loop.
import { mkdtempSync, rmSync } from 'node:fs';
import { sign as edSign, verify as edVerify } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { solve } from '../src/core/platform/identity/pow.js';
import { privateKeyOf, publicKeyOf, rawPublic, signedBytes, signStatement, verifyStatement } from '../src/core/platform/trust/sign.js';
import { startServer } from '../src/server.js';

const MS = Number(process.env.BENCH_MS || 1500);

function rate(fn: () => void): number {
  for (let i = 0; i < 200; i++) fn(); // warm-up
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < MS) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
  }
  return Math.round((n * 1000) / (performance.now() - t0));
}

async function cpuPerRequest(url: string, n: number): Promise<{ us: number; rps: number }> {
  for (let i = 0; i < 100; i++) await (await fetch(url)).arrayBuffer();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // 8 requests in flight: enough to keep the loop busy without queueing much.
  let left = n;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (left-- > 0) await (await fetch(url)).arrayBuffer();
    }),
  );
  const c = process.cpuUsage(c0);
  const ms = performance.now() - t0;
  return { us: (c.user + c.system) / n, rps: Math.round((n * 1000) / ms) };
}

async function main(): Promise<void> {
  const seed = Buffer.alloc(32, 5);
  const key = privateKeyOf(seed);
  const pub = publicKeyOf(rawPublic(seed));
  const payload = 'k k1a2b3c4d sig=npm:ERESOLVE hits=12\nfix: npm install --legacy-peer-deps\n'.repeat(3);
  const msg = signedBytes('resp1', payload);
  const sig = signStatement(key, 'resp1', payload);
  const rows: Array<[string, number]> = [
    ['bare crypto.sign (same bytes)', rate(() => edSign(null, msg, key))],
    ['statement sign (canonical bytes + sign)', rate(() => signStatement(key, 'resp1', payload))],
    ['bare crypto.verify (same bytes)', rate(() => edVerify(null, msg, pub, sig))],
    ['statement verify (canonical bytes + verify)', rate(() => verifyStatement(pub, 'resp1', payload, sig))],
  ];
  console.log(`# signing, ${payload.length}-byte payload, ${MS} ms per loop`);
  for (const [name, r] of rows) console.log(`${name.padEnd(46)} ${String(r).padStart(8)} /s`);

  const dir = mkdtempSync(join(tmpdir(), 'cx-bench-sign-'));
  const config = loadConfig({ CX_DATA: dir, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_POW_BITS: '8', CX_SEED: '0', CX_QUOTA_MULT: '1000' });
  const running = await startServer(config, { logger: false });
  try {
    const c = (await (await fetch(`${running.url}/v1/challenge?for=reg`, { method: 'POST', headers: { accept: 'application/json' } })).json()) as {
      challenge: string;
      bits: number;
    };
    const reg = (await (
      await fetch(`${running.url}/v1/register`, {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: new URLSearchParams({ pow: solve(c.challenge, c.bits) }),
      })
    ).json()) as { token: string };
    const add = await fetch(`${running.url}/k`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reg.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        error: "ModuleNotFoundError: No module named 'zzqbenchmod'",
        fix: 'pip install zzqbenchmod inside the active virtualenv',
        eco: 'pypi',
      }),
    });
    const id = /^ok k\/(k[0-9a-z]{8})/.exec(await add.text())?.[1];
    if (!id) throw new Error('could not add a KB entry');
    const url = `${running.url}/k/${id}`;
    const n = Number(process.env.BENCH_REQS || 3000);
    // Alternate the two variants (3 rounds each) and keep each one's best round: the machine's other
    // load moves single rounds a lot.
    const keys = running.core.keys;
    const real = keys.header.bind(keys);
    const memo = keys.memoSize;
    const none = { us: Infinity, rps: 0 };
    const best = { cold: none, memo: none, unsigned: none };
    const keep = (k: keyof typeof best, r: { us: number; rps: number }) => {
      if (r.us < best[k].us) best[k] = r;
    };
    for (let round = 0; round < 3; round++) {
      keys.memoSize = 0;
      keep('cold', await cpuPerRequest(url, n));
      keys.memoSize = memo;
      keep('memo', await cpuPerRequest(url, n));
      keys.header = () => 'kid=0; t=resp1; sig=unsigned';
      keep('unsigned', await cpuPerRequest(url, n));
      keys.header = real;
    }
    const row = (name: string, r: { us: number; rps: number }) =>
      console.log(`${name.padEnd(46)} ${r.us.toFixed(1).padStart(8)} µs CPU/req ${String(r.rps).padStart(7)} req/s`);
    console.log(`# GET /k/{id}, ${n} requests, 8 in flight, client and server in this process (best of 3 rounds)`);
    row('with X-Cx-Sig-Server, signed every time', best.cold);
    row('with X-Cx-Sig-Server, memo (as served)', best.memo);
    row('without (constant header)', best.unsigned);
    console.log(`${'difference (signing every time)'.padEnd(46)} ${(best.cold.us - best.unsigned.us).toFixed(1).padStart(8)} µs CPU/req`);
    console.log(`${'difference (memo)'.padEnd(46)} ${(best.memo.us - best.unsigned.us).toFixed(1).padStart(8)} µs CPU/req`);
  } finally {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
