// The cached reader of the control state (src/core/platform/control/control.ts): two cores on one store stand
// for two replicas. A write through one is seen by it at once and by the other within the refresh
// bound, read from memory in between; an unreadable store keeps the last state.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { Control, isFrozen } from '../../src/core/platform/control/control.js';
import type { ControlRepo } from '../../src/core/platform/control/ports.js';
import { CxError } from '../../src/core/kernel/errors.js';
import { limit } from '../../src/core/kernel/limits.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-control-'));
const store = openSqliteStore(dir);
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const log = pino({ enabled: false });

/** The store's repo, counting reads. */
function counted(repo: ControlRepo): ControlRepo & { reads: number } {
  const c = { ...repo, reads: 0 };
  c.read = async (now) => {
    c.reads++;
    return repo.read(now);
  };
  return c;
}

describe('control reader', () => {
  it('another replica sees a freeze within control.refresh, from memory until then', async () => {
    let t = 1_000_000;
    const now = () => t;
    const repoA = counted(store.control);
    const repoB = counted(store.control);
    const a = new Control(repoA, now, log);
    const b = new Control(repoB, now, log);
    const bound = limit('control.refresh') * 1000;
    expect((await b.state()).frozen.has('drops')).toBe(false);
    await a.freeze('drops', true, 'admin', 'test');
    expect((await a.state()).frozen.has('drops')).toBe(true);
    // Replica B still serves its snapshot, without reading the store for every call.
    const before = repoB.reads;
    for (let i = 0; i < 100; i++) expect((await b.state()).frozen.has('drops')).toBe(false);
    expect(repoB.reads).toBe(before);
    t += bound;
    expect((await b.state()).frozen.has('drops')).toBe(true);
    expect(repoB.reads).toBe(before + 1);
    await b.freeze('drops', false, 'admin');
    t += bound;
    expect((await a.state()).frozen.size).toBe(0);
  });

  it('concurrent callers of a stale view share one read', async () => {
    const t = 5_000_000;
    const repo = counted(store.control);
    const c = new Control(repo, () => t, log);
    await Promise.all(Array.from({ length: 20 }, () => c.state()));
    expect(repo.reads).toBe(1);
  });

  it('keeps the last state when the store cannot be read, and tries again after the bound', async () => {
    let t = 9_000_000;
    let fail = false;
    const repo: ControlRepo = { ...store.control, read: async (n) => (fail ? Promise.reject(new Error('db down')) : store.control.read(n)) };
    const c = new Control(repo, () => t, log);
    await store.control.setFreeze('mail', true, 'admin', '', t);
    try {
      expect((await c.state()).frozen.has('mail')).toBe(true);
      fail = true;
      t += 60_000;
      expect((await c.state()).frozen.has('mail')).toBe(true);
    } finally {
      await store.control.setFreeze('mail', false, 'admin', '', t);
    }
    fail = false;
    t += limit('control.refresh') * 1000;
    expect((await c.state()).frozen.has('mail')).toBe(false);
  });

  it('effective shed is the larger of the operator level and the measured one', async () => {
    const c = new Control(store.control, () => 1, log);
    c.measure(1, ['event_loop_delay']);
    expect(await c.status()).toMatchObject({ shed: 1, shedReasons: ['event_loop_delay'] });
    await c.setShed(2, 'test');
    expect(await c.status()).toMatchObject({ shed: 2, shedReasons: ['operator', 'event_loop_delay'] });
    c.measure(0, []);
    await c.setShed(0, '');
    expect(await c.status()).toMatchObject({ shed: 0, shedReasons: [] });
  });

  it('refuses unknown kinds, bad levels and backwards windows with one-line errors', async () => {
    const c = new Control(store.control, () => 1000, log);
    const err = async (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: unknown) => (e instanceof CxError ? `${e.code} ${e.detail}` : String(e)),
      );
    expect(await err(c.freeze('everything', true, 'admin'))).toBe('bad what: unknown freeze kind everything');
    expect(await err(c.setShed(9, 'x'))).toBe(`bad level: an integer 0-${limit('shed.max_level')}`);
    expect(await err(c.addMaintenance({ starts: 5000, ends: 4000, text: '' }))).toBe('bad ends: after starts');
    expect(await err(c.addMaintenance({ starts: 0, ends: 500, text: '' }))).toBe('bad ends: in the past');
  });

  it('a window stops write kinds only while it runs', () => {
    const v = { frozen: new Set<string>(), freezes: [], shed: null, maintenance: [{ id: 1, starts: 100, ends: 200, text: '', by: 'admin' }] };
    expect(isFrozen(v, 'drops', true, 99)).toBe(false);
    expect(isFrozen(v, 'drops', true, 100)).toBe(true);
    expect(isFrozen(v, 'drops', true, 199)).toBe(true);
    expect(isFrozen(v, 'drops', true, 200)).toBe(false);
    expect(isFrozen(v, 'drops', false, 150)).toBe(false);
  });
});
