// ErrSig throughput: v3 (the served errsig.js) beside v2 (errsig-v2.js) and v1 (errsig-v1.js) on the same 10,000 outputs,
// in MB/s of input and outputs/s, single thread. The outputs are the published vectors of both
// versions and the sample data's error texts, varied (user names, paths, line numbers, ports,
// hosts, variable names) until there are 10,000, with a few long CI logs among them.
// Usage: npx tsx bench/errsig.ts [outputs=10000] [rounds=5]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errsig as v3 } from '../src/core/kb/errsig/errsig.js';
import { errsig as v2 } from '../src/core/kb/errsig/errsig-v2.js';
import { errsig as v1 } from '../src/core/kb/errsig/errsig-v1.js';

const DIR = 'src/core/kb/errsig';
const SEED = 'src/core/kb/seed';
const N = Number(process.argv[2] || 10_000);
const ROUNDS = Number(process.argv[3] || 5);

const un = (s: string) =>
  s.replace(/\\(\\|n|r|t|e|x[0-9a-fA-F]{2})/g, (_m, e: string) =>
    e === '\\' ? '\\' : e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e === 'e' ? '\x1b' : String.fromCharCode(parseInt(e.slice(1), 16)),
  );
function vectors(file: string): string[] {
  const ls = readFileSync(join(DIR, file), 'utf8').split('\n');
  const from = ls.findIndex((l) => l.startsWith('input\tsig\tsha256'));
  return ls
    .slice(from + 1)
    .filter(Boolean)
    .map((l) => un(l.split('\t')[0]!));
}
const seeds = readdirSync(SEED)
  .filter((f) => f.endsWith('.jsonl'))
  .flatMap((f) =>
    readFileSync(join(SEED, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { error: string }).error),
  );
const base = [...new Set([...vectors('errsig.tsv'), ...vectors('errsig-v2.tsv'), ...vectors('errsig-v1.tsv'), ...seeds])].filter((t) => t.trim());

// Deterministic variations: what differs between two machines' copies of one error.
let seed = 7;
const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
const users = ['alice', 'bob', 'dev', 'runner', 'kim', 'ana'];
function vary(t: string, k: number): string {
  const u = users[rnd(users.length)]!;
  let s = t
    .replace(/\/home\/[a-z]+/g, `/home/${u}`)
    .replace(/line \d+/g, () => `line ${1 + rnd(900)}`)
    .replace(/:(\d+):(\d+)/g, () => `:${1 + rnd(400)}:${1 + rnd(80)}`)
    .replace(/\b(\d{4,5})\b/g, () => String(1024 + rnd(60000)))
    .replace(/`([a-z_][a-z0-9_]*)`/g, (_m, v: string) => `\`${v}${k % 7}\``);
  // One output in 50 is a long CI log around the error.
  if (k % 50 === 0)
    s = Array.from({ length: 120 }, (_, i) => `2024-05-14T08:31:${String(i % 60).padStart(2, '0')}.1187764Z step ${i} ok`).join('\n') + '\n' + s;
  return s;
}
const outputs = Array.from({ length: N }, (_, k) => (k < base.length ? base[k]! : vary(base[k % base.length]!, k)));
const mb = outputs.reduce((a, t) => a + Buffer.byteLength(t, 'utf8'), 0) / 1e6;

// Rounds alternate between the versions (the machine is shared: load drifts), best of each kept.
function measure(fns: Array<(t: string) => unknown>): Array<{ ms: number; mbs: number; ops: number }> {
  for (const fn of fns) for (let i = 0; i < Math.min(1000, N); i++) fn(outputs[i]!); // warm-up
  const best = fns.map(() => Infinity);
  for (let r = 0; r < ROUNDS; r++) {
    fns.forEach((fn, k) => {
      const t0 = performance.now();
      for (const t of outputs) fn(t);
      best[k] = Math.min(best[k]!, performance.now() - t0);
    });
  }
  return best.map((ms) => ({ ms, mbs: mb / (ms / 1000), ops: N / (ms / 1000) }));
}

type R = { ms: number; mbs: number; ops: number };
const [r1, r2, r3] = measure([v1, v2, v3]) as [R, R, R];
const row = (name: string, r: { ms: number; mbs: number; ops: number }) =>
  `| ${name} | ${r.ms.toFixed(0)} ms | ${r.mbs.toFixed(2)} MB/s | ${Math.round(r.ops).toLocaleString('en-US')} outputs/s | ${((r.ms * 1000) / N).toFixed(1)} µs |`;
console.log(
  `ErrSig throughput: ${N.toLocaleString('en-US')} outputs, ${mb.toFixed(2)} MB (${base.length} distinct bases), best of ${ROUNDS} rounds, node ${process.version}`,
);
console.log('| version | time | input | outputs | per output |');
console.log('|---|---|---|---|---|');
console.log(row('v1 (errsig-v1.js)', r1));
console.log(row('v2 (errsig-v2.js, fine + coarse)', r2));
console.log(row('v3 (errsig.js, fine + coarse)', r3));
console.log(`v2/v1 time: ${(r2.ms / r1.ms).toFixed(2)}x, v3/v2 time: ${(r3.ms / r2.ms).toFixed(2)}x`);
