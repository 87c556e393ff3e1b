import type { Module } from '../kernel/module.js';
import { dropOps } from './ops.js';
import { startDropSweep } from './sweep.js';

export const dropsModule: Module = { name: 'drops', ops: dropOps, start: (core) => startDropSweep(core) };
