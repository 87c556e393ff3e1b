// Operator reads. More operator operations arrive with their domains.
import { z } from 'zod';
import { defineOp } from '../ops/types.js';
import type { AnyOperation } from '../ops/types.js';

export const adminStatsOp = defineOp({
  name: 'admin.stats',
  title: 'Platform counters',
  summary: 'Platform counters, flags and storage classes (poll token).',
  input: z.object({}).strict(),
  output: z.object({ identities: z.number(), uptime_s: z.number(), shed: z.number(), frozen: z.array(z.string()), storage: z.string(), version: z.string() }),
  auth: 'poll',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/admin/stats', cache: 'no-store' },
  async run(ctx) {
    const { core } = ctx;
    const s = await core.control.status();
    return {
      identities: await core.store.identities.count(),
      uptime_s: Math.floor((core.now() - core.started) / 1000),
      shed: s.shed,
      frozen: s.frozen,
      storage: 'sqlite-wal',
      version: core.version,
    };
  },
  text: (s) => `stats identities=${s.identities} uptime=${s.uptime_s}s shed=${s.shed} frozen=${s.frozen.join(',') || '-'} storage=${s.storage} version=${s.version}`,
});

export const adminOps: AnyOperation[] = [adminStatsOp];
