// Named leadership (LeaderRepo): what one process sees. A name held stays held (re-entrant, one
// lock), names are independent, a released name can be taken again, and a restart (a process
// that ends) does not keep it. That only one of several processes leads is a property of shared
// stores: test/store/pg-replicas.test.ts (real server) and test/scale/replicas.test.ts show it.
import { expect, it } from 'vitest';
import { type Adapter, storeFor } from './adapters.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('holds a name, keeps holding it, lets it go and takes it again; names are independent', async () => {
    const s = await open();
    const l = s.store.leader;
    expect(await l.hold('sweeps')).toBe(true);
    expect(await l.hold('sweeps')).toBe(true);
    expect(await l.hold('export')).toBe(true);
    await l.release('sweeps');
    await l.release('sweeps'); // not held: nothing
    expect(await l.hold('export')).toBe(true);
    expect(await l.hold('sweeps')).toBe(true);
  });

  it('a process that ends does not keep it: after a restart the name is taken again', async () => {
    const s = await open();
    expect(await s.store.leader.hold('sweeps')).toBe(true);
    const again = await s.reopen();
    expect(await again.leader.hold('sweeps')).toBe(true);
  });
}
