// The profile's saved counter: live checkpoints plus live cached results of one identity.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { type Adapter, storeFor } from './adapters.js';
import { identity, newId } from './fixtures.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it("counts the identity's live checkpoints and cached results, nobody else's, none expired", async () => {
    const s = await open();
    const now = s.clock.now();
    const a = (await identity(s.store, now)).id;
    const b = (await identity(s.store, now)).id;
    expect(await s.store.saved.savedBy(a, now)).toBe(0);
    const cp = (owner: string, exp: number) => ({ id: newId('c', 8), owner, name: 'n', body: 'b', size: 1, created: now, exp });
    await s.store.checkpoints.save(cp(a, now + 1000), now, 10, 10);
    await s.store.checkpoints.save(cp(a, now + 10), now, 10, 10);
    await s.store.checkpoints.save(cp(b, now + 1000), now, 10, 10);
    const row = (producer: string, exp: number) => ({
      ns: 'default',
      key: randomBytes(32).toString('hex'),
      producer,
      kind: 'inline' as const,
      text: 'x',
      blob: null,
      size: 1,
      to: null,
      created: now,
      exp,
    });
    await s.store.cache.put(row(a, now + 1000), now, 10);
    await s.store.cache.put(row(a, now + 10), now, 10);
    expect(await s.store.saved.savedBy(a, now)).toBe(4);
    expect(await s.store.saved.savedBy(a, now + 10)).toBe(2);
    expect(await s.store.saved.savedBy(b, now)).toBe(1);
    expect(await (await s.reopen()).saved.savedBy(a, now + 10)).toBe(2);
  });
}
