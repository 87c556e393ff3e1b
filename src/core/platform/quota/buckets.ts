// Quotas by name (QUOTAS in limits.ts) per network or identity, over the QuotaRepo port (ports.ts):
// this turns a bucket name and the caller's multiplier into capacity and rate, and an empty bucket
// into 429 `err quota` with Retry-After.
import { CxError } from '../../kernel/errors.js';
import { quotaDef, type QuotaBucket } from '../../kernel/limits.js';
import type { QuotaRepo } from './ports.js';

function refuseIfEmpty(bucket: QuotaBucket, waitMs: number): void {
  if (waitMs > 0) {
    const wait = Math.max(1, Math.ceil(waitMs / 1000));
    throw new CxError('quota', `${bucket} retry in ${wait}s`, 429, { 'Retry-After': String(wait) });
  }
}

export class Quotas {
  /** `scale` multiplies every bucket (config CX_QUOTA_MULT). */
  constructor(
    private repo: QuotaRepo,
    private now: () => number,
    private scale = 1,
  ) {}

  /** Takes `cost` tokens from `bucket` for `key`; throws 429 `err quota` with Retry-After. Synchronous
   *  when the repository is (in-memory buckets): a promise only when it must wait. */
  take(bucket: QuotaBucket, key: string, mult = 1, cost = 1): void | Promise<void> {
    const def = quotaDef(bucket);
    mult *= this.scale;
    const cap = def.burst * mult;
    const rate = (def.per * mult) / (def.window_s * 1000); // tokens per ms
    const waitMs = this.repo.take(`${bucket}|${key}`, cost, cap, rate, this.now());
    if (typeof waitMs === 'number') return refuseIfEmpty(bucket, waitMs);
    return waitMs.then((w) => refuseIfEmpty(bucket, w));
  }
}
