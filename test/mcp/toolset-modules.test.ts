// The MCP toolsets come from the modules (Module.toolsets, gathered in src/compose/toolsets.ts):
// every agent-facing operation of the module list has a toolset its module declared, the published
// list is the one clients know, and a module that leaves an operation out, describes a toolset
// twice or names one nobody describes fails here instead of filing the operation under `sys`.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentOps } from '../../src/core/kernel/agent-facing.js';
import type { Module } from '../../src/core/kernel/module.js';
import type { AnyOperation } from '../../src/core/kernel/types.js';
import { MODULES } from '../../src/compose/modules.js';
import { TOOLSETS, toolsetsOf } from '../../src/compose/toolsets.js';

const op = (name: string, auth: AnyOperation['auth'] = 'token'): AnyOperation =>
  ({ name, auth, summary: name, input: z.object({}), output: z.object({}), handler: async () => ({}) }) as unknown as AnyOperation;

describe('toolsets declared by the modules', () => {
  it('cover every agent-facing operation of the module list, in the published order', () => {
    const ops = MODULES.flatMap((m) => agentOps(m.ops));
    expect(ops.filter((o) => !TOOLSETS.of.has(o.name)).map((o) => o.name)).toEqual([]);
    expect(Object.keys(TOOLSETS.about)).toEqual([
      'id',
      'kb',
      'drops',
      'tasks',
      'agents',
      'spaces',
      'notes',
      'checkpoints',
      'cache',
      'mail',
      'swarm',
      'compute',
      'gov',
      'sys',
    ]);
    // Shared prefixes land where the old prefix table put them (key.* and export.index are sys, st.get gov).
    expect(['key.get', 'export.index', 'sys.status', 'st.get', 'credits.show', 'in.create', 'inj.map', 'blob.get'].map((n) => TOOLSETS.of.get(n))).toEqual([
      'sys',
      'sys',
      'sys',
      'gov',
      'tasks',
      'swarm',
      'gov',
      'cache',
    ]);
  });

  it('gathers parts of several modules, by prefix or whole, and leaves operator operations out', () => {
    const mods: Module[] = [
      {
        name: 'a',
        ops: [op('a.x'), op('b.y'), op('admin.z', 'admin')],
        toolsets: [
          { name: 'bee', about: 'b things', prefixes: ['b'] },
          { name: 'ay', about: 'a things' },
        ],
      },
      { name: 'c', ops: [op('c.x')], toolsets: [{ name: 'ay' }] },
    ];
    const t = toolsetsOf(mods, ['ay']);
    expect(t.about).toEqual({ ay: 'a things', bee: 'b things' });
    expect(Object.keys(t.about)).toEqual(['ay', 'bee']);
    expect([...t.of]).toEqual([
      ['a.x', 'ay'],
      ['b.y', 'bee'],
      ['c.x', 'ay'],
    ]);
  });

  it('a module with an agent-facing operation and no toolset for it fails (planted)', () => {
    const base: Module = { name: 'a', ops: [op('a.x')], toolsets: [{ name: 'ay', about: 'a things' }] };
    expect(() => toolsetsOf([base, { name: 'new', ops: [op('new.x')] }])).toThrow('operation new.x: module new declares no MCP toolset for it');
    expect(() => toolsetsOf([{ ...base, ops: [op('a.x'), op('z.q')], toolsets: [{ name: 'ay', about: 'a', prefixes: ['a'] }] }])).toThrow(
      'operation z.q: module a declares no MCP toolset for it',
    );
    // Operator operations need none.
    expect(() => toolsetsOf([base, { name: 'ops', ops: [op('admin.q', 'admin')] }])).not.toThrow();
  });

  it('a toolset described twice, described by no module, or left empty fails', () => {
    const base: Module = { name: 'a', ops: [op('a.x')], toolsets: [{ name: 'ay', about: 'a things' }] };
    expect(() => toolsetsOf([base, { name: 'b', ops: [op('b.x')], toolsets: [{ name: 'ay', about: 'again' }] }])).toThrow(
      'toolset ay: described twice (module b)',
    );
    expect(() => toolsetsOf([base, { name: 'b', ops: [op('b.x')], toolsets: [{ name: 'bee' }] }])).toThrow('toolset bee: no module describes it');
    expect(() =>
      toolsetsOf([
        {
          ...base,
          toolsets: [
            { name: 'ay', about: 'a' },
            { name: 'zz', about: 'z', prefixes: ['z'] },
          ],
        },
      ]),
    ).toThrow('toolset zz: module a puts no operation in it');
  });
});
