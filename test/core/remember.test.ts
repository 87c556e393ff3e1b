// remembered (src/core/kernel/remember.ts): each key computed once while kept, at most `max` kept,
// the oldest let go first.
import { describe, expect, it } from 'vitest';
import { remembered } from '../../src/core/kernel/remember.js';

describe('remembered', () => {
  it('computes a key once while it is kept, keeps at most max keys and lets the oldest go first', () => {
    const calls: string[] = [];
    const f = remembered((k: string) => {
      calls.push(k);
      return k.length;
    }, 2);
    expect([f('a'), f('bb'), f('a'), f('bb')]).toEqual([1, 2, 1, 2]);
    expect(calls).toEqual(['a', 'bb']);
    f('ccc'); // full: 'a', the oldest, goes
    f('bb');
    f('a');
    expect(calls).toEqual(['a', 'bb', 'ccc', 'a']);
  });
});
