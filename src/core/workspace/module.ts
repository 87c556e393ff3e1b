import type { Module } from '../kernel/module.js';
import { workspaceOps } from './ops.js';

/** Notes, checkpoints, anchors, cache, blobs and mail under one set of `/w` routes. */
export const workspaceModule: Module = { name: 'workspace', ops: workspaceOps };
