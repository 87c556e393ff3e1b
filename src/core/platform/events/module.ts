import type { Module } from '../../kernel/module.js';
import { startEventSweep } from './sweep.js';

/** The bus itself is the store's; this module prunes its old events. */
export const eventsModule: Module = { name: 'events', ops: [], start: (core) => startEventSweep(core) };
