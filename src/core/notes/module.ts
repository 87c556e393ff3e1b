import type { Module } from '../kernel/module.js';
import { noteOps } from './ops.js';

export const notesModule: Module = { name: 'notes', ops: noteOps, toolsets: [{ name: 'notes', about: 'private notes' }] };
