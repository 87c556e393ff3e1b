// One subscriber's stream over a bus, shared by every adapter: live events come through the
// adapter's in-process `on` (SQLite: after commit; PostgreSQL: after NOTIFY), missed ones are read
// back by id (`read`). The stored events are the truth and the live feed only a shortcut, so:
// - resume: the resumed topics start "behind" and are read from the store first; live events that
//   arrive meanwhile are buffered, and whatever the read already gave is skipped by id;
// - a slow subscriber: the buffer is bounded; an event that does not fit is dropped and its topic
//   marked behind, to be read back from the store once the buffer drains (memory stays bounded,
//   nothing is lost while retention keeps it);
// - a gap (a live event beyond the next expected id) is filled from the store before it.
// Per topic, ids come out strictly increasing; an id is never delivered twice.
import type { BusEvent, EventBus, Resume, TopicSelector } from './ports.js';

/** Events read back from the store per round trip. */
const PAGE = 256;

export const selects = (sel: TopicSelector, topic: string): boolean => ('topic' in sel ? topic === sel.topic : topic.startsWith(sel.prefix));

export class Subscription implements AsyncIterable<BusEvent> {
  private readonly buf: BusEvent[] = [];
  /** Per topic, the last id delivered (or the point to start after). */
  private readonly last = new Map<string, number>();
  /** Topics with events to read back from the store (resume, or dropped on overflow); in order. */
  private readonly behind = new Set<string>();
  private wake: (() => void) | null = null;
  private done = false;
  private started = false;
  private readonly off: () => void;
  private readonly unabort: () => void;

  constructor(
    private readonly bus: Pick<EventBus, 'read' | 'on'>,
    sel: TopicSelector,
    opts: { resume?: Resume; signal?: AbortSignal },
    /** Live events held at most (limit events.buffer). */
    private readonly cap: number,
    private readonly onEnd: (s: Subscription) => void = () => undefined,
  ) {
    for (const [topic, id] of Object.entries(opts.resume ?? {})) {
      if (!selects(sel, topic) || !Number.isSafeInteger(id) || id < 0) continue;
      this.last.set(topic, id);
      this.behind.add(topic);
    }
    // Listening starts now, before the first read: nothing committed from here on can be missed.
    this.off = bus.on(sel, (e) => this.live(e));
    const signal = opts.signal;
    if (signal?.aborted) this.end();
    const abort = () => this.end();
    signal?.addEventListener('abort', abort, { once: true });
    this.unabort = () => signal?.removeEventListener('abort', abort);
  }

  /** Live events held now (never above the cap). */
  get buffered(): number {
    return this.buf.length;
  }

  /** Ends the stream: the iterator finishes after the event it is on. */
  end(): void {
    if (this.done) return;
    this.done = true;
    this.off();
    this.unabort();
    this.buf.length = 0;
    this.wake?.();
    this.onEnd(this);
  }

  private live(e: BusEvent): void {
    if (this.done) return;
    // A topic first seen live starts at this event.
    if (!this.last.has(e.topic)) this.last.set(e.topic, e.id - 1);
    if (this.behind.has(e.topic)) return; // will be read back in order
    if (this.buf.length >= this.cap) this.behind.add(e.topic);
    else this.buf.push(e);
    this.wake?.();
  }

  [Symbol.asyncIterator](): AsyncIterator<BusEvent> {
    if (this.started) throw new Error('a subscription is iterated once');
    this.started = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<BusEvent> {
    try {
      while (!this.done) {
        const e = this.buf.shift();
        if (e) {
          yield* this.deliver(e);
          continue;
        }
        const topic = this.behind.values().next().value as string | undefined;
        if (topic !== undefined) {
          // Taken off first: live events that arrive during the read are buffered, then skipped by id.
          this.behind.delete(topic);
          const rows = await this.bus.read(topic, this.last.get(topic)!, PAGE);
          if (rows.length === PAGE) this.behind.add(topic);
          for (const r of rows) {
            if (this.done) return;
            if (r.id <= this.last.get(topic)!) continue;
            this.last.set(topic, r.id);
            yield r;
          }
          continue;
        }
        await new Promise<void>((res) => (this.wake = res));
        this.wake = null;
      }
    } finally {
      this.end();
    }
  }

  /** One buffered live event: skipped if already delivered, preceded by the stored ones it skips over. */
  private async *deliver(e: BusEvent): AsyncGenerator<BusEvent> {
    for (;;) {
      const last = this.last.get(e.topic)!;
      if (e.id <= last) return;
      if (e.id === last + 1) break;
      const want = Math.min(PAGE, e.id - last - 1);
      const rows = await this.bus.read(e.topic, last, want);
      let moved = false;
      for (const r of rows) {
        if (this.done) return;
        if (r.id >= e.id) break;
        if (r.id <= this.last.get(e.topic)!) continue;
        this.last.set(e.topic, r.id);
        moved = true;
        yield r;
      }
      // Fewer than asked: the rest of the gap was pruned by retention.
      if (!moved || rows.length < want) break;
    }
    if (this.done || e.id <= this.last.get(e.topic)!) return;
    this.last.set(e.topic, e.id);
    yield e;
  }
}
