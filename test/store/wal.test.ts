// The WAL stays bounded while serving: past store.wal_max it is checkpointed and truncated
// within a few seconds, not left to grow until a clean shutdown.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { limit } from '../../src/core/kernel/limits.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sizeOf = (f: string) => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};

describe('WAL bound', () => {
  it('writes past store.wal_max, then the WAL comes back under it while the store stays open', async () => {
    const store = openSqliteStore(dir);
    const wal = `${store.file}-wal`;
    const bound = limit('store.wal_max');
    try {
      const ct = randomBytes(1024);
      const now = Date.now();
      let writes = 0;
      const keys: Buffer[] = [];
      let seen = 0;
      // Small writes as a server makes them, yielding between batches as it does between requests.
      while (seen <= bound && writes < 200_000) {
        for (let i = 0; i < 50; i++, writes++) {
          const key = randomBytes(32);
          if (writes % 1000 === 0) keys.push(key);
          await store.drops.create(
            {
              key,
              owner: null,
              wkey: null,
              nonce: randomBytes(12),
              ct,
              size: 1008,
              exp: now + 3_600_000,
              reads: 3,
              once: false,
              masked: 0,
              ver: 0,
              created: now,
            },
            now,
          );
        }
        seen = Math.max(seen, sizeOf(wal));
        await new Promise((r) => setImmediate(r));
      }
      expect(seen).toBeGreaterThan(bound);
      // Generous: the check runs every 250 ms; a loaded machine may take a few seconds.
      const deadline = Date.now() + 15_000;
      while (sizeOf(wal) > bound && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(sizeOf(wal)).toBeLessThanOrEqual(bound);
      // Nothing was lost on the way: rows written before and after the truncation read back.
      for (const k of keys) expect(await store.drops.peek(k, now)).not.toBeNull();
    } finally {
      await store.close();
    }
  }, 60_000);
});
