// Item text and the since parameter, without a server: what XML cannot carry is dropped, cuts never
// split a surrogate pair, and only RFC 3339 date-times are dates.
import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from '../../src/core/feeds/feed.js';
import { line, plain } from '../../src/core/kernel/feed-text.js';

describe('item text', () => {
  it('plain keeps lines and tabs, drops controls, lone surrogates and U+FFFE/U+FFFF, normalizes CR LF', () => {
    expect(plain('a\tb\r\nc\rd\u0000e\u001bf\uFFFEg\uFFFFh\uD800i\uDC00j 😀')).toBe('a\tb\nc\ndefghij 😀');
  });

  it('line folds whitespace into one line', () => {
    expect(line('  one\n two\t\tthree  ')).toBe('one two three');
  });

  it('cuts at the limit with an ellipsis, never inside a surrogate pair', () => {
    expect(line('abcdef', 4)).toBe('abc…');
    expect(line('abcdef', 6)).toBe('abcdef');
    // 'ab😀' is 4 UTF-16 units: cutting to 4 would keep only the high half of the emoji.
    const cut = line('ab😀cd', 4);
    expect(cut).toBe('ab…');
    expect(plain('x'.repeat(10) + '😀', 11)).toBe('x'.repeat(10) + '…');
  });
});

describe('since', () => {
  it('RFC 3339 date-times: Z, offsets, fractions, t and space separators, a leap second', () => {
    expect(parseRfc3339('2026-11-24T12:00:00Z')).toBe(Date.parse('2026-11-24T12:00:00Z'));
    expect(parseRfc3339('2026-11-24t12:00:00z')).toBe(Date.parse('2026-11-24T12:00:00Z'));
    expect(parseRfc3339('2026-11-24 13:30:00+01:30')).toBe(Date.parse('2026-11-24T12:00:00Z'));
    expect(parseRfc3339('2026-11-24T12:00:00.123456Z')).toBe(Date.parse('2026-11-24T12:00:00.123Z'));
    expect(parseRfc3339('2016-12-31T23:59:60Z')).toBe(Date.parse('2016-12-31T23:59:59Z'));
    expect(parseRfc3339('2024-02-29T00:00:00Z')).toBe(Date.parse('2024-02-29T00:00:00Z'));
  });

  it('anything else is not a date', () => {
    for (const s of [
      '2026-11-24',
      '2026-11-24T12:00:00',
      '2026-11-24T12:00Z',
      '2025-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-11-24T24:00:00Z',
      '2026-11-24T12:60:00Z',
      '2026-11-24T12:00:00+24:00',
      '1700000000',
      'now',
      ' 2026-11-24T12:00:00Z',
    ]) {
      expect(parseRfc3339(s), s).toBeNull();
    }
  });
});
