// What the modules contribute to the feeds and the exports (Module.feeds, activity, exportViews,
// gathered in src/compose/contributions.ts): the module list gives every feed of spec 4.3 and every
// export table, the activity feed's shares come in module order (KB fixes before posted tasks), and
// a name given twice or a table no module shows stops the start with a line naming it.
import { describe, expect, it } from 'vitest';
import { CONTRIBUTIONS, contributionsOf } from '../../src/compose/contributions.js';
import { MODULES } from '../../src/compose/modules.js';
import { TABLES } from '../../src/core/exports/rows.js';
import type { Module } from '../../src/core/kernel/module.js';

const mod = (name: string, o: Partial<Module>): Module => ({ name, ops: [], ...o });

describe('contributions of the module list', () => {
  it('hold every feed and every export table, and the activity shares in module order', () => {
    expect(Object.keys(CONTRIBUTIONS.feeds).sort()).toEqual(['a', 'ch', 'kb', 'log', 'p', 'ps', 's', 'st', 'sys', 'q', 't', 'v', 'wanted'].sort());
    expect(Object.keys(CONTRIBUTIONS.exportViews).sort()).toEqual(TABLES.map((t) => t.shard).sort());
    const sharers = MODULES.filter((m) => m.activity).map((m) => m.name);
    expect(sharers).toEqual(['kb', 'tasks']);
    expect(CONTRIBUTIONS.activity).toEqual(MODULES.filter((m) => m.activity).map((m) => m.activity));
  });

  it('a feed given twice (by two modules, or by a module and the feeds domain) stops the start', () => {
    const views = MODULES.filter((m) => m.exportViews);
    const src = { arg: 'none' as const, list: async () => null };
    expect(() => contributionsOf([...views, mod('one', { feeds: { zz: src } }), mod('two', { feeds: { zz: src } })])).toThrow(
      'feed zz: given twice (module two)',
    );
    expect(() => contributionsOf([...views, mod('one', { feeds: { sys: src } })])).toThrow('feed sys: given twice (module one)');
  });

  it('an export table shown twice, or shown by no module, stops the start', () => {
    const views = MODULES.filter((m) => m.exportViews);
    expect(() => contributionsOf([...views, mod('again', { exportViews: { kb: { view: () => ({}) } } })])).toThrow(
      'export table kb: shown twice (module again)',
    );
    expect(() => contributionsOf(MODULES.filter((m) => m.name !== 'tasks'))).toThrow('export table tasks: no module shows it');
  });
});
