// Knowledge base: entries with unique ids, lookups by signature in rank order whose hit counts a
// clean shutdown does not lose, one vote per identity and entry (also under concurrent votes) moving
// the author's reputation, search, listings, demand (wanted) and digests.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import type { KbEntry, NewEntry } from '../../src/core/kb/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, newId, together, vote } from './fixtures.js';

const DAY = 86_400_000;
const hash = (sig: string) => createHash('sha256').update(sig).digest('hex');
const entry = (author: string, t: number, o: Partial<NewEntry> = {}): NewEntry => {
  const sig = o.sig ?? 'py:ModuleNotFoundError:zzlib';
  return {
    id: newId('k', 6),
    sig,
    h: hash(sig),
    title: 'No module named zzlib',
    error: "ModuleNotFoundError: No module named 'zzlib'",
    fix: 'pip install zzlib',
    eco: 'pypi',
    cls: 'ModuleNotFoundError',
    tags: ['python', 'import'],
    libs: [{ name: 'zzlib', ver: '1.2' }],
    author,
    created: t,
    ...o,
  };
};

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  async function setup() {
    const s = await open();
    const now = s.clock.now();
    return { s, now, a: (await identity(s.store, now)).id, b: (await identity(s.store, now)).id };
  }

  it('insert then byId gives the entry back (tags, libraries, error text); an id in use gives null; a restart keeps it', async () => {
    const { s, now, a, b } = await setup();
    const e = entry(a, now, {
      title: 'Ошибка: модуль не найден 🐍',
      error: "ModuleNotFoundError: No module named 'zzlib'\n  at “main” — line 3",
      libs: [
        { name: '@scope/pkg', ver: '1.0.0-rc.1' },
        { name: 'zzlib', ver: '*' },
      ],
    });
    const got = (await s.store.kb.insert(e)) as KbEntry;
    expect(got).toMatchObject({ ...e, confirms: 0, fails: 0, hits: 0, updated: now });
    expect(await s.store.kb.byId(e.id)).toEqual(got);
    expect(await s.store.kb.insert(entry(b, now, { id: e.id, title: 'other' }))).toBeNull();
    expect(await s.store.kb.count()).toBe(1);
    expect(await s.store.kb.countByAuthor(a)).toBe(1);
    expect(await s.store.kb.countByAuthor(b)).toBe(0);
    expect(await (await s.reopen()).kb.byId(e.id)).toEqual(got);
    expect(await s.store.kb.byId('k000000x')).toBeNull();
  });

  it("byHash: the signature's entries best first (confirmations over failures, then newest), limited", async () => {
    const { s, now, a } = await setup();
    const voters: string[] = [];
    for (let i = 0; i < 3; i++) voters.push((await identity(s.store, now)).id);
    const old = (await s.store.kb.insert(entry(a, now)))!;
    const newer = (await s.store.kb.insert(entry(a, now + 10)))!;
    const good = (await s.store.kb.insert(entry(a, now + 5)))!;
    const bad = (await s.store.kb.insert(entry(a, now + 20)))!;
    await s.store.kb.insert(entry(a, now, { sig: 'other-sig' }));
    await vote(s.store, good.id, voters[0]!, true, now);
    await vote(s.store, bad.id, voters[0]!, false, now);
    const hits = await s.store.kb.byHash(hash('py:ModuleNotFoundError:zzlib'), 10, false);
    expect(hits.map((h) => h.id)).toEqual([good.id, newer.id, old.id, bad.id]);
    expect(hits[0]).toMatchObject({ title: good.title, fix: good.fix, confirms: 1, fails: 0, libs: [{ name: 'zzlib', ver: '1.2' }] });
    expect((await s.store.kb.byHash(hash('py:ModuleNotFoundError:zzlib'), 2, false)).map((h) => h.id)).toEqual([good.id, newer.id]);
    expect(await s.store.kb.byHash(hash('nothing'), 10, true)).toEqual([]);
  });

  it('lookups that find entries are counted; a clean shutdown loses none of the counts', async () => {
    const { s, now, a } = await setup();
    const e = (await s.store.kb.insert(entry(a, now)))!;
    for (let i = 0; i < 3; i++) await s.store.kb.byHash(e.h, 5, true);
    await s.store.kb.byHash(e.h, 5, false);
    const again = await s.reopen();
    expect((await again.kb.byId(e.id))!.hits).toBe(3);
  });

  it("votes (outcomes worked and did-not-work): one per identity and entry, the author cannot vote, a changed vote moves both counts and the author's rep", async () => {
    const { s, now, a, b } = await setup();
    const e = (await s.store.kb.insert(entry(a, now)))!;
    expect(await vote(s.store, e.id, a, true, now)).toBe('own');
    expect(await vote(s.store, 'k_none', b, true, now)).toBeNull();
    expect(await vote(s.store, e.id, b, true, now + 1)).toBe('new');
    expect(await vote(s.store, e.id, b, true, now + 2)).toBe('same');
    expect(await s.store.kb.byId(e.id)).toMatchObject({ confirms: 1, fails: 0, updated: now + 1 });
    // A new L0 identity's outcome weighs 0.25 x 0.5 (outcome.weight.l0, age factor): rep round(5 x 0.125) = 1.
    expect(await s.store.identities.byId(a)).toMatchObject({ rep: 1, confirmed: 1 });
    expect(await vote(s.store, e.id, b, false, now + 3)).toBe('changed');
    expect(await s.store.kb.byId(e.id)).toMatchObject({ confirms: 0, fails: 1 });
    expect(await s.store.identities.byId(a)).toMatchObject({ rep: 0, confirmed: 0 });
    expect(await vote(await s.reopen(), e.id, b, false, now + 4)).toBe('same');
  });

  it("concurrent votes: one voter's 15 identical votes count once; 15 voters at once count 15 times", async () => {
    const { s, now, a, b } = await setup();
    const e = (await s.store.kb.insert(entry(a, now)))!;
    const res = await together(15, () => vote(s.store, e.id, b, true, now));
    expect(res.filter((r) => r === 'new')).toHaveLength(1);
    expect(res.filter((r) => r === 'same')).toHaveLength(14);
    const voters: string[] = [];
    for (let i = 0; i < 15; i++) voters.push((await identity(s.store, now)).id);
    await together(15, (i) => vote(s.store, e.id, voters[i]!, true, now));
    expect(await s.store.kb.byId(e.id)).toMatchObject({ confirms: 16, fails: 0 });
    // 16 principals (no shared network or root) of weight 0.125 each: rep round(5 x 2) = 10.
    expect(await s.store.kb.byId(e.id)).toMatchObject({ w_worked: 2, principals: 16 });
    expect((await s.store.identities.byId(a))!.rep).toBe(10);
  });

  it('search finds entries by words of title, error, fix and tags; text without words finds nothing', async () => {
    const { s, now, a } = await setup();
    const e1 = (await s.store.kb.insert(entry(a, now, { title: 'Quokka importer crashes', fix: 'upgrade quokka' })))!;
    await s.store.kb.insert(entry(a, now, { title: 'Something else', fix: 'reinstall', tags: ['wombat'] }));
    expect((await s.store.kb.search('quokka importer', 10)).map((h) => h.id)).toEqual([e1.id]);
    expect(await s.store.kb.search('wombat', 10)).toHaveLength(1);
    expect(await s.store.kb.search('" OR * -', 10)).toEqual([]);
    expect(await s.store.kb.search('nomatchword', 10)).toEqual([]);
  });

  it('retrieve: entries matching any of the words, best text match first, with their signature and ecosystem; nothing for words no entry has', async () => {
    const { s, now, a } = await setup();
    const best = (await s.store.kb.insert(
      entry(a, now, {
        title: 'Quokka importer crashes on wombat files',
        error: 'QuokkaError: wombat importer failed',
        sig: 'py:QuokkaError: wombat importer failed',
      }),
    ))!;
    const other = (await s.store.kb.insert(entry(a, now, { title: 'Wombat exporter is slow', sig: 'py:other' })))!;
    await s.store.kb.insert(entry(a, now, { title: 'Unrelated entry', sig: 'py:unrelated' }));
    const got = await s.store.kb.retrieve(['quokka', 'wombat', 'importer'], 10);
    expect(got.map((h) => h.id)).toEqual([best.id, other.id]);
    expect(got[0]).toMatchObject({ sig: 'py:QuokkaError: wombat importer failed', eco: 'pypi', title: best.title });
    expect(await s.store.kb.retrieve(['nomatchword'], 10)).toEqual([]);
    expect(await s.store.kb.retrieve(['" OR * -'], 10)).toEqual([]);
  });

  it('retrieve skips hidden entries, however many of the best matches are hidden', async () => {
    const { s, now, a } = await setup();
    const ins = async (title: string, error: string) => (await s.store.kb.insert(entry(a, now, { title, error, sig: `py:${title}` })))!;
    await ins('Numbat numbat numbat loader', 'NumbatError: numbat numbat loader failed');
    await ins('Numbat numbat loader', 'NumbatError: numbat loader failed');
    await ins('Numbat parser', 'parser error');
    const order = (await s.store.kb.retrieve(['numbat'], 3)).map((h) => h.id);
    expect(order).toHaveLength(3);
    // The two best hidden: a limit of 1 still finds the third.
    await s.store.kb.setHidden(order[0]!, true);
    await s.store.kb.setHidden(order[1]!, true);
    expect((await s.store.kb.retrieve(['numbat'], 1)).map((h) => h.id)).toEqual([order[2]]);
  });

  it('listings: by month (newest first) with neighbours, by ecosystem, by class with its libraries, by library newest first', async () => {
    const { s, now, a } = await setup();
    const jan = Date.parse('2026-01-10T00:00:00Z');
    const mar = Date.parse('2026-03-05T00:00:00Z');
    const e1 = (await s.store.kb.insert(entry(a, jan, { libs: [{ name: 'zzlib', ver: '1.0' }] })))!;
    const e2 = (await s.store.kb.insert(entry(a, mar, { eco: 'npm', cls: 'TS2307', libs: [{ name: 'left-pad', ver: '2.0' }] })))!;
    const e3 = (await s.store.kb.insert(entry(a, mar + DAY, { libs: [{ name: 'zzlib', ver: '1.1' }] })))!;
    const from = Date.parse('2026-03-01T00:00:00Z');
    const to = Date.parse('2026-04-01T00:00:00Z');
    expect((await s.store.kb.byMonth(from, to, 10)).map((e) => e.id)).toEqual([e3.id, e2.id]);
    const nb = await s.store.kb.monthNeighbours(from, to);
    expect(nb.prev).not.toBeNull();
    expect(nb.prev!).toBeGreaterThanOrEqual(Date.parse('2026-01-01T00:00:00Z'));
    expect(nb.prev!).toBeLessThan(Date.parse('2026-02-01T00:00:00Z'));
    expect(nb.next).toBeNull();
    const eco = await s.store.kb.byEco('pypi', 1);
    expect(eco.count).toBe(2);
    expect(eco.rows.map((e) => e.id)).toEqual([e3.id]);
    const cls = await s.store.kb.byClass('ModuleNotFoundError', 10);
    expect(cls.count).toBe(2);
    expect(cls.libs).toEqual([{ name: 'zzlib', n: 2 }]);
    expect(await s.store.kb.byLib('zzlib', 10)).toEqual([
      { id: e3.id, title: e3.title, ver: '1.1' },
      { id: e1.id, title: e1.title, ver: '1.0' },
    ]);
    expect(await s.store.kb.insertMany([entry(a, now), entry(a, now)])).toBe(2);
    expect(await s.store.kb.count()).toBe(5);
    expect(await s.store.kb.byLib('zzlib', 10)).toHaveLength(4);
  });

  it('recent (feeds): newest first from a time on, all entries, one tag (whole tags only) or one author, limited', async () => {
    const { s, now, a, b } = await setup();
    const e1 = (await s.store.kb.insert(entry(a, now - 2 * DAY, { tags: ['node.js', 'npm'] })))!;
    const e2 = (await s.store.kb.insert(entry(b, now - DAY, { tags: ['node', 'js'] })))!;
    const e3 = (await s.store.kb.insert(entry(a, now, { tags: ['node.js'] })))!;
    const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);
    expect(ids(await s.store.kb.recent({}, 0, 10))).toEqual([e3.id, e2.id, e1.id]);
    expect(ids(await s.store.kb.recent({}, 0, 2))).toEqual([e3.id, e2.id]);
    expect(ids(await s.store.kb.recent({}, now - DAY, 10))).toEqual([e3.id, e2.id]);
    // node.js is two index tokens: the entry tagged `node` and `js` is not a node.js entry.
    expect(ids(await s.store.kb.recent({ tag: 'node.js' }, 0, 10))).toEqual([e3.id, e1.id]);
    expect(ids(await s.store.kb.recent({ tag: 'node' }, 0, 10))).toEqual([e2.id]);
    expect(ids(await s.store.kb.recent({ tag: 'node.js' }, now - DAY, 10))).toEqual([e3.id]);
    expect(ids(await s.store.kb.recent({ tag: 'node.js' }, 0, 1))).toEqual([e3.id]);
    expect(await s.store.kb.recent({ tag: 'absent' }, 0, 10)).toEqual([]);
    expect(await s.store.kb.recent({ tag: '+.' }, 0, 10)).toEqual([]);
    expect(ids(await s.store.kb.recent({ author: a }, 0, 10))).toEqual([e3.id, e1.id]);
    expect(ids(await s.store.kb.recent({ author: b, tag: 'node.js' }, 0, 10))).toEqual([]);
    expect(ids(await s.store.kb.recent({ author: a, tag: 'npm' }, 0, 10))).toEqual([e1.id]);
    expect((await s.store.kb.recent({ author: b }, 0, 10))[0]).toEqual(await s.store.kb.byId(e2.id));
  });

  it('confirmations over time: distinct entries confirmed since a time, and the latest confirmed first with the time of their last confirmation', async () => {
    const { s, now, a, b } = await setup();
    const c = (await identity(s.store, now)).id;
    const [e1, e2, e3] = [
      (await s.store.kb.insert(entry(a, now)))!,
      (await s.store.kb.insert(entry(a, now + 1)))!,
      (await s.store.kb.insert(entry(a, now + 2)))!,
    ];
    expect(await s.store.kb.confirmedSince(0)).toBe(0);
    expect(await s.store.kb.latestConfirmed(10)).toEqual([]);
    await vote(s.store, e1.id, b, true, now + 10 * DAY);
    await vote(s.store, e1.id, c, true, now + 12 * DAY);
    await vote(s.store, e2.id, b, true, now + 11 * DAY);
    await vote(s.store, e3.id, b, false, now + 13 * DAY);
    expect(await s.store.kb.confirmedSince(now + 10 * DAY)).toBe(2);
    expect(await s.store.kb.confirmedSince(now + 11 * DAY)).toBe(2);
    expect(await s.store.kb.confirmedSince(now + 12 * DAY)).toBe(1);
    expect(await s.store.kb.confirmedSince(now + 14 * DAY)).toBe(0);
    const latest = await s.store.kb.latestConfirmed(10);
    expect(latest.map((e) => [e.id, e.confirmed_at])).toEqual([
      [e1.id, now + 12 * DAY],
      [e2.id, now + 11 * DAY],
    ]);
    expect(latest[0]).toMatchObject({ title: e1.title, fix: e1.fix, confirms: 2, libs: e1.libs });
    expect((await s.store.kb.latestConfirmed(1)).map((e) => e.id)).toEqual([e1.id]);
    // A vote changed to "did not work" no longer counts.
    await vote(s.store, e2.id, b, false, now + 15 * DAY);
    expect(await s.store.kb.confirmedSince(now + 10 * DAY)).toBe(1);
    expect((await (await s.reopen()).kb.latestConfirmed(10)).map((e) => e.id)).toEqual([e1.id]);
  });

  it('wanted: misses per signature hash, most recently asked first, pruned by age and then to a cap', async () => {
    const { s, now } = await setup();
    await s.store.kb.want('h1', 'sig1', 'zzlib', now);
    await s.store.kb.want('h1', null, '', now + 5);
    await s.store.kb.want('h2', null, 'left-pad', now + 2);
    await s.store.kb.want('h3', 'sig3', '', now + 10);
    await together(10, (i) => s.store.kb.want('h4', 'sig4', '', now + 20 + i));
    const w = await s.store.kb.wanted(10);
    expect(w.map((x) => x.h)).toEqual(['h4', 'h3', 'h1', 'h2']);
    expect(w[0]).toMatchObject({ misses: 10, first: now + 20, last: now + 29 });
    expect(w.find((x) => x.h === 'h1')).toEqual({ h: 'h1', sig: 'sig1', libs: 'zzlib', misses: 2, first: now, last: now + 5 });
    expect(await s.store.kb.pruneWanted(now + 3, 100)).toBe(1);
    expect(await s.store.kb.pruneWanted(0, 2)).toBe(1);
    expect((await (await s.reopen()).kb.wanted(10)).map((x) => x.h)).toEqual(['h4', 'h3']);
  });

  it('digests: one per (lib, ver, topic, author), replaced by its author; the best per version and topic, newest first', async () => {
    const { s, now } = await setup();
    const d = { lib: 'zzlib', ver: '1.0', topic: 'upgrade', lines: 'a', score: 1, created: now };
    await s.store.kb.putDigest({ ...d, author: 'a000001' });
    await s.store.kb.putDigest({ ...d, author: 'a000002', score: 5, lines: 'b' });
    await s.store.kb.putDigest({ ...d, author: 'a000001', lines: 'a2', created: now + 1 });
    await s.store.kb.putDigest({ ...d, ver: '2.0', author: 'a000001', created: now + 2 });
    expect(await s.store.kb.bestDigest('zzlib', '1.0', 'upgrade')).toMatchObject({ author: 'a000002', lines: 'b', score: 5 });
    expect(await s.store.kb.bestDigest('zzlib', '9.9', 'upgrade')).toBeNull();
    const all = await s.store.kb.digestsOf('zzlib', 10);
    expect(all.map((x) => [x.ver, x.author])).toEqual([
      ['2.0', 'a000001'],
      ['1.0', 'a000002'],
    ]);
    expect(await s.store.kb.digestsOf('nolib', 10)).toEqual([]);
    await s.store.kb.putDigest({ ...d, author: 'a000003', score: 9, created: now + 3 });
    expect((await s.store.kb.digestsOf('zzlib', 10)).map((x) => x.author)).toEqual(['a000003', 'a000001']);
  });
  it('pageAfter walks every entry in insertion order, page by page, with libraries and error text; past the end it gives nothing', async () => {
    const { s, now, a } = await setup();
    const made: KbEntry[] = [];
    for (let i = 0; i < 5; i++) made.push((await s.store.kb.insert(entry(a, now + i, { sig: `sig-${i}`, h: hash(`sig-${i}`), title: `t${i}` })))!);
    const seen: KbEntry[] = [];
    for (let after = 0; ; ) {
      const page = await s.store.kb.pageAfter(after, 2);
      expect(page.length).toBeLessThanOrEqual(2);
      if (!page.length) break;
      seen.push(...page);
      after = page[page.length - 1]!.n;
    }
    expect(seen).toEqual(made);
    expect(await (await s.reopen()).kb.pageAfter(made[4]!.n, 10)).toEqual([]);
    expect((await s.store.kb.pageAfter(made[1]!.n, 10)).map((e) => e.id)).toEqual(made.slice(2).map((e) => e.id));
  });

  it('setHidden hides an entry from reads and shows it again; remove deletes it with its votes and search row', async () => {
    const { s, now, a, b } = await setup();
    const e = entry(a, now, { title: 'Hidden by a notice zzhide' });
    await s.store.kb.insert(e);
    await vote(s.store, e.id, b, true, now);
    expect(await s.store.kb.setHidden(e.id, true)).toBe(true);
    expect(await s.store.kb.byId(e.id)).toBeNull();
    expect(await s.store.kb.byHash(e.h, 10, false)).toEqual([]);
    expect(await s.store.kb.search('zzhide', 10)).toEqual([]);
    expect(await s.store.kb.count()).toBe(0);
    expect(await (await s.reopen()).kb.byId(e.id)).toBeNull();
    expect(await s.store.kb.setHidden(e.id, false)).toBe(true);
    expect((await s.store.kb.byId(e.id))?.confirms).toBe(1);
    expect((await s.store.kb.search('zzhide', 10)).map((h) => h.id)).toEqual([e.id]);
    expect(await s.store.kb.remove(e.id)).toBe(true);
    expect(await s.store.kb.remove(e.id)).toBe(false);
    expect(await s.store.kb.setHidden(e.id, true)).toBe(false);
    expect(await s.store.kb.byId(e.id)).toBeNull();
    expect(await s.store.kb.search('zzhide', 10)).toEqual([]);
    // The id is free again.
    expect(await s.store.kb.insert(entry(a, now, { id: e.id }))).not.toBeNull();
  });
}
