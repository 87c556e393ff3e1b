// Blobs: content-addressed, stored once (the first owner is charged, also when uploads race), a
// per-owner byte budget that holds under concurrent uploads, bytes intact across a restart.
import { createHash, randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { BlobMeta } from '../../src/core/blobs/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, together } from './fixtures.js';

const meta = (bytes: Buffer, owner: string, t: number): BlobMeta => ({
  hash: createHash('sha256').update(bytes).digest('hex'),
  size: bytes.length,
  kind: 'application/octet-stream',
  owner,
  created: t,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('put stores the bytes once; the same bytes again return the first row; bytes and meta survive a restart', async () => {
    const s = await open();
    const now = s.clock.now();
    const a = (await identity(s.store, now)).id;
    const b = (await identity(s.store, now)).id;
    const bytes = randomBytes(5000);
    const m = meta(bytes, a, now);
    expect(await s.store.blobs.put(m, bytes, 1 << 20)).toEqual({ meta: m, created: true });
    expect(await s.store.blobs.put({ ...m, owner: b, created: now + 1 }, bytes, 1 << 20)).toEqual({ meta: m, created: false });
    const again = await s.reopen();
    expect(await again.blobs.meta(m.hash)).toEqual(m);
    expect((await again.blobs.bytes(m.hash))!.equals(bytes)).toBe(true);
    expect(await again.blobs.meta('00'.repeat(32))).toBeNull();
    expect(await again.blobs.bytes('00'.repeat(32))).toBeNull();
  });

  it("the byte budget: full when the owner's stored bytes would pass it, also under concurrent uploads", async () => {
    const s = await open();
    const now = s.clock.now();
    const a = (await identity(s.store, now)).id;
    const first = randomBytes(600);
    await s.store.blobs.put(meta(first, a, now), first, 1000);
    const big = randomBytes(401);
    expect(await s.store.blobs.put(meta(big, a, now), big, 1000)).toBe('full');
    const small = randomBytes(400);
    expect(await s.store.blobs.put(meta(small, a, now), small, 1000)).toMatchObject({ created: true });
    const b = (await identity(s.store, now)).id;
    const parts = Array.from({ length: 10 }, () => randomBytes(100));
    const res = await together(10, (i) => s.store.blobs.put(meta(parts[i]!, b, now), parts[i]!, 450));
    expect(res.filter((r) => r !== 'full')).toHaveLength(4);
  });

  it('of concurrent uploads of the same bytes by different owners exactly one creates it', async () => {
    const s = await open();
    const now = s.clock.now();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await identity(s.store, now)).id);
    const bytes = randomBytes(300);
    const res = await together(6, (i) => s.store.blobs.put(meta(bytes, ids[i]!, now), bytes, 1000));
    const created = res.filter((r) => r !== 'full' && r.created);
    expect(created).toHaveLength(1);
    const owner = (created[0] as { meta: BlobMeta }).meta.owner;
    expect((await s.store.blobs.meta(meta(bytes, owner, now).hash))!.owner).toBe(owner);
    for (const r of res) expect(r).toMatchObject({ meta: { owner } });
  });

  it('operator blobs: no budget, pinned, a second upload keeps the row and takes the new pin; read like any blob, kept across a restart', async () => {
    const s = await open();
    const now = s.clock.now();
    const bytes = randomBytes(3000);
    const m = { ...meta(bytes, 'asystem', now), kind: 'wasm' };
    const r = await s.store.blobs.putPinned(m, bytes, { by: 'admin', pin: 'svc@1', note: 'first' });
    expect(r).toEqual({ meta: { ...m, pinned_by: 'admin', pin: 'svc@1', note: 'first' }, created: true });
    const r2 = await s.store.blobs.putPinned({ ...m, created: now + 5 }, bytes, { by: 'admin', pin: null, note: null });
    expect(r2).toEqual({ meta: { ...m, pinned_by: 'admin', pin: null, note: null }, created: false });
    const again = await s.reopen();
    expect(await again.blobs.meta(m.hash)).toEqual({ ...m, pinned_by: 'admin', pin: null, note: null });
    expect((await again.blobs.bytes(m.hash))!.equals(bytes)).toBe(true);
  });

  it('of concurrent operator uploads of the same bytes exactly one creates it; the bytes are stored once, intact', async () => {
    const s = await open();
    const now = s.clock.now();
    const bytes = randomBytes(2000);
    const m = { ...meta(bytes, 'asystem', now), kind: 'wasm' };
    const res = await together(5, (i) => s.store.blobs.putPinned(m, bytes, { by: 'admin', pin: `svc@${i}`, note: null }));
    expect(res.filter((r) => r.created)).toHaveLength(1);
    expect((await s.store.blobs.bytes(m.hash))!.equals(bytes)).toBe(true);
    expect((await s.store.blobs.meta(m.hash))!.pin).toMatch(/^svc@[0-4]$/);
  });
}
