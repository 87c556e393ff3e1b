import type { Module } from '../kernel/module.js';
import { dropOps } from './ops.js';
import { startDropSweep } from './sweep.js';

export const dropsModule: Module = {
  name: 'drops',
  ops: dropOps,
  toolsets: [{ name: 'drops', about: 'one-time secret drops' }],
  start: (core) => startDropSweep(core),
};
