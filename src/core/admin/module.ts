import type { Module } from '../kernel/module.js';
import { adminOps } from './ops.js';

export const adminModule: Module = { name: 'admin', ops: adminOps };
