// Endpoint secrets at rest and the providers' signature checks.
// - At rest: AES-256-GCM under a subkey of the workspace key ("cx-webhooks-v1"), a fresh nonce per
//   row, AAD `in|<id>|<owner>`: a ciphertext moved to another row does not open.
// - Checks compare in constant time, and an unknown endpoint is checked against a dummy secret with
//   the same work (one AES open, one HMAC over the body), so neither the reply nor its timing tells
//   an unknown id from a bad signature.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { NONCE, open, seal, subkey } from '../kernel/crypto/aead.js';
import { sameSecret } from '../platform/identity/tokens.js';
import type { Core } from '../kernel/types.js';
import type { Provider } from './ports.js';

const keys = new WeakMap<Buffer, Buffer>();
function hookKey(core: Core): Buffer {
  const m = core.config.workspaceKey;
  let k = keys.get(m);
  if (!k) keys.set(m, (k = subkey(m, 'cx-webhooks-v1')));
  return k;
}
const aad = (id: string, owner: string) => `in|${id}|${owner}`;

export function sealSecret(core: Core, id: string, owner: string, secret: string): { nonce: Buffer; ct: Buffer } {
  const nonce = core.random(NONCE);
  return { nonce, ct: seal(hookKey(core), nonce, secret, aad(id, owner)) };
}

/** The secret, or null when the row does not open (tampered or moved: the delivery is refused). */
export function openSecret(core: Core, row: { id: string; owner: string; nonce: Buffer; ct: Buffer }): string | null {
  const plain = open(hookKey(core), row.nonce, row.ct, aad(row.id, row.owner));
  return plain ? plain.toString('utf8') : null;
}

/** A sealed row of a random secret, opened for unknown ids so they cost what a known one costs. */
const dummies = new WeakMap<Core, { id: string; owner: string; nonce: Buffer; ct: Buffer }>();
export function dummyRow(core: Core): { id: string; owner: string; nonce: Buffer; ct: Buffer } {
  let d = dummies.get(core);
  if (!d) dummies.set(core, (d = { id: 'w-dummy', owner: '-', ...sealSecret(core, 'w-dummy', '-', core.random(32).toString('base64url')) }));
  return d;
}

export type Headers = Record<string, string | string[] | undefined>;
export const header = (h: Headers, name: string): string => {
  const v = h[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() ?? '';
};

/** The provider a request looks like, for an unknown id: the dummy check then does that provider's work. */
export function providerOf(h: Headers): Provider {
  if (header(h, 'x-hub-signature-256') || header(h, 'x-github-event')) return 'github';
  if (header(h, 'x-gitlab-token') || header(h, 'x-gitlab-event')) return 'gitlab';
  return 'generic';
}

const hmac = (secret: string, ...parts: Array<string | Buffer>) => {
  const m = createHmac('sha256', secret);
  for (const p of parts) m.update(p);
  return m.digest();
};

/** `sha256=<64 hex>` against the expected MAC, in constant time (a malformed header still costs the compare). */
function sameMac(given: string, mac: Buffer): boolean {
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(given);
  const got = m ? Buffer.from(m[1]!, 'hex') : Buffer.alloc(32);
  return timingSafeEqual(got, mac) && !!m;
}

export interface Verified {
  ok: boolean;
  /** The event name the filter matches (normalized: lower case, `_` for spaces, no " hook"). */
  event: string;
  /**
   * What names the delivery for replay detection: its signed content, never an unsigned header
   * (a delivery id, an idempotency key), so the same signed request re-sent under another id is
   * still a replay. GitHub: the MAC of the body; generic: the MAC of "<timestamp>.<body>"; GitLab
   * (a shared token, no signature of the body): a hash of the body. The claim is per endpoint.
   */
  signed: string;
}

/**
 * The provider's check of one request. GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret,
 * body)>`. GitLab: `X-Gitlab-Token` equal to the secret. Generic: `X-Cx-Signature: sha256=<hex
 * HMAC-SHA256(secret, "<X-Cx-Timestamp>.<body>")>` with the timestamp (Unix seconds) within
 * `toleranceS` of `nowMs`.
 */
export function verify(provider: Provider, secret: string, h: Headers, body: Buffer, nowMs: number, toleranceS: number): Verified {
  switch (provider) {
    case 'github': {
      const mac = hmac(secret, body);
      const ok = sameMac(header(h, 'x-hub-signature-256'), mac);
      return { ok, event: normEvent(header(h, 'x-github-event')), signed: 'mac:' + mac.toString('hex') };
    }
    case 'gitlab': {
      const ok = sameSecret(header(h, 'x-gitlab-token'), secret);
      // The token authenticates the sender, not the body: the body itself names the delivery
      // (GitLab's retries resend it unchanged, whatever Idempotency-Key or X-Gitlab-Event-UUID say).
      return { ok, event: normEvent(header(h, 'x-gitlab-event')), signed: bodyId(body) };
    }
    case 'generic': {
      const ts = header(h, 'x-cx-timestamp');
      const mac = hmac(secret, ts, '.', body);
      const macOk = sameMac(header(h, 'x-cx-signature'), mac);
      const fresh = /^\d{1,12}$/.test(ts) && Math.abs(Number(ts) * 1000 - nowMs) <= toleranceS * 1000;
      // The MAC covers the timestamp and the body: the same request again, within the tolerance, is a replay.
      return { ok: macOk && fresh, event: normEvent(header(h, 'x-cx-event')) || 'event', signed: 'mac:' + mac.toString('hex') };
    }
  }
}

const bodyId = (body: Buffer) => 'body:' + createHash('sha256').update(body).digest('hex');

/** "Merge Request Hook" → merge_request; "push" → push. Anything odd becomes '' (matches no filter). */
export function normEvent(e: string): string {
  const n = e
    .toLowerCase()
    .replace(/\s+hook$/, '')
    .trim()
    .replace(/\s+/g, '_');
  return /^[a-z0-9_.:-]{1,40}$/.test(n) ? n : '';
}

/** The key kept for replay detection (from `Verified.signed`): a hash, 16 bytes whatever it names. */
export const deliveryKey = (provider: Provider, signed: string): Buffer => createHash('sha256').update(`${provider}|${signed}`).digest().subarray(0, 16);
