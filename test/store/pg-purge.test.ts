// The purge on PostgreSQL (src/store/pg/admin.ts), as test/admin/purge.test.ts checks it on SQLite:
// a root with rows in many domains, written through the ports, is purged; afterwards no text or
// JSON column of any table of the schema holds its id (every table is scanned, so a new table that
// names identities and is missing from the purge fails here once a test writes to it).
import { PGlite } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import type { Store } from '../../src/compose/store.js';
import { openPgStore } from '../../src/store/pg/index.js';
import { pgliteSql } from '../../src/store/pg/sql.js';
import { identity, newId, vote } from '../contract/fixtures.js';
import { tallyFn } from '../../src/core/kb/outcomes.js';

const dbs: PGlite[] = [];
afterAll(async () => {
  for (const d of dbs) await d.close();
});

/** Every (table.column xN) of the schema whose text (or JSON text) holds `needle`. */
async function rowsNaming(db: PGlite, needle: string): Promise<string[]> {
  const sql = await pgliteSql(db);
  const cols = (
    await sql.query<{ t: string; c: string }>(
      `SELECT c.table_name AS t, c.column_name AS c FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.data_type IN ('text', 'jsonb', 'ARRAY', 'character varying') ORDER BY 1, 2`,
    )
  ).rows;
  const hits: string[] = [];
  for (const { t, c } of cols) {
    const n = (await sql.query<{ n: number }>(`SELECT count(*) AS n FROM "${t}" WHERE strpos("${c}"::text, $1) > 0`, [needle])).rows[0]!.n;
    if (n) hits.push(`${t}.${c} x${n}`);
  }
  return hits;
}

async function populate(s: Store, a: string, b: string, t: number): Promise<{ kb: string; task: string }> {
  const e = (author: string, i: number) => ({
    id: newId('k', 8),
    sig: `py:Q${i}`,
    h: createHash('sha256').update(`py:Q${i}${author}`).digest('hex'),
    title: `entry ${i}`,
    error: `Q${i}`,
    fix: `fix ${i}`,
    eco: 'pypi',
    cls: '',
    tags: ['t'],
    libs: [{ name: 'lib', ver: '1' }],
    author,
    created: t,
  });
  const [ea, eb] = [e(a, 1), e(b, 2)];
  await s.kb.insertMany([ea, eb]);
  expect(await vote(s, eb.id, a, true, t)).toBe('new');
  await s.kb.putDigest({ lib: 'lib', ver: '1', topic: 'x', author: a, lines: 'l', score: 0, created: t });
  expect(await s.signedConfirms.add({ entry: eb.id, id: a, pub: 'ab'.repeat(32), sig: 's', net: 'n', at: t })).toBe(true);
  await s.identityKeys.put({ id: a, pub: 'cd'.repeat(32), at: t });
  const task = (id: string, creator: string) => ({ id, title: 'task', body: 'b', tags: [], creator, space: null, bounty: null, credits: 0, created: t });
  const ta = newId('t', 8);
  const tb = newId('t', 8);
  await s.tasks.insert(task(ta, a), null, t);
  await s.tasks.insert(task(tb, b), null, t);
  await s.tasks.transition(tb, { state: 'open' }, { state: 'claimed', claimant: a, claimed: t }, null, t, (x) => [
    { topic: 'tasks', payload: { id: x.id, claimant: a } },
  ]);
  expect(await s.spaces.create({ slug: `s-${a}`, title: '', creator: a, created: t })).toBe(true);
  expect(await s.spaces.create({ slug: `s-${b}`, title: '', creator: b, created: t })).toBe(true);
  await s.spaces.join(`s-${b}`, a, t);
  // An outcome a records on a private entry of b's closed space (issue 39): the space's own table.
  expect(await s.spaces.create({ slug: `c-${b}`, title: '', creator: b, created: t, closed: true })).toBe(true);
  await s.spaces.join(`c-${b}`, a, t);
  const priv = newId('k', 8);
  await s.spaceKb.kbInsert({
    id: priv,
    space: `c-${b}`,
    sig: 'py:E: private',
    h: 'e'.repeat(64),
    ch: '',
    title: 'private',
    error: 'E: private',
    fix: 'the private fix',
    eco: 'pypi',
    cls: 'e',
    tags: [],
    libs: [],
    author: b,
    created: t,
  });
  expect(await s.spaceKb.kbOutcome({ entry: priv, voter: a, kind: 'worked', note: 'n', evidence: null, net: '', root: a, at: t }, [`c-${b}`], tallyFn)).toEqual(
    {
      result: 'new',
      prev: null,
    },
  );
  await s.notes.insert({ id: newId('n', 8), owner: a, nonce: Buffer.alloc(12), ct: Buffer.from('x'), size: 1, created: t, updated: t }, 10);
  await s.drops.create(
    {
      key: Buffer.from(a.padEnd(32, '0')),
      owner: a,
      wkey: null,
      nonce: Buffer.alloc(12),
      ct: Buffer.from('x'),
      size: 1,
      exp: t + 1e6,
      reads: 1,
      once: true,
      masked: 0,
      ver: 1,
      created: t,
    },
    t,
  );
  await s.anchors.claim({ key: 'k', owner: a, note: '', cp: null, created: t, updated: t, exp: t + 1e6 }, t, 10, 10);
  await s.ledger.post(
    {
      kind: 'grant',
      ref: a,
      postings: [
        { account: 'sys:mint', amount: -3 },
        { account: a, amount: 3 },
      ],
    },
    t,
  );
  await s.ledger.post(
    {
      kind: 'burn',
      ref: a,
      postings: [
        { account: a, amount: -3 },
        { account: 'sys:burn', amount: 3 },
      ],
    },
    t,
  );
  await s.quotas.take(`write|${a}`, 1, 10, 0.001, t);
  await s.events.publish('inbox.x', { ref: a });
  await s.events.publish(`ps:~${a}.1`, { text: 'line' });
  await s.jobs.enqueue('q', { who: a });
  await s.admin.ingestInbox();
  await s.admin.setMark('seed', a, true, '', t);
  await s.admin.recordOrigin({ kind: 'kb', ref: ea.id, root: a, net: 'n', at: t });
  await s.gov.createProposal({ id: 'pq00001', kind: 'feature', title: 'T', body: 'B', section: null, author: a, net: 'n', patch: null, created: t });
  await s.gov.createProposal({ id: 'pq00002', kind: 'feature', title: 'T', body: 'B', section: null, author: a, net: 'n', patch: null, created: t });
  await s.gov.decide('pq00002', 'open', { state: 'accepted', note: '', by: 'ops', at: t, revisitAt: null, bounty: 0 });
  await s.gov.createProposal({ id: 'pq00003', kind: 'feature', title: 'T', body: 'B', section: null, author: b, net: 'n', patch: null, created: t });
  await s.gov.support({ proposal: 'pq00003', root: a, net: 'n', lvl: 1, weight: 1, created: t });
  await s.inj.report({ host: 'q.example', domain: 'q.example', ph: 'f'.repeat(64), root: a, net: 'n', flags: [], lvl: 1, weight: 1, created: t });
  await s.inj.dispute({ host: 'q.example', domain: 'q.example', root: a, note: 'mine', created: t });
  const man = { entry: 'run', desc: 'd', kats: [], limits: { time_ms: 1, mem_pages: 1, out_bytes: 1 } };
  expect(await s.services.publish({ name: 'svc-q', ver: 1, wasm: 'ab', manifest: man, publisher: a, kats: 0, created: t }, a, 'first')).toBe('ok');
  await s.services.addOk({ name: 'svc-q', ver: 1, by: a, pub: 'p', sig: 's', note: null, at: t });
  await s.services.putCall({
    id: newId('r', 10),
    name: 'x',
    ver: 1,
    caller: a,
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
  await s.cjobs.create({
    id: newId('j', 10),
    name: 'svc',
    ver: 1,
    wasm: 'ab',
    caller: a,
    input: Buffer.from('i'),
    in_hash: 'cd',
    k: 1,
    n: 1,
    price: 1,
    created: t,
  });
  const jb = newId('j', 10);
  await s.cjobs.create({ id: jb, name: 'svc', ver: 1, wasm: 'ab', caller: b, input: Buffer.from('i'), in_hash: 'cd', k: 1, n: 2, price: 1, created: t });
  expect(await s.cjobs.lease(a, 'p', newId('l', 12), t + 1000, t, jb)).not.toBeNull();
  await s.cjobs.report({ job: jb, donor: a, out_hash: 'x', quorum: 'y', at: t });
  return { kb: ea.id, task: ta };
}

it('a purged root leaves no row that names it in any table of the schema; others keep theirs', async () => {
  const db = new PGlite();
  dbs.push(db);
  let t = Date.parse('2026-11-24T12:00:00Z');
  const s = await openPgStore({ pglite: db }, { allowPartial: true, now: () => t });
  try {
    const a = (await identity(s, t)).id;
    const b = (await identity(s, t)).id;
    const mine = await populate(s, a, b, t);
    expect((await rowsNaming(db, a)).length).toBeGreaterThan(20);
    t += 1000;
    const r = await s.admin.purgeRoots(
      [a],
      (id) => `x:${createHash('sha256').update(id).digest('hex').slice(0, 12)}`,
      (c) => [
        ...c.kb.map((id) => ({ id, kind: 'kb' as const, removed_at: t, reason: 'purged' })),
        ...c.tasks.map((id) => ({ id, kind: 'task' as const, removed_at: t, reason: 'purged' })),
        { id: a, kind: 'identity' as const, removed_at: t, reason: 'purged' },
      ],
    );
    expect(r.tombstones).toBe(3);
    // The identity tombstone names it on purpose (exports withhold its rows by it): the only one.
    expect(await rowsNaming(db, a)).toEqual(['export_tombstones.id x1']);
    expect((await s.exports.tombstones(0, null, 10)).map((x) => `${x.kind}:${x.id}`).sort()).toEqual(
      [`identity:${a}`, `kb:${mine.kb}`, `task:${mine.task}`].sort(),
    );
    expect(await s.identities.byId(b)).not.toBeNull();
    expect((await rowsNaming(db, b)).length).toBeGreaterThan(5);
    expect((await s.ledger.audit()).problems).toEqual([]);
  } finally {
    await s.close();
  }
});
