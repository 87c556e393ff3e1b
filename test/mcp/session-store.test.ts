// The MCP session record store and the admission rule: a full server ends a session of the network
// holding the most (its least recently seen) rather than refusing the newcomer; a network at its cap
// ends its own oldest; a network within its fair share keeps its idle sessions.
import { describe, expect, it } from 'vitest';
import { makeRoom, MemorySessionStore, type SessionRecord } from '../../src/mcp/session-store.js';

const rec = (id: string, net: string, seen: number): SessionRecord => ({ id, kind: 'http', bound: '', net, seen });

function admit(store: MemorySessionStore, r: SessionRecord, caps: { total: number; perNet: number }): string[] {
  const ended: string[] = [];
  makeRoom(store, r.net, caps, (old) => ended.push(old.id));
  store.add(r);
  return ended;
}

describe('MCP session store', () => {
  it('a full server of networks holding one each ends the least recently seen session; a touch protects a session', () => {
    const st = new MemorySessionStore();
    const caps = { total: 3, perNet: 10 };
    expect(admit(st, rec('a', 'n1', 1), caps)).toEqual([]);
    expect(admit(st, rec('b', 'n2', 2), caps)).toEqual([]);
    expect(admit(st, rec('c', 'n3', 3), caps)).toEqual([]);
    st.touch('a', 4);
    // Full: b (seen at 2) is the least recently seen now.
    expect(admit(st, rec('d', 'n4', 5), caps)).toEqual(['b']);
    expect(st.size).toBe(3);
    expect(st.get('b')).toBeUndefined();
    // n4 would hold two of three, more than any other network: it gives up its own.
    expect(admit(st, rec('e', 'n4', 6), caps)).toEqual(['d']);
    expect(st.ids()).toEqual(['c', 'a', 'e']);
  });

  it('a full server ends a session of the network holding the most, its least recently seen; ties: the oldest', () => {
    const st = new MemorySessionStore();
    const caps = { total: 6, perNet: 10 };
    admit(st, rec('l1', 'legit', 1), caps);
    admit(st, rec('a1', 'na', 2), caps);
    admit(st, rec('a2', 'na', 3), caps);
    admit(st, rec('a3', 'na', 4), caps);
    admit(st, rec('b1', 'nb', 5), caps);
    admit(st, rec('b2', 'nb', 6), caps);
    st.touch('a1', 7);
    // na holds 3: its least recently seen (a2, since a1 was just used) goes, not legit's older l1.
    expect(admit(st, rec('c1', 'nc', 8), caps)).toEqual(['a2']);
    // na and nb hold 2 each: na's oldest is a3 (4), nb's is b1 (5).
    expect(admit(st, rec('c2', 'nc', 9), caps)).toEqual(['a3']);
    // nb holds 2, nc would hold 3: nc gives up its own.
    expect(admit(st, rec('c3', 'nc', 10), caps)).toEqual(['c1']);
    expect(st.get('l1')).toBeDefined();
    expect(st.heaviest()?.id).toBe('b1');
  });

  it("175 networks flooding a small cap end each other's sessions, not the idle one of a network within its fair share", () => {
    const st = new MemorySessionStore();
    // The server's proportions (mcp.sessions / mcp.sessions_net), at a tenth: 1,000 and 100.
    const caps = { total: 1000, perNet: 100 };
    let t = 0;
    const mine = ['mine-1', 'mine-2'];
    for (const id of mine) admit(st, rec(id, 'home', t++), caps);
    // 175 networks, 60 new sessions each (a burst of the creation quota): 10,500, interleaved.
    let ended = 0;
    for (let k = 0; k < 60; k++) {
      for (let i = 0; i < 175; i++) ended += admit(st, rec(`f${i}-${k}`, `10.${i}.0`, t++), caps).length;
    }
    expect(st.size).toBe(1000);
    expect(ended).toBe(10_500 + mine.length - 1000);
    // Never touched, the oldest sessions on the server, and still there.
    for (const id of mine) expect(st.get(id)).toBeDefined();
    // The flood shares what is left: no network holds more than one over another.
    const counts = Array.from({ length: 175 }, (_, i) => st.countNet(`10.${i}.0`));
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    // The same flood opened one network at a time (each reaching its per-network cap first).
    const st2 = new MemorySessionStore();
    admit(st2, rec('idle', 'home', 0), caps);
    for (let i = 0; i < 175; i++) for (let k = 0; k < 60; k++) admit(st2, rec(`g${i}-${k}`, `10.${i}.1`, 1 + i * 60 + k), caps);
    expect(st2.get('idle')).toBeDefined();
    expect(st2.size).toBe(1000);
  });

  it('the heap agrees with counting by hand through random adds, touches and removes', () => {
    const st = new MemorySessionStore();
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const byHand = () => {
      const nets = new Map<string, SessionRecord[]>();
      for (const id of st.ids()) {
        const r = st.get(id)!;
        nets.set(r.net, [...(nets.get(r.net) ?? []), r]);
      }
      let best: SessionRecord[] | undefined;
      for (const rs of nets.values()) {
        const first = rs[0]!;
        const b = best?.[0];
        if (!best || rs.length > best.length || (rs.length === best.length && (first.seen < b!.seen || (first.seen === b!.seen && first.net < b!.net))))
          best = rs;
      }
      return best?.[0]?.id;
    };
    for (let t = 1; t < 1500; t++) {
      const op = rnd(10);
      const ids = st.ids();
      if (op < 5 || !ids.length) st.add(rec(`s${t}`, `n${rnd(12)}`, t));
      else if (op < 8) st.touch(ids[rnd(ids.length)]!, t);
      else st.remove(ids[rnd(ids.length)]!);
      expect(st.heaviest()?.id).toBe(byHand());
    }
  });

  it('a flood of new sessions never refuses a newcomer and never holds more than the cap', () => {
    const st = new MemorySessionStore();
    const caps = { total: 50, perNet: 5 };
    for (let i = 0; i < 1000; i++) admit(st, rec(`s${i}`, `n${i % 300}`, i), caps);
    expect(st.size).toBe(50);
    // A client that keeps using its session survives the flood.
    admit(st, rec('mine', 'home', 1000), caps);
    for (let i = 0; i < 1000; i++) {
      st.touch('mine', 1001 + 2 * i);
      admit(st, rec(`f${i}`, `m${i % 300}`, 1002 + 2 * i), caps);
    }
    expect(st.get('mine')).toBeDefined();
    expect(st.size).toBe(50);
  });

  it('a network at its cap ends its own least recently seen session, not another network’s', () => {
    const st = new MemorySessionStore();
    const caps = { total: 100, perNet: 2 };
    admit(st, rec('x1', 'nx', 1), caps);
    admit(st, rec('y1', 'ny', 2), caps);
    admit(st, rec('x2', 'nx', 3), caps);
    st.touch('x1', 4);
    expect(admit(st, rec('x3', 'nx', 5), caps)).toEqual(['x2']);
    expect(st.countNet('nx')).toBe(2);
    expect(st.countNet('ny')).toBe(1);
  });

  it('idleSince lists sessions not seen since a time, oldest first; remove forgets a network', () => {
    const st = new MemorySessionStore();
    st.add(rec('a', 'n', 10));
    st.add(rec('b', 'n', 20));
    st.add(rec('c', 'm', 30));
    st.touch('a', 40);
    expect(st.idleSince(35).map((r) => r.id)).toEqual(['b', 'c']);
    expect(st.remove('a')).toBe(true);
    expect(st.remove('a')).toBe(false);
    st.remove('b');
    expect(st.countNet('n')).toBe(0);
    expect(st.oldest('n')).toBeUndefined();
    expect(st.oldest()?.id).toBe('c');
  });
});
