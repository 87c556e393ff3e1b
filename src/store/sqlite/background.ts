// Writes the serving thread should not wait for, done by a worker thread with its own connection:
// WAL checkpoints (a checkpoint of a large database copies scattered pages and fsyncs, stalling
// every request for hundreds of ms; PASSIVE ones never block writers) and KB lookup counts (one
// upsert per signature looked up; at 1M entries these random-page writes cost more than the
// lookups themselves), into a file of their own. Reads are never blocked by this writer (WAL); a
// main-thread write waits at most for one small transaction of counts.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './db.js';

const require = createRequire(import.meta.url);

const CODE = `
const { parentPort, workerData } = require('node:worker_threads');
// This thread runs at the lowest CPU priority (Linux: a thread's nice value is its own), so on a
// busy machine serving goes first and counts wait, or past CAP go uncounted.
try { require('node:os').setPriority(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()), 19); } catch {}
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
db.pragma('synchronous = NORMAL');
// Small upserts and checkpoints need few pages cached: 2 MiB, not SQLite's default 16 MiB of RSS.
db.pragma('cache_size = -2048');
// Counts go to their own file (kb-hits.db, see attachHits): a commit there leaves the serving
// connection's page cache of the main file alone.
const hitsDb = new Database(workerData.hitsFile);
hitsDb.pragma('busy_timeout = 1000');
hitsDb.pragma('synchronous = NORMAL');
hitsDb.pragma('cache_size = -2048');
const walFile = workerData.file + '-wal';
// Over the WAL bound the serving thread truncates (boundWal below); a PASSIVE checkpoint running
// here then would hold the checkpoint lock and make that one busy, so this one stands aside.
const over = () => { try { return require('node:fs').statSync(walFile).size > workerData.walMax; } catch { return false; } };
const tick = () => { if (over()) return; try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(tick, workerData.everyMs);
// Counts waiting to be written, per signature. Counts are statistics: beyond CAP distinct
// signatures waiting, new ones go uncounted rather than grow memory without bound. They are written
// once per tick (everyMs) in key order, in transactions of CHUNK (a main-thread write waits at most
// for one: it locks every attached file), not as they come: sorted upserts share leaf pages.
// Measured at 1M entries: chunks of 256 written as they came cost ~30 µs of CPU per lookup.
// A crash loses at most one tick of counts.
const CHUNK = 2048, CAP = 200000;
let pending = new Map();
let queue = [], at = 0;
const up = hitsDb.prepare('INSERT INTO kb_sig_hits (h, hits) VALUES (?, ?) ON CONFLICT(h) DO UPDATE SET hits = hits + excluded.hits');
const write = hitsDb.transaction((batch) => { for (const [h, n] of batch) up.run(h, n); });
function writeChunk() {
  const batch = queue.slice(at, at + CHUNK);
  write(batch);
  at += batch.length;
  if (at >= queue.length) (queue = []), (at = 0);
}
function writeQueued() {
  if (!queue.length) return;
  // Busy (a truncating checkpoint, a long write): the rest waits for the next tick.
  try { writeChunk(); } catch { return; }
  if (queue.length) setImmediate(writeQueued);
}
function tickHits() {
  // While a sorted batch is still being written, new counts keep merging in pending.
  if (pending.size && !queue.length) {
    for (const e of pending) queue.push(e);
    pending = new Map();
    queue.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
  writeQueued();
}
const hitsTimer = setInterval(tickHits, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m && m.hits !== undefined) {
    // One string of hashes and their counts (see countHits below).
    const hs = m.hits.split('\\n');
    for (let i = 0; i < hs.length; i++) { const h = hs[i]; if (pending.size < CAP || pending.has(h)) pending.set(h, (pending.get(h) || 0) + m.n[i]); }
  } else if (m === 'stop') {
    clearInterval(timer);
    clearInterval(hitsTimer);
    for (const e of pending) queue.push(e);
    for (let tries = 0; queue.length && tries < 3; ) { try { writeChunk(); } catch { tries++; } }
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
    try { hitsDb.pragma('wal_checkpoint(PASSIVE)'); } catch {}
    db.close();
    hitsDb.close();
    parentPort.postMessage('stopped');
  }
});
`;

export interface Background {
  /** Adds lookup counts per signature hash. */
  countHits(hits: Map<string, number>): void;
  /** Writes what is waiting, checkpoints once more and ends the worker. */
  stop(): Promise<void>;
}

export function startBackground(file: string, hitsFile: string, everyMs = 1000, walMax = Infinity): Background {
  const worker = new Worker(CODE, { eval: true, workerData: { file, hitsFile, everyMs, walMax, module: require.resolve('better-sqlite3') } });
  worker.unref();
  return {
    // Sent as one string and one typed array: cloning an array of [hash, count] pairs cost the
    // serving thread several µs per distinct hash (at 1M entries most lookups are of distinct ones).
    countHits: (hits) => {
      const keys = new Array<string>(hits.size);
      const n = new Uint32Array(hits.size);
      let i = 0;
      for (const [h, c] of hits) (keys[i] = h), (n[i++] = c);
      worker.postMessage({ hits: keys.join('\n'), n });
    },
    stop: () =>
      new Promise((resolve) => {
        const done = () => resolve();
        worker.once('message', () => void worker.terminate().then(done, done));
        worker.once('error', done);
        worker.once('exit', done);
        worker.postMessage('stop');
      }),
  };
}

/**
 * Keeps the WAL file near `walMax` bytes while serving. PASSIVE checkpoints (the worker above)
 * never shrink it under steady writes: SQLite rewinds the log only once a checkpoint has caught up
 * with its last frame, which a busy writer never lets happen, so it grew to the autocheckpoint
 * backstop (~400 MB; bench/wal.ts measured 553-806 MB after 50k writes of 1 KiB) and shrank only
 * at shutdown. Here the serving connection, every `everyMs`, stats the file and above the bound
 * runs a TRUNCATE checkpoint between requests (the worker stands aside meanwhile: two checkpointers
 * make one busy). It must be this connection: the worker, a second writer at the lowest priority,
 * was starved by the serving thread's writes and never got the lock during a burst (measured).
 * Measured with bench/wal.ts (~100 MB/s of WAL): WAL at most 109-155 MB and back under the bound;
 * the longest event-loop stall 200-244 ms against 39-194 ms before (copying what the worker had not
 * copied yet, then emptying the file), once per `walMax` of writes; nothing when idle. A busy
 * result (a reader still on the log) is retried at the next tick.
 */
export function boundWal(db: Db, file: string, walMax: number, everyMs = 250): () => void {
  const wal = `${file}-wal`;
  const timer = setInterval(() => {
    let size = 0;
    try {
      size = statSync(wal).size;
    } catch {
      return;
    }
    if (size <= walMax || !db.open) return;
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      /* busy or closing: next tick */
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
