// Services: a name belongs to its first publisher; versions are unique; the stable version is set
// in the same write as the first (or an explicitly stable) version, also when publications race;
// only a pending version settles, once; one ok report per (version, identity); call records and
// their purge; everything survives a restart.
import { expect, it } from 'vitest';
import type { CallRecord, SvcManifest, SvcVersion } from '../../src/core/compute/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { together } from './fixtures.js';

const manifest: SvcManifest = { entry: 'run', desc: 'test', kats: [{ in: 'a', out: 'a' }], limits: { time_ms: 100, mem_pages: 16, out_bytes: 100 } };
const ver = (name: string, v: number, publisher: string, t: number): Omit<SvcVersion, 'state' | 'log' | 'checked'> => ({
  name,
  ver: v,
  wasm: 'ab'.repeat(32),
  manifest,
  publisher,
  kats: 1,
  created: t,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('publish: the first version is stable, a name stays with its owner, a version is unique; all kept across a restart', async () => {
    const s = await open();
    const t = s.clock.now();
    expect(await s.store.services.publish(ver('svc-a', 1, 'admin', t), 'admin', 'first')).toBe('ok');
    expect(await s.store.services.publish(ver('svc-a', 2, 'admin', t), 'admin', 'first')).toBe('ok');
    expect(await s.store.services.publish(ver('svc-a', 2, 'admin', t), 'admin', 'first')).toBe('dup');
    expect(await s.store.services.publish(ver('svc-a', 3, 'a00001', t), 'a00001', 'first')).toBe('taken');
    expect(await s.store.services.name('svc-a')).toEqual({ name: 'svc-a', owner: 'admin', stable: 1, created: t });
    expect(await s.store.services.publish(ver('svc-a', 3, 'admin', t), 'admin', 'always')).toBe('ok');
    const again = await s.reopen();
    expect((await again.services.name('svc-a'))!.stable).toBe(3);
    expect((await again.services.versions('svc-a', 10)).map((v) => v.ver)).toEqual([3, 2, 1]);
    expect(await again.services.version('svc-a', 1)).toEqual({ ...ver('svc-a', 1, 'admin', t), state: 'pending', log: null, checked: null });
    expect(await again.services.version('svc-a', 9)).toBeNull();
    expect(await again.services.name('nope')).toBeNull();
    expect(await again.services.setStable('svc-a', 2)).toBe(true);
    expect(await again.services.setStable('svc-a', 9)).toBe(false);
    expect((await again.services.name('svc-a'))!.stable).toBe(2);
  });

  it('concurrent first publications of a name: one owner, one stable version', async () => {
    const s = await open();
    const t = s.clock.now();
    const res = await together(6, (i) => s.store.services.publish(ver('race', i + 1, `a0000${i}`, t), `a0000${i}`, 'first'));
    expect(res.filter((r) => r === 'ok')).toHaveLength(1);
    const n = (await s.store.services.name('race'))!;
    expect(n.stable).toBe(res.indexOf('ok') + 1);
    expect(n.owner).toBe(`a0000${res.indexOf('ok')}`);
  });

  it('settle moves a pending version once; list pages names in order', async () => {
    const s = await open();
    const t = s.clock.now();
    for (const n of ['b-svc', 'a-svc', 'c-svc']) await s.store.services.publish(ver(n, 1, 'admin', t), 'admin', 'first');
    expect(await s.store.services.settle('a-svc', 1, 'ok', '1/1 passed', t + 5)).toBe(true);
    expect(await s.store.services.settle('a-svc', 1, 'failed', 'x', t + 6)).toBe(false);
    expect(await s.store.services.settle('zzz', 1, 'ok', 'x', t)).toBe(false);
    expect(await s.store.services.version('a-svc', 1)).toMatchObject({ state: 'ok', log: '1/1 passed', checked: t + 5 });
    const settles = await together(5, (i) => s.store.services.settle('b-svc', 1, i % 2 ? 'ok' : 'failed', `r${i}`, t));
    expect(settles.filter(Boolean)).toHaveLength(1);
    expect((await s.store.services.list('', 2)).map((n) => n.name)).toEqual(['a-svc', 'b-svc']);
    expect((await s.store.services.list('b-svc', 10)).map((n) => n.name)).toEqual(['c-svc']);
  });

  it('one ok report per version and identity, counted and listed oldest first', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.services.publish(ver('oks', 1, 'admin', t), 'admin', 'first');
    const ok = (by: string, at: number) => ({ name: 'oks', ver: 1, by, pub: 'cd'.repeat(32), sig: 'x'.repeat(86), note: null, at });
    expect(await s.store.services.addOk(ok('a00002', t + 2))).toBe(true);
    expect(await s.store.services.addOk(ok('a00002', t + 3))).toBe(false);
    const res = await together(4, () => s.store.services.addOk(ok('a00003', t + 1)));
    expect(res.filter(Boolean)).toHaveLength(1);
    expect(await s.store.services.okCount('oks', 1)).toBe(2);
    expect((await (await s.reopen()).services.oks('oks', 1, 10)).map((o) => o.by)).toEqual(['a00003', 'a00002']);
  });

  it('call records: stored with their bytes, read back, purged by age', async () => {
    const s = await open();
    const t = s.clock.now();
    const rec = (id: string, created: number): CallRecord => ({
      id,
      name: 'x',
      ver: 1,
      caller: 'a00004',
      in_hash: '00'.repeat(32),
      status: 'ok',
      code: null,
      detail: null,
      output: Buffer.from('out\u0000put'),
      out_hash: '11'.repeat(32),
      ms: 3,
      charged: 1,
      donor: 'asystem',
      created,
    });
    await s.store.services.putCall(rec('r0000000001', t - 1000));
    await s.store.services.putCall(rec('r0000000002', t));
    const back = await (await s.reopen()).services.call('r0000000001');
    expect(back).toMatchObject({ ...rec('r0000000001', t - 1000), output: expect.anything() });
    expect(Buffer.from(back!.output!).toString()).toBe('out\u0000put');
    expect(await s.store.services.purgeCalls(t - 10)).toBe(1);
    expect(await s.store.services.call('r0000000001')).toBeNull();
    expect(await s.store.services.call('r0000000002')).not.toBeNull();
  });
}
