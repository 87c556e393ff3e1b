// Content origin through the bus: writers publish `origin` events (src/core/platform/events/topics.ts)
// and the admin module keeps the rows. Events written while no admin module listened (a restart,
// another replica) are kept by the catch-up that runs before GET /admin/origin reads; kept twice
// they are still one row. The live path (kb.add, task.create, topic.pub) is in admin.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { adminModule } from '../../src/core/admin/module.js';
import { catchUpOrigins } from '../../src/core/admin/origin.js';
import type { Core } from '../../src/core/kernel/types.js';
import { ORIGIN_TOPIC } from '../../src/core/platform/events/topics.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('the admin module follows origin; events nobody heard are kept by the catch-up, once each', async () => {
  expect(adminModule.subscribes?.map((s) => s.topics)).toEqual([{ topic: ORIGIN_TOPIC }]);
  const dir = mkdtempSync(join(tmpdir(), 'cx-origin-'));
  dirs.push(dir);
  const store = openSqliteStore(dir, 'normal');
  try {
    const core = { store, now: () => 5, log: pino({ enabled: false }) } as unknown as Core;
    await store.events.publish(ORIGIN_TOPIC, { kind: 'kb', ref: 'k1', root: 'a1', net: '10.0.0.0/24', at: 1000 });
    await store.events.publish(ORIGIN_TOPIC, { kind: 'task', ref: 't1', root: 'a1', net: '10.0.0.0/24', at: 2000 });
    expect(await store.admin.origins({ root: 'a1' }, 10)).toEqual([]);
    await catchUpOrigins(core);
    expect((await store.admin.origins({ root: 'a1' }, 10)).map((r) => `${r.kind} ${r.ref} ${r.net} ${r.at}`).sort()).toEqual([
      'kb k1 10.0.0.0/24 1000',
      'task t1 10.0.0.0/24 2000',
    ]);
    // A later event, and one the live subscription already kept: one row each.
    await store.events.publish(ORIGIN_TOPIC, { kind: 'line', ref: 'x:1', root: 'a1', net: '10.0.0.0/24', at: 3000 });
    await adminModule.subscribes![0]!.on(core, (await store.events.read(ORIGIN_TOPIC, 2, 1))[0]!);
    await catchUpOrigins(core);
    await catchUpOrigins(core);
    expect((await store.admin.origins({ root: 'a1' }, 10)).map((r) => r.ref).sort()).toEqual(['k1', 't1', 'x:1']);
  } finally {
    await store.close();
  }
});
