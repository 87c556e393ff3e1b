// Identities and tokens: ids and token hashes unique (a clash writes nothing), tokens resolve per
// class, frozen identities still resolve (callers decide), persistence across a restart.
import { expect, it } from 'vitest';
import type { Identity } from '../../src/core/platform/identity/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { together } from './fixtures.js';

const ident = (id: string, created: number, o: Partial<Identity> = {}): Identity => ({ id, name: null, created, rep: 0, confirmed: 0, frozen: false, ...o });

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('create, then byId and byToken give the identity back; count counts; all of it survives a restart', async () => {
    const s = await open();
    const now = s.clock.now();
    const a = ident('a000001', now, { name: 'alice', rep: 3, confirmed: 1 });
    await s.store.identities.create(a, 'h-alice');
    await s.store.identities.create(ident('a000002', now, { frozen: true }), 'h-bob');
    expect(await s.store.identities.byId('a000001')).toEqual(a);
    expect(await s.store.identities.byToken('h-alice', 'user')).toEqual(a);
    expect(await s.store.identities.byToken('h-bob', 'user')).toMatchObject({ id: 'a000002', frozen: true });
    expect(await s.store.identities.count()).toBe(2);
    const again = await s.reopen();
    expect(await again.identities.byId('a000001')).toEqual(a);
    expect(await again.identities.byToken('h-alice', 'user')).toEqual(a);
    expect(await again.identities.count()).toBe(2);
    expect(await again.identities.byId('a999999')).toBeNull();
    expect(await again.identities.byToken('h-none', 'user')).toBeNull();
  });

  it('a token resolves only in its class', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.identities.create(ident('a000001', now), 'h-user');
    await s.store.identities.addToken('a000001', 'h-url', 'url', now);
    expect(await s.store.identities.byToken('h-url', 'url')).toMatchObject({ id: 'a000001' });
    expect(await s.store.identities.byToken('h-url', 'user')).toBeNull();
    expect(await s.store.identities.byToken('h-user', 'url')).toBeNull();
    expect(await (await s.reopen()).identities.byToken('h-url', 'url')).toMatchObject({ id: 'a000001' });
  });

  it('an id in use is refused and the first identity is untouched; a token hash in use is refused with nothing written', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.identities.create(ident('a000001', now, { name: 'first' }), 'h1');
    await expect(s.store.identities.create(ident('a000001', now, { name: 'second' }), 'h2')).rejects.toThrow();
    expect(await s.store.identities.byId('a000001')).toMatchObject({ name: 'first' });
    expect(await s.store.identities.byToken('h2', 'user')).toBeNull();
    await expect(s.store.identities.create(ident('a000002', now), 'h1')).rejects.toThrow();
    expect(await s.store.identities.byId('a000002')).toBeNull();
    expect(await s.store.identities.byToken('h1', 'user')).toMatchObject({ id: 'a000001' });
    await expect(s.store.identities.addToken('a000001', 'h1', 'url', now)).rejects.toThrow();
    expect(await s.store.identities.count()).toBe(1);
  });

  it('of concurrent creates of one id exactly one succeeds', async () => {
    const s = await open();
    const now = s.clock.now();
    const res = await together(10, (i) =>
      s.store.identities.create(ident('a000001', now, { name: `n${i}` }), `h${i}`).then(
        () => i,
        () => -1,
      ),
    );
    const won = res.filter((i) => i >= 0);
    expect(won).toHaveLength(1);
    expect(await s.store.identities.byId('a000001')).toMatchObject({ name: `n${won[0]}` });
    expect(await s.store.identities.byToken(`h${won[0]}`, 'user')).toMatchObject({ id: 'a000001' });
    for (let i = 0; i < 10; i++) if (i !== won[0]) expect(await s.store.identities.byToken(`h${i}`, 'user'), `loser ${i}`).toBeNull();
    expect(await s.store.identities.count()).toBe(1);
  });
}
