// AES-256-GCM at rest, shared by the workspace domains (notes, mail). One master key per data
// directory; each purpose gets its own subkey (HKDF-SHA256), each row a fresh random 12-byte nonce,
// and the AAD names the row (kind, id, owner) so a ciphertext copied into another row, or onto
// another owner, fails authentication instead of decrypting.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';

const TAG = 16;
export const NONCE = 12;

/** A 32-byte subkey of `master` for one purpose (e.g. "cx-notes-v1"). */
export function subkey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, 'cx-workspace-v1', purpose, 32));
}

/** Ciphertext followed by the 16-byte GCM tag. */
export function seal(key: Buffer, nonce: Buffer, plain: string | Buffer, aad: string): Buffer {
  const c = createCipheriv('aes-256-gcm', key, nonce);
  c.setAAD(Buffer.from(aad, 'utf8'));
  const body = typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain;
  return Buffer.concat([c.update(body), c.final(), c.getAuthTag()]);
}

/** The plaintext, or null when authentication fails (wrong key, tampered or moved row). */
export function open(key: Buffer, nonce: Buffer, ct: Buffer, aad: string): Buffer | null {
  if (ct.length < TAG) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', key, nonce);
    d.setAAD(Buffer.from(aad, 'utf8'));
    d.setAuthTag(ct.subarray(ct.length - TAG));
    return Buffer.concat([d.update(ct.subarray(0, ct.length - TAG)), d.final()]);
  } catch {
    return null;
  }
}

/** Keyed tag of a short value (e.g. a network key): rows can be compared without storing the value. */
export function tag(key: Buffer, value: string): Buffer {
  return createHmac('sha256', key).update(value, 'utf8').digest().subarray(0, 16);
}
