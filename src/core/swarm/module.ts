import type { Module } from '../kernel/module.js';
import { startSwarm } from './deliver.js';
import { swarmOps } from './ops.js';

export const swarmModule: Module = {
  name: 'swarm',
  ops: swarmOps,
  start(core) {
    const swarm = startSwarm(core);
    return () => swarm.stop();
  },
};
