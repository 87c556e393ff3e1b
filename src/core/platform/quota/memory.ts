// In-memory token buckets (QuotaRepo). Per process: right for SQLite, where one process owns the
// database and sees every request; buckets reset on restart (docs/decisions.md, docs/architecture.md).

import type { QuotaRepo } from './ports.js';

// Each bucket keeps its own capacity and rate (they depend on the caller's multiplier), so pruning
// can tell a full bucket exactly.
interface Bucket {
  tokens: number;
  t: number;
  cap: number;
  rate: number;
}

export class MemoryQuotaRepo implements QuotaRepo {
  private buckets = new Map<string, Bucket>();
  /** Size at which full buckets are next dropped: twice what survived the last pruning, at least `minPrune`. */
  private pruneAt: number;
  constructor(
    private maxKeys = 200_000,
    private minPrune = 4096,
  ) {
    this.pruneAt = minPrune;
  }

  /** How many buckets are held (each network or identity seen lately, per bucket kind). */
  get size(): number {
    return this.buckets.size;
  }

  take(id: string, cost: number, cap: number, rate: number, t: number): number {
    return this.takeNow(id, cost, cap, rate, t);
  }

  takeNow(id: string, cost: number, cap: number, rate: number, t: number): number {
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
      b.tokens = Math.min(cap, b.tokens + Math.max(0, t - b.t) * rate);
      b.t = Math.max(b.t, t);
      b.cap = cap;
      b.rate = rate;
    }
    if (b.tokens < cost) return Math.max(1, Math.ceil((cost - b.tokens) / rate));
    b.tokens -= cost;
    return 0;
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
