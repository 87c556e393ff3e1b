// Tokens are random, prefixed by class, and stored only as SHA-256 hashes.
import { createHash, timingSafeEqual } from 'node:crypto';

export const USER_PREFIX = 'cx_';
export const URL_PREFIX = 'cxu_';

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newToken(prefix: string, random: (n: number) => Buffer): string {
  return prefix + random(24).toString('base64url');
}

/** Constant-time string compare for operator tokens. */
export function sameSecret(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

/** Short random id: prefix + `len` chars of [0-9a-z] (identity ids: 6, so at most 7 chars). */
export function newId(prefix: string, random: (n: number) => Buffer, len = 6): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  const bytes = random(len * 2);
  let s = '';
  for (const b of bytes) {
    if (b >= 252) continue; // 252 = 7*36: keeps the draw uniform
    s += alphabet[b % 36];
    if (s.length === len) break;
  }
  return s.length === len ? prefix + s : newId(prefix, random, len);
}
