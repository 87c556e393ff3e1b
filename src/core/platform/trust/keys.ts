// The server's statement key ring, kept behind the KeyStore port (one JSON secret, 0600 in the data
// directory): the current Ed25519 seed with its integer kid, the public keys it replaced (`prev`),
// and the root certificate of the current key when the operator sent one. Made at first start;
// rotated by `npm run key:rotate` or the admin operation. Every process re-reads it at most
// `trust.ring_refresh` seconds after another one changed it.
import type { KeyObject } from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';
import { CxError } from '../../kernel/errors.js';
import { limit } from '../../kernel/limits.js';
import type { KeyStore } from '../secrets/ports.js';
import { ringPrint } from '../secrets/fingerprint.js';
import { b64u, privateKeyOf, rawPublic, signStatement, STATEMENT_TYPES, verifyStatement } from './sign.js';

export interface RingFile {
  kid: number;
  seed: string;
  prev: Array<{ kid: number; pub: string }>;
  /** Root certificate of the current key (a key1 line), and the highest sequence number accepted. */
  cert: string | null;
  seq: number;
}

export interface ServerKeyDoc {
  kid: number;
  alg: string;
  pub: string;
  prev: Array<{ kid: number; pub: string }>;
  domain: string;
  types: string[];
}

function fresh(kid: number, prev: RingFile['prev'], seq = 0): RingFile {
  return { kid, seed: randomBytes(32).toString('hex'), prev, cert: null, seq };
}

function parse(text: string): RingFile {
  const r = JSON.parse(text) as RingFile;
  if (!Number.isInteger(r.kid) || !/^[0-9a-f]{64}$/.test(r.seed) || !Array.isArray(r.prev)) throw new Error('signing key file is malformed');
  return { kid: r.kid, seed: r.seed, prev: r.prev, cert: r.cert ?? null, seq: r.seq ?? 0 };
}

/** A new ring's text; the kid of the first key is 1 (0 names the offline root in certificates). */
export const newRing = (): string => JSON.stringify(fresh(1, []));

/** Makes the ring at first use. */
export function keepRing(keys: KeyStore): RingFile {
  return parse(keys.keep('signing', newRing).value);
}

/**
 * A new key replaces the current one, which moves to `prev`; the certificate does not carry over.
 * A read-modify-write of the ring under the store's lock: concurrent rotations (two `npm run
 * key:rotate`, or one beside the admin operation) each start from the other's result, so every
 * replaced key stays in `prev` and kids stay distinct.
 */
export function rotateRing(keys: KeyStore): RingFile {
  keepRing(keys);
  return parse(
    keys.update('signing', (text) => {
      const cur = parse(text ?? '');
      return JSON.stringify(fresh(cur.kid + 1, [{ kid: cur.kid, pub: rawPublic(Buffer.from(cur.seed, 'hex')).toString('hex') }, ...cur.prev], cur.seq));
    }),
  );
}

export interface Signed {
  kid: number;
  sig: Buffer;
}

/** The ring as the core uses it: signs with the current key, verifies with any key it has held. */
export class ServerKeys {
  private file!: RingFile;
  private key!: KeyObject;
  private pubHex!: string;
  private readAt = 0;

  constructor(
    private readonly keys: KeyStore,
    private readonly now: () => number,
    readonly domain: string,
  ) {
    this.load(keepRing(keys));
  }

  /**
   * Header values of bodies signed lately, by sha256 of the body (Ed25519 is deterministic, so a kept
   * value is the signature signing again would give): a hot KB entry is signed once, not per read.
   * Emptied whenever the ring is (re)loaded; at most `trust.sig_memo` entries, oldest dropped first.
   */
  private memo = new Map<string, string>();
  memoSize = limit('trust.sig_memo');

  private load(file: RingFile): void {
    this.memo.clear();
    this.file = file;
    const seed = Buffer.from(file.seed, 'hex');
    this.key = privateKeyOf(seed);
    this.pubHex = rawPublic(seed).toString('hex');
    this.readAt = this.now();
  }

  /** Picks up a rotation or certificate made by another process (or the operator command). */
  private fresh(): void {
    if (this.now() - this.readAt < limit('trust.ring_refresh') * 1000) return;
    this.readAt = this.now();
    // A missing or damaged file (an operator's mistake) keeps the key in memory: signing goes on, and
    // the next start fails loudly instead.
    let file: RingFile;
    try {
      const text = this.keys.read('signing');
      if (text === null) return;
      file = parse(text);
    } catch {
      return;
    }
    if (file.seed !== this.file.seed || file.cert !== this.file.cert) this.load(file);
  }

  get kid(): number {
    this.fresh();
    return this.file.kid;
  }
  get pub(): string {
    this.fresh();
    return this.pubHex;
  }
  get cert(): string | null {
    this.fresh();
    return this.file.cert;
  }
  get seq(): number {
    this.fresh();
    return this.file.seq;
  }

  sign(type: string, payload: string | Uint8Array): Signed {
    this.fresh();
    return { kid: this.file.kid, sig: signStatement(this.key, type, payload) };
  }

  /** The public key (hex) of a kid this ring has held, or null. */
  pubOf(kid: number): string | null {
    this.fresh();
    if (kid === this.file.kid) return this.pubHex;
    return this.file.prev.find((p) => p.kid === kid)?.pub ?? null;
  }

  verify(kid: number, type: string, payload: string | Uint8Array, sig: Buffer): boolean {
    const pub = this.pubOf(kid);
    return pub !== null && verifyStatement(Buffer.from(pub, 'hex'), type, payload, sig);
  }

  /** `/.well-known/cx-key` (spec 2.2): exactly these fields. */
  doc(): ServerKeyDoc {
    this.fresh();
    return {
      kid: this.file.kid,
      alg: 'Ed25519',
      pub: this.pubHex,
      prev: this.file.prev.map((p) => ({ kid: p.kid, pub: p.pub })),
      domain: this.domain,
      types: [...STATEMENT_TYPES],
    };
  }

  /** Fingerprint of the current key (src/core/platform/secrets/prints.ts), recorded in the store on rotation. */
  print(): string {
    return ringPrint(this.file);
  }

  /** Rotates now (the admin operation); returns the new kid. */
  rotate(): number {
    this.load(rotateRing(this.keys));
    return this.file.kid;
  }

  /**
   * Keeps a certificate already checked against the root (src/core/platform/trust/cert.ts) of key `kid`. Checked
   * again against the ring as stored, under its lock: a rotation or a newer certificate by another
   * process since this one last read the ring refuses it instead of being undone.
   */
  keepCert(cert: string, seq: number, kid: number): void {
    const kept = this.keys.update('signing', (text) => {
      const cur = parse(text ?? '');
      if (cur.kid !== kid) throw new CxError('bad', `cert: names kid ${kid}, the current key is kid ${cur.kid} (rotated meanwhile)`);
      if (seq <= cur.seq) throw new CxError('dup', `cert: seq ${seq} not above the last accepted ${cur.seq}`);
      return JSON.stringify({ ...cur, cert, seq });
    });
    this.load(parse(kept));
  }

  /** Header value of X-Cx-Sig-Server for a response body. */
  header(body: string | Uint8Array): string {
    this.fresh();
    if (this.memoSize <= 0) return this.headerNow(body);
    const h = createHash('sha256').update(body).digest('base64url');
    let v = this.memo.get(h);
    if (v !== undefined) return v;
    v = this.headerNow(body);
    if (this.memo.size >= this.memoSize) this.memo.delete(this.memo.keys().next().value!);
    this.memo.set(h, v);
    return v;
  }

  private headerNow(body: string | Uint8Array): string {
    const s = this.sign('resp1', body);
    return `kid=${s.kid}; t=resp1; sig=${b64u(s.sig)}`;
  }
}
