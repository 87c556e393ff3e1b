import type { Module } from '../kernel/module.js';
import { webhookOps } from './ops.js';

export const webhooksModule: Module = { name: 'webhooks', ops: webhookOps, toolsets: [{ name: 'swarm' }] };
