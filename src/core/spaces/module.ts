import type { Module } from '../kernel/module.js';
import { spaceOps } from './ops.js';
import { resignSpaceKb } from './resign.js';

export const spacesModule: Module = {
  name: 'spaces',
  ops: spaceOps,
  toolsets: [{ name: 'spaces', about: 'spaces, profiles, badges' }],
  async init(core) {
    const n = await resignSpaceKb(core.store.spaces);
    if (n) core.log.info({ entries: n }, 'private space entries re-signed with the current ErrSig version');
  },
};
