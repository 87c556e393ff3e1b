// The SQLite cache repository answers a lookup in a namespace without rows without reading, from
// the set of namespaces that have rows. At its cap the set is read again from the table (names of
// rows gone drop out) and the new name is added after that read; past the cap it is not used.
// Every case: a row just put is found by the next lookup, whatever the set did.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewCacheRow } from '../../src/core/cache/ports.js';
import { sqliteCache } from '../../src/store/sqlite/cache.js';
import { openDb } from '../../src/store/sqlite/db.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { identity } from '../contract/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-cachens-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cache namespaces with rows', () => {
  it('at the cap: re-read without the names of rows gone, the new name kept; past it: not used', async () => {
    const store = openSqliteStore(dir);
    const now = 1_000_000;
    const producer = (await identity(store, now)).id;
    // A repository of its own over the same file, with a cap of 3 names.
    const db = openDb(join(dir, 'commons.db'));
    const cache = sqliteCache(db, 3);
    const row = (ns: string, exp = now + 3_600_000): NewCacheRow => ({
      ns,
      key: `k-${ns}`,
      producer,
      kind: 'inline',
      text: 'answer',
      blob: null,
      size: 6,
      to: null,
      created: now,
      exp,
    });
    const found = async (ns: string) => (await cache.get(ns, `k-${ns}`, now))?.row.ns ?? null;

    expect(await found('a')).toBeNull();
    await cache.put(row('a', now + 10), now, 100);
    await cache.put(row('b'), now, 100);
    await cache.put(row('c'), now, 100);
    expect([await found('a'), await found('b'), await found('c')]).toEqual(['a', 'b', 'c']);
    // a's row goes; the set still names it (a superset) until it is read again.
    expect(await cache.purgeExpired(now + 10)).toBe(1);
    // d: the set is at its cap, so it is read again ({b, c}) and d is added after that read.
    await cache.put(row('d'), now, 100);
    expect(await found('d')).toBe('d');
    expect(await found('a')).toBeNull();
    // e: at the cap again, and every name read has a row: the set is no longer used; lookups read.
    await cache.put(row('e'), now, 100);
    expect([await found('b'), await found('c'), await found('d'), await found('e')]).toEqual(['b', 'c', 'd', 'e']);
    await cache.put(row('f'), now, 100);
    expect(await found('f')).toBe('f');
    db.close();
    await store.close();
  });
});
