// The retention sweep the server starts: prunes by age and by count through the store's clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, expect, it, vi } from 'vitest';
import { startEventSweep } from '../../src/core/platform/events/sweep.js';
import type { Core } from '../../src/core/kernel/types.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('runs at start and then periodically, pruning what is past retention', async () => {
  let t = Date.parse('2026-11-24T12:00:00Z');
  const dir = mkdtempSync(join(tmpdir(), 'cx-event-sweep-'));
  dirs.push(dir);
  const store = openSqliteStore(dir, 'normal', undefined, { now: () => t });
  for (let i = 0; i < 5; i++) await store.events.publish('a', i);
  t += 10_000;
  for (let i = 0; i < 5; i++) await store.events.publish('a', i);
  const core = { store, now: () => t, log: pino({ enabled: false }) } as unknown as Core;
  // Keep 5 s of events and at most 8 per topic.
  const stop = startEventSweep(core, { keepMs: 5000, keepMax: 8, everyMs: 20 });
  await vi.waitFor(async () => expect((await store.events.read('a', 0, 100)).map((e) => e.id)).toEqual([6, 7, 8, 9, 10]));
  for (let i = 0; i < 6; i++) await store.events.publish('a', i);
  await vi.waitFor(async () => expect((await store.events.read('a', 0, 100)).map((e) => e.id)).toEqual([9, 10, 11, 12, 13, 14, 15, 16]));
  stop();
  await store.close();
});
