// /admin/stats covers every domain: counters (each equal to its table's rows in commons.db) and
// storage classes for topics, subscriptions, webhooks, services, jobs, proposals, notices,
// injection reports, digests and the operator's module blobs; writes through the API move them.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMAIN_CLASSES, PLATFORM_COUNTERS } from '../../src/store/platform-counters.js';
import { agent, req, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';

type Stats = { counters: Record<string, number>; classes: Array<{ cls: string; rows: number; bytes: number }> };
let s: TestServer;
let bob: Who;
const stats = async (): Promise<Stats> =>
  (await (await fetch(`${s.url}/admin/stats?f=json`, { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}` } })).json()) as Stats;
const cls = (st: Stats, name: string) => st.classes.find((c) => c.cls === name)!;

beforeAll(async () => {
  s = await start({ CX_SEED: '1' }); // the sample KB and services
  bob = await agent(s);
});
afterAll(async () => s?.stop());

describe('/admin/stats of every domain', () => {
  it('writes move the counters and classes of their domain', async () => {
    const before = await stats();
    expect(before.classes.map((c) => c.cls)).toEqual(['sealed', 'public', 'private', 'blob', 'ledger', 'events', ...DOMAIN_CLASSES.map(([c]) => c)]);
    // The sample services of the seed are there.
    expect(before.counters.services).toBeGreaterThan(0);
    expect(cls(before, 'services').rows).toBeGreaterThan(0);

    const hook = await req(s, 'POST', '/v1/in', { as: bob, json: { provider: 'generic', topic: `~${bob.id.slice(1)}` } });
    const sub = await req(s, 'POST', '/v1/subs', { as: bob, json: { topic: 'g:stats', sink: 'wq:stats', filter: 'prefix:ab' } });
    // A module blob of the operator: the smallest WebAssembly module.
    const wasm = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    const blob = await fetch(`${s.url}/admin/blob`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${s.config.operatorTokens.admin}`, 'content-type': 'application/octet-stream' },
      body: wasm,
    });
    expect([hook.status, sub.status, blob.status], `${await hook.text()} ${await sub.text()} ${await blob.text()}`).toEqual([201, 201, 200]);

    const after = await stats();
    expect(after.counters.webhooks! - before.counters.webhooks!).toBe(1);
    expect(cls(after, 'webhooks').rows - cls(before, 'webhooks').rows).toBe(1);
    expect(cls(after, 'webhooks').bytes).toBeGreaterThan(cls(before, 'webhooks').bytes);
    expect(after.counters.subscriptions! - before.counters.subscriptions!).toBe(1);
    expect(cls(after, 'subscriptions').bytes - cls(before, 'subscriptions').bytes).toBe('prefix:ab'.length);
    expect(after.counters.op_blobs! - before.counters.op_blobs!).toBe(1);
    expect(cls(after, 'modules')).toEqual({ cls: 'modules', rows: cls(before, 'modules').rows + 1, bytes: cls(before, 'modules').bytes + 8 });
  });

  it("every counter is its table's row count; the text form lists every class", async () => {
    await s.core.store.events.publish('g:stats', 'one line');
    const db = new Database(join(s.dir, 'commons.db'), { readonly: true });
    try {
      // Background work (jobs, events) may move a count while we read: the answer lies between a
      // count taken just before it and one just after.
      const count = () =>
        Object.fromEntries(
          PLATFORM_COUNTERS.map(([k, table, where]) => [k, (db.prepare(`SELECT count(*) AS n FROM ${table} ${where ?? ''}`).get() as { n: number }).n]),
        );
      const lo = count();
      const st = await stats();
      const hi = count();
      for (const [k] of PLATFORM_COUNTERS) {
        expect(st.counters[k], k).toBeGreaterThanOrEqual(Math.min(lo[k]!, hi[k]!));
        expect(st.counters[k], k).toBeLessThanOrEqual(Math.max(lo[k]!, hi[k]!));
      }
      expect(st.counters.topics).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    const txt = await (await fetch(`${s.url}/admin/stats`, { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}` } })).text();
    for (const [c] of DOMAIN_CLASSES) expect(txt).toMatch(new RegExp(`\\nclass ${c} rows=\\d+ bytes=\\d+\\n`));
    for (const k of ['topics', 'subscriptions', 'webhooks', 'services', 'jobs_queued', 'proposals', 'notices', 'inj_reports', 'digests', 'op_blobs'])
      expect(txt).toMatch(new RegExp(` ${k}=\\d+`));
  });
});
