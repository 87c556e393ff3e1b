// What the modules contribute to the readers that serve many domains' data (Module.feeds,
// Module.activity, Module.exportViews), gathered in module order into the core's `contributions`:
// the feeds and the exports read it there and import none of the domains that fill it. A name
// given twice, or an export table no module shows, stops the start here.
import { TABLES } from '../core/exports/rows.js';
import { FEED_SOURCES } from '../core/feeds/sources.js';
import type { ExportView } from '../core/kernel/export-view.js';
import type { FeedSource } from '../core/kernel/feed.js';
import type { Contributions, Module } from '../core/kernel/module.js';
import { MODULES } from './modules.js';

export function contributionsOf(modules: readonly Module[]): Contributions {
  const feeds: Record<string, FeedSource> = { ...FEED_SOURCES };
  const exportViews: Record<string, ExportView> = {};
  for (const m of modules) {
    for (const [name, src] of Object.entries(m.feeds ?? {})) {
      if (Object.hasOwn(feeds, name)) throw new Error(`feed ${name}: given twice (module ${m.name})`);
      feeds[name] = src;
    }
    for (const [name, v] of Object.entries(m.exportViews ?? {})) {
      if (Object.hasOwn(exportViews, name)) throw new Error(`export table ${name}: shown twice (module ${m.name})`);
      exportViews[name] = v;
    }
  }
  const missing = TABLES.find((t) => !Object.hasOwn(exportViews, t.shard));
  if (missing) throw new Error(`export table ${missing.shard}: no module shows it`);
  const activity = modules.flatMap((m) => (m.activity ? [m.activity] : []));
  return { feeds, activity, exportViews };
}

export const CONTRIBUTIONS: Contributions = contributionsOf(MODULES);
