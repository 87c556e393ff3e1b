import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedFiles } from '../../src/core/kb/seed.js';
import { ECOS, KINDS, loadEvalSet, type EvalItem } from '../../scripts/eval-kb-set.js';

// Validates the labelled set of POST /e (test/kb/eval/, README.md there): its format, its counts,
// and that no output was copied from the entry it is labelled with (the set measures how the KB
// answers errors as other people's terminals print them, not its own seed text).

const seed = seedFiles().flatMap((f) =>
  readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { title: string; eco: string; error: string }),
);
const byTitle = new Map(seed.map((e) => [e.title, e]));
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
const seedErrors = new Set(seed.map((e) => collapse(e.error)));

const main = loadEvalSet('main');
const holdout = loadEvalSet('holdout');
const all = [...main, ...holdout];
const where = (x: EvalItem) => `${x.id} (${basename(x.file)}:${x.line})`;

describe('KB eval set (test/kb/eval)', () => {
  it('every item has exactly the fields id, kind, eco, expect, output with valid values', () => {
    const bad: string[] = [];
    for (const x of all) {
      const keys = Object.keys(x)
        .filter((k) => !['set', 'file', 'line'].includes(k))
        .sort();
      if (keys.join() !== 'eco,expect,id,kind,output') bad.push(`${where(x)}: fields ${keys.join()}`);
      if (typeof x.id !== 'string' || !/^[a-z0-9][a-z0-9_-]{1,31}$/.test(x.id)) bad.push(`${where(x)}: id`);
      if (!(KINDS as readonly string[]).includes(x.kind)) bad.push(`${where(x)}: kind ${x.kind}`);
      if (!(ECOS as readonly string[]).includes(x.eco)) bad.push(`${where(x)}: eco ${x.eco}`);
      if ((x.kind === 'none') !== (x.expect === null)) bad.push(`${where(x)}: kind none goes with expect null, and only it`);
      if (typeof x.output !== 'string' || !x.output.trim()) bad.push(`${where(x)}: empty output`);
      // What POST /e accepts: 16 KiB and 400 lines.
      else if (Buffer.byteLength(x.output) > 16 * 1024 || x.output.split('\n').length > 400) bad.push(`${where(x)}: output over the POST /e limits`);
      if (x.kind === 'oneline' && x.output.includes('\n')) bad.push(`${where(x)}: a one-line quote spans lines`);
    }
    expect(bad).toEqual([]);
  });

  it('every expect is the exact title of a seed entry, of the same ecosystem', () => {
    const bad = all.filter((x) => x.expect !== null && byTitle.get(x.expect)?.eco !== x.eco).map((x) => `${where(x)}: ${x.expect}`);
    expect(bad).toEqual([]);
  });

  it('ids are unique across both parts', () => {
    const seen = new Map<string, string>();
    const dup: string[] = [];
    for (const x of all) {
      if (seen.has(x.id)) dup.push(`${where(x)} and ${seen.get(x.id)}`);
      seen.set(x.id, where(x));
    }
    expect(dup).toEqual([]);
  });

  it('holds at least 500 main and 100 held-out outputs, 100 of them errors the KB does not hold', () => {
    expect(main.length).toBeGreaterThanOrEqual(500);
    expect(holdout.length).toBeGreaterThanOrEqual(100);
    expect(main.filter((x) => x.kind === 'none').length).toBeGreaterThanOrEqual(100);
    expect(all.filter((x) => x.kind === 'oneline').length).toBeGreaterThanOrEqual(100);
    // Every ecosystem is measured in the main part.
    for (const eco of ECOS)
      expect(
        main.some((x) => x.eco === eco && x.expect !== null),
        eco,
      ).toBe(true);
  });

  it('no output is a seed entry error text (after whitespace collapse)', () => {
    const bad = all.filter((x) => seedErrors.has(collapse(x.output))).map(where);
    expect(bad).toEqual([]);
  });

  it('no output shares a line of 40+ characters with its expected entry error text', () => {
    const bad: string[] = [];
    for (const x of all) {
      if (x.expect === null) continue;
      const theirs = new Set(
        byTitle
          .get(x.expect)!
          .error.split('\n')
          .map((l) => l.replace(/\s+/g, ' ').trim())
          .filter((l) => l.length >= 40),
      );
      for (const l of x.output.split('\n')) {
        const mine = l.replace(/\s+/g, ' ').trim();
        if (mine.length >= 40 && theirs.has(mine)) bad.push(`${where(x)}: ${mine.slice(0, 100)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
