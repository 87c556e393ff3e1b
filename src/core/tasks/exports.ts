// How the task board's table shows in the open-data exports (Module.exportViews; src/core/exports
// pages and writes it): tasks as /v1/tasks/{id}.json shows them.
import type { ExportView } from '../kernel/export-view.js';
import type { Task } from './ports.js';
import { viewOf } from './render.js';

const tasks: ExportView<Task> = {
  texts: (t) => [t.title, t.body, t.result, t.note],
  view: (core, t) => viewOf(t, core.config.baseUrl),
};

export const taskExportViews = { tasks } as const;
