// POST /admin/demand: search demand (queries from Search Console or Bing Webmaster) imported by the
// operator. Queries are written by strangers and may end up in text agents read, so each row passes a
// strict filter and is dropped on any finding: the secret scrubber, the hazard families, the injection
// lexicon, and what a search query should not carry (mail addresses, phone-like digit runs, control
// characters, URLs with credentials or query strings in q).
import { z } from 'zod';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import { strictFinding } from '../kernel/safety/strict.js';
import type { DemandRow } from './ports.js';
import { hint, next } from '../kernel/hints.js';

function pageFinding(page: string): string | null {
  if (!page) return null;
  let u: URL;
  try {
    u = new URL(page);
  } catch {
    return 'page';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'page';
  if (u.username || u.password) return 'page credentials';
  return strictFinding(decodeURIComponent(page.replace(/%(?![0-9a-f]{2})/gi, '%25')));
}

const rowIn = z
  .object({
    q: z.string().max(limit('demand.q')),
    impressions: z.number().int().min(0),
    clicks: z.number().int().min(0),
    position: z.number().min(0),
    page: z.string().max(limit('demand.page')).default(''),
  })
  .strict();

export const demandOp = defineOp({
  name: 'admin.demand',
  title: 'Import search demand (operator)',
  summary: `Import search demand rows (src gsc or bing, at most ${limit('demand.rows')} rows); each query passes strict scrubbing and the injection lexicon and is dropped on any finding (ops token).`,
  input: z
    .object({
      src: z.enum(['gsc', 'bing']),
      rows: z.array(rowIn).max(limit('demand.rows')).describe('rows of {q, impressions, clicks, position, page}'),
    })
    .strict(),
  output: z.object({ src: z.string(), stored: z.number().int(), dropped: z.number().int(), reasons: z.record(z.string(), z.number()) }),
  auth: 'ops',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/demand', cache: 'no-store', bodyLimit: limit('admin.demand_body') },
  async run(ctx, input) {
    const keep: DemandRow[] = [];
    const reasons: Record<string, number> = {};
    for (const r of input.rows) {
      const q = r.q.normalize('NFKC').trim();
      const why = !q ? 'empty' : (strictFinding(q) ?? pageFinding(r.page));
      if (why) {
        const key = why.split(' ')[0]!;
        reasons[key] = (reasons[key] ?? 0) + 1;
        continue;
      }
      keep.push({ q, impressions: r.impressions, clicks: r.clicks, position: r.position, page: r.page });
    }
    const stored = keep.length ? await ctx.core.store.admin.addDemand(input.src, keep, ctx.core.now()) : 0;
    return { src: input.src, stored, dropped: input.rows.length - stored, reasons };
  },
  text: (o, ctx) =>
    [
      `ok demand src=${o.src} stored=${o.stored} dropped=${o.dropped}`,
      ...Object.entries(o.reasons).map(([k, v]) => `dropped ${k}=${v}`),
      next(ctx, hint('kb.wanted'), ' shows what agents look for'),
    ].join('\n'),
});
