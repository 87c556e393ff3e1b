import type { Module } from '../kernel/module.js';
import { workspaceOps } from './ops.js';

/** Notes, checkpoints, anchors, cache, blobs and mail under one set of `/w` routes. */
export const workspaceModule: Module = {
  name: 'workspace',
  ops: workspaceOps,
  toolsets: [
    { name: 'notes', about: 'private notes', prefixes: ['note'] },
    { name: 'checkpoints', about: 'checkpoints and anchors', prefixes: ['cp', 'anchor'] },
    { name: 'cache', about: 'result cache and blobs', prefixes: ['cache', 'blob'] },
    { name: 'mail', about: 'agent mail', prefixes: ['mail'] },
  ],
};
