// Stateless, HMAC-sealed proof-of-work challenges. A proof is `<challenge>:<nonce>` whose
// SHA-256 (of the UTF-8 string) has at least `bits` leading zero bits.
import { iso } from '../../kernel/text.js';
import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { CxError } from '../../kernel/errors.js';
import { POW } from '../../kernel/limits.js';
import type { PowRateRepo, SpentProofRepo } from './ports.js';
import { limit } from '../../kernel/limits.js';
import { memoryPowRates, PowRates } from './pow-rate.js';

export type PowPurpose = 'reg' | 'w';

export interface Challenge {
  challenge: string;
  bits: number;
  exp: string; // RFC 3339
  for: PowPurpose;
}

export function leadingZeroBits(buf: Buffer): number {
  let n = 0;
  for (const byte of buf) {
    if (byte === 0) {
      n += 8;
      continue;
    }
    return n + Math.clz32(byte) - 24;
  }
  return n;
}

/** Brute-forces a nonce; for tests and the reference clients. */
export function solve(challenge: string, bits: number): string {
  // A refusal read as a challenge (503 busy JSON: no bits) would otherwise spin forever.
  if (typeof challenge !== 'string' || !Number.isInteger(bits) || bits < 0 || bits > 64) throw new Error(`pow: not a challenge (bits=${String(bits)})`);
  for (let i = 0; ; i++) {
    const nonce = i.toString(36);
    if (leadingZeroBits(sha256(`${challenge}:${nonce}`)) >= bits) return `${challenge}:${nonce}`;
  }
}

/** One-shot SHA-256 (crypto.hash is ~1.7x createHash for short inputs). */
const sha256 = (s: string): Buffer => hash('sha256', s, 'buffer') as unknown as Buffer;

const powErr = (why: string) => new CxError('pow', why);

/**
 * Holds no spent proofs itself: the SpentProofRepo port is the one spent set, shared by every process
 * on the store. The difficulty adapts to the registration rate (pow-rate.ts): a challenge seals the
 * bits it was issued with, and its proof is checked against those, so a client never guesses.
 */
export class Pow {
  readonly rates: PowRates;

  constructor(
    private key: Buffer,
    private bits: { reg: number; w: number },
    private spent: SpentProofRepo,
    private now: () => number,
    private random: (n: number) => Buffer,
    /** Registration counts (the store's, shared by replicas); in memory without one. */
    rates: PowRateRepo = memoryPowRates(),
  ) {
    this.rates = new PowRates(rates, now);
  }

  /** The live difficulty for a caller on `net` (unknown network: the busiest network's rate counts). */
  difficulty(p: PowPurpose, net?: string): number {
    return this.bits[p] + this.rates.extra(net);
  }

  /** Published bounds: the base (config) and the base plus pow.extra_max. */
  bounds(p: PowPurpose): { min: number; max: number } {
    return { min: this.bits[p], max: this.bits[p] + limit('pow.extra_max') };
  }

  /** A registration happened on `net`: counts toward the difficulty (every replica's challenges). */
  async noteRegistration(net: string): Promise<void> {
    await this.rates.note(net);
  }

  /** A challenge priced with counts at most pow.rates_refresh old (issue() alone uses the memo as it is). */
  async challenge(p: PowPurpose, net?: string): Promise<Challenge> {
    await this.rates.refresh(net);
    return this.issue(p, net);
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(`cx-pow-v1|${payload}`).digest().subarray(0, 16).toString('base64url');
  }

  issue(p: PowPurpose, net?: string): Challenge {
    const expS = Math.floor(this.now() / 1000) + POW.ttl_s;
    const bits = this.difficulty(p, net);
    const payload = `1.${p}.${bits}.${expS}.${this.random(12).toString('base64url')}`;
    return { challenge: `${payload}.${this.mac(payload)}`, bits, exp: iso(expS * 1000), for: p };
  }

  /** Checks a proof and marks it spent; throws `err pow <why>` otherwise. */
  async redeem(proof: string, p: PowPurpose): Promise<void> {
    if (typeof proof !== 'string' || proof.length > 200) throw powErr('malformed proof');
    const colon = proof.lastIndexOf(':');
    if (colon < 0) throw powErr('malformed proof, want <challenge>:<nonce>');
    const c = proof.slice(0, colon);
    const nonce = proof.slice(colon + 1);
    if (!nonce || nonce.length > POW.nonce_max || !/^[\x21-\x7e]+$/.test(nonce)) throw powErr('bad nonce');
    const parts = c.split('.');
    if (parts.length !== 6 || parts[0] !== '1') throw powErr('malformed challenge');
    const payload = parts.slice(0, 5).join('.');
    const want = Buffer.from(this.mac(payload));
    const got = Buffer.from(parts[5]!);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw powErr('forged challenge');
    const [, purpose, bitsS, expS] = parts;
    if (purpose !== p) throw powErr(`challenge is for=${purpose}, need for=${p}`);
    const exp = Number(expS) * 1000;
    if (!(exp > this.now())) throw powErr('challenge expired');
    // The bits it was issued with (sealed): a rise after issue does not void a challenge in flight.
    const bits = Number(bitsS);
    if (!(bits >= this.bits[p])) throw powErr(`challenge bits=${bits} below the minimum ${this.bits[p]}`);
    const have = leadingZeroBits(sha256(proof));
    if (have < bits) throw powErr(`too weak: ${have} of ${bits} bits`);
    if (!(await this.spent.spend(c, exp))) throw powErr('proof already spent');
  }
}
