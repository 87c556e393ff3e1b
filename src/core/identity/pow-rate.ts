// Adaptive proof-of-work difficulty: registrations counted over a sliding window (pow.window), in
// all and per network, raise the bits a new challenge asks for: 1 bit per doubling above the calm
// rate (pow.calm_global, pow.calm_net), at most pow.extra_max over the base, back to the base once
// the window has no surplus. Per process, in memory (docs/architecture.md): with SQLite one process
// sees every registration; replicas on a shared store would each count their own (a port for the
// counts is the PostgreSQL issue's). Memory is bounded: the global count sits in 60 buckets, a
// network keeps at most the timestamps that can still add a bit, and at most pow.nets_tracked
// networks are kept (the least recently registering go first).
import { limit } from '../limits.js';

const BUCKETS = 60;

/** 1 bit per doubling of `n` above `calm`. */
export const extraBits = (n: number, calm: number): number => (n <= calm ? 0 : Math.ceil(Math.log2(n / calm)));

export class PowRates {
  private buckets = new Array<number>(BUCKETS).fill(0);
  /** Index (time / bucket width) of the newest bucket written. */
  private head = 0;
  private nets = new Map<string, number[]>();
  private maxNetAt = -Infinity;
  private maxNet = 0;

  constructor(private now: () => number) {}

  private get windowMs(): number {
    return limit('pow.window') * 1000;
  }

  /** Moves the bucket ring to `t`, clearing the buckets that left the window. */
  private roll(t: number): void {
    const idx = Math.floor(t / (this.windowMs / BUCKETS));
    if (idx <= this.head) return;
    for (let i = Math.max(this.head + 1, idx - BUCKETS + 1); i <= idx; i++) this.buckets[i % BUCKETS] = 0;
    this.head = idx;
  }

  /** Records one registration from `net`. */
  note(net: string): void {
    const t = this.now();
    this.roll(t);
    this.buckets[this.head % BUCKETS]!++;
    const keep = limit('pow.calm_net') * 2 ** limit('pow.extra_max');
    const list = this.nets.get(net) ?? [];
    this.nets.delete(net); // re-inserted last: the map's order is least recently registering first
    list.push(t);
    if (list.length > keep) list.splice(0, list.length - keep);
    this.nets.set(net, list);
    if (this.nets.size > limit('pow.nets_tracked')) this.nets.delete(this.nets.keys().next().value!);
    this.maxNetAt = -Infinity;
  }

  /** Registrations in the window: in all, and from `net` (0 without one). */
  counts(net?: string): { global: number; net: number } {
    const t = this.now();
    this.roll(t);
    const global = this.buckets.reduce((a, b) => a + b, 0);
    return { global, net: net === undefined ? 0 : this.netCount(net, t) };
  }

  private netCount(net: string, t: number): number {
    const list = this.nets.get(net);
    if (!list) return 0;
    const from = t - this.windowMs;
    let i = 0;
    while (i < list.length && list[i]! <= from) i++;
    if (i) list.splice(0, i);
    if (!list.length) this.nets.delete(net);
    return list.length;
  }

  /** The busiest network's count, recomputed at most once a second (for challenges whose network is unknown). */
  private busiest(t: number): number {
    if (t - this.maxNetAt < 1000) return this.maxNet;
    let m = 0;
    for (const net of [...this.nets.keys()]) m = Math.max(m, this.netCount(net, t));
    this.maxNet = m;
    this.maxNetAt = t;
    return m;
  }

  /**
   * Bits to add to a base difficulty for a caller on `net`. Without a network (a challenge inside a
   * 401's WWW-Authenticate) the busiest network's rate counts, so that path is never cheaper.
   */
  extra(net?: string): number {
    const t = this.now();
    const c = this.counts(net);
    const n = net === undefined ? this.busiest(t) : c.net;
    return Math.min(limit('pow.extra_max'), Math.max(extraBits(c.global, limit('pow.calm_global')), extraBits(n, limit('pow.calm_net'))));
  }
}
