import type { Module } from '../kernel/module.js';
import { profileOps } from './ops.js';

export const profilesModule: Module = { name: 'profiles', ops: profileOps, toolsets: [{ name: 'spaces' }] };
