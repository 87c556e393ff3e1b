// Operator control state (src/core/platform/control/ports.ts): freezes, the operator's shed level and
// maintenance windows persist across a restart; set and clear are idempotent; concurrent writers
// lose nothing.
import { expect, it } from 'vitest';
import { type Adapter, storeFor } from './adapters.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('freezes, the shed level and maintenance windows survive a restart', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.control.setFreeze('drops', true, 'admin', 'incident 7', t);
    await s.store.control.setShed(2, 'db migration', 'ops', t);
    const w = await s.store.control.addMaintenance({ starts: t + 1000, ends: t + 60_000, text: 'disk swap', by: 'admin' }, t);
    const again = await s.reopen();
    const r = await again.control.read(t);
    expect(r.freezes).toEqual([{ kind: 'drops', by: 'admin', note: 'incident 7', since: t }]);
    expect(r.shed).toEqual({ level: 2, reason: 'db migration', by: 'ops', since: t });
    expect(r.maintenance).toEqual([{ id: w.id, starts: t + 1000, ends: t + 60_000, text: 'disk swap', by: 'admin' }]);
  });

  it('freezing is idempotent and keeps its start; lifting what is not frozen changes nothing', async () => {
    const s = await open();
    const c = s.store.control;
    const t = s.clock.now();
    expect(await c.setFreeze('write', true, 'admin', 'first', t)).toBe(true);
    expect(await c.setFreeze('write', true, 'ops', 'second', t + 5000)).toBe(false);
    expect((await c.read(t)).freezes).toEqual([{ kind: 'write', by: 'ops', note: 'second', since: t }]);
    expect(await c.setFreeze('write', false, 'admin', '', t)).toBe(true);
    expect(await c.setFreeze('write', false, 'admin', '', t)).toBe(false);
    expect(await c.setFreeze('reg', false, 'admin', '', t)).toBe(false);
    expect((await c.read(t)).freezes).toEqual([]);
  });

  it('shed level 0 removes the setting; a new level replaces the old', async () => {
    const s = await open();
    const c = s.store.control;
    const t = s.clock.now();
    expect((await c.read(t)).shed).toBeNull();
    await c.setShed(1, 'a', 'admin', t);
    await c.setShed(3, 'b', 'ops', t + 1);
    expect((await c.read(t)).shed).toEqual({ level: 3, reason: 'b', by: 'ops', since: t + 1 });
    await c.setShed(0, '', 'admin', t + 2);
    expect((await c.read(t)).shed).toBeNull();
  });

  it('ended windows are not read and are purged by the next add; clear removes one or all', async () => {
    const s = await open();
    const c = s.store.control;
    const t = s.clock.now();
    const a = await c.addMaintenance({ starts: t, ends: t + 1000, text: 'a', by: 'admin' }, t);
    const b = await c.addMaintenance({ starts: t, ends: t + 5000, text: 'b', by: 'admin' }, t);
    expect(b.id).toBeGreaterThan(a.id);
    expect((await c.read(t + 1000)).maintenance.map((w) => w.text)).toEqual(['b']);
    const d = await c.addMaintenance({ starts: t + 2000, ends: t + 9000, text: 'd', by: 'admin' }, t + 1500);
    // `a` is gone for good: clearing it finds nothing.
    expect(await c.clearMaintenance(a.id)).toBe(0);
    expect(await c.clearMaintenance(b.id)).toBe(1);
    expect((await c.read(t)).maintenance.map((w) => w.id)).toEqual([d.id]);
    await c.addMaintenance({ starts: t, ends: t + 9000, text: 'e', by: 'admin' }, t);
    expect(await c.clearMaintenance()).toBe(2);
    expect((await c.read(t)).maintenance).toEqual([]);
  });

  it('concurrent freezes of different kinds are all kept; concurrent freezes of one kind leave one row', async () => {
    const s = await open();
    const c = s.store.control;
    const t = s.clock.now();
    const kinds = ['reg', 'write', 'compute', 'drops', 'notes', 'cp', 'mail', 'cache', 'anchors', 'blobs'];
    await Promise.all(kinds.map((k, i) => c.setFreeze(k, true, `op${i}`, '', t)));
    expect((await c.read(t)).freezes.map((f) => f.kind).sort()).toEqual([...kinds].sort());
    const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => c.setFreeze('all', true, `op${i}`, `n${i}`, t)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const all = (await c.read(t)).freezes.filter((f) => f.kind === 'all');
    expect(all).toHaveLength(1);
    expect(all[0]!.by).toMatch(/^op\d+$/);
    // Lifting everything at once, concurrently, leaves nothing frozen.
    await Promise.all([...kinds, 'all'].map((k) => c.setFreeze(k, false, 'admin', '', t)));
    expect((await c.read(t)).freezes).toEqual([]);
  });
}
