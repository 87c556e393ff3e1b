// Injection map: one report per (host, payload, root, UTC day); the top list's minimums (distinct
// roots AND networks AND weight, each network's weight capped) and its order; payload lookups by
// hash or prefix; host views by host or registrable domain; disputes; purge by age; a restart keeps it.
import { expect, it } from 'vitest';
import type { InjReport } from '../../src/core/inj/ports.js';
import { type Adapter, storeFor } from './adapters.js';

const DAY = 86_400_000;
const PH = 'a'.repeat(64);
const PH2 = 'ab' + 'c'.repeat(62);
const rep = (o: Partial<InjReport> & { root: string; net: string; created: number }): InjReport => ({
  host: 'h.example',
  domain: 'h.example',
  ph: PH,
  flags: ['jailbreak'],
  lvl: 0,
  weight: 0.5,
  ...o,
});
const topQ = (now: number, o: Partial<Parameters<import('../../src/core/inj/ports.js').InjRepo['top']>[0]> = {}) => ({
  since: now - DAY,
  baseSince: now - 30 * DAY,
  minRoots: 3,
  minNets: 3,
  minWeight: 1.5,
  netCap: 3,
  n: 50,
  ...o,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('one report per host, payload, root and UTC day; a new day counts again; a restart keeps them', async () => {
    const s = await open();
    const now = s.clock.now();
    expect(await s.store.inj.report(rep({ root: 'a1', net: 'n1', created: now }))).toBe(true);
    expect(await s.store.inj.report(rep({ root: 'a1', net: 'n2', created: now + 1, flags: ['exfiltrate'] }))).toBe(false);
    expect(await s.store.inj.report(rep({ root: 'a1', net: 'n1', created: now, ph: PH2 }))).toBe(true);
    expect(await s.store.inj.report(rep({ root: 'a1', net: 'n1', created: now + DAY }))).toBe(true);
    const v = await (await s.reopen()).inj.host('h.example', { month: now - 30 * DAY, since: now - DAY, daysSince: now - 7 * DAY, n: 10, netCap: 3 });
    expect(v!.month.reports).toBe(3);
    expect(v!.payloads.map((p) => [p.ph, p.reports])).toEqual([
      [PH, 2],
      [PH2, 1],
    ]);
  });

  it("top: roots AND nets AND weight minimums; a network's weight is capped; order by nets, weight, reports; base counts the baseline", async () => {
    const s = await open();
    const now = s.clock.now();
    const r = (host: string, root: string, net: string, o: Partial<InjReport> = {}) =>
      s.store.inj.report(rep({ host, domain: host, root, net, created: now - 1000, ...o }));
    // one root on many networks
    for (let i = 0; i < 5; i++) await r('oneroot.example', 'r1', `n${i}`, { ph: String(i).repeat(64) });
    // many roots on one network, heavy ones: capped at 3 for the network
    for (let i = 0; i < 5; i++) await r('onenet.example', `r${i}`, 'nx', { weight: 3, lvl: 3 });
    // three roots, three networks, L0: weight 1.5 exactly
    for (let i = 0; i < 3; i++) await r('three.example', `t${i}`, `m${i}`);
    // four roots, four networks, and a baseline of 29 reports 10 days ago
    for (let i = 0; i < 4; i++) await r('four.example', `f${i}`, `k${i}`, { weight: 1, lvl: 1 });
    for (let i = 0; i < 29; i++) await r('four.example', `b${i}`, `kb${i}`, { created: now - 10 * DAY });
    // three roots on three networks, but under the weight minimum when the minimum is raised
    const top = await s.store.inj.top(topQ(now));
    expect(top.map((t) => t.host)).toEqual(['four.example', 'three.example']);
    expect(top[0]).toEqual({ host: 'four.example', reports: 4, roots: 4, nets: 4, weight: 4, base: 29 });
    expect(top[1]).toEqual({ host: 'three.example', reports: 3, roots: 3, nets: 3, weight: 1.5, base: 0 });
    expect((await s.store.inj.top(topQ(now, { minWeight: 2 }))).map((t) => t.host)).toEqual(['four.example']);
    expect((await s.store.inj.top(topQ(now, { minRoots: 1, minNets: 1, minWeight: 0 }))).find((t) => t.host === 'onenet.example')).toMatchObject({
      roots: 5,
      nets: 1,
      weight: 3,
    });
    expect(await s.store.inj.top(topQ(now, { n: 1 }))).toHaveLength(1);
    // outside the recent window: not listed
    expect(await s.store.inj.top(topQ(now + 2 * DAY))).toEqual([]);
  });

  it('payload by full hash or prefix: payload rows with merged flags and the hosts; null when unknown', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.inj.report(rep({ root: 'a', net: 'n1', created: now, flags: ['jailbreak'] }));
    await s.store.inj.report(rep({ root: 'b', net: 'n2', created: now + 5, flags: ['exfiltrate', 'jailbreak'] }));
    await s.store.inj.report(rep({ root: 'b', net: 'n2', created: now + 9, host: 'x.other.example', domain: 'other.example' }));
    const p = await s.store.inj.payload(PH, now - DAY, 10);
    expect(p!.payloads).toEqual([{ ph: PH, reports: 3, roots: 2, nets: 2, flags: ['exfiltrate', 'jailbreak'], first: now, last: now + 9 }]);
    expect(p!.hosts).toEqual([
      { host: 'h.example', reports: 2, roots: 2, nets: 2, first: now, last: now + 5 },
      { host: 'x.other.example', reports: 1, roots: 1, nets: 1, first: now + 9, last: now + 9 },
    ]);
    expect((await s.store.inj.payload('aaaaaaaa', now - DAY, 10))!.payloads[0]!.ph).toBe(PH);
    expect(await s.store.inj.payload('bbbbbbbb', now - DAY, 10)).toBeNull();
    expect(await s.store.inj.payload(PH, now + DAY, 10)).toBeNull();
  });

  it('host view by host or registrable domain: windows, days, disputes; null when nothing in the month', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.inj.report(rep({ host: 'a.site.example', domain: 'site.example', root: 'r1', net: 'n1', created: now }));
    await s.store.inj.report(rep({ host: 'b.site.example', domain: 'site.example', root: 'r2', net: 'n1', created: now - 2 * DAY, weight: 3 }));
    await s.store.inj.report(rep({ host: 'b.site.example', domain: 'site.example', root: 'r3', net: 'n2', created: now - 40 * DAY }));
    await s.store.inj.dispute({ host: 'b.site.example', domain: 'site.example', root: 'r9', note: 'mine', created: now });
    const q = { month: now - 30 * DAY, since: now - DAY, daysSince: now - 6 * DAY, n: 10, netCap: 3 };
    const d = await s.store.inj.host('site.example', q);
    expect(d).toMatchObject({
      hosts: ['a.site.example', 'b.site.example'],
      recent: { reports: 1, roots: 1, nets: 1, weight: 0.5 },
      month: { reports: 2, roots: 2, nets: 1, weight: 3 },
      disputes: 1,
    });
    expect(d!.days.map((x) => [x.day, x.reports])).toEqual([
      [now - (now % DAY), 1],
      [now - 2 * DAY - ((now - 2 * DAY) % DAY), 1],
    ]);
    expect(await s.store.inj.host('a.site.example', q)).toMatchObject({ hosts: ['a.site.example'], disputes: 0 });
    expect(await s.store.inj.host('c.site.example', q)).toBeNull();
  });

  it('purge removes reports and disputes created before the cut, and nothing else', async () => {
    const s = await open();
    const now = s.clock.now();
    await s.store.inj.report(rep({ root: 'old', net: 'n', created: now - 31 * DAY }));
    await s.store.inj.report(rep({ root: 'new', net: 'n', created: now }));
    await s.store.inj.dispute({ host: 'h.example', domain: 'h.example', root: 'o', note: 'x', created: now - 31 * DAY });
    expect(await s.store.inj.purge(now - 30 * DAY)).toBe(2);
    expect(await s.store.inj.purge(now - 30 * DAY)).toBe(0);
    const v = await s.store.inj.host('h.example', { month: now - 60 * DAY, since: now - DAY, daysSince: now, n: 5, netCap: 3 });
    expect(v).toMatchObject({ month: { reports: 1, roots: 1 }, disputes: 0 });
  });
}
