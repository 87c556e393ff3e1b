// Export rows: keyset pages in a stable order that together give every public row once, `since`
// keeping only changed rows, hidden and tombstoned rows (their own tombstone or their author's
// identity one) left out, claims without their network key; tombstones ordered and paged, a second
// removal updating the first, take-back, and all of it across a restart.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import type { ExportRepo } from '../../src/core/exports/ports.js';
import type { NewEntry } from '../../src/core/kb/ports.js';
import type { Task } from '../../src/core/tasks/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { newId, vote } from './fixtures.js';

const hash = (s: string) => createHash('sha256').update(s).digest('hex');
const entry = (author: string, t: number, i: number): NewEntry => ({
  id: newId('k', 8),
  sig: `py:E${i}`,
  h: hash(`py:E${i}`),
  title: `entry ${i}`,
  error: `E${i}`,
  fix: `fix ${i}`,
  eco: 'pypi',
  cls: '',
  tags: ['t'],
  libs: [{ name: 'lib', ver: '1' }],
  author,
  created: t,
});

/** Every page of a kb read, `size` at a time. */
async function allKb(x: ExportRepo, since: number, size: number): Promise<string[]> {
  const out: string[] = [];
  for (let after = 0; ; ) {
    const page = await x.kb(after, since, size);
    expect(page.length).toBeLessThanOrEqual(size);
    if (!page.length) return out;
    after = page[page.length - 1]!.n;
    out.push(...page.map((e) => e.id));
  }
}

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('kb pages: every visible entry once, in insertion order; since keeps the changed ones; hidden and tombstoned ones are left out', async () => {
    const s = await open();
    const t0 = s.clock.now();
    const rows = Array.from({ length: 7 }, (_, i) => entry(i < 5 ? 'a000001' : 'a000002', t0, i));
    await s.store.kb.insertMany(rows);
    const ids = rows.map((r) => r.id);
    expect(await allKb(s.store.exports, 0, 3)).toEqual(ids);
    expect(await allKb(s.store.exports, 0, 100)).toEqual(ids);
    // A vote changes an entry: only it is newer than t0 + 1.
    s.clock.advance(10);
    expect(await vote(s.store, ids[2]!, 'a000009', true, s.clock.now())).toBe('new');
    expect(await allKb(s.store.exports, t0 + 1, 2)).toEqual([ids[2]]);
    expect(await s.store.kb.setHidden(ids[0]!, true)).toBe(true);
    expect(await s.store.kb.byId(ids[0]!)).toBeNull();
    await s.store.exports.tombstone({ kind: 'kb', id: ids[1]!, removed_at: s.clock.now(), reason: 'notice' });
    await s.store.exports.tombstone({ kind: 'identity', id: 'a000002', removed_at: s.clock.now(), reason: 'purged' });
    expect(await allKb(s.store.exports, 0, 2)).toEqual(ids.slice(2, 5));
    expect(await allKb(await s.reopen().then((st) => st.exports), 0, 4)).toEqual(ids.slice(2, 5));
    // Taken back: the entry returns.
    expect(await s.store.exports.untomb('kb', ids[1]!)).toBe(true);
    expect(await s.store.exports.untomb('kb', ids[1]!)).toBe(false);
    expect(await allKb(s.store.exports, 0, 10)).toEqual(ids.slice(1, 5));
  });

  it('tasks, digests and claims page after their cursors; claims carry no network key and follow their entry out', async () => {
    const s = await open();
    const now = s.clock.now();
    const tasks: Task[] = [];
    for (let i = 0; i < 5; i++) {
      const t = await s.store.tasks.insert(
        {
          id: `t${String(i).padStart(8, '0')}`,
          title: `task ${i}`,
          body: 'b',
          tags: [],
          creator: i === 4 ? 'a000004' : 'a000003',
          space: null,
          bounty: null,
          credits: 0,
          created: now,
        },
        null,
        now,
      );
      tasks.push(t as Task);
    }
    await s.store.exports.tombstone({ kind: 'task', id: tasks[1]!.id, removed_at: now, reason: 'operator' });
    await s.store.exports.tombstone({ kind: 'identity', id: 'a000004', removed_at: now, reason: 'purged' });
    const seen: string[] = [];
    for (let after = 0; ; ) {
      const page = await s.store.exports.tasks(after, 0, 2);
      if (!page.length) break;
      after = page[page.length - 1]!.n;
      seen.push(...page.map((t) => t.id));
    }
    expect(seen).toEqual([tasks[0]!.id, tasks[2]!.id, tasks[3]!.id]);
    expect(await s.store.exports.tasks(0, now + 1, 10)).toEqual([]);

    for (const [lib, ver, topic, author] of [
      ['b', '1', 'x', 'a1'],
      ['a', '2', 'y', 'a1'],
      ['a', '1', 'z', 'a2'],
      ['a', '1', 'z', 'a1'],
      ['a', '1', 'y', 'a3'],
    ] as const) {
      await s.store.kb.putDigest({ lib, ver, topic, author, lines: `${lib}${ver}${topic}`, score: 0, created: now });
    }
    await s.store.exports.tombstone({ kind: 'digest', id: 'a@1/y/a3', removed_at: now, reason: 'operator' });
    const keys: string[] = [];
    for (let after: { lib: string; ver: string; topic: string; author: string } | null = null; ; ) {
      const page = await s.store.exports.digests(after, 0, 2);
      if (!page.length) break;
      const l = page[page.length - 1]!;
      after = { lib: l.lib, ver: l.ver, topic: l.topic, author: l.author };
      keys.push(...page.map((d) => `${d.lib}@${d.ver}/${d.topic}/${d.author}`));
    }
    expect(keys).toEqual(['a@1/z/a1', 'a@1/z/a2', 'a@2/y/a1', 'b@1/x/a1']);

    const e1 = entry('a000005', now, 1);
    const e2 = entry('a000005', now, 2);
    await s.store.kb.insertMany([e1, e2]);
    for (const [ent, id] of [
      [e1.id, 'a000010'],
      [e1.id, 'a000011'],
      [e2.id, 'a000010'],
      [e1.id, 'a000012'],
    ] as const) {
      expect(await s.store.signedConfirms.add({ entry: ent, id, pub: 'ab'.repeat(32), sig: 'sig', net: '10.0.0', at: now })).toBe(true);
    }
    const claims = [];
    for (let after: { entry: string; id: string } | null = null; ; ) {
      const page = await s.store.exports.claims(after, 0, 2);
      if (!page.length) break;
      after = { entry: page[page.length - 1]!.entry, id: page[page.length - 1]!.id };
      claims.push(...page);
    }
    expect(claims.map((c) => `${c.entry}/${c.id}`)).toEqual([`${e1.id}/a000010`, `${e1.id}/a000011`, `${e1.id}/a000012`, `${e2.id}/a000010`]);
    for (const c of claims) expect(Object.keys(c).sort()).toEqual(['at', 'entry', 'id', 'kind', 'pub', 'sig']);
    await s.store.kb.setHidden(e2.id, true);
    await s.store.exports.tombstone({ kind: 'claim', id: `${e1.id}/a000011`, removed_at: now, reason: 'operator' });
    expect((await s.store.exports.claims(null, 0, 10)).map((c) => c.id)).toEqual(['a000010', 'a000012']);
  });

  it('tombstones: ordered by time, paged after a cursor, since-filtered; a second removal updates the first; kept across a restart', async () => {
    const s = await open();
    const t = s.clock.now();
    await s.store.exports.tombstone({ kind: 'kb', id: 'k1', removed_at: t + 2, reason: 'notice' });
    await s.store.exports.tombstone({ kind: 'task', id: 't1', removed_at: t + 1, reason: 'operator' });
    await s.store.exports.tombstone({ kind: 'identity', id: 'a1', removed_at: t + 1, reason: 'purged' });
    await s.store.exports.tombstone({ kind: 'kb', id: 'k2', removed_at: t + 3, reason: 'hidden' });
    const all = await s.store.exports.tombstones(0, null, 10);
    expect(all.map((x) => `${x.kind}:${x.id}`)).toEqual(['identity:a1', 'task:t1', 'kb:k1', 'kb:k2']);
    expect(all[2]).toEqual({ id: 'k1', kind: 'kb', removed_at: t + 2, reason: 'notice' });
    const p1 = await s.store.exports.tombstones(0, null, 2);
    const p2 = await s.store.exports.tombstones(0, p1[1]!, 2);
    expect([...p1, ...p2]).toEqual(all);
    expect((await s.store.exports.tombstones(t + 2, null, 10)).map((x) => x.id)).toEqual(['k1', 'k2']);
    await s.store.exports.tombstone({ kind: 'kb', id: 'k1', removed_at: t + 9, reason: 'purged' });
    const again = await s.reopen();
    expect((await again.exports.tombstones(0, null, 10)).map((x) => `${x.id}:${x.reason}`)).toEqual(['a1:purged', 't1:operator', 'k2:hidden', 'k1:purged']);
  });
}
