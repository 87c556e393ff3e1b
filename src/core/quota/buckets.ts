// Quotas by name (QUOTAS in limits.ts) per network or identity, over the QuotaRepo port (ports.ts):
// this turns a bucket name and the caller's multiplier into capacity and rate, and an empty bucket
// into 429 `err quota` with Retry-After.
import { CxError } from '../errors.js';
import { quotaDef } from '../limits.js';
import type { QuotaRepo } from './ports.js';

export class Quotas {
  /** `scale` multiplies every bucket (config CX_QUOTA_MULT). */
  constructor(private repo: QuotaRepo, private now: () => number, private scale = 1) {}

  /** Takes `cost` tokens from `bucket` for `key`; throws 429 `err quota` with Retry-After. */
  async take(bucket: string, key: string, mult = 1, cost = 1): Promise<void> {
    const def = quotaDef(bucket);
    mult *= this.scale;
    const cap = def.burst * mult;
    const rate = (def.per * mult) / (def.window_s * 1000); // tokens per ms
    const waitMs = await this.repo.take(`${bucket}|${key}`, cost, cap, rate, this.now());
    if (waitMs > 0) {
      const wait = Math.max(1, Math.ceil(waitMs / 1000));
      throw new CxError('quota', `${bucket} retry in ${wait}s`, 429, { 'Retry-After': String(wait) });
    }
  }
}
