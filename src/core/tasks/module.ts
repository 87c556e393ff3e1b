import type { Module } from '../kernel/module.js';
import { taskOps } from './ops.js';
import { taskWatchOp } from './watch.js';
import { taskExportViews } from './exports.js';
import { taskActivity, taskFeeds } from './feeds.js';

export const tasksModule: Module = {
  name: 'tasks',
  ops: [...taskOps, taskWatchOp],
  toolsets: [{ name: 'tasks', about: 'task board and credits' }],
  feeds: taskFeeds,
  activity: taskActivity,
  exportViews: taskExportViews,
};
