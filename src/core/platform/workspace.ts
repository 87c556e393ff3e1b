// Small helpers shared by the workspace domains (notes, checkpoints, anchors, cached results, mail,
// webhooks): in the platform so that those domains share them without importing each other.
import { iso } from '../kernel/text.js';
import { CxError } from '../kernel/errors.js';
import { subkey, tag } from '../kernel/crypto/aead.js';
import type { Ctx } from '../kernel/types.js';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;

/** RFC 3339 to the second, the date form of every workspace line. */
export { iso };

/** One line of untrusted text: control characters become spaces. */
export const flat1 = (s: string) => s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');

/** Size limits of the workspace count UTF-8 bytes ("16 KiB" means 16384 bytes). */
export function checkBytes(field: string, s: string, max: number): void {
  const n = Buffer.byteLength(s, 'utf8');
  if (n > max) throw new CxError('size', `${field} over ${max} bytes (${n})`, 413);
}

/** Opaque list cursor: the last row's sequence number, base64url. */
export const cursorOf = (seq: number) => Buffer.from(`s${seq}`).toString('base64url');
export function seqOf(cursor: string | undefined): number | null {
  if (cursor === undefined || cursor === '') return null;
  const m = /^s(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!m) throw new CxError('bad', 'cursor: not a cursor from a previous page');
  return Number(m[1]);
}

const netKeys = new WeakMap<Buffer, Buffer>();
/** Keyed tag of the caller's network key: reader networks are counted without storing them. */
export function netTag(ctx: Ctx): Buffer {
  const master = ctx.core.config.workspaceKey;
  let k = netKeys.get(master);
  if (!k) netKeys.set(master, (k = subkey(master, 'cx-readers-v1')));
  return tag(k, ctx.net);
}

/**
 * Expired rows of a domain are purged lazily, at most once a minute, by the writes of that domain:
 * every read already filters on expiry, so the sweep only reclaims space.
 */
const lastSweep = new Map<string, WeakMap<object, number>>();
export async function sweepSometimes(ctx: Ctx, kind: string, purge: (now: number) => Promise<number>): Promise<void> {
  const now = ctx.core.now();
  let m = lastSweep.get(kind);
  if (!m) lastSweep.set(kind, (m = new WeakMap()));
  if (now - (m.get(ctx.core) ?? 0) < 60_000) return;
  m.set(ctx.core, now);
  await purge(now);
}
