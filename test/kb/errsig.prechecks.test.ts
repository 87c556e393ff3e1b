// errsig.js skips a pass or a decisive-line rule when a text its pattern cannot match without is
// absent (a precheck: `has(J, '…')`, `s.indexOf('…')`, the bare-name table …); errsig.py has no
// prechecks. A precheck that is wrong shows as a difference between the two, on inputs made of the
// very texts the prechecks look for (read from errsig.js, so new prechecks are covered too), near
// misses of them (a character dropped or changed), lines of the published vectors and noise.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errsig } from '../../src/core/kb/errsig/errsig.js';

const dir = fileURLToPath(new URL('../../src/core/kb/errsig/', import.meta.url));
const DRIVER = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location('errsig', sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
sys.stdout.write(json.dumps([list(m.errsig_levels(t)) for t in json.loads(sys.stdin.buffer.read().decode('utf-8'))]))
`;
function py(inputs: string[]): string[][] {
  const r = spawnSync('python3', ['-B', '-c', DRIVER, dir + 'errsig.py'], { input: JSON.stringify(inputs), maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error('python3 failed: ' + r.stderr.toString());
  return JSON.parse(r.stdout.toString());
}

// Every single-quoted literal a precheck tests, as JavaScript reads it.
const src = readFileSync(dir + 'errsig.js', 'utf8');
const lit = (body: string) =>
  body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (_m, e: string) =>
    e.length > 1 ? String.fromCharCode(parseInt(e.slice(1), 16)) : e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e,
  );
const L = String.raw`'((?:[^'\\\n]|\\.)*)'`;
const needles = new Set<string>();
for (const re of [new RegExp(String.raw`has\(J, ` + L, 'g'), new RegExp(String.raw`\.(?:indexOf|startsWith)\(` + L, 'g')])
  for (const m of src.matchAll(re)) needles.add(lit(m[1]!));
for (const m of src.matchAll(/\['bare[0-9]+', \[([^\]]*)\]\]/g)) for (const n of m[1]!.matchAll(new RegExp(L, 'g'))) needles.add(lit(n[1]!));

const un = (s: string) =>
  s.replace(/\\(\\|n|r|t|e|x[0-9a-fA-F]{2})/g, (_m, e: string) =>
    e === '\\' ? '\\' : e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e === 'e' ? '\x1b' : String.fromCharCode(parseInt(e.slice(1), 16)),
  );
const tsv = readFileSync(dir + 'errsig.tsv', 'utf8').split('\n');
const vectors = tsv
  .slice(tsv.indexOf('input\tsig\tsha256\tcoarse') + 1)
  .filter(Boolean)
  .map((l) => un(l.split('\t')[0]!));
// Whole outputs: the vectors, the realistic outputs and the sample data's error texts.
const realistic = ['langs.json', 'systems.json'].flatMap((f) =>
  (JSON.parse(readFileSync(fileURLToPath(new URL('realistic/' + f, import.meta.url)), 'utf8')) as { output: string }[]).map((x) => x.output),
);
const seedDir = fileURLToPath(new URL('../../src/core/kb/seed/', import.meta.url));
const seeds = readdirSync(seedDir)
  .filter((f) => f.endsWith('.jsonl'))
  .flatMap((f) =>
    readFileSync(seedDir + f, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { error: string }).error),
  );
const outputs = [...vectors, ...realistic, ...seeds].filter((t) => t.trim() !== '');
const lines = outputs.flatMap((t) => t.split(/\r\n|\r|\n/)).filter((l) => l.trim() !== '');

describe('errsig.js prechecks', () => {
  it('finds the prechecks in errsig.js', () => {
    expect(needles.size).toBeGreaterThan(80);
    for (const n of ['\nat ', 'Caused by: ', 'panicked at ', 'undefined: ', '://', 'id you mean']) expect(needles).toContain(n);
  });

  it('agree with errsig.py (no prechecks) on 4000 seeded inputs: real outputs edited with their texts, and mixtures', () => {
    let seed = 1607;
    const rnd = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff), (seed >>> 8) % k);
    const pick = <T>(a: T[]) => a[rnd(a.length)]!;
    const ns = [...needles];
    const near = (n: string) => {
      const i = rnd(n.length);
      const r = rnd(3);
      return r === 0 ? n.slice(0, i) + n.slice(i + 1) : r === 1 ? n.slice(0, i) + pick(['x', ' ', ':', '\n', 'E', '0']) + n.slice(i + 1) : n.slice(0, i);
    };
    const noise = [
      'x',
      'foo.js:3:4',
      "'v1'",
      '"a b"',
      '42',
      '1.2.3',
      '0xdeadbeef',
      '/home/u/a.py',
      '::1',
      'a.b.com',
      'c@d.io',
      '<s>',
      '\x1b[31m',
      '[0m',
      '^[[1;31m',
      '\x1b]8;;u\x07',
      '\t',
      'é',
      '😀',
    ];
    const seps = ['\n', '\n', '\r\n', ' ', '', ': ', "'", '\n    '];
    const piece = () => {
      const r = rnd(10);
      return r < 4 ? pick(ns) : r < 6 ? near(pick(ns)) : r < 8 ? pick(lines) : pick(noise);
    };
    const inputs: string[] = [];
    for (let k = 0; k < 4000; k++) {
      let s = '';
      if (k % 2 === 0) {
        // A real output with a few edits: a precheck text (or a near miss) put in, a span cut out,
        // CRLF, an indented or a repeated line.
        s = pick(outputs);
        for (let e = 1 + rnd(3); e > 0; e--) {
          const i = rnd(s.length + 1);
          const r = rnd(6);
          if (r < 3) s = s.slice(0, i) + piece() + s.slice(i);
          else if (r === 3) s = s.slice(0, i) + s.slice(i + 1 + rnd(20));
          else if (r === 4) s = s.replace(/\n/g, '\r\n');
          else s = s.slice(0, i) + '\n' + pick(['  ', '', '    ']) + pick(lines) + '\n' + s.slice(i);
        }
      } else {
        for (let i = 1 + rnd(8); i > 0; i--) s += piece() + pick(seps);
      }
      inputs.push(s);
    }
    const out = py(inputs);
    const diffs = inputs.map((t, i) => ({ t, js: Object.values(errsig(t)), py: out[i] })).filter((d) => JSON.stringify(d.js) !== JSON.stringify(d.py));
    expect(diffs.slice(0, 3)).toEqual([]);
  });
});
