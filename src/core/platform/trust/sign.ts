// The one signer of the service (spec 5.8): Ed25519 over node:crypto, one canonical byte form for
// every statement type. The signed message is
//   "cx-sig-v1" 0x00 <type> 0x00 <payload bytes>
// so a signature made for one type (or by another protocol without the prefix) never verifies as
// another: the type is inside the signed bytes, separated by a byte no type or prefix contains.
import { createPrivateKey, createPublicKey, sign as edSign, verify as edVerify, type KeyObject } from 'node:crypto';

export const SIG_DOMAIN = 'cx-sig-v1';

/** Statement types this server signs (published as `types` in /.well-known/cx-key). */
export const STATEMENT_TYPES = ['ann1', 'att1', 'manifest1', 'export1', 'resp1', 'key1', 'idkey1', 'conf1', 'svcok1', 'dsig1'] as const;
export type StatementType = (typeof STATEMENT_TYPES)[number];

const TYPE_RE = /^[a-z]+[0-9]+$/;
// DER prefixes of Ed25519 keys (RFC 8410): the 32 raw bytes follow.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The exact bytes an Ed25519 signature of a statement covers. */
export function signedBytes(type: string, payload: string | Uint8Array): Buffer {
  if (!TYPE_RE.test(type)) throw new Error(`statement type must match ${TYPE_RE}`);
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload);
  return Buffer.concat([Buffer.from(SIG_DOMAIN), Buffer.from([0]), Buffer.from(type), Buffer.from([0]), body]);
}

export function privateKeyOf(seed: Buffer): KeyObject {
  if (seed.length !== 32) throw new Error('Ed25519 seed must be 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export function publicKeyOf(pub: Buffer): KeyObject {
  if (pub.length !== 32) throw new Error('Ed25519 public key must be 32 bytes');
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, pub]), format: 'der', type: 'spki' });
}

/** Raw 32-byte public key of a seed. */
export function rawPublic(seed: Buffer): Buffer {
  const der = createPublicKey(privateKeyOf(seed)).export({ format: 'der', type: 'spki' });
  return Buffer.from(der.subarray(der.length - 32));
}

export function signStatement(key: KeyObject, type: string, payload: string | Uint8Array): Buffer {
  return edSign(null, signedBytes(type, payload), key);
}

/** False for any malformed input (wrong lengths, bad type) rather than throwing. */
export function verifyStatement(pub: Buffer | KeyObject, type: string, payload: string | Uint8Array, sig: Buffer): boolean {
  try {
    if (sig.length !== 64) return false;
    const key = Buffer.isBuffer(pub) ? publicKeyOf(pub) : pub;
    return edVerify(null, signedBytes(type, payload), key, sig);
  } catch {
    return false;
  }
}

export const b64u = (b: Uint8Array): string => Buffer.from(b).toString('base64url');
export function fromB64u(s: string): Buffer | null {
  return /^[A-Za-z0-9_-]+$/.test(s) ? Buffer.from(s, 'base64url') : null;
}

/**
 * A statement line: `<type> kid=<n> sig=<base64url> <payload>`. The fixed fields come first, so
 * the payload (everything after the third space) is never ambiguous.
 */
export function statementLine(type: string, kid: number, sig: Buffer, payload: string): string {
  return `${type} kid=${kid} sig=${b64u(sig)} ${payload}`;
}

export function parseStatementLine(line: string): { type: string; kid: number; sig: Buffer; payload: string } | null {
  const m = /^([a-z]+[0-9]+) kid=(0|[1-9]\d{0,8}) sig=([A-Za-z0-9_-]{86}) ([^\r\n]*)$/.exec(line);
  if (!m) return null;
  return { type: m[1]!, kid: Number(m[2]), sig: Buffer.from(m[3]!, 'base64url'), payload: m[4]! };
}
