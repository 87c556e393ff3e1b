import type { Module } from '../kernel/module.js';
import { hostedAgentOps } from './ops.js';

export const agentsModule: Module = { name: 'agents', ops: hostedAgentOps };
