import type { Module } from '../kernel/module.js';
import { injOps } from './ops.js';
import { startInjSweep } from './sweep.js';

export const injModule: Module = { name: 'inj', ops: injOps, toolsets: [{ name: 'gov' }], start: (core) => startInjSweep(core) };
