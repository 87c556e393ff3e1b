// GET /metrics (poll token) and CX_METRICS_ADDR: the Prometheus text format, calls and errors by
// operation, face and code, latency histograms, process and control gauges, job queues, the store.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mcp } from '../helpers/mcp.js';
import { skill } from '../helpers/faces.js';
import { runExport } from '../../src/core/exports/run.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
const poll = () => ({ authorization: `Bearer ${s.config.operatorTokens.poll}` });

/** The value of one series line (exact labels as printed), or undefined. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  s = await start({ CX_METRICS_ADDR: '127.0.0.1:0' });
});
afterAll(async () => s?.stop());

describe('/metrics', () => {
  it('needs the poll token; a wrong or missing one is err auth', async () => {
    const none = await fetch(`${s.url}/metrics`);
    expect(none.status).toBe(401);
    expect(await none.text()).toMatch(/^err auth/);
    const wrong = await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer cx_wrong' } });
    expect(wrong.status).toBe(401);
    const admin = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${s.config.operatorTokens.admin}` } });
    expect(admin.status).toBe(200);
  });

  it('counts calls by operation, face and code, with latency histograms', async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${s.url}/k/k_nope`)).status).toBe(400);
    const m = await mcp(s);
    await m.call('sys_health', {});
    await m.close();
    await skill(s, null, 'sys.health', {});
    const r = await fetch(`${s.url}/metrics`, { headers: poll() });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const t = await r.text();
    expect(t).toContain('# TYPE cx_requests_total counter');
    expect(t).toContain('# TYPE cx_request_duration_seconds histogram');
    expect(sample(t, 'cx_requests_total{op="sys.health",face="rest",code="ok"}')).toBe(3);
    expect(sample(t, 'cx_requests_total{op="kb.get",face="rest",code="bad"}')).toBe(1);
    expect(sample(t, 'cx_requests_total{op="sys.health",face="mcp",code="ok"}')).toBe(1);
    expect(sample(t, 'cx_requests_total{op="sys.health",face="a2a",code="ok"}')).toBe(1);
    expect(sample(t, 'cx_request_duration_seconds_count{op="sys.health",face="rest"}')).toBe(3);
    expect(
      sample(t, 'cx_request_duration_seconds_bucket{le="+Inf",op="sys.health",face="rest"}') ??
        sample(t, 'cx_request_duration_seconds_bucket{op="sys.health",face="rest",le="+Inf"}'),
    ).toBe(3);
    // Buckets are cumulative and end at the count.
    const buckets = t.split('\n').filter((l) => l.startsWith('cx_request_duration_seconds_bucket{op="sys.health",face="rest"'));
    const vals = buckets.map((l) => Number(l.split(' ')[1]));
    expect(vals.length).toBe(15);
    expect(vals).toEqual([...vals].sort((a, b) => a - b));
    // Labels are operation names, never paths or ids.
    expect(t).not.toContain('k_nope');
    expect(t).not.toMatch(/op="\//);
  });

  it('process, control, queues and store gauges', async () => {
    const admin = { authorization: `Bearer ${s.config.operatorTokens.admin}`, 'content-type': 'application/json' };
    expect((await fetch(`${s.url}/admin/freeze`, { method: 'POST', headers: admin, body: JSON.stringify({ what: 'freeze:notes', on: true }) })).status).toBe(
      200,
    );
    expect((await fetch(`${s.url}/admin/freeze`, { method: 'POST', headers: admin, body: JSON.stringify({ what: 'shed:2', on: true }) })).status).toBe(200);
    await s.core.store.jobs.enqueue('wq:someone:x', {}, { delayMs: 0 });
    const t = await (await fetch(`${s.url}/metrics`, { headers: poll() })).text();
    expect(sample(t, 'cx_frozen{kind="notes"}')).toBe(1);
    expect(sample(t, 'cx_frozen{kind="all"}')).toBe(0);
    // At least the operator's level (a loaded machine may measure more).
    expect(sample(t, 'cx_shed_level')).toBeGreaterThanOrEqual(2);
    expect(sample(t, 'cx_ready')).toBe(1);
    expect(sample(t, 'cx_job_queue_depth{kind="wq",state="ready"}')).toBe(1);
    expect(sample(t, 'cx_job_queue_oldest_ready_seconds{kind="wq"}')).toBeGreaterThanOrEqual(0);
    expect(t).not.toContain('someone');
    expect(sample(t, 'cx_sqlite_wal_bytes{db="commons.db"}')).toBeGreaterThan(0);
    expect(sample(t, 'cx_event_bus_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(t, 'cx_db_busy_seconds_total')).toBeGreaterThan(0);
    expect(t).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(t).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    // SQLite: no pool series.
    expect(t).not.toMatch(/^cx_db_pool_connections\{/m);
    await fetch(`${s.url}/admin/freeze`, { method: 'POST', headers: admin, body: JSON.stringify({ what: 'freeze:notes', on: false }) });
    await fetch(`${s.url}/admin/freeze`, { method: 'POST', headers: admin, body: JSON.stringify({ what: 'shed:2', on: false }) });
  });

  it('CX_METRICS_ADDR serves the same text without a token, and nothing else', async () => {
    expect(s.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const r = await fetch(s.metricsUrl!);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('cx_requests_total{op="sys.health",face="rest",code="ok"}');
    expect((await fetch(s.metricsUrl!.replace('/metrics', '/healthz'))).status).toBe(404);
  });

  it("export and git mirror age: the age of the newest export and of the mirror's head", async () => {
    const t = await start({ CX_SEED: '0' });
    try {
      const scrape = async () => (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${t.config.operatorTokens.poll}` } })).text();
      // The export job may be writing today's already (409 err dup export running): that one counts.
      await runExport(t.core).catch((e: Error) => expect(e.message).toMatch(/^err dup export running/));
      const synced = t.core.mirror ? await t.core.mirror.sync() : null;
      const after = await vi.waitFor(
        async () => {
          const m = await scrape();
          expect(m).toMatch(/^cx_export_age_seconds /m);
          return m;
        },
        { timeout: 20_000, interval: 200 },
      );
      expect(sample(after, 'cx_export_age_seconds')).toBeGreaterThanOrEqual(0);
      expect(sample(after, 'cx_export_age_seconds')).toBeLessThan(60);
      // git is installed wherever the suite runs (the mirror's own tests need it).
      expect(synced?.head).toBeTruthy();
      expect(sample(after, 'cx_git_mirror_age_seconds')).toBeLessThan(60);
    } finally {
      await t.stop();
    }
  });

  it('a request costs little: a million recorded calls take well under a second', () => {
    const t0 = performance.now();
    for (let i = 0; i < 1_000_000; i++) s.core.requests.done('kb.h', 'rest', 'ok', 0.3);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
