// Read-through memo for hot KB reads: a value is kept under its key until the KB changes (the
// generation moves on), it is older than ttlMs, or max newer keys push it out. `keep` says which
// values are worth a place (e.g. not empty answers: random keys would push the hot ones out);
// values it refuses may still be kept apart, in a second map of their own `apart` keys, where they
// push out only each other (a miss asked again and again: a brief's words, one new error).
//
// `second` (a power of two) admits a key only when it is asked a second time while its fingerprint
// still sits in a table of that many slots (a doorkeeper, as in TinyLFU). Why: over a million
// signatures most lookups ask a key once; storing each such answer cost ~25 µs of CPU per cold
// lookup at 1M entries (the map's churn, and answers living long enough to be copied by two young
// collections and promoted, then collected again), for an answer nobody asks again. A key asked
// twice within the table's reach (~`second` distinct keys) is kept from then on, as before.
//
// `freeze`: values kept are frozen (shallowly) as they go in. They are handed to every later
// caller, so none may change them; and a frozen answer tells a caller it will see that very
// object again (kb.h memoizes its rendering only for those).
//
// Shared by both adapters: SQLite reads synchronously (`get`), PostgreSQL asynchronously (`getAsync`).
/** `find`: the doorkeeper turned the key away (read it, keep nothing). */
const REFUSED = Symbol('refused');

export class Memo<V> {
  private m = new Map<string, { gen: number; at: number; v: V }>();
  private other = new Map<string, { gen: number; at: number; v: V }>();
  private door: Int32Array | null;

  constructor(private opts: { ttlMs: number; max: number; gen?: () => number; keep?: (v: V) => boolean; apart?: number; second?: number; freeze?: boolean }) {
    const s = opts.second ?? 0;
    if (s & (s - 1)) throw new Error('Memo: second must be a power of two');
    this.door = s > 0 ? new Int32Array(s) : null;
  }

  get(key: string, now: number, make: () => V): V {
    const gen = this.opts.gen?.() ?? 0;
    const found = this.find(key, gen, now);
    if (found === REFUSED) return make();
    if (found) return found.v;
    return this.put(key, gen, now, make());
  }

  /**
   * `get` for a value read asynchronously (PostgreSQL). The generation is taken before the read and
   * the value kept only if it has not moved meanwhile: a write that committed while the read ran
   * (its rows possibly missed) moves the generation after its commit, so nothing read before then
   * is kept as current. Concurrent misses of one key each read (no waiting on another's read).
   */
  async getAsync(key: string, now: number, make: () => Promise<V>): Promise<V> {
    const gen = this.opts.gen?.() ?? 0;
    const found = this.find(key, gen, now);
    if (found === REFUSED) return make();
    if (found) return found.v;
    const v = await make();
    return (this.opts.gen?.() ?? 0) === gen ? this.put(key, gen, now, v) : v;
  }

  /** The current value of `key` (a stale one is dropped: undefined), or REFUSED by the doorkeeper. */
  private find(key: string, gen: number, now: number): { v: V } | undefined | typeof REFUSED {
    const hit = this.m.get(key) ?? this.other.get(key);
    if (hit) {
      if (hit.gen === gen && now - hit.at < this.opts.ttlMs) return hit;
      // Stale: out of whichever map holds it (the new value may belong in the other one).
      this.m.delete(key);
      this.other.delete(key);
    } else if (this.door && !this.admit(key)) return REFUSED;
    return undefined;
  }

  private put(key: string, gen: number, now: number, v: V): V {
    const kept = !this.opts.keep || this.opts.keep(v);
    const into = kept ? this.m : this.other;
    const max = kept ? this.opts.max : (this.opts.apart ?? 0);
    if (max <= 0) return v;
    into.set(key, { gen, at: now, v: this.opts.freeze ? Object.freeze(v) : v });
    if (into.size > max) into.delete(into.keys().next().value as string);
    return v;
  }

  /** True if `key` was seen recently (its fingerprint is in its slot); else it is noted, false. */
  private admit(key: string): boolean {
    // FNV-1a over the key: a 32-bit fingerprint, never 0 (0 marks an empty slot).
    let f = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) f = Math.imul(f ^ key.charCodeAt(i), 0x01000193);
    f |= 1;
    const door = this.door!;
    const slot = (f >>> 1) & (door.length - 1);
    if (door[slot] === f) return true;
    door[slot] = f;
    return false;
  }
}
