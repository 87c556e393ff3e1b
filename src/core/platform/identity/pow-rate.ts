// Adaptive proof-of-work difficulty: registrations counted over a sliding window (pow.window), in
// all and per network, raise the bits a new challenge asks for: 1 bit per doubling above the calm
// rate (pow.calm_global, pow.calm_net), at most pow.extra_max over the base, back to the base once
// the window has no surplus.
//
// The counts live in the store (PowRateRepo: buckets of pow.window / 60, one upsert per
// registration), so replicas on a shared store price every replica's registrations. Reads go
// through a memo kept per process: the global count, each asking network's count (at most
// pow.nets_tracked networks, the least recently asked go first) and the busiest network's count,
// each re-read when older than pow.rates_refresh. The challenge operation and /limits wait for that
// re-read (their figures are at most pow.rates_refresh old); a 401's WWW-Authenticate challenge,
// which is built synchronously, uses the memo as it is and refreshes it in the background. This
// process's own registrations count in the memo at once.
import { limit } from '../../kernel/limits.js';
import type { PowRateRepo } from './ports.js';

const BUCKETS = 60;

/** 1 bit per doubling of `n` above `calm`. */
export const extraBits = (n: number, calm: number): number => (n <= calm ? 0 : Math.ceil(Math.log2(n / calm)));

interface Seen {
  n: number;
  at: number;
}

export class PowRates {
  private global: Seen = { n: 0, at: -Infinity };
  private nets = new Map<string, Seen>();
  private top: Seen = { n: 0, at: -Infinity };
  private pending: Promise<void> | null = null;

  constructor(
    private repo: PowRateRepo,
    private now: () => number,
  ) {}

  private get windowMs(): number {
    return limit('pow.window') * 1000;
  }

  /** The start of the bucket holding `t`. */
  private bucket(t: number): number {
    const w = this.windowMs / BUCKETS;
    return Math.floor(t / w) * w;
  }

  private fresh(s: Seen | undefined, t: number): s is Seen {
    return s !== undefined && t - s.at < limit('pow.rates_refresh') * 1000 && s.at <= t;
  }

  /** Records one registration from `net` (in the store; in this process's memo at once). */
  async note(net: string): Promise<void> {
    const t = this.now();
    await this.repo.note(net, this.bucket(t));
    this.global.n++;
    const s = this.nets.get(net);
    if (s) {
      s.n++;
      this.top.n = Math.max(this.top.n, s.n);
    }
  }

  /** Re-reads what is older than pow.rates_refresh: the global count, `net`'s, and (without a net) the busiest network's. */
  async refresh(net?: string): Promise<void> {
    const t = this.now();
    const since = t - this.windowMs;
    const want = net !== undefined && !this.fresh(this.nets.get(net), t);
    if (want || !this.fresh(this.global, t)) {
      const c = await this.repo.counts(want ? net : null, since);
      this.global = { n: c.global, at: t };
      if (want) this.remember(net, { n: c.net, at: t });
    }
    if (net === undefined && !this.fresh(this.top, t)) this.top = { n: await this.repo.busiest(since), at: t };
  }

  private remember(net: string, s: Seen): void {
    this.nets.delete(net); // re-inserted last: the map's order is least recently asked first
    this.nets.set(net, s);
    if (this.nets.size > limit('pow.nets_tracked')) this.nets.delete(this.nets.keys().next().value!);
  }

  /** A refresh in the background (one at a time), for the synchronous path. */
  private kick(net?: string): void {
    if (this.pending) return;
    this.pending = this.refresh(net)
      .catch(() => undefined)
      .finally(() => (this.pending = null));
  }

  /** Registrations in the window as last read: in all, and from `net` (0 without one). */
  counts(net?: string): { global: number; net: number } {
    const t = this.now();
    if (!this.fresh(this.global, t) || (net !== undefined && !this.fresh(this.nets.get(net), t))) this.kick(net);
    // A window that has passed since the last read counts nothing, whatever the memo says.
    const live = (s: Seen | undefined) => (s && t - s.at < this.windowMs ? s.n : 0);
    return { global: live(this.global), net: net === undefined ? 0 : live(this.nets.get(net)) };
  }

  /**
   * Bits to add to a base difficulty for a caller on `net`. Without a network (a challenge inside a
   * 401's WWW-Authenticate) the busiest network's rate counts, so that path is never cheaper.
   */
  extra(net?: string): number {
    const t = this.now();
    const c = this.counts(net);
    if (net === undefined && !this.fresh(this.top, t)) this.kick();
    const n = net === undefined ? (t - this.top.at < this.windowMs ? this.top.n : 0) : c.net;
    return Math.min(limit('pow.extra_max'), Math.max(extraBits(c.global, limit('pow.calm_global')), extraBits(n, limit('pow.calm_net'))));
  }
}

/** Counts in memory (tools and tests that build a Pow without a store): the port's promises, one process. */
export function memoryPowRates(): PowRateRepo {
  const rows = new Map<string, Map<number, number>>();
  const sum = (m: Map<number, number> | undefined, since: number) =>
    [...(m ?? new Map<number, number>()).entries()].reduce((a, [b, n]) => (b > since ? a + n : a), 0);
  return {
    async note(net, bucket) {
      for (const k of [net, '']) {
        const m = rows.get(k) ?? new Map<number, number>();
        m.set(bucket, (m.get(bucket) ?? 0) + 1);
        rows.set(k, m);
      }
    },
    async counts(net, since) {
      return { global: sum(rows.get(''), since), net: net === null ? 0 : sum(rows.get(net), since) };
    },
    async busiest(since) {
      let top = 0;
      for (const [k, m] of rows) if (k !== '') top = Math.max(top, sum(m, since));
      return top;
    },
    async purge(before) {
      let n = 0;
      for (const [k, m] of rows) {
        for (const b of [...m.keys()])
          if (b <= before) {
            m.delete(b);
            n++;
          }
        if (!m.size) rows.delete(k);
      }
      return n;
    },
  };
}
