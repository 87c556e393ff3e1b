// WAL checkpoints off the event loop: the serving connection never checkpoints (a checkpoint of a
// large database copies scattered pages and fsyncs, stalling every request for hundreds of ms);
// a worker thread with its own connection runs PASSIVE checkpoints, which never block writers.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

const CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const tick = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(tick, workerData.everyMs);
parentPort.on('message', (m) => { if (m === 'stop') { clearInterval(timer); tick(); db.close(); parentPort.postMessage('stopped'); } });
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, everyMs = 1000): Checkpointer {
  const worker = new Worker(CODE, { eval: true, workerData: { file, everyMs, module: require.resolve('better-sqlite3') } });
  worker.unref();
  return {
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
