// Read-through memo for hot KB reads: a value is kept under its key until the KB changes (the
// generation moves on), it is older than ttlMs, or max newer keys push it out. `keep` says which
// values are worth a place (e.g. not empty answers: random keys would push the hot ones out).
export class Memo<V> {
  private m = new Map<string, { gen: number; at: number; v: V }>();

  constructor(private opts: { ttlMs: number; max: number; gen?: () => number; keep?: (v: V) => boolean }) {}

  get(key: string, now: number, make: () => V): V {
    const gen = this.opts.gen?.() ?? 0;
    const hit = this.m.get(key);
    if (hit && hit.gen === gen && now - hit.at < this.opts.ttlMs) return hit.v;
    const v = make();
    this.m.delete(key);
    if (this.opts.keep && !this.opts.keep(v)) return v;
    this.m.set(key, { gen, at: now, v });
    if (this.m.size > this.opts.max) this.m.delete(this.m.keys().next().value as string);
    return v;
  }
}
