import type { Module } from '../kernel/module.js';
import { hostedAgentOps } from './ops.js';

export const agentsModule: Module = {
  name: 'agents',
  ops: hostedAgentOps,
  toolsets: [{ name: 'agents', about: 'hosted agents and their inbox' }],
};
