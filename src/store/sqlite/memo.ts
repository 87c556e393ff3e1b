// Read-through memo for hot KB reads: a value is kept under its key until the KB changes (the
// generation moves on), it is older than ttlMs, or max newer keys push it out. `keep` says which
// values are worth a place (e.g. not empty answers: random keys would push the hot ones out);
// values it refuses may still be kept apart, in a second map of their own `apart` keys, where they
// push out only each other (a miss asked again and again: a brief's words, one new error).
export class Memo<V> {
  private m = new Map<string, { gen: number; at: number; v: V }>();
  private other = new Map<string, { gen: number; at: number; v: V }>();

  constructor(private opts: { ttlMs: number; max: number; gen?: () => number; keep?: (v: V) => boolean; apart?: number }) {}

  get(key: string, now: number, make: () => V): V {
    const gen = this.opts.gen?.() ?? 0;
    const hit = this.m.get(key) ?? this.other.get(key);
    if (hit) {
      if (hit.gen === gen && now - hit.at < this.opts.ttlMs) return hit.v;
      // Stale: out of whichever map holds it (the new value may belong in the other one).
      this.m.delete(key);
      this.other.delete(key);
    }
    const v = make();
    const kept = !this.opts.keep || this.opts.keep(v);
    const into = kept ? this.m : this.other;
    const max = kept ? this.opts.max : (this.opts.apart ?? 0);
    if (max <= 0) return v;
    into.set(key, { gen, at: now, v });
    if (into.size > max) into.delete(into.keys().next().value as string);
    return v;
  }
}
