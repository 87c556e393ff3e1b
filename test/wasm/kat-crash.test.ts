// A publication whose KAT run kills its runner: retried while tries remain (the host may be at
// fault), then failed for good at compute.runner_tries, never retried at every start. The runner
// is replaced here by one whose every run dies the way a runner killed by a module does.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { ComputeRunner, RunCall } from '../../src/core/compute/ports.js';
import { KAT_QUEUE } from '../../src/core/compute/services.js';
import { limit } from '../../src/core/kernel/limits.js';
import { call } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
const runs: RunCall[] = [];
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '0' });
  const dead: ComputeRunner = {
    run: async (c) => (runs.push(c), { ok: false, code: 'crash', detail: 'runner process died (signal SIGABRT)', ms: 3 }),
    stats: () => ({ workers: 1, busy: 0, queued: 0, started: 1, replaced: 0 }),
    close: async () => {},
  };
  (s.core as { compute: ComputeRunner }).compute = dead;
}, 60_000);
afterAll(() => s?.stop());

it('fails after compute.runner_tries deliveries, with the crash in its log, and the job is done', async () => {
  const wasm = readFileSync(join(import.meta.dirname, 'fixtures', 'echo.wasm'));
  const admin = { authorization: `Bearer ${s.config.operatorTokens.admin}` };
  expect((await call(s, 'PUT', '/admin/blob', { body: wasm, headers: admin })).status).toBe(200);
  const manifest = { desc: 'echo', kats: [{ in: 'x', out: 'x' }] };
  const hash = createHash('sha256').update(wasm).digest('hex');
  expect((await call(s, 'POST', '/admin/svc', { json: { name: 'crashy', ver: 1, wasm: hash, manifest, stable: true }, headers: admin })).text).toMatch(
    /^ok crashy@1 pending/,
  );
  const tries = limit('compute.runner_tries');
  // Backoff between tries: 2 s, then 4 s.
  await vi.waitFor(async () => expect(JSON.parse((await call(s, 'GET', '/v1/svc/crashy?f=json')).text).versions[0].state).toBe('failed'), {
    timeout: 20_000,
    interval: 200,
  });
  const v = JSON.parse((await call(s, 'GET', '/v1/svc/crashy?f=json')).text).versions[0] as { log: string };
  expect(v.log).toBe('kat 1: err compute crash runner process died (signal SIGABRT)');
  expect(runs.length).toBe(tries);
  expect(await s.core.store.jobs.stats(KAT_QUEUE)).toMatchObject({ dead: 0 });
}, 30_000);
