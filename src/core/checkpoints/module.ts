import type { Module } from '../kernel/module.js';
import { checkpointOps } from './ops.js';

export const checkpointsModule: Module = { name: 'checkpoints', ops: checkpointOps, toolsets: [{ name: 'checkpoints', about: 'checkpoints and anchors' }] };
