// Orders per network (IPv4 /24, IPv6 /48): a token bucket in memory, like the commons' quotas
// (they guard this process and reset on restart).
import { CxError } from '../core/kernel/errors.js';
import { CATALOG_LIMITS } from './limits.js';

export class OrderQuota {
  private buckets = new Map<string, { tokens: number; t: number }>();
  constructor(
    private perHour: number,
    private now: () => number,
  ) {}

  take(net: string): void {
    const rate = this.perHour / 3600_000; // tokens per ms
    const t = this.now();
    let b = this.buckets.get(net);
    if (!b) {
      if (this.buckets.size >= CATALOG_LIMITS.quota_keys) this.prune(t, rate);
      b = { tokens: this.perHour, t };
      this.buckets.set(net, b);
    } else {
      b.tokens = Math.min(this.perHour, b.tokens + (t - b.t) * rate);
      b.t = t;
    }
    if (b.tokens < 1) {
      const wait = Math.max(1, Math.ceil((1 - b.tokens) / rate / 1000));
      throw new CxError('quota', `orders: ${this.perHour} per hour per network, retry in ${wait}s`, 429, { 'Retry-After': String(wait) });
    }
    b.tokens -= 1;
  }

  /** Full buckets carry no information. */
  private prune(t: number, rate: number): void {
    for (const [k, b] of this.buckets) if (b.tokens + (t - b.t) * rate >= this.perHour) this.buckets.delete(k);
  }
}
