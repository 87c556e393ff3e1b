// MCP per-session records behind a port: id, kind, the credential the session is bound to, the
// network that opened it and when it was last seen. The live objects (the SDK server and its
// transport, open streams) stay in the process that holds the connection.
//
// Sessions of pre-2026 clients (Streamable HTTP with Mcp-Session-Id, legacy HTTP+SSE) are per
// process: their transports are live objects. Several replicas therefore need sticky routing by
// session id (or a shared implementation of this port for the records plus routing to the
// replica holding the transport). Today's implementation keeps the records in memory.

export interface SessionRecord {
  id: string;
  kind: 'http' | 'sse';
  /** The credential key the session was opened with (a different one is refused). */
  bound: string;
  /** Network key (IPv4 /24, IPv6 /48) of the client that opened it. */
  net: string;
  /** Last request seen, ms. */
  seen: number;
}

export interface SessionStore {
  readonly size: number;
  get(id: string): SessionRecord | undefined;
  add(rec: SessionRecord): void;
  /** Marks a session seen at `now` (it becomes the most recently seen). */
  touch(id: string, now: number): void;
  remove(id: string): boolean;
  /** Live sessions opened from `net`. */
  countNet(net: string): number;
  /** The least recently seen session, of one network when `net` is given. */
  oldest(net?: string): SessionRecord | undefined;
  /**
   * The least recently seen session of the network holding the most sessions (among networks
   * holding as many, the one whose least recently seen session is oldest); undefined when empty.
   */
  heaviest(): SessionRecord | undefined;
  /** Sessions not seen since `before`, least recently seen first. */
  idleSince(before: number): SessionRecord[];
  ids(): string[];
}

/** One network's sessions (least recently seen first) and its place in the heap. */
interface NetEntry {
  net: string;
  m: Map<string, SessionRecord>;
  at: number;
}

/**
 * In memory. Both maps are kept in least-recently-seen order (a touch moves a record to the
 * end), so the oldest session, overall or of one network, is the first key: O(1), however many.
 * Networks are also kept in a binary heap ordered by sessions held (most first), then by their
 * least recently seen session (oldest first): `heaviest` is O(1), and each add, touch or remove
 * moves one network in it, O(log networks).
 */
export class MemorySessionStore implements SessionStore {
  private all = new Map<string, SessionRecord>();
  private byNet = new Map<string, NetEntry>();
  private heap: NetEntry[] = [];

  get size(): number {
    return this.all.size;
  }

  get(id: string): SessionRecord | undefined {
    return this.all.get(id);
  }

  add(rec: SessionRecord): void {
    this.remove(rec.id);
    this.all.set(rec.id, rec);
    let e = this.byNet.get(rec.net);
    if (!e) {
      this.byNet.set(rec.net, (e = { net: rec.net, m: new Map(), at: this.heap.length }));
      this.heap.push(e);
    }
    e.m.set(rec.id, rec);
    this.fix(e);
  }

  touch(id: string, now: number): void {
    const rec = this.all.get(id);
    if (!rec) return;
    rec.seen = now;
    this.all.delete(id);
    this.all.set(id, rec);
    const e = this.byNet.get(rec.net)!;
    const wasOldest = e.m.keys().next().value === id;
    e.m.delete(id);
    e.m.set(id, rec);
    if (wasOldest) this.fix(e);
  }

  remove(id: string): boolean {
    const rec = this.all.get(id);
    if (!rec) return false;
    this.all.delete(id);
    const e = this.byNet.get(rec.net);
    if (!e) return true;
    e.m.delete(id);
    if (e.m.size) {
      this.fix(e);
      return true;
    }
    this.byNet.delete(rec.net);
    const last = this.heap.pop()!;
    if (last !== e) {
      this.heap[e.at] = last;
      last.at = e.at;
      this.fix(last);
    }
    return true;
  }

  countNet(net: string): number {
    return this.byNet.get(net)?.m.size ?? 0;
  }

  oldest(net?: string): SessionRecord | undefined {
    const m = net === undefined ? this.all : this.byNet.get(net)?.m;
    return m?.values().next().value;
  }

  heaviest(): SessionRecord | undefined {
    return this.heap[0]?.m.values().next().value;
  }

  idleSince(before: number): SessionRecord[] {
    const out: SessionRecord[] = [];
    for (const rec of this.all.values()) {
      if (rec.seen >= before) break;
      out.push(rec);
    }
    return out;
  }

  ids(): string[] {
    return [...this.all.keys()];
  }

  /** Whether `a` goes before `b`: more sessions, then an older least recently seen one, then by name. */
  private before(a: NetEntry, b: NetEntry): boolean {
    if (a.m.size !== b.m.size) return a.m.size > b.m.size;
    const sa = a.m.values().next().value!.seen;
    const sb = b.m.values().next().value!.seen;
    return sa !== sb ? sa < sb : a.net < b.net;
  }

  private swap(i: number, j: number): void {
    const h = this.heap;
    const a = h[i]!;
    const b = h[j]!;
    h[i] = b;
    h[j] = a;
    b.at = i;
    a.at = j;
  }

  /** Moves a network whose count or oldest session changed to its place in the heap. */
  private fix(e: NetEntry): void {
    const h = this.heap;
    let i = e.at;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(h[i]!, h[p]!)) break;
      this.swap(i, p);
      i = p;
    }
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < h.length && this.before(h[l]!, h[top]!)) top = l;
      if (r < h.length && this.before(h[r]!, h[top]!)) top = r;
      if (top === i) break;
      this.swap(i, top);
      i = top;
    }
  }
}

/**
 * Makes room for one more session from `net`: a network at its own cap gives up its least
 * recently seen session. A full server then evicts fairly: the network holding the most sessions
 * (counting the newcomer in its own network's count) gives up its least recently seen one; among
 * networks holding as many, the one whose least recently seen session is oldest. So while any
 * network holds more than its fair share (the total cap over the networks present), a network at or
 * under it keeps its sessions, idle or not: many networks opening sessions take them from each other,
 * not from a client that holds few. The newcomer is never refused here (the per-network creation
 * quota is what limits churn). `end` closes the live objects of each session removed; returns how
 * many were. Each eviction costs O(log networks).
 */
export function makeRoom(store: SessionStore, net: string, caps: { total: number; perNet: number }, end: (rec: SessionRecord) => void): number {
  let n = 0;
  const evict = (rec: SessionRecord | undefined) => {
    if (!rec || !store.remove(rec.id)) return false;
    end(rec);
    n++;
    return true;
  };
  while (store.countNet(net) >= caps.perNet && evict(store.oldest(net)));
  while (store.size >= caps.total) {
    const top = store.heaviest();
    const own = store.oldest(net);
    let victim = top;
    if (top && own && top.net !== net) {
      // The newcomer's network counts its newcomer: if that makes it the largest, it gives up its own.
      const mine = store.countNet(net) + 1;
      const theirs = store.countNet(top.net);
      if (mine > theirs || (mine === theirs && own.seen < top.seen)) victim = own;
    }
    if (!evict(victim)) break;
  }
  return n;
}
