// The adapters every port contract runs against. The PostgreSQL issue adds PGlite and a real server here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Store } from '../../src/core/store.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

/** A clock the contract moves by hand (lease expiry, retention, backoff). */
export interface TestClock {
  now(): number;
  set(t: number): void;
  advance(ms: number): void;
}

export function testClock(start = Date.parse('2026-11-24T12:00:00Z')): TestClock {
  let t = start;
  return { now: () => t, set: (v) => void (t = v), advance: (ms) => void (t += ms) };
}

export interface Adapter {
  name: string;
  /** Opens a store on `dir` (empty or written before by the same adapter) with `clock` as its time. */
  open(dir: string, clock: TestClock): Promise<Store>;
}

export const ADAPTERS: Adapter[] = [
  { name: 'sqlite', open: async (dir, clock) => openSqliteStore(dir, 'normal', undefined, { now: clock.now }) },
];

/** A fresh store per test on a temporary directory, closed and removed after it; `reopen` simulates a restart. */
export function storeFor(adapter: Adapter): () => Promise<{ store: Store; clock: TestClock; dir: string; reopen(): Promise<Store> }> {
  const open: Array<{ store: Store; dir: string }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.store.close().catch(() => undefined);
      rmSync(o.dir, { recursive: true, force: true });
    }
  });
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), `cx-contract-${adapter.name}-`));
    const clock = testClock();
    const entry = { store: await adapter.open(dir, clock), dir };
    open.push(entry);
    return {
      get store() {
        return entry.store;
      },
      clock,
      dir,
      async reopen() {
        await entry.store.close();
        entry.store = await adapter.open(dir, clock);
        return entry.store;
      },
    };
  };
}
