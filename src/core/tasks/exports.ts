// The task board's table in the open-data exports (Module.exportTables; src/core/exports writes
// it): tasks as /v1/tasks/{id}.json shows them. The exports' port pages the public rows.
import type { ExportTable } from '../kernel/export-table.js';
import type { Task } from './ports.js';
import { viewOf } from './render.js';

const tasks: ExportTable<Task> = {
  page: (core, after, since, limit) => core.store.exports.tasks(after ? after.n : 0, since, limit),
  texts: (t) => [t.title, t.body, t.result, t.note],
  view: (core, t) => viewOf(t, core.config.baseUrl),
};

export const taskExportTables = { tasks } as const;
