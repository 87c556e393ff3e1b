import type { Module } from '../../kernel/module.js';
import { ledgerOps } from './ops.js';

export const ledgerModule: Module = { name: 'ledger', ops: ledgerOps, toolsets: [{ name: 'tasks' }] };
