// Token buckets per network and per identity. In memory by design: quotas protect the
// process that holds them and reset on restart (see docs/decisions.md).
import { CxError } from '../errors.js';
import { quotaDef } from '../limits.js';

// Each bucket keeps its own capacity and rate (they depend on the caller's multiplier), so pruning
// can tell a full bucket exactly.
interface Bucket { tokens: number; t: number; cap: number; rate: number }

export class Quotas {
  private buckets = new Map<string, Bucket>();
  /** Size at which full buckets are next dropped: twice what survived the last pruning, at least `minPrune`. */
  private pruneAt: number;
  /** `scale` multiplies every bucket (config CX_QUOTA_MULT). */
  constructor(private now: () => number, private maxKeys = 200_000, private scale = 1, private minPrune = 4096) {
    this.pruneAt = minPrune;
  }

  /** How many buckets are held (each network or identity seen lately, per bucket kind). */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes `cost` tokens from `bucket` for `key`; throws 429 `err quota` with Retry-After. */
  take(bucket: string, key: string, mult = 1, cost = 1): void {
    const def = quotaDef(bucket);
    mult *= this.scale;
    const cap = def.burst * mult;
    const rate = (def.per * mult) / (def.window_s * 1000); // tokens per ms
    const id = `${bucket}|${key}`;
    const t = this.now();
    let b = this.buckets.get(id);
    if (!b) {
      // Traffic from many networks leaves a bucket per network that is full again a moment later:
      // dropped in amortized passes, so memory follows the networks active lately, not all seen.
      if (this.buckets.size >= Math.min(this.pruneAt, this.maxKeys)) {
        this.prune(t);
        this.pruneAt = Math.max(this.minPrune, 2 * this.buckets.size);
      }
      b = { tokens: cap, t, cap, rate };
      this.buckets.set(id, b);
    } else {
      b.tokens = Math.min(cap, b.tokens + (t - b.t) * rate);
      b.t = t;
      b.cap = cap;
      b.rate = rate;
    }
    if (b.tokens < cost) {
      const wait = Math.max(1, Math.ceil((cost - b.tokens) / rate / 1000));
      throw new CxError('quota', `${bucket} retry in ${wait}s`, 429, { 'Retry-After': String(wait) });
    }
    b.tokens -= cost;
  }

  /** Drops buckets that are full again (they carry no information). */
  private prune(t: number): void {
    for (const [id, b] of this.buckets) if (b.tokens + (t - b.t) * b.rate >= b.cap) this.buckets.delete(id);
    // Still at the hard cap with nothing full: the oldest entries go, so a flood of new networks
    // cannot grow the map without bound (they start full again, which errs towards serving).
    for (const id of this.buckets.keys()) {
      if (this.buckets.size < this.maxKeys) break;
      this.buckets.delete(id);
    }
  }
}
