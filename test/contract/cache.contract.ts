// Cached results: one live row per (ns, key), replaced in place by its producer and taken over by
// anyone once expired (with fresh counters); a per-producer live cap; reads that count every hit
// (none lost under concurrency) and admit only the first `cap` reader networks when enforced.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { CacheRow, NewCacheRow } from '../../src/core/cache/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, together } from './fixtures.js';

const HOUR = 3_600_000;
const key = () => randomBytes(32).toString('hex');
const row = (producer: string, t: number, o: Partial<NewCacheRow> = {}): NewCacheRow => ({
  ns: 'default',
  key: key(),
  producer,
  kind: 'inline',
  text: 'answer',
  blob: null,
  size: 6,
  to: null,
  created: t,
  exp: t + HOUR,
  ...o,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  async function setup() {
    const s = await open();
    const now = s.clock.now();
    return { s, now, a: (await identity(s.store, now, { name: 'prod' })).id, b: (await identity(s.store, now)).id };
  }
  type S = Awaited<ReturnType<typeof setup>>['s'];
  const put = async (s: S, r: NewCacheRow, now: number, max = 100) => (await s.store.cache.put(r, now, max)) as { row: CacheRow; created: boolean };

  it('put then get gives the row and its producer; namespaces are apart; a restart keeps it', async () => {
    const { s, now, a } = await setup();
    const r = row(a, now, { to: 'a999999' });
    const { row: made, created } = await put(s, r, now);
    expect(created).toBe(true);
    expect(made).toMatchObject({
      ns: 'default',
      key: r.key,
      producer: a,
      kind: 'inline',
      text: 'answer',
      blob: null,
      size: 6,
      to: 'a999999',
      hits: 0,
      hidden: false,
      created: now,
      exp: now + HOUR,
    });
    const got = await s.store.cache.get('default', r.key, now);
    expect(got!.row).toEqual(made);
    expect(got!.producer).toMatchObject({ id: a, name: 'prod', frozen: false });
    expect(await s.store.cache.get('other', r.key, now)).toBeNull();
    const blob = (await put(s, row(a, now, { ns: 'other', key: r.key, kind: 'blob', text: null, blob: 'ab'.repeat(32), size: 1000 }), now)).row;
    expect(blob).toMatchObject({ ns: 'other', kind: 'blob', blob: 'ab'.repeat(32) });
    // A namespace looked up while it had no row, then written: the next lookup finds the row.
    expect((await s.store.cache.get('other', r.key, now))!.row).toEqual(blob);
    expect((await (await s.reopen()).cache.get('default', r.key, now))!.row).toEqual(made);
  });

  it('the producer replaces its own row in place (same rid, hits kept); another producer is held off until it expires', async () => {
    const { s, now, a, b } = await setup();
    const r = row(a, now, { exp: now + 1000 });
    const first = (await put(s, r, now)).row;
    await s.store.cache.read(first.rid, null, 3, false);
    const again = await put(s, { ...r, text: 'better', size: 6, exp: now + 1000 }, now);
    expect(again.created).toBe(false);
    expect(again.row).toMatchObject({ rid: first.rid, text: 'better', hits: 1 });
    expect(await s.store.cache.put(row(b, now, { key: r.key }), now, 100)).toBe('held');
    expect((await s.store.cache.get('default', r.key, now))!.row.producer).toBe(a);
    const later = now + 1000;
    expect(await s.store.cache.get('default', r.key, later)).toBeNull();
    const taken = await put(s, row(b, later, { key: r.key }), later);
    expect(taken.created).toBe(true);
    expect(taken.row).toMatchObject({ producer: b, hits: 0 });
  });

  it('of concurrent puts of one key by different producers exactly one creates it', async () => {
    const s = await open();
    const now = s.clock.now();
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await identity(s.store, now)).id);
    const k = key();
    const res = await together(8, (i) => s.store.cache.put(row(ids[i]!, now, { key: k }), now, 10));
    expect(res.filter((r) => typeof r === 'object' && r.created)).toHaveLength(1);
    expect(res.filter((r) => r === 'held')).toHaveLength(7);
  });

  it('the per-producer live cap holds under concurrent puts; replacing an own row and expired rows do not count', async () => {
    const { s, now, a } = await setup();
    const own = (await put(s, row(a, now), now, 5)).row;
    await put(s, row(a, now, { exp: now + 10 }), now, 5);
    const later = now + 10;
    const res = await together(10, () => s.store.cache.put(row(a, later), later, 5));
    expect(res.filter((r) => typeof r === 'object')).toHaveLength(4);
    expect(res.filter((r) => r === 'full')).toHaveLength(6);
    expect(await s.store.cache.put(row(a, later, { key: own.key, text: 'again' }), later, 5)).toMatchObject({ created: false });
  });

  it('reads count every hit, none lost under 60 concurrent reads', async () => {
    const { s, now, a } = await setup();
    const r = (await put(s, row(a, now), now)).row;
    const res = await together(60, () => s.store.cache.read(r.rid, null, 3, true));
    expect(res.every((x) => x.gate === 'ok')).toBe(true);
    expect(res.map((x) => x.hits).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect((await s.store.cache.get('default', r.key, now))!.row.hits).toBe(60);
  });

  it('reader networks: the first cap distinct ones read; with enforce the next get token and count nothing', async () => {
    const { s, now, a } = await setup();
    const r = (await put(s, row(a, now), now)).row;
    const nets = Array.from({ length: 4 }, () => randomBytes(16));
    for (const n of nets.slice(0, 3)) expect((await s.store.cache.read(r.rid, n, 3, true)).gate).toBe('ok');
    expect(await s.store.cache.read(r.rid, nets[0]!, 3, true)).toEqual({ gate: 'ok', hits: 4 });
    expect(await s.store.cache.read(r.rid, nets[3]!, 3, true)).toEqual({ gate: 'token', hits: 4 });
    expect(await s.store.cache.read(r.rid, nets[3]!, 3, false)).toEqual({ gate: 'ok', hits: 5 });
    // Not enforced, the extra network was not admitted either: enforced again, it is still refused.
    expect((await s.store.cache.read(r.rid, nets[3]!, 3, true)).gate).toBe('token');
    expect((await (await s.reopen()).cache.read(r.rid, nets[1]!, 3, true)).gate).toBe('ok');
  });

  it('15 distinct networks at once with cap 3 and enforce: exactly 3 read and count', async () => {
    const { s, now, a } = await setup();
    const r = (await put(s, row(a, now), now)).row;
    const res = await together(15, () => s.store.cache.read(r.rid, randomBytes(16), 3, true));
    expect(res.filter((x) => x.gate === 'ok')).toHaveLength(3);
    expect((await s.store.cache.get('default', r.key, now))!.row.hits).toBe(3);
  });

  it('a read of a row removed since it was looked up answers gone and records nothing', async () => {
    const { s, now, a } = await setup();
    const r = (await put(s, row(a, now), now)).row;
    const got = await s.store.cache.get('default', r.key, now);
    expect(await s.store.cache.remove('default', r.key, a, now)).toBe(true);
    expect(await s.store.cache.read(got!.row.rid, randomBytes(16), 3, true)).toEqual({ gate: 'gone', hits: 0 });
  });

  it("remove: the producer's live row only; purge deletes rows dead at now", async () => {
    const { s, now, a, b } = await setup();
    const r1 = (await put(s, row(a, now), now)).row;
    const r2 = (await put(s, row(a, now, { exp: now + 500 }), now)).row;
    expect(await s.store.cache.remove('default', r1.key, b, now)).toBe(false);
    expect(await s.store.cache.remove('other', r1.key, a, now)).toBe(false);
    expect(await s.store.cache.remove('default', r1.key, a, now)).toBe(true);
    expect(await s.store.cache.get('default', r1.key, now)).toBeNull();
    expect(await s.store.cache.remove('default', r2.key, a, now + 500)).toBe(false);
    expect(await s.store.cache.purgeExpired(now + 499)).toBe(0);
    expect(await s.store.cache.purgeExpired(now + 500)).toBe(1);
  });
}
