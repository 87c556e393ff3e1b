import type { Module } from '../kernel/module.js';
import { spaceOps } from './ops.js';

export const spacesModule: Module = { name: 'spaces', ops: spaceOps };
