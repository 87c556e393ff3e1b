// Operator state: announcements newest first and filtered by end; marks set once; ASN policy and the
// operator's asn.csv (longest prefix, re-read when it changes); content origin keeps the first
// writer; the inbox copies inbox.<kind> bus events once, updates items by ref and keeps them after
// the bus prunes; demand and tombstones; identity freeze; the purge of a root; all across a restart.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DOMAIN_CLASSES } from '../../src/store/platform-counters.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, newId, together } from './fixtures.js';

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('announcements: ids grow, newest first, those ended at or before `after` left out; kept across a restart', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await s.store.admin.addAnnouncement({ kind: 'incident', starts: t, ends: t + 1000, text: 'one', line: '', maint: null, created: t });
    const b = await s.store.admin.addAnnouncement({ kind: 'maintenance', starts: t, ends: t + 5000, text: 'two', line: '', maint: 7, created: t });
    expect(b.id).toBeGreaterThan(a.id);
    await s.store.admin.setAnnouncementLine(b.id, 'ann1 kid=1 sig=x two');
    expect((await s.store.admin.announcements(null, 10)).map((x) => x.id)).toEqual([b.id, a.id]);
    expect((await s.store.admin.announcements(t + 1000, 10)).map((x) => x.id)).toEqual([b.id]);
    const again = await s.reopen();
    expect((await again.admin.announcements(t, 1))[0]).toMatchObject({ id: b.id, kind: 'maintenance', text: 'two', line: 'ann1 kid=1 sig=x two', maint: 7 });
  });

  it('marks: set once (changed only on a change), cleared, listed; kept across a restart', async () => {
    const s = await open();
    const t = s.clock.now();
    const res = await together(5, () => s.store.admin.setMark('seed', 'a000001', true, '', t));
    expect(res.filter(Boolean)).toHaveLength(1);
    expect(await s.store.admin.setMark('st_hide', 'example.org', true, '', t)).toBe(true);
    expect(await (await s.reopen()).admin.hasMark('seed', 'a000001')).toBe(true);
    expect(await s.store.admin.hasMark('seed', 'example.org')).toBe(false);
    expect(await s.store.admin.marks('st_hide')).toEqual(['example.org']);
    expect(await s.store.admin.setMark('seed', 'a000001', false, '', t)).toBe(true);
    expect(await s.store.admin.setMark('seed', 'a000001', false, '', t)).toBe(false);
    expect(await s.store.admin.marks('seed')).toEqual([]);
  });

  it('ASN: policy per ASN (open removes it); asn.csv longest prefix, re-read after it changes', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.admin.setAsnPolicy({ asn: 64500, class: 'block', note: 'n', at: t });
    expect(await s.store.admin.asnPolicy(64500)).toEqual({ asn: 64500, class: 'block', note: 'n', at: t });
    await s.store.admin.setAsnPolicy({ asn: 64500, class: 'open', note: '', at: t });
    expect(await s.store.admin.asnPolicy(64500)).toBeNull();
    expect(s.store.admin.asnMapped()).toBe(false);
    expect(s.store.admin.asnOf('192.0.2.0/24')).toBeNull();
    writeFileSync(join(s.dir, 'asn.csv'), 'cidr,asn\n192.0.0.0/16,64501\n192.0.2.0/24,64502\n2001:db8::/32,64503\nnot a row\n');
    s.clock.advance(60_000);
    expect(s.store.admin.asnMapped()).toBe(true);
    expect(s.store.admin.asnOf('192.0.2.0/24')).toBe(64502);
    expect(s.store.admin.asnOf('192.0.3.0/24')).toBe(64501);
    expect(s.store.admin.asnOf('2001:db8:1::/48')).toBe(64503);
    expect(s.store.admin.asnOf('198.51.100.0/24')).toBeNull();
    expect(s.store.admin.asnOf('unknown')).toBeNull();
  });

  it('origin: the first writer of a ref is kept; by ref, by root, by kind', async () => {
    const s = await open();
    const t = s.clock.now();
    await together(5, (i) => s.store.admin.recordOrigin({ kind: 'kb', ref: 'k1', root: `a00000${i}`, net: '10.0.0.0/24', at: t + i }));
    const rows = await s.store.admin.origins({ ref: 'k1' }, 10);
    expect(rows).toHaveLength(1);
    await s.store.admin.recordOrigin({ kind: 'task', ref: 't1', root: rows[0]!.root, net: '10.0.1.0/24', at: t + 10 });
    expect((await s.store.admin.origins({ ref: rows[0]!.root }, 10)).map((r) => r.ref)).toEqual(['t1', 'k1']);
    expect((await (await s.reopen()).admin.origins({ kind: 'task' }, 10)).map((r) => r.ref)).toEqual(['t1']);
  });

  it('inbox: bus events copied once, in order, updated by ref; kept after the bus prunes them and across a restart', async () => {
    const s = await open();
    await s.store.events.publish('inbox.proposal', { ref: 'p1', title: 'one', support_w: 1.5, groups: 2 });
    await s.store.events.publish('inbox.notice', { ref: 'n1', title: 'two' });
    await s.store.events.publish('inbox.proposal', { ref: 'p2', title: 'three' });
    await s.store.events.publish('inbox.proposal', { ref: 'p1', status: 'decided' });
    await s.store.events.publish('other.topic', { ref: 'x' });
    await s.store.events.publish('inbox.proposal', { title: 'no ref: skipped' });
    const n = await together(3, () => s.store.admin.ingestInbox());
    expect(n.reduce((a, b) => a + b, 0)).toBe(4);
    const items = await s.store.admin.inboxAfter(0, 10, null);
    expect(items.map((i) => `${i.kind}:${i.ref}:${i.status}`).sort()).toEqual(['notice:n1:open', 'proposal:p1:decided', 'proposal:p2:open']);
    expect(items.find((i) => i.ref === 'p1')).toMatchObject({ title: 'one', support_w: 1.5, groups: 2, rank: 1 });
    const seqs = items.map((i) => i.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect((await s.store.admin.inboxAfter(seqs[0]!, 10, 'proposal')).map((i) => i.ref)).toEqual(
      items.filter((i) => i.kind === 'proposal' && i.seq > seqs[0]!).map((i) => i.ref),
    );
    s.clock.advance(365 * 86_400_000);
    await s.store.events.prune(s.clock.now(), 0);
    const again = await s.reopen();
    expect(await again.admin.ingestInbox()).toBe(0);
    expect(await again.admin.inboxAfter(0, 10, null)).toHaveLength(3);
    await again.events.publish('inbox.proposal', { ref: 'p3' });
    expect(await again.admin.ingestInbox()).toBe(1);
    expect((await again.admin.inboxAfter(seqs[2]!, 10, null)).map((i) => i.ref)).toEqual(['p3']);
  });

  it('demand rows', async () => {
    const s = await open();
    const t = s.clock.now();
    expect(
      await s.store.admin.addDemand(
        'gsc',
        [
          { q: 'a', impressions: 1, clicks: 0, position: 1.5, page: '' },
          { q: 'b', impressions: 2, clicks: 1, position: 2, page: 'https://x/' },
        ],
        t,
      ),
    ).toBe(2);
    expect((await s.store.admin.counts()).counters.demand_rows).toBe(2);
  });

  it('platform counters: every one answers a number; flag counters count their flag (frozen identities)', async () => {
    const s = await open();
    const t = s.clock.now();
    const before = (await s.store.admin.counts()).counters;
    for (const [k, v] of Object.entries(before)) expect(Number.isInteger(v), k).toBe(true);
    const a = await identity(s.store, t);
    await identity(s.store, t);
    expect(await s.store.admin.setIdentityFrozen(a.id, true)).toBe(true);
    const after = (await s.store.admin.counts()).counters;
    expect(after.identities! - before.identities!).toBe(2);
    expect(after.identities_frozen! - before.identities_frozen!).toBe(1);
    expect(after.tokens! - before.tokens!).toBe(2);
  });

  it("storage classes of every domain; the operator's module blobs and the jobs counted in rows and bytes", async () => {
    const s = await open();
    const t = s.clock.now();
    const before = await s.store.admin.counts();
    expect(before.storage.map((c) => c.cls)).toEqual(['sealed', 'public', 'private', 'blob', 'ledger', 'events', ...DOMAIN_CLASSES.map(([c]) => c)]);
    for (const k of ['topics', 'subscriptions', 'webhooks', 'services', 'jobs_queued', 'proposals', 'notices', 'inj_reports', 'digests', 'op_blobs'])
      expect(before.counters[k], k).toBeTypeOf('number');
    const bytes = Buffer.alloc(100, 7);
    const hash = createHash('sha256').update(bytes).digest('hex');
    await s.store.blobs.putPinned({ hash, size: 100, kind: 'wasm', owner: 'asystem', created: t }, bytes, { by: 'admin', pin: null, note: null });
    await s.store.jobs.enqueue('stats', { x: 'y'.repeat(50) });
    const after = await s.store.admin.counts();
    const cls = (c: typeof before, name: string) => c.storage.find((x) => x.cls === name)!;
    expect(after.counters.op_blobs! - before.counters.op_blobs!).toBe(1);
    expect(cls(after, 'modules').rows - cls(before, 'modules').rows).toBe(1);
    expect(cls(after, 'modules').bytes - cls(before, 'modules').bytes).toBe(100);
    expect(after.counters.jobs_queued! - before.counters.jobs_queued!).toBe(1);
    expect(cls(after, 'jobs').rows - cls(before, 'jobs').rows).toBe(1);
    expect(cls(after, 'jobs').bytes - cls(before, 'jobs').bytes).toBeGreaterThanOrEqual(50);
  });

  it('purge: the identity and its rows go, its ledger account is renamed (balance must be zero first), tombstones kept where exports read them', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const b = await identity(s.store, t);
    expect(await s.store.admin.setIdentityFrozen(a.id, true)).toBe(true);
    expect((await s.store.identities.byId(a.id))!.frozen).toBe(true);
    expect(await s.store.admin.setIdentityFrozen('a_none', true)).toBe(false);
    await s.store.ledger.post(
      {
        kind: 'grant',
        ref: a.id,
        postings: [
          { account: 'sys:mint', amount: -5 },
          { account: a.id, amount: 5 },
        ],
      },
      t,
    );
    await s.store.admin.recordOrigin({ kind: 'kb', ref: 'k9', root: a.id, net: 'n', at: t });
    await s.store.events.publish('inbox.x', { ref: a.id });
    await expect(
      s.store.admin.purgeRoots(
        [a.id],
        () => 'x:1',
        () => [],
      ),
    ).rejects.toThrow();
    expect(await s.store.identities.byId(a.id)).not.toBeNull();
    await s.store.ledger.post(
      {
        kind: 'burn',
        ref: a.id,
        postings: [
          { account: a.id, amount: -5 },
          { account: 'sys:burn', amount: 5 },
        ],
      },
      t,
    );
    const r = await s.store.admin.purgeRoots(
      [a.id],
      () => 'x:1',
      (c) => [{ id: 'k9', kind: 'kb', removed_at: t, reason: `purge ${c.kb.length}` }],
    );
    expect(r.tombstones).toBe(1);
    expect(r.rows).toBeGreaterThan(0);
    expect(await s.store.identities.byId(a.id)).toBeNull();
    expect(await s.store.identities.byId(b.id)).not.toBeNull();
    expect(await s.store.admin.origins({ root: a.id }, 10)).toEqual([]);
    expect(await s.store.ledger.balance('x:1')).toBe(0);
    expect((await s.store.ledger.recent('x:1', 10)).map((p) => p.amount)).toEqual([-5, 5]);
    expect((await s.store.ledger.audit()).problems).toEqual([]);
    expect(await (await s.reopen()).exports.tombstones(0, null, 10)).toEqual([{ id: 'k9', kind: 'kb', removed_at: t, reason: 'purge 0' }]);
    expect(await s.store.admin.escrowsOf([b.id])).toEqual([]);
  });

  it('purge: its rows in every domain go, its KB entries and tasks are handed to the tombstones, the rows of others stay (a claim it held released)', async () => {
    const s = await open();
    const t = s.clock.now();
    const a = await identity(s.store, t);
    const b = await identity(s.store, t);
    const e = (author: string, i: number) => ({
      id: newId('k', 8),
      sig: `py:P${i}`,
      h: createHash('sha256').update(`py:P${i}`).digest('hex'),
      title: `entry ${i}`,
      error: `P${i}`,
      fix: `fix ${i}`,
      eco: 'pypi',
      cls: '',
      tags: ['t'],
      libs: [{ name: 'lib', ver: '1' }],
      author,
      created: t,
    });
    const [ea, eb] = [e(a.id, 1), e(b.id, 2)];
    await s.store.kb.insertMany([ea, eb]);
    const task = (id: string, creator: string) => ({ id, title: 'task', body: 'b', tags: [], creator, space: null, bounty: null, credits: 0, created: t });
    const ta = newId('t', 8);
    const tb = newId('t', 8);
    await s.store.tasks.insert(task(ta, a.id), null, t);
    await s.store.tasks.insert(task(tb, b.id), null, t);
    expect(await s.store.tasks.transition(tb, { state: 'open' }, { state: 'claimed', claimant: a.id, claimed: t }, null, t)).toMatchObject({
      state: 'claimed',
    });
    const note = newId('n', 8);
    expect(
      await s.store.notes.insert({ id: note, owner: a.id, nonce: Buffer.alloc(12), ct: Buffer.from('sealed'), size: 6, created: t, updated: t }, 10),
    ).toMatchObject({ id: note });
    const gp = (id: string, author: string) => ({ id, kind: 'feature', title: 'T', body: 'B', section: null, author, net: 'n', patch: null, created: t });
    await s.store.gov.createProposal(gp('pa00001', a.id));
    await s.store.gov.createProposal(gp('pb00001', b.id));
    await s.store.gov.support({ proposal: 'pb00001', root: a.id, net: 'n', lvl: 1, weight: 1, created: t });
    await s.store.inj.report({
      host: 'purge.example',
      domain: 'purge.example',
      ph: 'e'.repeat(64),
      root: a.id,
      net: 'n',
      flags: [],
      lvl: 1,
      weight: 1,
      created: t,
    });
    await s.store.services.putCall({
      id: 'rpurge00001',
      name: 'x',
      ver: 1,
      caller: a.id,
      in_hash: '00',
      status: 'ok',
      code: null,
      detail: null,
      output: null,
      out_hash: null,
      ms: 1,
      charged: 0,
      donor: 'asystem',
      created: t,
    });
    expect(await s.store.signedConfirms.add({ entry: eb.id, id: a.id, pub: 'ab'.repeat(32), sig: 's', net: 'n', at: t })).toBe(true);
    await s.store.admin.setMark('seed', a.id, true, '', t);
    const r = await s.store.admin.purgeRoots(
      [a.id],
      () => 'x:2',
      (c) => [
        ...c.kb.map((id) => ({ id, kind: 'kb' as const, removed_at: t, reason: 'purged' })),
        ...c.tasks.map((id) => ({ id, kind: 'task' as const, removed_at: t, reason: 'purged' })),
      ],
    );
    expect(r.tombstones).toBe(2);
    const st = await s.reopen();
    expect(await st.kb.byId(ea.id)).toBeNull();
    expect(await st.kb.byId(eb.id)).not.toBeNull();
    expect(await st.tasks.byId(ta)).toBeNull();
    expect(await st.tasks.byId(tb)).toMatchObject({ state: 'open', claimant: null });
    expect(await st.notes.get(note, a.id)).toBeNull();
    expect(await st.gov.proposal('pa00001')).toBeNull();
    expect((await st.gov.proposal('pb00001'))!.nets).toEqual([]);
    expect(await st.inj.host('purge.example', { month: 0, since: 0, daysSince: 0, n: 5, netCap: 3 })).toBeNull();
    expect(await st.services.call('rpurge00001')).toBeNull();
    expect((await st.signedConfirms.count(eb.id)).ids).toBe(0);
    expect(await st.admin.hasMark('seed', a.id)).toBe(false);
    expect((await st.exports.tombstones(0, null, 10)).map((x) => `${x.kind}:${x.id}`).sort()).toEqual([`kb:${ea.id}`, `task:${ta}`].sort());
  });
}
