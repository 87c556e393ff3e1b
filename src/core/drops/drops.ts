// Dead drops: defaults per caller class, creator binding, burn rules, encryption at rest.
// Everything here runs behind the shared guards (auth, zod, freeze, quotas, scrub, hazard) and
// talks to storage only through the DropRepo port.
import { iso } from '../kernel/text.js';
import { timingSafeEqual } from 'node:crypto';
import { authError, authorize } from '../platform/identity/auth.js';
import { bad, CxError, notFound } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import type { Ctx } from '../kernel/types.js';
import { hazardFind } from '../kernel/safety/hazards.js';
import { dropKeys, open, seal, writeTag } from './crypto.js';

const HOUR = 3_600_000;

export { iso };

/** Body length in characters (Unicode code points), the unit of the spec's 16384 limit. */
export function charCount(s: string): number {
  let n = s.length;
  if (!/[\uD800-\uDBFF]/.test(s)) return n;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Defaults and caps of the caller's class (spec section 8). */
export function classLimits(anon: boolean): { ttl: number; ttlMax: number; reads: number } {
  return anon
    ? { ttl: limit('drop.ttl.anon_default'), ttlMax: limit('drop.ttl.anon_max'), reads: limit('drop.reads.anon_default') }
    : { ttl: limit('drop.ttl.token_default'), ttlMax: limit('drop.ttl.max'), reads: limit('drop.reads.token_default') };
}

export interface PutInput {
  secret: string;
  body: string;
  ttl?: number;
  reads?: number;
  once?: boolean;
  append?: boolean;
  write_key?: string;
  pow?: string;
}

export interface PutResult {
  path: string;
  created: boolean;
  exp: string;
  once: boolean;
  reads: number;
  size: number;
  masked: number;
}

export interface ReadResult {
  body: string;
  exp: string;
  reads_left: number;
  once: boolean;
  burnt: boolean;
}

export interface PeekResult {
  exp: string;
  reads_left: number;
  once: boolean;
  size: number;
}

const sameTag = (a: Buffer | null, b: Buffer | null) => a !== null && b !== null && a.length === b.length && timingSafeEqual(a, b);

/** Creates, overwrites or appends. Anonymous creation pays with a PoW proof and binds a write key. */
export async function putDrop(ctx: Ctx, input: PutInput): Promise<PutResult> {
  const { core, caller } = ctx;
  const anon = !caller.identity;
  if (!anon) await authorize(core, 'token', caller, {}); // refuses frozen identities
  const cls = classLimits(anon);
  if (input.ttl !== undefined && input.ttl > cls.ttlMax) {
    throw bad(`ttl: anonymous drops live at most ${cls.ttlMax} h; a token allows ${limit('drop.ttl.max')}`);
  }
  const max = limit('drop.body');
  const added = charCount(input.body);
  if (added > max) throw new CxError('size', `body over ${max} chars`, 413);

  const repo = core.store.drops;
  const serverKey = core.config.dropKey;
  const keys = dropKeys(serverKey, input.secret);
  const wk = input.write_key !== undefined ? writeTag(serverKey, keys.id, input.write_key) : null;
  const path = `/d/${input.secret}`;

  /** Inserts the drop if its key is free (or held by an expired row); null when a live drop has it. */
  const createFor = async (now: number): Promise<PutResult | null> => {
    const once = input.once ?? false;
    const reads = once ? 1 : (input.reads ?? cls.reads);
    const exp = Math.floor((now + (input.ttl ?? cls.ttl) * HOUR) / 1000) * 1000;
    const nonce = core.random(12);
    const row = {
      key: keys.id,
      owner: caller.identity?.id ?? null,
      wkey: wk,
      nonce,
      ct: seal(keys, nonce, input.body),
      size: added,
      exp,
      reads,
      once,
      masked: 0,
      ver: 1,
      created: now,
    };
    return (await repo.create(row, now)) ? { path, created: true, exp: iso(exp), once, reads, size: added, masked: 0 } : null;
  };

  // A concurrent writer can win between our read and our write: the write is conditional
  // (insert-if-absent, or compare-and-set on the row version) and we retry a few times.
  for (let attempt = 0; attempt < 4; attempt++) {
    const now = core.now();
    // A token holder's PUT most often creates: the first attempt inserts at once (one statement
    // where a read and an insert were two, issue 38); a live drop refuses the insert and is read.
    const fresh = attempt === 0 && !anon ? await createFor(now) : null;
    if (fresh) return fresh;
    const row = await repo.get(keys.id, now);
    if (!row) {
      if (anon) {
        if (!input.pow)
          throw authError(core, ['X-PoW proof or a token required to create a drop: ', { op: 'id.challenge', input: { for: 'w' }, query: ['for'] }], 'w');
        if (input.write_key === undefined) {
          throw bad(
            `X-Drop-Write: required to create a drop anonymously (${limit('drop.write_key.min')}-${limit('drop.write_key.max')} chars); it binds later PUT and DELETE`,
          );
        }
      }
      if (anon) {
        await core.quotas.take('anon_write', ctx.net);
        // Redeemed last: a proof is spent only by a write that will happen.
        await authorize(core, 'pow', caller, { pow: input.pow });
      }
      const created = await createFor(now);
      if (created) return created;
      continue;
    }

    // Only the creator may touch a live drop: its token's root, or the write key it bound.
    const mine = (row.owner !== null && caller.identity?.id === row.owner) || sameTag(row.wkey, wk);
    if (!mine) throw notFound();
    let body = input.body;
    let size = added;
    if (input.append) {
      const prev = open(keys, row.nonce, row.ct);
      if (prev === null) {
        core.log.error({ reqId: ctx.reqId }, 'drop ciphertext failed authentication');
        throw new CxError('internal', `request ${ctx.reqId}`, 500);
      }
      size = row.size + added;
      if (size > max) throw new CxError('size', `body over ${max} chars after append (${row.size} stored)`, 413);
      body = prev + input.body;
    }
    // Not a declaration: the text is the stored body plus this one, known only inside the
    // compare-and-set loop (a payload split across appends is still one payload).
    if (input.append) {
      const h = hazardFind(body);
      if (h) throw new CxError('hazard', h.family);
    }
    if (anon) await core.quotas.take('anon_write', ctx.net);
    const once = input.once ?? row.once;
    const reads = once ? 1 : (input.reads ?? row.reads);
    const exp = input.ttl !== undefined ? Math.floor((now + input.ttl * HOUR) / 1000) * 1000 : row.exp;
    const nonce = core.random(12);
    if (await repo.update(keys.id, row.ver, { nonce, ct: seal(keys, nonce, body), size, exp, reads, once, masked: 0 }, now)) {
      return { path, created: false, exp: iso(exp), once, reads, size, masked: 0 };
    }
  }
  throw new CxError('busy', 'drop changed meanwhile, retry', 503);
}

/**
 * One read. Unknown, expired and burnt drops do the same work (key derivation and one keyed
 * UPDATE that matches nothing) and give the same 404.
 */
export async function readDrop(ctx: Ctx, secret: string): Promise<ReadResult> {
  const { core } = ctx;
  const keys = dropKeys(core.config.dropKey, secret);
  const c = await core.store.drops.claim(keys.id, core.now());
  if (!c) throw notFound();
  const body = open(keys, c.nonce, c.ct);
  if (body === null) {
    core.log.error({ reqId: ctx.reqId }, 'drop ciphertext failed authentication');
    throw notFound();
  }
  return { body, exp: iso(c.exp), reads_left: c.reads, once: c.once, burnt: c.reads === 0 };
}

/** Existence and state, consuming no read (link previews must not burn a drop). */
export async function peekDrop(ctx: Ctx, secret: string): Promise<PeekResult> {
  const { core } = ctx;
  const keys = dropKeys(core.config.dropKey, secret);
  const p = await core.store.drops.peek(keys.id, core.now());
  if (!p) throw notFound();
  return { exp: iso(p.exp), reads_left: p.reads, once: p.once, size: p.size };
}

/** Burns a drop now. Creator only; anything else is the same 404 as an unknown drop. */
export async function deleteDrop(ctx: Ctx, secret: string, writeKey: string | undefined): Promise<void> {
  const { core, caller } = ctx;
  if (caller.identity) await authorize(core, 'token', caller, {});
  const serverKey = core.config.dropKey;
  const keys = dropKeys(serverKey, secret);
  const wk = writeKey !== undefined ? writeTag(serverKey, keys.id, writeKey) : null;
  if (!(await core.store.drops.remove(keys.id, caller.identity?.id ?? null, wk, core.now()))) throw notFound();
}
