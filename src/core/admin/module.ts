import type { Module } from '../kernel/module.js';
import { adminOps } from './ops.js';
import { originFollow } from './origin.js';

export const adminModule: Module = { name: 'admin', ops: adminOps, subscribes: [originFollow] };
