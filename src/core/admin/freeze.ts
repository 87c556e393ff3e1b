// POST /admin/freeze: freezes or lifts a scope, or sets the operator's shed level. Persisted through
// core.control (control_freezes, control_shed), so it survives a restart and holds on every replica.
//   what = reg | write | compute | all       the scopes of spec 4.7
//        = freeze:<kind>                      any freeze kind of src/core/kernel/kinds.ts (drops, mail ...)
//        = shed:<level>                       on: the operator's shed level; off: lifts it (level 0)
import { z } from 'zod';
import { FREEZE_KINDS } from '../kernel/kinds.js';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import { hint, next } from '../kernel/hints.js';

export const freezeOp = defineOp({
  name: 'admin.freeze',
  title: 'Freeze or lift (operator)',
  summary: `Freeze (on=true) or lift (on=false) reg, write, compute, all, freeze:<kind> (${Object.keys(FREEZE_KINDS).join(', ')}) or set the shed level shed:<0-${limit('shed.max_level')}>; persisted (admin token).`,
  input: z
    .object({
      what: z.string().min(1).max(limit('admin.what')).describe('reg, write, compute, all, freeze:<kind> or shed:<level>'),
      on: z.boolean().describe('true freezes (or sets the shed level), false lifts'),
      note: z.string().max(limit('control.note')).optional().describe('why, kept with the freeze'),
    })
    .strict(),
  output: z.object({ what: z.string(), on: z.boolean(), changed: z.boolean(), frozen: z.array(z.string()), shed: z.number().int() }),
  auth: 'admin',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/freeze', cache: 'no-store' },
  async run(ctx, input) {
    const { control } = ctx.core;
    const note = input.note ?? '';
    let changed: boolean;
    const shed = /^shed:(\d{1,3})$/.exec(input.what);
    if (shed) {
      const level = Number(shed[1]);
      const opLevel = async () => (await control.state()).shed?.level ?? 0;
      const before = await opLevel();
      await control.setShed(input.on ? level : 0, note || (input.on ? 'operator' : ''), 'admin');
      changed = before !== (await opLevel());
    } else if (input.what.startsWith('shed:')) {
      throw new CxError('bad', `what: shed:<0-${limit('shed.max_level')}>`);
    } else {
      const kind = input.what.startsWith('freeze:') ? input.what.slice('freeze:'.length) : input.what;
      if (!input.what.startsWith('freeze:') && !['reg', 'write', 'compute', 'all'].includes(kind))
        throw new CxError('bad', 'what: reg, write, compute, all, freeze:<kind> or shed:<level>');
      changed = await control.freeze(kind, input.on, 'admin', note);
    }
    const s = await control.status();
    return { what: input.what, on: input.on, changed, frozen: s.frozen, shed: s.shed };
  },
  text: (o, ctx) =>
    [
      `ok ${o.what} ${o.on ? 'on' : 'off'}${o.changed ? '' : ' (unchanged)'}`,
      `frozen: ${o.frozen.join(',') || '-'}`,
      `shed: ${o.shed}`,
      next(ctx, hint('sys.health', { v: 2 })),
    ].join('\n'),
});
