// Token buckets per network and per identity. In memory by design: quotas protect the
// process that holds them and reset on restart (see docs/decisions.md).
import { CxError } from '../errors.js';
import { quotaDef } from '../limits.js';

interface Bucket { tokens: number; t: number }

export class Quotas {
  private buckets = new Map<string, Bucket>();
  /** `scale` multiplies every bucket (config CX_QUOTA_MULT). */
  constructor(private now: () => number, private maxKeys = 200_000, private scale = 1) {}

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
      if (this.buckets.size >= this.maxKeys) this.prune(t);
      b = { tokens: cap, t };
      this.buckets.set(id, b);
    } else {
      b.tokens = Math.min(cap, b.tokens + (t - b.t) * rate);
      b.t = t;
    }
    if (b.tokens < cost) {
      const wait = Math.max(1, Math.ceil((cost - b.tokens) / rate / 1000));
      throw new CxError('quota', `${bucket} retry in ${wait}s`, 429, { 'Retry-After': String(wait) });
    }
    b.tokens -= cost;
  }

  /** Drops buckets that are full again (they carry no information). */
  private prune(t: number): void {
    for (const [id, b] of this.buckets) {
      const def = quotaDef(id.slice(0, id.indexOf('|')));
      if (b.tokens + (t - b.t) * (def.per / (def.window_s * 1000)) >= def.burst) this.buckets.delete(id);
    }
  }
}
