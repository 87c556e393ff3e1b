// Dead-drop crypto. The secret path segment never reaches the database:
// - row key  = HMAC-SHA256(server key, "cx-drop-id-v1|" + secret). Keyed, so the database alone
//   cannot be used to test guesses of short or chosen secrets offline;
// - body key = HKDF-SHA256(ikm = server key, salt = "cx-drop-v1", info = secret), 32 bytes: the
//   database alone (no server key) and the server key alone (no secret) both decrypt nothing;
// - AES-256-GCM with a fresh random 12-byte nonce per write; the AAD is the row key, so a
//   ciphertext moved to another row fails authentication;
// - write key tag = HMAC-SHA256(server key, "cx-drop-w-v1|" + row key + "|" + write key).
import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';

const TAG = 16;

export interface DropKeys {
  /** Row key (32 bytes). */
  id: Buffer;
  /** AES-256-GCM key of this drop (32 bytes). */
  enc: Buffer;
}

export function dropKeys(serverKey: Buffer, secret: string): DropKeys {
  const id = createHmac('sha256', serverKey).update('cx-drop-id-v1|').update(secret, 'utf8').digest();
  const enc = Buffer.from(hkdfSync('sha256', serverKey, 'cx-drop-v1', `cx-drop-enc-v1|${secret}`, 32));
  return { id, enc };
}

export function writeTag(serverKey: Buffer, id: Buffer, writeKey: string): Buffer {
  return createHmac('sha256', serverKey).update('cx-drop-w-v1|').update(id).update('|').update(writeKey, 'utf8').digest();
}

/** Ciphertext followed by the GCM tag. */
export function seal(keys: DropKeys, nonce: Buffer, body: string): Buffer {
  const c = createCipheriv('aes-256-gcm', keys.enc, nonce);
  c.setAAD(keys.id);
  return Buffer.concat([c.update(body, 'utf8'), c.final(), c.getAuthTag()]);
}

/** The body, or null when authentication fails (wrong key, tampered or moved row). */
export function open(keys: DropKeys, nonce: Buffer, ct: Buffer): string | null {
  if (ct.length < TAG) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', keys.enc, nonce);
    d.setAAD(keys.id);
    d.setAuthTag(ct.subarray(ct.length - TAG));
    return Buffer.concat([d.update(ct.subarray(0, ct.length - TAG)), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}
