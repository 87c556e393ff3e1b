// The kernel's shared text helpers (src/core/kernel/text.ts): the one ISO form and the one rule for
// a line of untrusted text.
import { describe, expect, it } from 'vitest';
import { iso, oneLine } from '../../src/core/kernel/text.js';

describe('iso', () => {
  it('is UTC to the second, without milliseconds', () => {
    expect(iso(Date.UTC(2026, 10, 28, 13, 9, 4, 987))).toBe('2026-11-28T13:09:04Z');
    expect(iso(0)).toBe('1970-01-01T00:00:00Z');
  });
});

describe('oneLine', () => {
  it('turns controls, line separators and whitespace runs into one space, and trims', () => {
    expect(oneLine('  a\r\n\tb\u0000c\u007fd\u0085e\u2028f\u2029g  \u00a0 h ', 100)).toBe('a b c d e f g h');
  });

  it('drops invisible formatting (zero-width, bidi overrides, BOM)', () => {
    expect(oneLine('ad\u200bmin \u202egnp.exe\u202c \ufeffx', 100)).toBe('admin gnp.exe x');
  });

  it('cuts to max units with an ellipsis, never inside a surrogate pair', () => {
    expect(oneLine('abcdef', 6)).toBe('abcdef');
    expect(oneLine('abcdefg', 6)).toBe('abcde…');
    expect(oneLine('abcd😀xyz', 6)).toBe('abcd…');
    expect(oneLine('abcd😀xyz', 6).length).toBeLessThanOrEqual(6);
  });

  it('leaves ordinary text as the private copies it replaced did', () => {
    const old = (s: string, n: number) => {
      const f = s.replace(/\s+/g, ' ').trim();
      return f.length > n ? f.slice(0, n - 1) + '…' : f;
    };
    for (const s of ['TypeError: x is not a function', '  two\n lines ', 'é ü 中文 ok', 'x'.repeat(130)]) expect(oneLine(s, 120)).toBe(old(s, 120));
  });
});
