import type { Module } from '../kernel/module.js';
import { systemOps } from './ops.js';

export const systemModule: Module = { name: 'system', ops: systemOps, toolsets: [{ name: 'sys', about: 'health and limits' }] };
