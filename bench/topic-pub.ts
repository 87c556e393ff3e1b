// One topic, 50 concurrent publishers, on a real PostgreSQL (issue 38): lines per second through
// the PostgreSQL event bus (`store.events.publish`, the path every topic line takes), and each
// publish's latency. The store is opened on a schema of its own, dropped at the end; the ids are
// checked gapless afterwards. Run alone, on a quiet machine:
//   CX_PG_REAL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/topic-pub.ts
// (BENCH_PUBLISHERS, BENCH_SECONDS, BENCH_POOL change the defaults 50, 10 and 50.)
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openPgStore } from '../src/store/pg/index.js';

const url = process.env.CX_PG_REAL;
if (!url) {
  console.error('topic-pub: set CX_PG_REAL to a PostgreSQL URL (a throwaway database: a schema is created and dropped)');
  process.exit(1);
}
const publishers = Number(process.env.BENCH_PUBLISHERS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const pool = Number(process.env.BENCH_POOL ?? 50);
const schema = `cx_bench_pub_${process.pid}`;
const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;

const store = await openPgStore(url, { schema, max: pool });
const topic = 'g:bench.pub';
const payload = { by: 'bench', text: 'x'.repeat(80) };
const lat: number[] = [];
try {
  // Warm: every connection prepared, the topic's head row there.
  await Promise.all(Array.from({ length: pool }, () => store.events.publish(topic, payload)));
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: publishers }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await store.events.publish(topic, payload);
        lat.push(performance.now() - t);
      }
    }),
  );
  const took = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const head = await store.events.head(topic);
  console.log(
    JSON.stringify({
      publishers,
      pool,
      seconds: Number(took.toFixed(1)),
      lines: lat.length,
      perSec: Math.round(lat.length / took),
      p50ms: Number(pct(lat, 50).toFixed(1)),
      p99ms: Number(pct(lat, 99).toFixed(1)),
      gapless: head === lat.length + pool,
    }),
  );
} finally {
  await store.close();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}
