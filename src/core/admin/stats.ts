// GET /admin/stats: platform counters, flags and storage classes, all read from the store and the
// control state at the time of the call.
import { z } from 'zod';
import { defineOp } from '../kernel/types.js';
import { hint, next } from '../kernel/hints.js';

export const adminStatsOp = defineOp({
  name: 'admin.stats',
  title: 'Platform counters',
  summary:
    'Platform counters (rows per domain), flags (freezes, shed level, maintenance, seed roots, hidden status pages) and storage classes (rows and bytes by kind of data) (poll token).',
  input: z.object({}).strict(),
  output: z.object({
    identities: z.number(),
    uptime_s: z.number(),
    shed: z.number(),
    frozen: z.array(z.string()),
    storage: z.string(),
    version: z.string(),
    maintenance_until: z.string().nullable(),
    file_bytes: z.number(),
    counters: z.record(z.string(), z.number()),
    flags: z.object({ shed_reasons: z.array(z.string()), seed_roots: z.array(z.string()), st_hidden: z.number() }),
    classes: z.array(z.object({ cls: z.string(), rows: z.number(), bytes: z.number() })),
    /** The read standby (PostgreSQL with CX_DATABASE_READ_URL), null without one. */
    standby: z
      .object({
        state: z.enum(['ok', 'lagging', 'down']),
        lag_ms: z.number().nullable(),
        reads_standby: z.number(),
        reads_primary: z.number(),
        why: z.string(),
      })
      .nullable(),
  }),
  auth: 'poll',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/admin/stats', cache: 'no-store' },
  async run(ctx) {
    const { core } = ctx;
    const [s, c, seeds] = await Promise.all([core.control.status(), core.store.admin.counts(), core.store.admin.marks('seed')]);
    const standby = core.store.standbyReads?.health() ?? null;
    return {
      identities: c.counters.identities ?? 0,
      uptime_s: Math.floor((core.now() - core.started) / 1000),
      shed: s.shed,
      frozen: s.frozen,
      storage: c.engine,
      version: core.version,
      maintenance_until: s.maintenanceUntil,
      file_bytes: c.file_bytes,
      counters: c.counters,
      flags: { shed_reasons: s.shedReasons, seed_roots: seeds, st_hidden: c.counters.st_hidden ?? 0 },
      classes: c.storage,
      standby: standby
        ? { state: standby.state, lag_ms: standby.lagMs, reads_standby: standby.reads.standby, reads_primary: standby.reads.primary, why: standby.why }
        : null,
    };
  },
  text: (s, ctx) =>
    [
      `stats identities=${s.identities} uptime=${s.uptime_s}s shed=${s.shed} frozen=${s.frozen.join(',') || '-'} storage=${s.storage} version=${s.version}`,
      `flags: maintenance_until=${s.maintenance_until ?? '-'} shed_reasons=${s.flags.shed_reasons.join(',') || '-'} seed_roots=${s.flags.seed_roots.join(',') || '-'} st_hidden=${s.flags.st_hidden}`,
      `counters: ${Object.entries(s.counters)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
      ...s.classes.map((c) => `class ${c.cls} rows=${c.rows} bytes=${c.bytes}`),
      `file: ${s.file_bytes} bytes`,
      ...(s.standby
        ? [
            `standby: state=${s.standby.state} lag_ms=${s.standby.lag_ms ?? '-'} reads_standby=${s.standby.reads_standby} reads_primary=${s.standby.reads_primary}${s.standby.why ? ` why=${s.standby.why.replace(/\s+/g, '_')}` : ''}`,
          ]
        : []),
      next(ctx, hint('admin.inbox'), ' for what waits for a decision'),
    ].join('\n'),
});
