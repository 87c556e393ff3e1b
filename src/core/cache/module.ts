import type { Module } from '../kernel/module.js';
import { cacheOps } from './ops.js';

export const cacheModule: Module = { name: 'cache', ops: cacheOps, toolsets: [{ name: 'cache', about: 'result cache and blobs' }] };
