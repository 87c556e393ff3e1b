// Registration policy per autonomous system. The operator loads the IP-to-ASN table as the file
// `asn.csv` in the data directory (`cidr,asn` rows; src/store/files/asn.ts) and sets a class per ASN
// with POST /admin/asn:
//   open      no policy (the row is removed)
//   throttle  registrations from the whole ASN share one quota bucket (reg_asn, keyed asn:<n>)
//   block     registrations from the ASN are refused (403 err auth)
// Registration (src/core/platform/identity/ops.ts) calls `checkRegistrationAsn` before spending the proof,
// as the core's registration policy (the composition root wires it: the platform imports no domain).
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { Ctx } from '../kernel/types.js';
import { hint, next } from '../kernel/hints.js';

export const ASN_CLASSES = ['open', 'throttle', 'block'] as const;

export async function checkRegistrationAsn(ctx: Ctx): Promise<void> {
  const { core } = ctx;
  const asn = core.store.admin.asnOf(ctx.net);
  if (asn === null) return;
  const p = await core.store.admin.asnPolicy(asn);
  if (!p) return;
  if (p.class === 'block') throw new CxError('auth', `registration closed for this network (AS${asn})`, 403);
  if (p.class === 'throttle') await core.quotas.take('reg_asn', `asn:${asn}`);
}

export const asnOp = defineOp({
  name: 'admin.asn',
  title: 'Registration policy of an ASN (operator)',
  summary: `Set the registration policy of an autonomous system: ${ASN_CLASSES.join(', ')}; the IP-to-ASN table is the operator's asn.csv (cidr,asn rows) in the data directory (admin token).`,
  input: z
    .object({
      asn: z.number().int().min(0).max(4294967296).describe('AS number'),
      class: z.enum(ASN_CLASSES).describe(`open (no policy), throttle (one shared registration bucket), block`),
      note: z.string().max(limit('admin.asn_note')).default('').describe('why'),
    })
    .strict(),
  output: z.object({ asn: z.number().int(), class: z.string(), mapped: z.boolean() }),
  auth: 'admin',
  readOnly: false,
  scrub: ['note'],
  hazard: ['note'],
  rest: { method: 'POST', path: '/admin/asn', cache: 'no-store' },
  async run(ctx, input) {
    if (input.class.length > limit('admin.asn_class')) throw new CxError('bad', 'class');
    await ctx.core.store.admin.setAsnPolicy({ asn: input.asn, class: input.class, note: input.note, at: ctx.core.now() });
    return { asn: input.asn, class: input.class, mapped: ctx.core.store.admin.asnMapped() };
  },
  text: (o, ctx) =>
    [
      `ok asn ${o.asn} ${o.class}`,
      ...(o.mapped ? [] : ['warning: no asn.csv loaded in the data directory: no network maps to an ASN yet']),
      next(ctx, hint('id.register', undefined, 'from that ASN follows the policy')),
    ].join('\n'),
});
