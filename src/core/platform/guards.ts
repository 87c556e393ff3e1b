// The guards every operation passes before `run`, in this order, whatever the face. Each step reads
// only what the operation declares (auth, input, freeze/maintenance, quota, scrub, hazard); no
// domain re-codes them. The order is part of the contract:
//   auth before validate: an anonymous write learns how to register, not a field rule;
//   shed right after auth: work shed under load costs nothing more (src/core/platform/control/shed.ts);
//   freeze before quota: a frozen write spends no quota;
//   scrub before hazard: a text with both is refused for the secret, as before guards were declared;
//   PoW last: a proof is spent only by a request that will run.
import { CxError } from '../kernel/errors.js';
import { isFrozen } from './control/control.js';
import { type FreezeKind, isWriteKind } from '../kernel/kinds.js';
import { checkShed, shedClassOf } from './control/shed.js';
import { anonCaller, authorize, callerOf } from './identity/auth.js';
import { levelMult, levelOf } from './identity/levels.js';
import { quotaDef, type QuotaBucket } from '../kernel/limits.js';
import { hazardFind } from '../kernel/safety/hazards.js';
import { scrubFind } from '../kernel/safety/scrub.js';
import { zodDetail } from '../kernel/zod-detail.js';
import { InputRefused } from '../kernel/input-refused.js';
import type { Core, Credentials, Ctx, Operation } from '../kernel/types.js';

export interface CallMeta {
  creds: Credentials;
  net: string;
  reqId: string;
  face: Ctx['face'];
  /** The face's wording of next steps (kernel/hints.ts); absent: REST routes. */
  hints?: Ctx['hints'];
  /** Aborted when the client goes away (streaming operations end their iterators). */
  signal?: AbortSignal;
}

/** What the steps share: `ctx` is set by auth, `input` by validate. */
export interface GuardCall {
  core: Core;
  op: Operation;
  meta: CallMeta;
  raw: unknown;
  ctx: Ctx;
  input: Record<string, unknown>;
}

export interface Guard {
  name: string;
  /** Throws a CxError to refuse; may be synchronous (most are) or not. */
  check(c: GuardCall): void | Promise<void>;
}

export const GUARDS: readonly Guard[] = [
  {
    name: 'auth',
    check(c) {
      const { creds } = c.meta;
      const setCtx = (caller: Ctx['caller']) => {
        c.ctx = {
          core: c.core,
          caller,
          net: c.meta.net,
          reqId: c.meta.reqId,
          face: c.meta.face,
          ...(c.meta.hints ? { hints: c.meta.hints } : {}),
          ...(c.meta.signal ? { signal: c.meta.signal } : {}),
        };
      };
      // An anonymous call of an anonymous op (most reads) has nothing to look up: no await.
      if (c.op.auth === 'anon' && creds.urlToken === undefined && !creds.bearer && !c.op.authInput) return setCtx(anonCaller());
      return (async () => {
        const caller = await callerOf(c.core, creds);
        setCtx(caller);
        // The `pow` class is checked by the last step, so that a proof is spent only by a call that runs.
        if (c.op.auth !== 'pow') await authorize(c.core, c.op.auth, caller, creds);
        c.op.authInput?.(rawFields(c.raw), caller);
      })();
    },
  },
  {
    // Right after auth (it tells an anonymous write from a token holder's): a shed call costs no validation or quota.
    name: 'shed',
    check(c) {
      return checkShed(c.core, shedClassOf(c.op), !c.ctx.caller.identity);
    },
  },
  {
    name: 'validate',
    check(c) {
      // A face that could not even read the input (unknown query field, malformed body) refuses it
      // here, after auth: an operator route answers a wrong token before it judges the body.
      if (c.raw instanceof InputRefused) throw c.raw.err;
      // Inputs are reported in issues so a field of the wrong type is not taken for a missing one.
      const parsed = c.op.input.safeParse(c.raw ?? {}, { reportInput: true });
      if (!parsed.success) throw new CxError('bad', zodDetail(parsed.error));
      c.input = parsed.data as Record<string, unknown>;
    },
  },
  {
    name: 'freeze',
    check(c) {
      const kind = typeof c.op.freeze === 'function' ? c.op.freeze(c.input) : c.op.freeze;
      if (!kind) return;
      return checkFrozen(c.core, kind, c.op.maintenance);
    },
  },
  {
    name: 'quota',
    check(c) {
      if (c.op.quota?.length) return charge(c);
    },
  },
  {
    name: 'scrub',
    check(c) {
      for (const field of c.op.scrub ?? []) {
        const v = fieldOf(c.input, field);
        if (typeof v !== 'string') continue;
        const hit = scrubFind(v);
        if (hit) throw new CxError('scrub', `${hit.kind} ${field === c.op.bodyField ? 'body' : field}@${hit.offset}`);
      }
    },
  },
  {
    name: 'hazard',
    check(c) {
      for (const h of c.op.hazard ?? []) {
        const v = typeof h === 'function' ? h(c.input) : fieldOf(c.input, h);
        if (typeof v !== 'string' || !v) continue;
        const hit = hazardFind(v);
        if (hit) throw new CxError('hazard', hit.family);
      }
    },
  },
  {
    name: 'pow',
    check(c) {
      if (c.op.auth === 'pow') return authorize(c.core, 'pow', c.ctx.caller, c.meta.creds);
    },
  },
];

/**
 * Throws 503 `err frozen <kind>` when `kind` is frozen (or `write`/`all`), or, for a write kind
 * (unless `maintenance` says otherwise), during a maintenance window. Operations and declared raw
 * routes (src/http/raw.ts) both refuse through here.
 */
export function checkFrozen(core: Core, kind: FreezeKind, maintenance = isWriteKind(kind)): void | Promise<void> {
  const v = core.control.current();
  const refuse = (view: Awaited<typeof v>) => {
    if (isFrozen(view, kind, maintenance, core.now())) throw new CxError('frozen', kind, 503);
  };
  if (v instanceof Promise) return v.then(refuse);
  refuse(v);
}

/** An input field by name; a dotted name reaches into an object field (`evidence.cmd`). */
function fieldOf(input: Record<string, unknown>, name: string): unknown {
  return name.includes('.') ? name.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], input) : input[name];
}

/** Takes the op's quotas in order, from the `from`-th; no promise while the buckets answer synchronously (in memory). */
function charge(c: GuardCall, from = 0): void | Promise<void> {
  const buckets = c.op.quota!;
  for (let i = from; i < buckets.length; i++) {
    const r = takeOne(c, buckets[i]!);
    if (r) return r.then(() => charge(c, i + 1));
  }
}

function takeOne({ core, ctx }: GuardCall, b: QuotaBucket): void | Promise<void> {
  if (quotaDef(b).by === 'net') return core.quotas.take(b, ctx.net);
  if (ctx.caller.identity) return core.quotas.take(b, ctx.caller.identity.id, levelMult(levelOf(ctx.caller.identity, core.now())));
}

function rawFields(raw: unknown): Record<string, unknown> {
  return raw && typeof raw === 'object' && !(raw instanceof InputRefused) ? (raw as Record<string, unknown>) : {};
}

type Guarded = { ctx: Ctx; input: Record<string, unknown> };

/** Runs the guards in order; the caller then runs the operation with the call's ctx and input.
 *  Synchronous while every step is (an anonymous read): a promise only from the first step that waits. */
export function guard(core: Core, op: Operation, raw: unknown, meta: CallMeta): Guarded | Promise<Guarded> {
  return guardFrom({ core, op, meta, raw } as GuardCall, 0);
}

function guardFrom(c: GuardCall, from: number): Guarded | Promise<Guarded> {
  for (let i = from; i < GUARDS.length; i++) {
    const r = GUARDS[i]!.check(c);
    if (r) return r.then(() => guardFrom(c, i + 1));
  }
  return { ctx: c.ctx, input: c.input };
}
