// The short crash rounds of `npm test` (the long ones: `npm run crash`): concurrent writers over the
// registry's write operations, kill -9 or SIGTERM mid-load, restart on the same data directory.
import { describe, expect, it } from 'vitest';
import { round, writeOps } from './crash.js';

describe('crash rounds', () => {
  it('the rounds drive writes of several domains, each with a read-back route from the registry', () => {
    const names = writeOps().map((w) => w.op.name);
    expect(names).toEqual(expect.arrayContaining(['note.create', 'cp.save', 'task.create']));
  });

  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`${signal} mid-load: every acknowledged write present after restart, integrity ok${signal === 'SIGTERM' ? ', no 5xx, no reset of a request that ran' : ''}`, {
      timeout: 150_000,
    }, async () => {
      const r = await round({ signal, writers: 4, ackTarget: 80, maxMs: 15_000, seed: signal === 'SIGKILL' ? 1 : 2 });
      expect(r.acked + r.markers).toBeGreaterThan(10);
      expect(r.lost).toEqual([]);
      expect(r.integrity).toBe('ok');
      if (signal === 'SIGTERM') {
        expect(r.fiveXX).toEqual([]);
        expect(r.resetButRan).toEqual([]);
        expect(r.refusedButRan).toEqual([]);
      }
    });
  }
});
