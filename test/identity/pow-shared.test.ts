// Adaptive PoW across replicas (issue 23): the registration counts are in the store, so a replica's
// challenges price the registrations made on another one. Two Pow instances on one store stand for
// two replicas; the clock is moved by hand. Each keeps a memo of the counts: re-read when older than
// pow.rates_refresh (challenge() waits for it), its own registrations counted in it at once.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Pow } from '../../src/core/platform/identity/pow.js';
import { extraBits } from '../../src/core/platform/identity/pow-rate.js';
import { limit } from '../../src/core/kernel/limits.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-powshared-'));
let t = Date.parse('2026-11-24T12:00:00Z');
const store = openSqliteStore(dir, 'normal', undefined, { now: () => t });
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const replica = () => new Pow(randomBytes(32), { reg: 8, w: 4 }, store.proofs, () => t, randomBytes, store.powRates);

it("a replica's challenges price the registrations made on another; the window passing brings the base back", async () => {
  const [a, b] = [replica(), replica()];
  const net = '10.7.7';
  expect((await b.challenge('reg', net)).bits).toBe(8);
  for (let i = 0; i < 7; i++) await a.noteRegistration(net);
  // A counts its own at once; B's memo is fresh (read just now) and does not know yet ...
  expect((await a.challenge('reg', net)).bits).toBe(8 + extraBits(7, limit('pow.calm_net')));
  expect(b.rates.counts(net).net).toBe(0);
  // ... and re-reads the store once its memo is pow.rates_refresh old.
  t += limit('pow.rates_refresh') * 1000;
  expect((await b.challenge('reg', net)).bits).toBe(10);
  expect((await b.challenge('w', net)).bits).toBe(6);
  expect(b.rates.counts(net)).toEqual({ global: 7, net: 7 });
  // A challenge without a network (a 401's header) is priced by the busiest network, on B too.
  await b.rates.refresh();
  expect(b.issue('reg').bits).toBe(10);
  // Another network on B: its own count is 0, the global count is below the calm rate.
  expect((await b.challenge('reg', '10.8.8')).bits).toBe(8);
  t += limit('pow.window') * 1000;
  expect((await b.challenge('reg', net)).bits).toBe(8);
  expect((await a.challenge('reg', net)).bits).toBe(8);
});
