// Demand stays bounded: only lookups that find entries are counted as hits, and wanted signatures
// are pruned by age and by count, least recently asked first.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildCore } from '../../src/compose/core.js';
import { startWantedSweep } from '../../src/core/kb/wanted-sweep.js';
import { limit } from '../../src/core/kernel/limits.js';
import { openDb } from '../../src/store/sqlite/db.js';
import { sqliteKb } from '../../src/store/sqlite/kb.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-wanted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (i: number) => i.toString(16).padStart(64, '0');

describe('hit counts and wanted signatures', () => {
  it('counts a lookup as a hit only when it finds entries', async () => {
    const counted: Array<Array<[string, number]>> = [];
    const kb = sqliteKb(openDb(join(dir, 'hits.db')), { countHits: (h) => counted.push([...h]) });
    await kb.insert({
      id: 'khit00001',
      sig: 'py:E: x',
      h: hex(1),
      title: 'E x',
      error: 'E: x',
      fix: 'fix it like this',
      eco: 'pypi',
      cls: 'E',
      tags: [],
      libs: [],
      author: 'aa',
      created: 1,
    });
    expect(await kb.byHash(hex(2), 5, true)).toEqual([]);
    expect(await kb.byHash(hex(1), 5, true)).toHaveLength(1);
    expect(await kb.byHash(hex(1), 5, false)).toHaveLength(1);
    kb.flush();
    expect(counted).toEqual([[[hex(1), 1]]]);
  });

  it('prunes by age, then keeps only the most recently asked', async () => {
    const kb = sqliteKb(openDb(join(dir, 'prune.db')), { countHits: () => {} });
    for (let i = 1; i <= 10; i++) await kb.want(hex(i), `sig ${i}`, '', i * 1000);
    expect(await kb.pruneWanted(3000, 100)).toBe(2); // last 1000 and 2000: too old
    expect(await kb.pruneWanted(0, 5)).toBe(3); // 8 left, keep the 5 newest
    expect((await kb.wanted(100)).map((w) => w.sig)).toEqual(['sig 10', 'sig 9', 'sig 8', 'sig 7', 'sig 6']);
    expect(await kb.pruneWanted(0, 5)).toBe(0);
    // Asked again: it moves to the front and survives the next cut.
    await kb.want(hex(6), 'sig 6', '', 11_000);
    expect(await kb.pruneWanted(0, 1)).toBe(4);
    expect((await kb.wanted(100)).map((w) => w.sig)).toEqual(['sig 6']);
    kb.flush();
  });

  it('the server sweep drops signatures not asked for within wanted.days', async () => {
    const sub = join(dir, 'sweep');
    mkdirSync(sub);
    const store = openSqliteStore(sub);
    const core = buildCore(loadConfig({ CX_DATA: sub }), store, pino({ enabled: false }), { now: () => 100 * 86_400_000, random: randomBytes });
    const day = 86_400_000;
    await store.kb.want(hex(1), 'stale', '', core.now() - (limit('wanted.days') + 1) * day);
    await store.kb.want(hex(2), 'fresh', '', core.now() - day);
    const stop = startWantedSweep(core);
    for (let i = 0; i < 50 && (await store.kb.wanted(10)).length > 1; i++) await new Promise((r) => setTimeout(r, 20));
    stop();
    expect((await store.kb.wanted(10)).map((w) => w.sig)).toEqual(['fresh']);
    await store.close();
  });

  it('misses recorded in memory merge as the upserts would, show in the next read, and survive a clean close', async () => {
    const sub = join(dir, 'merge');
    mkdirSync(sub);
    const store = openSqliteStore(sub);
    await store.kb.want(hex(50), null, '', 1000);
    await store.kb.want(hex(50), 'py:E: first', 'a@1', 2000);
    await store.kb.want(hex(50), 'py:E: second', '', 3000);
    await store.kb.want(hex(51), 'py:E: other', 'b@2', 2500);
    // Read at once: nothing waits for the 200 ms writer.
    expect(await store.kb.wanted(10)).toEqual([
      { h: hex(50), sig: 'py:E: first', libs: 'a@1', misses: 3, first: 1000, last: 3000 },
      { h: hex(51), sig: 'py:E: other', libs: 'b@2', misses: 1, first: 2500, last: 2500 },
    ]);
    // Written rows and new misses merge the same way.
    await store.kb.want(hex(50), 'py:E: third', 'c@3', 4000);
    await store.kb.want(hex(52), 'py:E: last', '', 4500);
    await store.close();
    const again = openSqliteStore(sub);
    expect(await again.kb.wanted(10)).toEqual([
      { h: hex(52), sig: 'py:E: last', libs: '', misses: 1, first: 4500, last: 4500 },
      { h: hex(50), sig: 'py:E: first', libs: 'c@3', misses: 4, first: 1000, last: 4000 },
      { h: hex(51), sig: 'py:E: other', libs: 'b@2', misses: 1, first: 2500, last: 2500 },
    ]);
    await again.close();
  });
});
