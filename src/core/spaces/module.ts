import type { Module } from '../kernel/module.js';
import type { AnyOperation } from '../kernel/types.js';
import { spaceManageOp } from './manage.js';
import { spaceOps } from './ops.js';

export const spacesModule: Module = {
  name: 'spaces',
  ops: spaceOps,
  toolsets: [{ name: 'spaces', about: 'spaces, profiles, badges' }],
};

/**
 * space.manage, listed after the KB's acts on a space (src/core/kb/module.ts: spaceKbModule), which
 * the composition root hands in: spaces imports no other domain.
 */
export const spaceManageModule = (kbActs: readonly AnyOperation[]): Module => ({
  name: 'spaces',
  ops: [spaceManageOp(kbActs)],
  toolsets: [{ name: 'spaces' }],
});
