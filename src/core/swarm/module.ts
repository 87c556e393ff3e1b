import type { Module } from '../kernel/module.js';
import { LINE_PREFIX, lineOf } from '../platform/events/topics.js';
import { afterPublish, startSwarm } from './deliver.js';
import { swarmOps } from './ops.js';

export const swarmModule: Module = {
  name: 'swarm',
  ops: swarmOps,
  toolsets: [{ name: 'swarm', about: 'swarm topics, subscriptions, work queues, kv entries, inbound webhooks' }],
  start(core) {
    // Follows every topic line (the ps: contract, src/core/platform/events/topics.ts), whoever wrote
    // it: a new line queues its subscriptions' deliveries. Listening starts before startSwarm's
    // first sweep, whose reconciliation queues whatever was written before (or missed meanwhile).
    const off = core.store.events.on({ prefix: LINE_PREFIX }, (e) => {
      afterPublish(core, lineOf(e)).catch((err: unknown) =>
        core.log.warn({ err, topic: e.topic, seq: e.id }, 'swarm: deliveries not queued; the sweep catches up'),
      );
    });
    const swarm = startSwarm(core);
    return async () => {
      off();
      await swarm.stop();
    };
  },
};
