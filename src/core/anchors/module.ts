import type { Module } from '../kernel/module.js';
import { anchorOps } from './ops.js';

export const anchorsModule: Module = { name: 'anchors', ops: anchorOps, toolsets: [{ name: 'checkpoints' }] };
