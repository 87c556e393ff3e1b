// The one pipeline every face calls: authenticate, validate, charge quotas, scrub, run.
import { z } from 'zod';
import { CxError } from '../errors.js';
import { authorize, resolveCaller } from '../identity/auth.js';
import { levelMult, levelOf } from '../identity/levels.js';
import { quotaDef } from '../limits.js';
import { scrubFind } from '../safety/scrub.js';
import type { Core, Credentials, Ctx, Operation } from './types.js';

export interface CallMeta {
  creds: Credentials;
  net: string;
  reqId: string;
  face: Ctx['face'];
  signal?: AbortSignal;
}

/** `err bad <path>: <message>` from the first zod issue. */
export function zodDetail(err: z.ZodError): string {
  const i = err.issues[0];
  if (!i) return 'invalid input';
  const path = i.path.length ? i.path.join('.') : 'input';
  if (i.code === 'unrecognized_keys') return `${path}: unknown field ${i.keys.join(',')}`;
  if (i.code === 'invalid_type' && i.input === undefined) return `${path}: required`;
  return `${path}: ${i.message}`;
}

/** Runs an operation for a caller; a typed op gives a typed result (the registry's erased ones give unknown). */
export async function invoke<I extends z.ZodType, O>(core: Core, op: Operation<I, O>, raw: unknown, meta: CallMeta): Promise<{ out: O; ctx: Ctx; input: z.output<I> }> {
  const caller = await resolveCaller(core, meta.creds);
  const ctx: Ctx = { core, caller, net: meta.net, reqId: meta.reqId, face: meta.face, ...(meta.signal ? { signal: meta.signal } : {}) };
  // Auth before validation so an anonymous write learns how to register, not a field rule.
  if (op.auth !== 'pow') await authorize(core, op.auth, caller, meta.creds);
  // Inputs are reported in issues so a field of the wrong type is not taken for a missing one.
  const parsed = op.input.safeParse(raw ?? {}, { reportInput: true });
  if (!parsed.success) throw new CxError('bad', zodDetail(parsed.error));
  const input = parsed.data as Record<string, unknown>;
  for (const b of op.quota ?? []) {
    const def = quotaDef(b);
    if (def.by === 'net') core.quotas.take(b, meta.net);
    else if (caller.identity) core.quotas.take(b, caller.identity.id, levelMult(levelOf(caller.identity, core.now())));
  }
  for (const field of op.scrub ?? []) {
    const v = input[field];
    if (typeof v !== 'string') continue;
    const hit = scrubFind(v);
    if (hit) throw new CxError('scrub', `${hit.kind} ${field === op.bodyField ? 'body' : field}@${hit.offset}`);
  }
  // PoW is redeemed last: a proof is spent only by a request that will run.
  if (op.auth === 'pow') await authorize(core, op.auth, caller, meta.creds);
  const out = await op.run(ctx, parsed.data);
  return { out, ctx, input: parsed.data };
}
