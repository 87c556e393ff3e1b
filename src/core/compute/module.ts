import type { Module } from '../kernel/module.js';
import { startWorker } from '../platform/jobs/worker.js';
import { DONATE_QUEUE, serverDonate } from './donors.js';
import { startFnSinks } from './fn-sink.js';
import { computeOps } from './ops.js';
import { loadSampleServices } from './seed.js';
import { KAT_QUEUE, runKats } from './services.js';
import { startCallSweep } from './sweep.js';

export const computeModule: Module = {
  name: 'compute',
  ops: computeOps,
  toolsets: [{ name: 'compute', about: 'WASM services, replicated jobs, donors, receipts' }],
  async init(core) {
    const services = core.config.seed ? await loadSampleServices(core) : 0;
    if (services) core.log.info({ services }, 'sample services published (served once their KATs pass)');
  },
  start(core) {
    const log = core.log;
    const stopKats = startWorker<{ name: string; ver: number }>(
      core.store.jobs,
      KAT_QUEUE,
      async (job) => void (await runKats(core, job.payload.name, job.payload.ver, job)),
      { log },
    );
    // The server is a donor by default: one replica of every replicated job.
    const stopDonor = startWorker<{ job: string }>(core.store.jobs, DONATE_QUEUE, (job) => serverDonate(core, job.payload.job), { log, concurrency: 2 });
    const stopCallSweep = startCallSweep(core);
    // fn: sinks run service versions through the same runner as svc.call.
    startFnSinks(core);
    return async () => {
      stopCallSweep();
      await stopKats();
      await stopDonor();
    };
  },
};
