// System operations: liveness and the live limits table.
import { z } from 'zod';
import { LIMITS, NAME_RULES, QUOTAS, TRUST_LEVELS, limit } from '../kernel/limits.js';
import { shedTable } from '../platform/control/shed.js';
import { defineOp } from '../kernel/types.js';
import type { AnyOperation, Core } from '../kernel/types.js';
import { METRICS_CONTENT_TYPE, renderMetrics } from '../platform/metrics/metrics.js';
import { hint, next } from '../kernel/hints.js';

const healthOut = z.object({
  ok: z.boolean(),
  version: z.string(),
  uptime_s: z.number(),
  db: z.boolean(),
  shed: z.number().optional(),
  shed_reasons: z.array(z.string()).optional(),
  frozen: z.array(z.string()).optional(),
  maintenance_until: z.string().nullable().optional(),
});
type HealthOut = z.infer<typeof healthOut>;

export const healthOp = defineOp({
  name: 'sys.health',
  title: 'Liveness',
  summary: 'Liveness of the service; v=2 adds shed levels, frozen kinds and maintenance_until.',
  input: z.object({ v: z.number().int().min(1).max(2).default(1) }).strict(),
  output: healthOut,
  auth: 'anon',
  readOnly: true,
  shed: 'never',
  idempotent: true,
  rest: { method: 'GET', path: '/healthz', cache: 'no-store' },
  async run(ctx, input): Promise<HealthOut> {
    const { core } = ctx;
    const db = await core.store.ping().catch(() => false);
    const base = { ok: db, version: core.version, uptime_s: Math.floor((core.now() - core.started) / 1000), db };
    if (input.v < 2) return base;
    // A store that cannot be read even once leaves the control state unknown: liveness still answers.
    const s = await core.control.status().catch(() => null);
    if (!s) return base;
    return { ...base, shed: s.shed, shed_reasons: s.shedReasons, frozen: s.frozen, maintenance_until: s.maintenanceUntil };
  },
  text: (h, ctx) =>
    [
      `${h.ok ? 'ok' : 'degraded'} version=${h.version} uptime=${h.uptime_s}s db=${h.db ? 'ok' : 'down'}`,
      ...(h.shed === undefined
        ? []
        : [
            `shed: ${h.shed}${h.shed_reasons?.length ? ' ' + h.shed_reasons.join(',') : ''}`,
            `frozen: ${h.frozen?.length ? h.frozen.join(',') : '-'}`,
            `maintenance_until: ${h.maintenance_until ?? '-'}`,
          ]),
      h.shed === undefined
        ? next(ctx, hint('sys.health', { v: 2 }), ' adds shed levels, frozen kinds and maintenance')
        : next(ctx, hint('sys.status'), ' for announcements and maintenance windows'),
    ].join('\n'),
});

const limitsOut = z.object({
  pow: z.object({
    reg_bits: z.number(),
    w_bits: z.number(),
    ttl_s: z.number(),
    reg_bits_min: z.number(),
    reg_bits_max: z.number(),
    w_bits_min: z.number(),
    w_bits_max: z.number(),
    window_s: z.number(),
    regs: z.number().describe('registrations in the window, all networks'),
    regs_net: z.number().describe('registrations in the window from your network'),
  }),
  shed: z.array(z.object({ class: z.string(), from: z.number().nullable(), what: z.string() })),
  limits: z.array(z.object({ key: z.string(), value: z.number(), unit: z.string(), what: z.string() })),
  quotas: z.array(z.object({ bucket: z.string(), by: z.string(), burst: z.number(), per: z.number(), window_s: z.number(), what: z.string() })),
  levels: z.array(z.object({ lvl: z.number(), rep: z.number(), confirmed: z.number(), age_d: z.number(), what: z.string() })),
  rules: z.array(z.object({ key: z.string(), rule: z.string() })).describe('name rules that refuse a call (topic names, rooms)'),
});
type LimitsOut = z.infer<typeof limitsOut>;
const limitsMemo = new WeakMap<object, Omit<LimitsOut, 'pow'>>();

export const limitsOp = defineOp({
  name: 'sys.limits',
  title: 'Live limits',
  summary: 'Every limit, quota, trust-level threshold and the live PoW difficulty.',
  input: z.object({}).strict(),
  output: limitsOut,
  auth: 'anon',
  readOnly: true,
  shed: 'never',
  idempotent: true,
  rest: { method: 'GET', path: '/limits', twins: ['json', 'md', 'txt'], cache: 'public, max-age=300' },
  async run(ctx): Promise<LimitsOut> {
    // The table is fixed for the life of a core: built once; the PoW figures are live, for the caller's network.
    const { pow } = ctx.core;
    let fixed = limitsMemo.get(ctx.core);
    if (!fixed) {
      fixed = {
        limits: LIMITS.map((l) => ({ ...l })),
        quotas: QUOTAS.map((q) => ({ ...q })),
        levels: TRUST_LEVELS.map((t) => ({ ...t })),
        shed: shedTable().map((c) => ({ class: c.cls, from: c.from, what: c.what })),
        rules: NAME_RULES.map((r) => ({ ...r })),
      };
      limitsMemo.set(ctx.core, fixed);
    }
    await pow.rates.refresh(ctx.net);
    const reg = pow.difficulty('reg', ctx.net);
    const w = pow.difficulty('w', ctx.net);
    const rb = pow.bounds('reg');
    const wb = pow.bounds('w');
    const c = pow.rates.counts(ctx.net);
    // The live difficulty replaces the table's defaults (CX_POW_BITS may override the base).
    const live: Record<string, number> = { 'pow.reg_bits': reg, 'pow.w_bits': w };
    return {
      pow: {
        reg_bits: reg,
        w_bits: w,
        ttl_s: limit('pow.ttl'),
        reg_bits_min: rb.min,
        reg_bits_max: rb.max,
        w_bits_min: wb.min,
        w_bits_max: wb.max,
        window_s: limit('pow.window'),
        regs: c.global,
        regs_net: c.net,
      },
      limits: fixed.limits.map((l) => (l.key in live ? { ...l, value: live[l.key]! } : l)),
      quotas: fixed.quotas,
      levels: fixed.levels,
      shed: fixed.shed,
      rules: fixed.rules,
    };
  },
  text: (o, ctx) =>
    [
      `limits pow_reg_bits=${o.pow.reg_bits} pow_w_bits=${o.pow.w_bits} pow_ttl=${o.pow.ttl_s}s`,
      `pow live: reg_bits=${o.pow.reg_bits} (${o.pow.reg_bits_min}-${o.pow.reg_bits_max}) w_bits=${o.pow.w_bits} (${o.pow.w_bits_min}-${o.pow.w_bits_max}) registrations=${o.pow.regs} your_net=${o.pow.regs_net} window=${o.pow.window_s}s`,
      ...o.shed.map((c) => `shed.class ${c.class} from=${c.from ?? 'never'} ${c.what}`),
      ...o.limits.map((l) => `${l.key} ${l.value} ${l.unit}`),
      ...o.quotas.map((q) => `quota.${q.bucket} ${q.per}/${q.window_s}s burst=${q.burst} by=${q.by}`),
      ...o.levels.map((t) => `level L${t.lvl} rep>=${t.rep} confirmed>=${t.confirmed} age>=${t.age_d}d`),
      ...o.rules.map((r) => `rule.${r.key} ${r.rule}`),
      next(ctx, { op: 'sys.limits', twin: 'md', say: 'for descriptions' }),
    ].join('\n'),
  md: (o) =>
    [
      '# Limits',
      '',
      `Proof of work: registration ${o.pow.reg_bits} bits, anonymous write ${o.pow.w_bits} bits, challenge lifetime ${o.pow.ttl_s} s.`,
      '',
      `The difficulty is live: 1 bit per doubling of the registrations in the last ${o.pow.window_s} s above the calm rates (pow.calm_global, pow.calm_net; ${o.pow.regs} now, ${o.pow.regs_net} from your network), within registration ${o.pow.reg_bits_min}-${o.pow.reg_bits_max} and anonymous write ${o.pow.w_bits_min}-${o.pow.w_bits_max} bits. A challenge states its own bits.`,
      '',
      '## Load shedding classes',
      '',
      "Refused with `503 err busy` and Retry-After from the level on (the larger of the operator's and the measured level, /healthz?v=2).",
      '',
      '| class | shed from level | what |',
      '|---|---|---|',
      ...o.shed.map((c) => `| ${c.class} | ${c.from ?? 'never'} | ${c.what} |`),
      '',
      '| key | value | unit | what |',
      '|---|---|---|---|',
      ...o.limits.map((l) => `| ${l.key} | ${l.value} | ${l.unit} | ${l.what} |`),
      '',
      '## Quotas (token buckets)',
      '',
      '| bucket | by | burst | refill | what |',
      '|---|---|---|---|---|',
      ...o.quotas.map((q) => `| ${q.bucket} | ${q.by} | ${q.burst} | ${q.per} per ${q.window_s} s | ${q.what} |`),
      '',
      '## Trust levels',
      '',
      '| level | rep | confirmed fixes | age (days) | what |',
      '|---|---|---|---|---|',
      ...o.levels.map((t) => `| L${t.lvl} | ${t.rep} | ${t.confirmed} | ${t.age_d} | ${t.what} |`),
      '',
      '## Name rules',
      '',
      ...o.rules.map((r) => `- **${r.key}**: ${r.rule}`),
      '',
    ].join('\n'),
});

const readyOut = z.object({ ready: z.boolean(), phase: z.enum(['starting', 'ready', 'draining']), db: z.boolean() });
type ReadyOut = z.infer<typeof readyOut>;

/** The store's ping, false past `ms`: a database that hangs (a dropped network) is as unready as one that refuses. */
function pingWithin(core: Core, ms: number): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((ok) => (t = setTimeout(() => ok(false), ms)));
  return Promise.race([core.store.ping().catch(() => false), late]).finally(() => clearTimeout(t));
}

export const readyOp = defineOp({
  name: 'sys.ready',
  title: 'Readiness',
  summary:
    'Whether this process takes requests: 200 when started and its database answers; 503 while it starts (migrations), drains after SIGTERM, or cannot reach the database. A balancer routes on this, a supervisor restarts on /healthz.',
  input: z.object({}).strict(),
  output: readyOut,
  auth: 'anon',
  readOnly: true,
  shed: 'never',
  idempotent: true,
  rest: { method: 'GET', path: '/readyz', cache: 'no-store', statusOf: (o) => (o.ready ? 200 : 503) },
  async run(ctx): Promise<ReadyOut> {
    const { core } = ctx;
    const phase = core.ready.phase;
    // A draining process answers without asking the database: it is leaving either way.
    const db = phase === 'draining' ? false : await pingWithin(core, limit('ready.db_wait'));
    return { ready: phase === 'ready' && db, phase, db };
  },
  text: (r, ctx) =>
    `${r.ready ? 'ready' : `not ready: ${r.phase !== 'ready' ? r.phase : 'database unreachable'}`}\n${next(ctx, hint('sys.health', { v: 2 }, 'for shed levels, freezes and maintenance'))}`,
});

export const metricsOp = defineOp({
  name: 'sys.metrics',
  title: 'Prometheus metrics',
  summary:
    'Metrics in the Prometheus text format: calls, errors by code and latency per operation and face; event-loop lag, heap, shed level, frozen kinds; job queues; event-bus lag; database pool or WAL; git mirror and export age (poll token; or unauthenticated on CX_METRICS_ADDR).',
  input: z.object({}).strict(),
  output: z.object({ text: z.string() }),
  auth: 'poll',
  readOnly: true,
  shed: 'never',
  idempotent: true,
  rest: { method: 'GET', path: '/metrics', cache: 'no-store', rawOnly: true, raw: (o) => ({ body: o.text, type: METRICS_CONTENT_TYPE }) },
  async run(ctx) {
    return { text: await renderMetrics(ctx.core) };
  },
  text: (o) => o.text,
});

export const systemOps: AnyOperation[] = [healthOp, readyOp, limitsOp, metricsOp];
