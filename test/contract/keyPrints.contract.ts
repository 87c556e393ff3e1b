// Secret fingerprints (KeyPrintRepo): the first print kept for a name wins and later keeps read it
// back; concurrent first keeps agree on one; `set` replaces one (rotation); kept across a restart.
import { expect, it } from 'vitest';
import { type Adapter, storeFor } from './adapters.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('keep records the names without a print and returns every recorded print; set replaces; a restart keeps them', async () => {
    const s = await open();
    const r = s.store.keyPrints;
    expect(await r.keep({ seal: 'aaaa', drops: 'bbbb' }, 1)).toEqual({ seal: 'aaaa', drops: 'bbbb' });
    expect(await r.keep({ seal: 'xxxx', signing: 'kid1:cccc' }, 2)).toEqual({ seal: 'aaaa', drops: 'bbbb', signing: 'kid1:cccc' });
    await r.set('signing', 'kid2:dddd', 3);
    const again = await s.reopen();
    expect(await again.keyPrints.keep({}, 4)).toEqual({ seal: 'aaaa', drops: 'bbbb', signing: 'kid2:dddd' });
  });

  it('concurrent first keeps agree on one print per name', async () => {
    const s = await open();
    const got = await Promise.all(Array.from({ length: 8 }, (_, i) => s.store.keyPrints.keep({ drops: `p${i}` }, i)));
    expect(new Set(got.map((g) => g.drops)).size).toBe(1);
  });
}
