import type { Module } from '../../kernel/module.js';
import { trustOps } from './ops.js';

export const trustModule: Module = { name: 'trust', ops: trustOps, toolsets: [{ name: 'sys' }] };
