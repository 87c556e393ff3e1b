// Identity keys: one published key per identity; a new one replaces it; kept across a restart.
import { expect, it } from 'vitest';
import { type Adapter, storeFor } from './adapters.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('absent until published; a later put replaces; persists across reopen', async () => {
    const s = await open();
    expect(await s.store.identityKeys.get('a1')).toBeNull();
    await s.store.identityKeys.put({ id: 'a1', pub: 'aa'.repeat(32), at: 1 });
    await s.store.identityKeys.put({ id: 'a2', pub: 'bb'.repeat(32), at: 2 });
    await s.store.identityKeys.put({ id: 'a1', pub: 'cc'.repeat(32), at: 3 });
    expect(await s.store.identityKeys.get('a1')).toEqual({ id: 'a1', pub: 'cc'.repeat(32), at: 3 });
    const again = await s.reopen();
    expect(await again.identityKeys.get('a1')).toEqual({ id: 'a1', pub: 'cc'.repeat(32), at: 3 });
    expect(await again.identityKeys.get('a2')).toEqual({ id: 'a2', pub: 'bb'.repeat(32), at: 2 });
  });
}
