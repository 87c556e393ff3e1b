// Rules over the import graph of src/ (built with a parser in graph.ts, type-only imports included):
// (a) no import cycle beyond the committed allow-list (cycles-allowed.json: the edges that lie on a
// cycle today; it only shrinks), (b) the core imports no face, adapter (src/wasm, src/store) or the
// composition root (src/compose) beyond core-outward-allowed.json, (c) the kernel (src/core/kernel)
// imports nothing of src/ outside itself, (d) the platform (src/core/platform) imports no domain
// beyond platform-domain-allowed.json, (e) no domain imports another beyond domain-domain-allowed.json.
// The allow-lists are ratchets: a new edge fails, and an entry that is gone must be removed.
// Each rule is also run on an in-memory file set with a planted violation, so it is seen to fail.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  coreOutward,
  cycleThrough,
  cyclicComponents,
  cyclicEdges,
  domainToDomain,
  edgesOf,
  kernelOutward,
  platformToDomain,
  ratchet,
  readTree,
  specifiers,
  type FileSet,
} from './graph.js';

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

  it('(b) the core imports no face, adapter or the composition root beyond core-outward-allowed.json', () => {
    expect(ratchet(coreOutward(edges), allowed('core-outward-allowed.json'))).toEqual({ added: [], stale: [] });
  });

  it('(c) the kernel imports nothing of src/ outside src/core/kernel', () => {
    expect([...files.keys()].some((f) => f.startsWith('src/core/kernel/'))).toBe(true);
    expect(kernelOutward(files)).toEqual([]);
  });

  it('(d) the platform imports no domain beyond platform-domain-allowed.json', () => {
    expect([...files.keys()].some((f) => f.startsWith('src/core/platform/'))).toBe(true);
    expect(ratchet(platformToDomain(edges), allowed('platform-domain-allowed.json'))).toEqual({ added: [], stale: [] });
  });

  it('(e) no domain imports another beyond domain-domain-allowed.json', () => {
    expect(ratchet(domainToDomain(edges), allowed('domain-domain-allowed.json'))).toEqual({ added: [], stale: [] });
  });
});

describe('each rule fails on a planted violation', () => {
  const set = (o: Record<string, string>): FileSet => new Map(Object.entries(o));
  const base = {
    'src/core/kernel/text.ts': 'export const iso = (ms: number) => String(ms);\n',
    'src/core/kernel/types.ts': "import type { iso } from './text.js';\nexport type Op = { at: typeof iso };\n",
    'src/core/platform/quota/buckets.ts': "import type { Op } from '../../kernel/types.js';\nexport const take = (o?: Op) => o;\n",
    'src/core/mail/mail.ts': "import { take } from '../platform/quota/buckets.js';\nexport const put = () => take();\n",
    'src/core/mail/inbox.ts': "import { iso } from '../kernel/text.js';\nexport const inbox = () => iso(0);\n",
    'src/core/kb/ops.ts': "import type { Op } from '../kernel/types.js';\nexport const add = (o?: Op) => o;\n",
    'src/compose/modules.ts': "import { put } from '../core/mail/mail.js';\nimport { add } from '../core/kb/ops.js';\nexport const mods = [put, add];\n",
    'src/rest/ops.ts': "import { put } from '../core/mail/mail.js';\nexport const route = put;\n",
    'src/wasm/module.ts': 'export const load = () => 1;\n',
  };
  const plant = (file: keyof typeof base, line: string) => set({ ...base, [file]: `${base[file]}${line}\n` });

  it('the clean set passes every rule', () => {
    const fs = set(base);
    const es = edgesOf(fs);
    expect(cycleReport(es, [])).toEqual({ added: [], stale: [] });
    expect(coreOutward(es)).toEqual([]);
    expect(kernelOutward(fs)).toEqual([]);
    expect(platformToDomain(es)).toEqual([]);
    expect(domainToDomain(es)).toEqual([]);
  });

  it('(a) a planted cycle fails, named with its path; an allowed one passes; a stale allowance fails', () => {
    const fs = set({
      ...base,
      'src/core/mail/inbox.ts': `${base['src/core/mail/inbox.ts']}import { put } from './mail.js';\n`,
      'src/core/mail/mail.ts': `${base['src/core/mail/mail.ts']}import { inbox } from './inbox.js';\n`,
    });
    const es = edgesOf(fs);
    const r = cycleReport(es, []);
    expect(r.added).toHaveLength(2);
    expect(r.added[0]).toBe(
      'src/core/mail/inbox.ts -> src/core/mail/mail.ts   (cycle: src/core/mail/inbox.ts -> src/core/mail/mail.ts -> src/core/mail/inbox.ts)',
    );
    expect(cycleReport(es, cyclicEdges(es))).toEqual({ added: [], stale: [] });
    // A new edge inside an already allowed tangle is still new.
    const more = set({
      ...Object.fromEntries(fs),
      'src/core/mail/box.ts': "import { put } from './mail.js';\nexport const box = put;\n",
      'src/core/mail/inbox.ts': `${fs.get('src/core/mail/inbox.ts')}import { box } from './box.js';\n`,
    });
    expect(cycleReport(edgesOf(more), cyclicEdges(es)).added.length).toBeGreaterThan(0);
    expect(cycleReport(edgesOf(set(base)), cyclicEdges(es)).stale).toEqual(cyclicEdges(es));
  });

  it('(b) the core importing src/wasm, a face or the composition root fails', () => {
    expect(coreOutward(edgesOf(plant('src/core/mail/mail.ts', "import { load } from '../../wasm/module.js';")))).toEqual([
      'src/core/mail/mail.ts -> src/wasm/module.ts',
    ]);
    const face = edgesOf(plant('src/core/kernel/types.ts', "export type { route } from '../../rest/ops.js';"));
    expect(ratchet(coreOutward(face), [])).toEqual({ added: ['src/core/kernel/types.ts -> src/rest/ops.ts'], stale: [] });
    expect(coreOutward(edgesOf(plant('src/core/kb/ops.ts', "import type { mods } from '../../compose/modules.js';")))).toEqual([
      'src/core/kb/ops.ts -> src/compose/modules.ts',
    ]);
  });

  it('(c) the kernel importing anything of src/ outside itself fails, a type import too', () => {
    const fs = set({
      ...base,
      'src/core/kernel/text.ts': `import type { take } from '../platform/quota/buckets.js';\nimport { z } from 'zod';\n${base['src/core/kernel/text.ts']}`,
    });
    expect(kernelOutward(fs)).toEqual(['src/core/kernel/text.ts -> src/core/platform/quota/buckets.ts']);
  });

  it('(d) the platform importing a domain fails, a type import too', () => {
    const es = edgesOf(plant('src/core/platform/quota/buckets.ts', "import type { add } from '../../kb/ops.js';"));
    expect(ratchet(platformToDomain(es), [])).toEqual({ added: ['src/core/platform/quota/buckets.ts -> src/core/kb/ops.ts'], stale: [] });
  });

  it('(e) a domain importing another domain fails; files of one domain may import each other', () => {
    const es = edgesOf(plant('src/core/mail/mail.ts', "import { add } from '../kb/ops.js';\nimport { inbox } from './inbox.js';"));
    expect(ratchet(domainToDomain(es), [])).toEqual({ added: ['src/core/mail/mail.ts -> src/core/kb/ops.ts'], stale: [] });
  });
});
