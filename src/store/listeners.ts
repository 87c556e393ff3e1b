// The live listeners of an event bus adapter (SQLite and PostgreSQL alike): by exact topic or by
// prefix. A listener must not throw; if one does, the others still get the event and the write stands.
import type { BusEvent, TopicSelector } from '../core/platform/events/ports.js';

type Fn = (e: BusEvent) => void;

export class Listeners {
  private exact = new Map<string, Set<Fn>>();
  private prefixed = new Set<{ prefix: string; fn: Fn }>();
  /** Largest commit → fan-out delay since takeLag (metrics: event-bus lag). */
  private lag = 0;

  /** `now`: the adapter's clock, the one event times are written with. */
  constructor(private now: () => number = Date.now) {}

  /** The largest delay since the last call, ms; starts over. */
  takeLag(): number {
    const l = this.lag;
    this.lag = 0;
    return l;
  }

  /** Whether anyone listens to `topic` (nothing to deliver otherwise). */
  listened(topic: string): boolean {
    if (this.exact.get(topic)?.size) return true;
    for (const p of this.prefixed) if (topic.startsWith(p.prefix)) return true;
    return false;
  }

  dispatch(e: BusEvent): void {
    const lag = this.now() - e.time;
    if (lag > this.lag) this.lag = lag;
    const set = this.exact.get(e.topic);
    if (set) for (const fn of set) call(fn, e);
    for (const p of this.prefixed) if (e.topic.startsWith(p.prefix)) call(p.fn, e);
  }

  /** Adds a listener; the function returned removes it. */
  on(sel: TopicSelector, fn: Fn): () => void {
    if ('topic' in sel) {
      let set = this.exact.get(sel.topic);
      if (!set) this.exact.set(sel.topic, (set = new Set()));
      const entry: Fn = (e) => fn(e);
      set.add(entry);
      return () => {
        set!.delete(entry);
        if (!set!.size && this.exact.get(sel.topic) === set) this.exact.delete(sel.topic);
      };
    }
    const entry = { prefix: sel.prefix, fn };
    this.prefixed.add(entry);
    return () => void this.prefixed.delete(entry);
  }

  clear(): void {
    this.exact.clear();
    this.prefixed.clear();
  }
}

function call(fn: Fn, e: BusEvent): void {
  try {
    fn(e);
  } catch {
    /* a listener's own failure */
  }
}
