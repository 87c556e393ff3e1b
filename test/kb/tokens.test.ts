// The brief's piecewise token count equals the tokenizer's count of the whole text, whatever the
// lines hold: the cut rule (after a line break the next line does not continue) must never split
// a pre-token.
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { line, lineCost, linesTokens } from '../../src/core/kb/tokens.js';

const whole = (lines: string[]) => countTokens(lines.join('\n'), { disallowedSpecial: new Set<string>() });

// Fragments chosen to sit at line starts and ends where o200k's pre-split joins across a break.
const FRAGS = [
  'k/k0000lexc score=0',
  'py:SyntheticError999120: token buffer failed',
  '/usr/lib/x.so',
  '//',
  '/',
  ' leading space',
  '  two spaces',
  '\tTab',
  '\r',
  '',
  ' ',
  '.',
  '...',
  '!?',
  ':',
  '-',
  '—',
  'é',
  'Ünïcödé',
  '日本語',
  '😀',
  "it's",
  "'s",
  "'",
  '123',
  '4567',
  'x1',
  '<|endoftext|>',
  '<|im_start|>',
  'fix: pin it.',
  'a.\n',
  '\n',
  '\n\n',
  '(',
  ')',
  '"quoted"',
  'C:\\path\\to',
  'https://x.y/z',
  'e\u0301',
  'ß',
  'ǅ',
  'x\u200d',
  '٣',
  'Ⅻ',
  'a\u00a0',
  'end\u2028',
];

function rand(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('brief token counts', () => {
  it('the sum over pieces equals the count of the whole text', () => {
    const r = rand(16);
    for (let t = 0; t < 3000; t++) {
      const lines = Array.from({ length: 1 + Math.floor(r() * 8) }, () =>
        Array.from({ length: Math.floor(r() * 4) }, () => FRAGS[Math.floor(r() * FRAGS.length)]!).join(r() < 0.5 ? ' ' : ''),
      );
      // Fresh line objects, then the same objects again (their remembered counts).
      const ls = lines.map(line);
      expect(linesTokens(ls), JSON.stringify(lines)).toBe(whole(lines));
      expect(linesTokens(ls), JSON.stringify(lines)).toBe(whole(lines));
      expect(linesTokens([...ls].reverse()), JSON.stringify(lines)).toBe(whole([...lines].reverse()));
    }
  });

  it('brief-shaped texts, counted twice (the second time from remembered pieces)', () => {
    const lines = [
      '',
      'kb:',
      'k/k0000lecc score=0 py:SyntheticError998364: beta stream failed | fix: update parser.',
      'changes:',
      '-',
      'digests:',
      'lib1@2.0.0 api: /v2 is the new path',
      'cache:',
      '-',
      'wanted:',
      'py:Err: <email> misses=2',
      'next: GET /k/k0000lecc for the whole entry',
    ];
    const ls = lines.map(line);
    expect(linesTokens(ls)).toBe(whole(lines));
    expect(linesTokens(ls)).toBe(whole(lines));
    expect(linesTokens([])).toBe(0);
    expect(lineCost(line('kb:'))).toBe(whole(['kb:']) + 1);
  });

  it("the header's count is its question part's, plus the rest up to b=, plus the digits after it", () => {
    const r = rand(7);
    for (let t = 0; t < 2000; t++) {
      const q = Array.from({ length: Math.floor(r() * 5) }, () => FRAGS[Math.floor(r() * FRAGS.length)]!)
        .join(r() < 0.5 ? ' ' : '')
        .replace(/\s+/g, ' ');
      const ask = `brief q=${q.trim()}`;
      const facts = ` libs=${t % 21} hits=${t % 16} changes=${t % 7} cached=${t & 1} b=`;
      const tail = `${Math.floor(r() * 2100)}/${200 + Math.floor(r() * 1801)}`;
      expect(whole([ask]) + whole([facts]) + whole([tail]), ask + facts + tail).toBe(whole([ask + facts + tail]));
    }
  });
});
