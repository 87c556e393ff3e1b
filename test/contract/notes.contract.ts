// Notes: every read and write scoped by owner, a per-owner cap that holds under concurrent inserts,
// ids unique, newest-first pages with a cursor, persistence across a restart.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewNote, NoteRow } from '../../src/core/notes/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, newId, together } from './fixtures.js';

const note = (owner: string, t: number, o: Partial<NewNote> = {}): NewNote => ({
  id: newId('n', 8),
  owner,
  nonce: randomBytes(12),
  ct: randomBytes(64),
  size: 48,
  created: t,
  updated: t,
  ...o,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  async function setup() {
    const s = await open();
    const now = s.clock.now();
    return { s, now, a: (await identity(s.store, now)).id, b: (await identity(s.store, now)).id };
  }

  it("insert, get, update and remove are the owner's only; another owner sees null and changes nothing", async () => {
    const { s, now, a, b } = await setup();
    const n = note(a, now);
    const row = (await s.store.notes.insert(n, 10)) as NoteRow;
    expect(row).toMatchObject({ id: n.id, owner: a, size: 48, created: now, updated: now });
    expect(row.ct.equals(n.ct)).toBe(true);
    expect(await s.store.notes.get(n.id, a)).toEqual(row);
    expect(await s.store.notes.get(n.id, b)).toBeNull();
    const patch = { nonce: randomBytes(12), ct: randomBytes(70), size: 60, updated: now + 5 };
    expect(await s.store.notes.update(n.id, b, patch)).toBe(false);
    expect(await s.store.notes.remove(n.id, b)).toBe(false);
    expect(await s.store.notes.get(n.id, a)).toEqual(row);
    expect(await s.store.notes.update(n.id, a, patch)).toBe(true);
    const got = (await s.store.notes.get(n.id, a))!;
    expect(got).toMatchObject({ size: 60, created: now, updated: now + 5, rid: row.rid });
    expect(got.ct.equals(patch.ct)).toBe(true);
    expect(await (await s.reopen()).notes.get(n.id, a)).toEqual(got);
    expect(await s.store.notes.remove(n.id, a)).toBe(true);
    expect(await s.store.notes.remove(n.id, a)).toBe(false);
    expect(await s.store.notes.get(n.id, a)).toBeNull();
    expect(await s.store.notes.update(n.id, a, patch)).toBe(false);
  });

  it('an id in use is taken, whoever owns it', async () => {
    const { s, now, a, b } = await setup();
    const n = note(a, now);
    await s.store.notes.insert(n, 10);
    expect(await s.store.notes.insert(note(b, now, { id: n.id }), 10)).toBe('taken');
    expect(await s.store.notes.count(b)).toBe(0);
  });

  it('the per-owner cap holds under 25 concurrent inserts and counts only that owner', async () => {
    const { s, now, a, b } = await setup();
    await s.store.notes.insert(note(b, now), 10);
    const res = await together(25, () => s.store.notes.insert(note(a, now), 10));
    expect(res.filter((r) => typeof r === 'object')).toHaveLength(10);
    expect(res.filter((r) => r === 'full')).toHaveLength(15);
    expect(await s.store.notes.count(a)).toBe(10);
    expect(await s.store.notes.count(b)).toBe(1);
    const first = (await s.store.notes.list(a, null, 1))[0]!;
    await s.store.notes.remove(first.id, a);
    expect(await s.store.notes.insert(note(a, now), 10)).toMatchObject({ owner: a });
  });

  it("list: newest first, the owner's only, a cursor that pages through once", async () => {
    const { s, now, a, b } = await setup();
    const mine: NoteRow[] = [];
    for (let i = 0; i < 8; i++) {
      mine.push((await s.store.notes.insert(note(a, now + i), 100)) as NoteRow);
      await s.store.notes.insert(note(b, now + i), 100);
    }
    const all = await s.store.notes.list(a, null, 100);
    expect(all.map((r) => r.id)).toEqual([...mine].reverse().map((r) => r.id));
    const seen: string[] = [];
    let before: number | null = null;
    for (;;) {
      const page: NoteRow[] = await s.store.notes.list(a, before, 3);
      seen.push(...page.map((r) => r.id));
      if (page.length < 3) break;
      before = page.at(-1)!.rid;
    }
    expect(seen).toEqual(all.map((r) => r.id));
  });
}
