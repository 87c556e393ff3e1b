// Slow RE2 filters cannot stall the server: a filter whose compiled program is over
// swarm.filter_prog is refused at SubCreate; one under the cap that still costs milliseconds a line
// is timed, charged to its owner's credits and paused with a reason its owner reads, while the
// serving thread's event-loop delay (monitorEventLoopDelay: the server runs in this process) stays
// bounded and /healthz answers. The time budgets are lowered for this file (vi.mock of `limit`), so
// that the subscriptions go over them within a second of filter time whatever the machine's speed.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FilterMeter, giveTurn } from '../../src/core/swarm/budget.js';
import { compileFilter } from '../../src/core/swarm/filter.js';
import { sql } from '../helpers/db.js';
import { agent, call, later, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';

const OVERRIDE = vi.hoisted((): Record<string, number> => ({ 'swarm.filter_min_ms': 40, 'swarm.filter_credit_ms': 10 }));
vi.mock('../../src/core/kernel/limits.js', async (orig) => {
  const m = await orig<typeof import('../../src/core/kernel/limits.js')>();
  return { ...m, limit: (k: Parameters<typeof m.limit>[0]) => OVERRIDE[k] ?? m.limit(k) };
});

/** The issue's expression: 26 chars, ~3,000 instructions. */
const ISSUE = 're:(?i)(\\w|\\pL|\\pN|\\pP){999}z';
/** Admitted (198 instructions, under the cap of 200) but slow: a few ms on a 1,000-char line of word characters. */
const SLOW = 're:(?i)(\\w|\\pL|\\pN|\\pP){65}z';
const LINE = 'a'.repeat(1000);
const room = 'Budget_0123456789abcdef';

let s: TestServer;
let pubr: Who;
/** Registered up front: a registration after the slow-filter test could meet load shedding's 503. */
const who: Record<string, Who> = {};

beforeAll(async () => {
  // Load shedding off: this file makes load on purpose, and measures the serving thread itself.
  s = await start({ CX_TRUST_PROXY: '1', CX_QUOTA_MULT: '20', CX_SHED: '0' });
  pubr = await agent(s, 'publisher');
  for (const n of ['capper', 'slow0', 'slow1', 'slow2', 'slow3', 'capped', 'digester', 'oldfilter']) who[n] = await agent(s, n);
});
afterAll(async () => s.stop());

const subscribe = (who: Who, body: Record<string, unknown>) => call(s, 'POST', '/v1/subs', { as: who, json: body, headers: { accept: 'application/json' } });
const pub = (topic: string, text: string) => call(s, 'POST', `/v1/pub/${topic}`, { as: pubr, text });
type SubJson = { id: string; cursor: number; filtered: number; delivered: number; filter_ms: number; paused: string | null; paused_until: string | null };
const subsOf = async (who: Who) => (JSON.parse((await call(s, 'GET', '/v1/subs?f=json', { as: who })).text) as { subs: SubJson[] }).subs;
const credits = async (who: Who) =>
  JSON.parse((await call(s, 'GET', '/v1/credits?f=json&n=50', { as: who })).text) as {
    balance: number;
    postings: Array<{ kind: string; amount: number; ref: string | null }>;
  };

/** The p-th percentile of `xs` (ms, rounded to 0.1). */
const pct = (xs: number[], p: number) => {
  const v = [...xs].sort((a, b) => a - b);
  return Math.round(v[Math.min(v.length - 1, Math.floor((v.length * p) / 100))]! * 10) / 10;
};

/**
 * Stalls of the event loop as this process's own CPU time: a 2 ms timer's lateness counted as the
 * process CPU time spent meanwhile, at most the wall time (so the time the OS gave to other
 * processes of a shared machine is left out).
 */
function stallProbe(): { stop(): number[] } {
  const stalls: number[] = [];
  let last = performance.now();
  let lc = process.cpuUsage();
  const iv = setInterval(() => {
    const n = performance.now();
    const c = process.cpuUsage(lc);
    stalls.push(Math.min(n - last, (c.user + c.system) / 1000));
    last = n;
    lc = process.cpuUsage();
  }, 2);
  return {
    stop() {
      clearInterval(iv);
      return stalls;
    },
  };
}

describe('the program-size cap at SubCreate', () => {
  it("refuses the issue's expression with the program size and the cap; ordinary filters pass", async () => {
    const me = who.capper!;
    const r = await call(s, 'POST', '/v1/subs', { as: me, json: { topic: `r:${room}.cap`, sink: 'mb:me', filter: ISSUE } });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/^err bad filter re: program of 3000 instructions over the cap of 200 /);
    const over = await call(s, 'POST', '/v1/subs', { as: me, json: { topic: `r:${room}.cap`, sink: 'mb:me', filter: 're:(?i)(\\w|\\pL|\\pN|\\pP){66}z' } });
    expect(over.text).toMatch(/^err bad filter re: program of 201 instructions over the cap of 200 /);
    for (const filter of [
      're:^ERROR',
      're:(?i)timeout|refused',
      're:\\d{3} ms',
      're:[0-9a-f]{64}',
      're:^\\d{4}-\\d{2}-\\d{2}T.{0,30}(ERROR|FATAL)',
      SLOW,
      'prefix:deploy ',
    ]) {
      const ok = await subscribe(me, { topic: `r:${room}.cap`, sink: 'mb:me', filter });
      expect(ok.status, filter).toBe(201);
    }
    // The same cap in the one compile function deliveries use.
    expect(() => compileFilter(ISSUE)).toThrow(/program of 3000 instructions over the cap of 200/);
  });
});

describe('time budget', () => {
  it('slow admitted filters: the serving thread stays responsive, each subscription is paused with its reason and its time charged', async () => {
    const topic = `r:${room}.slow`;
    const owners = [0, 1, 2, 3].map((i) => who[`slow${i}`]!);
    const before = await Promise.all(owners.map(credits));
    for (const o of owners) for (let i = 0; i < 10; i++) expect((await subscribe(o, { topic, sink: `kv:slow/k${i}`, filter: SLOW })).status).toBe(201);

    // Warm: the first line published in a process sets up the publish path (scrub, hazard lists).
    expect((await pub(`r:${room}.warm`, LINE)).status).toBe(201);
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    const probe = stallProbe();
    // /healthz polled all along: each answer's time.
    const health: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const t0 = performance.now();
        const r = await fetch(`${s.url}/healthz`);
        await r.arrayBuffer();
        expect(r.status).toBe(200);
        health.push(performance.now() - t0);
        await new Promise((res) => setTimeout(res, 20));
      }
    })();
    const t0 = performance.now();
    const N = 40;
    let stalls: number[];
    try {
      for (let i = 0; i < N; i++) expect((await pub(topic, LINE)).status).toBe(201);
      // 40 subscriptions, each allowed 40 ms of filter time in a minute: all paused within about 2 s of filter time.
      await vi.waitFor(
        async () => {
          for (const o of owners) for (const x of await subsOf(o)) expect(x.paused, x.id).not.toBeNull();
        },
        { timeout: 20_000, interval: 200 },
      );
    } finally {
      polling = false;
      await poller;
      h.disable();
      stalls = probe.stop();
    }
    const wall = performance.now() - t0;
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const fig = {
      wall_ms: Math.round(wall),
      loop_p50_ms: ms(h.percentile(50)),
      loop_p99_ms: ms(h.percentile(99)),
      loop_max_ms: ms(h.max),
      own_p99_ms: pct(stalls, 99),
      own_max_ms: pct(stalls, 100),
      own_top: [...stalls]
        .sort((a, b) => b - a)
        .slice(0, 6)
        .map((x) => Math.round(x)),
      own_n: stalls.length,
      healthz_n: health.length,
      healthz_p50_ms: pct(health, 50),
      healthz_max_ms: pct(health, 100),
    };
    console.log('slow filters, 40 subscriptions x 40 lines of 1000 chars:', JSON.stringify(fig));
    // What the serving thread itself holds the loop for (each stall's CPU time): a slice of
    // delivery and the lines in progress; once, the first evaluation in the process (not yet
    // compiled by V8, ~60-110 ms). Without the fix: most stalls 180-460 ms of this process's own CPU.
    expect(fig.own_top[1]).toBeLessThan(100);
    // The delay as the loop sees it, which also holds the time the OS gave other processes: on a
    // shared machine (2 cores, load 5-11 while this was written) p99 read 80-260 ms with the fix
    // and ~460 ms without it at this scale, so this bound is loose.
    expect(fig.loop_p99_ms).toBeLessThan(500);
    expect(fig.healthz_n).toBeGreaterThan(5);
    expect(fig.healthz_max_ms).toBeLessThan(1000);

    const now = Date.now();
    for (const [k, o] of owners.entries()) {
      const subs = await subsOf(o);
      let spentMs = 0;
      for (const x of subs) {
        expect(x.paused).toMatch(/^filter over its time budget \(\d+ ms in the last minute, over 40 ms\)$/);
        // Paused for swarm.filter_pause (an hour): the lines after the one that went over wait.
        expect(Date.parse(x.paused_until!) - now).toBeGreaterThan(3_500_000);
        expect(x.cursor).toBeLessThan(N);
        expect(x.filter_ms).toBeGreaterThanOrEqual(40);
        spentMs += x.filter_ms;
      }
      const text = (await call(s, 'GET', '/v1/subs', { as: o })).text;
      expect(text).toMatch(/ filter_ms=[\d.]+ expires=\S+ paused_until=\S+ paused="filter over its time budget \(\d+ ms in the last minute, over 40 ms\)"\n/);
      // Charged: 1 credit per 10 ms of filter time (the remainder below a credit stays owed).
      const after = await credits(o);
      const charged = before[k]!.balance - after.balance;
      expect(charged).toBeGreaterThanOrEqual(Math.floor(spentMs / 10) - 10);
      expect(charged).toBeLessThanOrEqual(Math.ceil(spentMs / 10));
      expect(after.postings.filter((p) => p.kind === 'filter').length).toBeGreaterThan(0);
    }
    // While paused, more lines move nothing.
    const cursors = (await subsOf(owners[0]!)).map((x) => x.cursor);
    await pub(topic, LINE);
    await new Promise((r) => setTimeout(r, 300));
    expect((await subsOf(owners[0]!)).map((x) => x.cursor)).toEqual(cursors);
  });

  it('at its max_credits_day a subscription is paused until the next UTC day, its reason said', async () => {
    const me = who.capped!;
    const topic = `r:${room}.credits`;
    const r = await subscribe(me, { topic, sink: 'kv:cr/last', filter: SLOW, max_credits_day: 1 });
    const id = (JSON.parse(r.text) as { id: string }).id;
    for (let i = 0; i < 12; i++) await pub(topic, LINE);
    await vi.waitFor(async () => expect((await subsOf(me)).find((x) => x.id === id)!.paused).toMatch(/^filter cost: max_credits_day 1 reached/), {
      timeout: 10_000,
    });
    const sub = (await subsOf(me)).find((x) => x.id === id)!;
    expect(Date.parse(sub.paused_until!) % 86_400_000).toBe(0);
    expect(sub.cursor).toBeLessThan(12);
  });

  it('digest mode: the digest carries the lines judged until the budget ran out; the rest wait for the pause', async () => {
    const me = who.digester!;
    const topic = `r:${room}.digest`;
    const id = (JSON.parse((await subscribe(me, { topic, sink: 'wq:dg', mode: 'digest', filter: SLOW })).text) as { id: string }).id;
    for (let i = 0; i < 30; i++) await pub(topic, i % 2 ? LINE : `${LINE.slice(1)}z`);
    // Ten minutes on (the server's clock): the ticker finds it due.
    await later(s, 601_000, () =>
      vi.waitFor(async () => expect((await subsOf(me)).find((x) => x.id === id)!.paused).toMatch(/^filter over its time budget/), { timeout: 10_000 }),
    );
    const sub = (await subsOf(me)).find((x) => x.id === id)!;
    expect(sub.cursor).toBeGreaterThan(0);
    expect(sub.cursor).toBeLessThan(30);
    expect(sub.delivered + sub.filtered).toBe(sub.cursor);
    const item = JSON.parse((await call(s, 'POST', '/v1/wq/dg/claim?f=json', { as: me })).text).item as { lines: Array<{ seq: number }> };
    expect(item.lines.length).toBe(sub.delivered);
    // Due again when the pause ends (the listing's time is to the second).
    expect(Math.abs((await s.core.store.swarm.get(id))!.due! - Date.parse(sub.paused_until!))).toBeLessThan(1000);
  });

  it('a stored filter over the cap (admitted before it was lowered) pauses its subscription with the reason', async () => {
    const me = who.oldfilter!;
    const topic = `r:${room}.old`;
    const id = (JSON.parse((await subscribe(me, { topic, sink: 'kv:old/last', filter: 're:^ok' })).text) as { id: string }).id;
    sql(s, 'UPDATE swarm_subs SET filter = ? WHERE id = ?', ISSUE, id);
    await pub(topic, 'ok then');
    await vi.waitFor(
      async () =>
        expect((await subsOf(me)).find((x) => x.id === id)!.paused).toMatch(/^filter re: program of 3000 instructions over the cap of 200 .*cancel it/),
      { timeout: 10_000 },
    );
    expect((await subsOf(me)).find((x) => x.id === id)!.cursor).toBe(0);
  });
});

describe('the meter', () => {
  it('one line over swarm.filter_line_ms pauses; the rolling minute forgets what is older than 60 s', () => {
    const m = new FilterMeter();
    const t = Date.parse('2026-11-28T10:00:00Z');
    expect(m.add('u1', 39, t)).toBeNull();
    expect(m.add('u3', 101, t)).toMatch(/^filter over its time budget \(one line took 101 ms, over 100 ms\)$/);
    // 30 ms now and 30 ms 61 s later: never 40 ms in one minute.
    expect(m.add('u2', 30, t)).toBeNull();
    expect(m.add('u2', 30, t + 61_000)).toBeNull();
    expect(m.lastMinute('u2', t + 61_000)).toBe(30);
    expect(m.add('u2', 11, t + 62_000)).toMatch(/\(41 ms in the last minute, over 40 ms\)$/);
    // A new window after a pause; what is owed stays: 71 ms of u2 at 10 ms a credit is 7, 1 ms left owed.
    expect(m.lastMinute('u2', t + 62_000)).toBe(0);
    expect(m.takeCredits('u2')).toBe(7);
    expect(m.takeCredits('u2')).toBe(0);
    expect(m.takeCredits('nobody')).toBe(0);
  });

  it('delivery gives the event loop a turn once swarm.slice_ms has passed since the last one, not before', async () => {
    const spin = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    spin(7);
    await giveTurn();
    let ran = false;
    setImmediate(() => (ran = true));
    await giveTurn();
    expect(ran).toBe(false);
    spin(7);
    await giveTurn();
    expect(ran).toBe(true);
  });
});
