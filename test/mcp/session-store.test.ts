// The MCP session record store and the admission rule: a full server ends its least recently
// seen session rather than refusing the newcomer; a network at its cap ends its own oldest.
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
  it('a full server ends the least recently seen session, whoever opened it; a touch protects a session', () => {
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
    expect(admit(st, rec('e', 'n4', 6), caps)).toEqual(['c']);
    expect(st.ids()).toEqual(['a', 'd', 'e']);
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
