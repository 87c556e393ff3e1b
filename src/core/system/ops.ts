// System operations: liveness and the live limits table.
import { z } from 'zod';
import { LIMITS, QUOTAS, TRUST_LEVELS } from '../limits.js';
import { defineOp } from '../ops/types.js';
import type { AnyOperation } from '../ops/types.js';

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
  text: (h) =>
    [
      `${h.ok ? 'ok' : 'degraded'} version=${h.version} uptime=${h.uptime_s}s db=${h.db ? 'ok' : 'down'}`,
      ...(h.shed === undefined
        ? []
        : [`shed: ${h.shed}${h.shed_reasons?.length ? ' ' + h.shed_reasons.join(',') : ''}`, `frozen: ${h.frozen?.length ? h.frozen.join(',') : '-'}`, `maintenance_until: ${h.maintenance_until ?? '-'}`]),
    ].join('\n'),
});

const limitsOut = z.object({
  pow: z.object({ reg_bits: z.number(), w_bits: z.number(), ttl_s: z.number() }),
  limits: z.array(z.object({ key: z.string(), value: z.number(), unit: z.string(), what: z.string() })),
  quotas: z.array(z.object({ bucket: z.string(), by: z.string(), burst: z.number(), per: z.number(), window_s: z.number(), what: z.string() })),
  levels: z.array(z.object({ lvl: z.number(), rep: z.number(), confirmed: z.number(), age_d: z.number(), what: z.string() })),
});
type LimitsOut = z.infer<typeof limitsOut>;
const limitsMemo = new WeakMap<object, LimitsOut>();

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
    // The table is fixed for the life of a core: build it once.
    const hit = limitsMemo.get(ctx.core);
    if (hit) return hit;
    const bits = ctx.core.config.powBits;
    // The live difficulty replaces the table's defaults (CX_POW_BITS may override them).
    const live: Record<string, number> = { 'pow.reg_bits': bits.reg, 'pow.w_bits': bits.w };
    const out = {
      pow: { reg_bits: bits.reg, w_bits: bits.w, ttl_s: LIMITS.find((l) => l.key === 'pow.ttl')!.value },
      limits: LIMITS.map((l) => (l.key in live ? { ...l, value: live[l.key]! } : { ...l })),
      quotas: QUOTAS.map((q) => ({ ...q })),
      levels: TRUST_LEVELS.map((t) => ({ ...t })),
    };
    limitsMemo.set(ctx.core, out);
    return out;
  },
  text: (o) =>
    [
      `limits pow_reg_bits=${o.pow.reg_bits} pow_w_bits=${o.pow.w_bits} pow_ttl=${o.pow.ttl_s}s`,
      ...o.limits.map((l) => `${l.key} ${l.value} ${l.unit}`),
      ...o.quotas.map((q) => `quota.${q.bucket} ${q.per}/${q.window_s}s burst=${q.burst} by=${q.by}`),
      ...o.levels.map((t) => `level L${t.lvl} rep>=${t.rep} confirmed>=${t.confirmed} age>=${t.age_d}d`),
      'next: GET /limits.md for descriptions',
    ].join('\n'),
  md: (o) =>
    [
      '# Limits',
      '',
      `Proof of work: registration ${o.pow.reg_bits} bits, anonymous write ${o.pow.w_bits} bits, challenge lifetime ${o.pow.ttl_s} s.`,
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
    ].join('\n'),
});

export const systemOps: AnyOperation[] = [healthOp, limitsOp];
