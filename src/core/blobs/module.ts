import type { Module } from '../kernel/module.js';
import { blobOps } from './ops.js';

export const blobsModule: Module = { name: 'blobs', ops: blobOps, toolsets: [{ name: 'cache' }] };
