// Inbound webhook endpoints: owner-scoped rows with a per-owner cap, and the delivery claim that is
// at once replay detection and the per-endpoint rate (atomic, persistent, expiring).
import { expect, it } from 'vitest';
import type { DeliveryRule, NewWebhook } from '../../src/core/webhooks/ports.js';
import { type Adapter, storeFor } from './adapters.js';

const MIN = 60_000;
const HOUR = 3_600_000;
const rule: DeliveryRule = { perMin: 3, perDay: 5, keepMs: 24 * HOUR };
const key = (s: string) => Buffer.from(s.padEnd(16, '.'));

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);
  const hook = (id: string, owner: string, t: number): NewWebhook => ({
    id,
    owner,
    provider: 'github',
    topic: `~${owner}.ci`,
    events: 'push,issues',
    nonce: Buffer.alloc(12, 1),
    ct: Buffer.from('sealed-bytes-of-the-secret'),
    created: t,
  });

  it('inserts, reads back, lists by owner oldest first, caps per owner, refuses a taken id', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await s.store.webhooks.insert(hook('w1', 'a1', t), 2);
    expect(a).toMatchObject({ id: 'w1', owner: 'a1', provider: 'github', topic: '~a1.ci', events: 'push,issues', created: t, last: null, ok: 0, dropped: 0 });
    expect(Buffer.from((a as { ct: Buffer }).ct).toString()).toBe('sealed-bytes-of-the-secret');
    expect(await s.store.webhooks.insert(hook('w1', 'b1', t), 2)).toBe('taken');
    expect(await s.store.webhooks.insert(hook('w2', 'a1', t + 1), 2)).not.toBe('full');
    expect(await s.store.webhooks.insert(hook('w3', 'a1', t + 2), 2)).toBe('full');
    expect(await s.store.webhooks.insert(hook('w4', 'b1', t), 2)).not.toBe('full');
    expect((await s.store.webhooks.list('a1')).map((r) => r.id)).toEqual(['w1', 'w2']);
    expect(await s.store.webhooks.count('a1')).toBe(2);
    expect((await s.store.webhooks.get('w4'))?.owner).toBe('b1');
    expect(await s.store.webhooks.get('nope')).toBeNull();
  });

  it('removes only for the owner; the keys go with the endpoint', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.webhooks.insert(hook('w1', 'a1', t), 10);
    expect(await s.store.webhooks.claim('w1', key('k1'), t, rule)).toBe('ok');
    expect(await s.store.webhooks.remove('w1', 'b1')).toBe(false);
    expect(await s.store.webhooks.remove('w1', 'a1')).toBe(true);
    expect(await s.store.webhooks.remove('w1', 'a1')).toBe(false);
    expect(await s.store.webhooks.get('w1')).toBeNull();
    expect(await s.store.webhooks.claim('w1', key('k1'), t, rule)).toBe('gone');
    // A new endpoint that draws the same id starts with no keys.
    await s.store.webhooks.insert(hook('w1', 'a1', t), 10);
    expect(await s.store.webhooks.claim('w1', key('k1'), t, rule)).toBe('ok');
  });

  it('a key claimed once is a replay while kept, also after a restart; then forgotten', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.webhooks.insert(hook('w1', 'a1', t), 10);
    await s.store.webhooks.insert(hook('w2', 'a1', t), 10);
    expect(await s.store.webhooks.claim('w1', key('k1'), t, rule)).toBe('ok');
    expect(await s.store.webhooks.claim('w1', key('k1'), t + 1, rule)).toBe('replay');
    // Keys are per endpoint.
    expect(await s.store.webhooks.claim('w2', key('k1'), t + 1, rule)).toBe('ok');
    const again = await s.reopen();
    expect(await again.webhooks.claim('w1', key('k1'), t + 23 * HOUR, rule)).toBe('replay');
    expect(await again.webhooks.claim('w1', key('k1'), t + 24 * HOUR + 1, rule)).toBe('ok');
    expect(await again.webhooks.get('w1')).toMatchObject({ dropped: 2, last: t + 23 * HOUR });
  });

  it('counts the rolling minute and day; a refused delivery keeps no key', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.webhooks.insert(hook('w1', 'a1', t), 10);
    const claim = (k: string, at: number) => s.store.webhooks.claim('w1', key(k), at, rule);
    expect([await claim('a', t), await claim('b', t + 1), await claim('c', t + 2)]).toEqual(['ok', 'ok', 'ok']);
    expect(await claim('d', t + 3)).toBe('rate');
    expect(await claim('d', t + MIN + 1)).toBe('ok');
    expect(await claim('e', t + 2 * MIN)).toBe('ok');
    // Five in the day: the minute is free, the day is not, until the first ones are a day old.
    expect(await claim('f', t + 3 * MIN)).toBe('rate');
    expect(await claim('f', t + 24 * HOUR + 3)).toBe('ok');
  });

  it('exactly one of many concurrent claims of one key wins', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.webhooks.insert(hook('w1', 'a1', t), 10);
    const r = await Promise.all(Array.from({ length: 20 }, () => s.store.webhooks.claim('w1', key('race'), t, { ...rule, perMin: 100, perDay: 100 })));
    expect(r.filter((x) => x === 'ok')).toHaveLength(1);
    expect(r.filter((x) => x === 'replay')).toHaveLength(19);
  });

  it('release lets a key be claimed again; tally counts outcomes; purge drops old keys only', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.webhooks.insert(hook('w1', 'a1', t), 10);
    expect(await s.store.webhooks.claim('w1', key('k1'), t, rule)).toBe('ok');
    await s.store.webhooks.release('w1', key('k1'));
    expect(await s.store.webhooks.claim('w1', key('k1'), t, rule)).toBe('ok');
    await s.store.webhooks.tally('w1', 'ok', t + 5);
    await s.store.webhooks.tally('w1', 'dropped', t + 6);
    expect(await s.store.webhooks.get('w1')).toMatchObject({ ok: 1, dropped: 1, last: t + 6 });
    expect(await s.store.webhooks.claim('w1', key('k2'), t + 10 * HOUR, rule)).toBe('ok');
    expect(await s.store.webhooks.purge(t + HOUR)).toBe(1);
    expect(await s.store.webhooks.claim('w1', key('k1'), t + 2 * HOUR, rule)).toBe('ok');
    expect(await s.store.webhooks.claim('w1', key('k2'), t + 11 * HOUR, rule)).toBe('replay');
  });

  it('the minute count holds under concurrent deliveries of distinct keys', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.webhooks.insert(hook('w1', 'a1', t), 10);
    const r = await Promise.all(Array.from({ length: 12 }, (_, i) => s.store.webhooks.claim('w1', key(`k${i}`), t, rule)));
    expect(r.filter((x) => x === 'ok')).toHaveLength(rule.perMin);
    expect(r.filter((x) => x === 'rate')).toHaveLength(12 - rule.perMin);
    expect(await s.store.webhooks.get('w1')).toMatchObject({ dropped: 12 - rule.perMin });
  });
}
