// Rules over the import graph of src/ (built with a parser in graph.ts, type-only imports included):
// (a) no import cycle beyond the committed allow-list (cycles-allowed.json: the edges that lie on a
// cycle today; it only shrinks), (b) the core imports no face and not src/wasm beyond
// core-outward-allowed.json, (c) the kernel (src/core/kernel) imports nothing of src/ outside itself.
// Each rule is also run on an in-memory file set with a planted violation, so it is seen to fail.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreOutward, cycleThrough, cyclicComponents, cyclicEdges, edgesOf, kernelOutward, ratchet, readTree, specifiers, type FileSet } from './graph.js';

const root = resolve(import.meta.dirname, '../..');
const allowed = (name: string): string[] => (JSON.parse(readFileSync(resolve(import.meta.dirname, name), 'utf8')) as { edges: string[] }).edges;

const files = readTree(root, 'src');
const edges = edgesOf(files);

/** What a failing rule says: each new edge with one cycle through it, and the stale entries. */
function cycleReport(fs: Edge[], allow: readonly string[]): { added: string[]; stale: string[] } {
  const r = ratchet(cyclicEdges(fs), allow);
  return { added: r.added.map((e) => `${e}   (cycle: ${(cycleThrough(fs, e.split(' -> ')[0]!) ?? []).join(' -> ')})`), stale: r.stale };
}
type Edge = ReturnType<typeof edgesOf>[number];

describe('import graph of src/', () => {
  it('is read by a parser that sees every import form (and no text in comments or strings)', () => {
    const code = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C, d } from './cd.js';",
      "export { e } from './e.js';",
      "export type { F } from './f.js';",
      "export * from './g.js';",
      "import './side.js';",
      "const m = await import('./dyn.js');",
      "type T = import('./tq.js').T;",
      'import {\n  h,\n  i,\n} from "./multi.js";',
      "// import { no } from './comment.js';",
      'const s = "import x from \'./string.js\'";',
    ].join('\n');
    const got = specifiers('src/x.ts', code).map((s) => `${s.spec}${s.typeOnly ? ' (type)' : ''}`);
    expect(got.sort()).toEqual(
      ['./a.js', './b.js (type)', './cd.js', './dyn.js', './e.js', './f.js (type)', './g.js', './multi.js', './side.js', './tq.js (type)'].sort(),
    );
  });

  it('sees the whole tree', () => {
    expect(files.size).toBeGreaterThan(300);
    expect(edges.length).toBeGreaterThan(1000);
  });

  it('(a) has no import cycle beyond cycles-allowed.json, and the list holds no cycle that is gone', () => {
    // The cycles today, for whoever reads a failure: one line per tangle of files.
    const comps = cyclicComponents(edges).map((c) => c.join(' '));
    const r = cycleReport(edges, allowed('cycles-allowed.json'));
    expect({ ...r, comps: r.added.length || r.stale.length ? comps : [] }).toEqual({ added: [], stale: [], comps: [] });
  });

  it('(b) the core imports neither src/wasm nor a face beyond core-outward-allowed.json', () => {
    expect(ratchet(coreOutward(edges), allowed('core-outward-allowed.json'))).toEqual({ added: [], stale: [] });
  });

  it('(c) the kernel imports nothing of src/ outside src/core/kernel', () => {
    expect([...files.keys()].some((f) => f.startsWith('src/core/kernel/'))).toBe(true);
    expect(kernelOutward(files)).toEqual([]);
  });
});

describe('each rule fails on a planted violation', () => {
  const set = (o: Record<string, string>): FileSet => new Map(Object.entries(o));
  const base = {
    'src/core/kernel/text.ts': 'export const iso = (ms: number) => String(ms);\n',
    'src/core/ops/types.ts': "import type { Store } from '../store.js';\nexport type Op = { store: Store };\n",
    'src/core/store.ts': "import { iso } from './kernel/text.js';\nexport type Store = { at: string };\nexport const at = iso(0);\n",
    'src/core/mail/mail.ts': "import { at } from '../store.js';\nexport const put = () => at;\n",
    'src/rest/ops.ts': "import { put } from '../core/mail/mail.js';\nexport const route = put;\n",
    'src/wasm/module.ts': 'export const load = () => 1;\n',
  };

  it('the clean set passes every rule', () => {
    const fs = set(base);
    const es = edgesOf(fs);
    expect(cycleReport(es, [])).toEqual({ added: [], stale: [] });
    expect(coreOutward(es)).toEqual([]);
    expect(kernelOutward(fs)).toEqual([]);
  });

  it('(a) a planted cycle fails, named with its path; an allowed one passes; a stale allowance fails', () => {
    const fs = set({ ...base, 'src/core/store.ts': `${base['src/core/store.ts']}import type { Op } from './ops/types.js';\n` });
    const es = edgesOf(fs);
    const r = cycleReport(es, []);
    expect(r.added).toHaveLength(2);
    expect(r.added[0]).toBe('src/core/ops/types.ts -> src/core/store.ts   (cycle: src/core/ops/types.ts -> src/core/store.ts -> src/core/ops/types.ts)');
    expect(cycleReport(es, cyclicEdges(es))).toEqual({ added: [], stale: [] });
    // A new edge inside an already allowed tangle is still new.
    const more = set({
      ...Object.fromEntries(fs),
      'src/core/mail/mail.ts': `${base['src/core/mail/mail.ts']}import type { Op } from '../ops/types.js';\n`,
      'src/core/ops/types.ts': `${base['src/core/ops/types.ts']}import type { put } from '../mail/mail.js';\n`,
    });
    expect(cycleReport(edgesOf(more), cyclicEdges(es)).added.length).toBeGreaterThan(0);
    expect(cycleReport(edgesOf(set(base)), cyclicEdges(es)).stale).toEqual(cyclicEdges(es));
  });

  it('(b) the core importing src/wasm or a face fails', () => {
    const wasm = edgesOf(set({ ...base, 'src/core/mail/mail.ts': `${base['src/core/mail/mail.ts']}import { load } from '../../wasm/module.js';\n` }));
    expect(coreOutward(wasm)).toEqual(['src/core/mail/mail.ts -> src/wasm/module.ts']);
    const face = edgesOf(set({ ...base, 'src/core/ops/types.ts': `${base['src/core/ops/types.ts']}export type { route } from '../../rest/ops.js';\n` }));
    expect(ratchet(coreOutward(face), [])).toEqual({ added: ['src/core/ops/types.ts -> src/rest/ops.ts'], stale: [] });
  });

  it('(c) the kernel importing anything of src/ outside itself fails, a type import too', () => {
    const fs = set({
      ...base,
      'src/core/kernel/text.ts': `import type { Store } from '../store.js';\nimport { z } from 'zod';\n${base['src/core/kernel/text.ts']}`,
    });
    expect(kernelOutward(fs)).toEqual(['src/core/kernel/text.ts -> src/core/store.ts']);
  });
});
