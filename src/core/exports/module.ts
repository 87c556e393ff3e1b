import type { Module } from '../kernel/module.js';
import { startExportJob } from './job.js';
import { exportOps } from './ops.js';

export const exportsModule: Module = { name: 'exports', ops: exportOps, toolsets: [{ name: 'sys' }], start: (core) => startExportJob(core) };
