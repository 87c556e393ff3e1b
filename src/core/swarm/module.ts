import type { Module } from '../kernel/module.js';
import { LINE_PREFIX, lineOf } from '../platform/events/topics.js';
import { afterPublish, startSwarm } from './deliver.js';
import { swarmOps } from './ops.js';

export const swarmModule: Module = {
  name: 'swarm',
  ops: swarmOps,
  toolsets: [{ name: 'swarm', about: 'swarm topics, subscriptions, work queues, kv entries, inbound webhooks' }],
  // Every topic line (the ps: contract, src/core/platform/events/topics.ts), whoever wrote it: a new
  // line queues its subscriptions' deliveries. startSwarm's first sweep reconciles what was written
  // before (or missed meanwhile).
  subscribes: [{ topics: { prefix: LINE_PREFIX }, on: (core, e) => afterPublish(core, lineOf(e)), failed: 'deliveries not queued; the sweep catches up' }],
  start(core) {
    const swarm = startSwarm(core);
    return () => swarm.stop();
  },
};
