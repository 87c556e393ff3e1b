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
  /** Sessions not seen since `before`, least recently seen first. */
  idleSince(before: number): SessionRecord[];
  ids(): string[];
}

/**
 * In memory. Both maps are kept in least-recently-seen order (a touch moves a record to the
 * end), so the oldest session, overall or of one network, is the first key: O(1), however many.
 */
export class MemorySessionStore implements SessionStore {
  private all = new Map<string, SessionRecord>();
  private byNet = new Map<string, Map<string, SessionRecord>>();

  get size(): number {
    return this.all.size;
  }

  get(id: string): SessionRecord | undefined {
    return this.all.get(id);
  }

  add(rec: SessionRecord): void {
    this.remove(rec.id);
    this.all.set(rec.id, rec);
    let m = this.byNet.get(rec.net);
    if (!m) this.byNet.set(rec.net, (m = new Map()));
    m.set(rec.id, rec);
  }

  touch(id: string, now: number): void {
    const rec = this.all.get(id);
    if (!rec) return;
    rec.seen = now;
    this.all.delete(id);
    this.all.set(id, rec);
    const m = this.byNet.get(rec.net)!;
    m.delete(id);
    m.set(id, rec);
  }

  remove(id: string): boolean {
    const rec = this.all.get(id);
    if (!rec) return false;
    this.all.delete(id);
    const m = this.byNet.get(rec.net);
    m?.delete(id);
    if (m && !m.size) this.byNet.delete(rec.net);
    return true;
  }

  countNet(net: string): number {
    return this.byNet.get(net)?.size ?? 0;
  }

  oldest(net?: string): SessionRecord | undefined {
    const m = net === undefined ? this.all : this.byNet.get(net);
    return m?.values().next().value;
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
}

/**
 * Makes room for one more session from `net`: a network at its own cap gives up its least
 * recently seen session; a full server gives up its least recently seen one. The newcomer is never
 * refused here (the per-network creation quota is what limits churn). `end` closes the live
 * objects of each session removed; returns how many were.
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
  while (store.size >= caps.total && evict(store.oldest()));
  return n;
}
