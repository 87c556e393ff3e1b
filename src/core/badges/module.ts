import type { Module } from '../kernel/module.js';
import { badgeOps } from './ops.js';

export const badgesModule: Module = { name: 'badges', ops: badgeOps, toolsets: [{ name: 'spaces' }] };
