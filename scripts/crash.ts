// npm run crash: the long crash rounds of issue 24 (the short ones run in npm test).
// CX_CRASH_ROUNDS (default 8) rounds of kill -9 and as many of SIGTERM, CX_CRASH_WRITERS concurrent
// writers (default 8), each round signalled after CX_CRASH_ACKS acknowledged writes (default 600) or
// CX_CRASH_MS (default 20000). Prints a table; exits 1 when a round lost a write or broke a property.
import { round, type RoundResult } from '../test/suite/crash.js';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const rounds = env('CX_CRASH_ROUNDS', 8);
const writers = env('CX_CRASH_WRITERS', 8);
const ackTarget = env('CX_CRASH_ACKS', 600);
const maxMs = env('CX_CRASH_MS', 20_000);
const seed = env('CX_CRASH_SEED', 24);

const rows: RoundResult[] = [];
let failed = false;
console.log('round signal   acked markers resets refused lost integrity 5xx reset-ran refused-ran');
for (let i = 0; i < rounds * 2; i++) {
  const signal = i % 2 === 0 ? 'SIGKILL' : 'SIGTERM';
  const r = await round({ signal, writers, ackTarget, maxMs, seed: seed + i });
  rows.push(r);
  const bad =
    r.lost.length > 0 || r.integrity !== 'ok' || r.refusedButRan.length > 0 || (signal === 'SIGTERM' && (r.fiveXX.length > 0 || r.resetButRan.length > 0));
  failed ||= bad;
  console.log(
    [
      String(i + 1).padStart(5),
      signal.padEnd(8),
      String(r.acked).padStart(5),
      String(r.markers).padStart(7),
      String(r.resets).padStart(6),
      String(r.refused).padStart(7),
      String(r.lost.length).padStart(4),
      r.integrity.padEnd(9),
      String(r.fiveXX.length).padStart(3),
      String(r.resetButRan.length).padStart(9),
      String(r.refusedButRan.length).padStart(11),
    ].join(' ') + (bad ? '  FAIL' : ''),
  );
  for (const l of [...r.lost, ...r.fiveXX, ...r.resetButRan.map((m) => `reset but ran: ${m}`), ...r.refusedButRan.map((m) => `refused but ran: ${m}`)].slice(
    0,
    10,
  ))
    console.log(`      ${l}`);
}
const byOp: Record<string, number> = {};
for (const r of rows) for (const [k, v] of Object.entries(r.byOp)) byOp[k] = (byOp[k] ?? 0) + v;
console.log(`\nacknowledged writes by operation (plus ${rows.reduce((n, r) => n + r.markers, 0)} marker notes):`);
for (const [k, v] of Object.entries(byOp).sort((a, b) => b[1] - a[1])) console.log(`  ${k.padEnd(20)} ${v}`);
console.log(failed ? '\nFAIL' : `\nok: ${rows.length} rounds, ${rows.reduce((n, r) => n + r.acked + r.markers, 0)} acknowledged writes, none lost`);
process.exit(failed ? 1 : 0);
