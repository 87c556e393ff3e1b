// The import graph of src/, read with a real parser (oxc, through rolldown's parseSync: the
// TypeScript package here is the native compiler, with no JS API), and the architecture rules over
// it: cycles (ratcheted by an allow-list), the core importing no face or src/wasm (allow-listed
// exceptions), and the kernel (src/core/kernel) importing nothing outside itself.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { parseSync } from 'rolldown/utils';

/** Files by path relative to the repository root (`src/core/x.ts`), posix separators. */
export type FileSet = Map<string, string>;

export interface Edge {
  from: string;
  to: string;
  /** Every import naming it is type-only (erased at run time). */
  typeOnly: boolean;
}

const SOURCE = /\.(ts|mts|js|mjs)$/;

/** The source files under `dir` (a repository-relative folder) as a FileSet. */
export function readTree(root: string, dir: string): FileSet {
  const out: FileSet = new Map();
  const walk = (abs: string) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const p = join(abs, e.name);
      if (e.isDirectory()) walk(p);
      else if (SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) out.set(relative(root, p).split('\\').join('/'), readFileSync(p, 'utf8'));
    }
  };
  walk(join(root, dir));
  return out;
}

interface Spec {
  spec: string;
  typeOnly: boolean;
}

/** Every module a file names: static imports and re-exports (type-only marked), `import()` with a
 *  literal specifier, and type positions `import('x').T`. */
export function specifiers(path: string, code: string): Spec[] {
  const lang = /\.m?ts$/.test(path) ? 'ts' : 'js';
  const r = parseSync(path, code, { lang, sourceType: 'module' });
  if (r.errors.length) throw new Error(`${path}: parse error ${r.errors[0]!.message}`);
  const out: Spec[] = [];
  for (const i of r.module.staticImports) {
    // `import type {…}` and `import { type A }` mark every entry; a bare `import './x'` has none.
    const typeOnly = i.entries.length > 0 && i.entries.every((e) => e.isType);
    out.push({ spec: i.moduleRequest.value, typeOnly });
  }
  for (const x of r.module.staticExports) {
    for (const e of x.entries) if (e.moduleRequest) out.push({ spec: e.moduleRequest.value, typeOnly: e.isType });
  }
  for (const d of r.module.dynamicImports) {
    const raw = code.slice(d.moduleRequest.start, d.moduleRequest.end).trim();
    const lit = /^(['"])([^'"`]*)\1$/.exec(raw);
    if (lit) out.push({ spec: lit[2]!, typeOnly: false });
  }
  if (code.includes('import(')) walkTypeImports(r.program, out);
  return out;
}

function walkTypeImports(node: unknown, out: Spec[]): void {
  if (Array.isArray(node)) {
    for (const n of node) walkTypeImports(n, out);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const n = node as Record<string, unknown>;
  if (n.type === 'TSImportType') {
    // oxc's ESTree: `source` is the string literal (older shapes: `argument`, a literal type).
    const src = (n.source ?? n.argument) as { literal?: { value?: unknown }; value?: unknown } | undefined;
    const v = src?.value ?? src?.literal?.value;
    if (typeof v === 'string') out.push({ spec: v, typeOnly: true });
  }
  for (const k in n) if (k !== 'parent') walkTypeImports(n[k], out);
}

/** The file a relative specifier lands on inside the set (`.js` names its `.ts` source), or null. */
export function resolveIn(files: FileSet, from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  const tries = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, `${base}/index.ts`, `${base}.js`, `${base}/index.js`];
  return tries.find((t) => files.has(t)) ?? null;
}

/** The edges between files of the set (imports of packages and node: builtins are not edges). */
export function edgesOf(files: FileSet): Edge[] {
  const byPair = new Map<string, Edge>();
  for (const [from, code] of files) {
    for (const s of specifiers(from, code)) {
      const to = resolveIn(files, from, s.spec);
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      const had = byPair.get(key);
      if (had) had.typeOnly &&= s.typeOnly;
      else byPair.set(key, { from, to, typeOnly: s.typeOnly });
    }
  }
  return [...byPair.values()];
}

const edgeKey = (e: Edge) => `${e.from} -> ${e.to}`;

/** Strongly connected components with more than one file (Tarjan, iterative: no deep recursion). */
export function cyclicComponents(edges: Edge[]): string[][] {
  const adj = new Map<string, string[]>();
  for (const e of edges) {
    if (!adj.has(e.from)) adj.set(e.from, []);
    if (!adj.has(e.to)) adj.set(e.to, []);
    adj.get(e.from)!.push(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const comps: string[][] = [];
  let next = 0;
  for (const start of [...adj.keys()].sort()) {
    if (index.has(start)) continue;
    const work: Array<{ v: string; i: number }> = [{ v: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const outs = adj.get(top.v)!;
      if (top.i < outs.length) {
        const w = outs[top.i++]!;
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) === index.get(top.v)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== top.v);
        if (comp.length > 1) comps.push(comp.sort());
      }
    }
  }
  return comps.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

/** The edges that lie on some cycle: both ends in one cyclic component. These are what the
 *  allow-list holds, so a new import closing a circle fails even inside a known tangle. */
export function cyclicEdges(edges: Edge[]): string[] {
  const compOf = new Map<string, number>();
  cyclicComponents(edges).forEach((c, i) => c.forEach((f) => compOf.set(f, i)));
  return edges
    .filter((e) => compOf.has(e.from) && compOf.get(e.from) === compOf.get(e.to))
    .map(edgeKey)
    .sort();
}

/** One shortest cycle through `file` (for the message naming a new circle). */
export function cycleThrough(edges: Edge[], file: string): string[] | null {
  const adj = new Map<string, string[]>();
  for (const e of edges) adj.set(e.from, [...(adj.get(e.from) ?? []), e.to]);
  const prev = new Map<string, string>();
  const queue = [file];
  const seen = new Set([file]);
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of adj.get(v) ?? []) {
      if (w === file) {
        const path = [v];
        while (path[0] !== file) path.unshift(prev.get(path[0]!)!);
        return [...path, file];
      }
      if (!seen.has(w)) {
        seen.add(w);
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return null;
}

export interface Ratchet {
  /** Found and not allowed: the test fails on these. */
  added: string[];
  /** Allowed and no longer found: the list must shrink (the test fails on these too). */
  stale: string[];
}

export function ratchet(found: string[], allowed: readonly string[]): Ratchet {
  const f = new Set(found);
  const a = new Set(allowed);
  return { added: found.filter((x) => !a.has(x)), stale: allowed.filter((x) => !f.has(x)) };
}

/** Faces, the WASM adapter, the storage adapters and the composition root: the core names none of them. */
export const OUTSIDE_CORE = ['src/wasm/', 'src/rest/', 'src/mcp/', 'src/a2a/', 'src/http/', 'src/catalog/', 'src/store/', 'src/compose/'];

/** Imports from src/core into a face, an adapter or the composition root. */
export function coreOutward(edges: Edge[]): string[] {
  return edges
    .filter((e) => e.from.startsWith('src/core/') && OUTSIDE_CORE.some((p) => e.to.startsWith(p)))
    .map(edgeKey)
    .sort();
}

export const KERNEL = 'src/core/kernel/';

/** Imports from the kernel of any file of src/ outside it (packages and node: builtins are fine). */
export function kernelOutward(files: FileSet): string[] {
  const bad: string[] = [];
  for (const [from, code] of files) {
    if (!from.startsWith(KERNEL)) continue;
    for (const s of specifiers(from, code)) {
      if (!s.spec.startsWith('.')) continue;
      const to = resolveIn(files, from, s.spec) ?? posix.normalize(posix.join(posix.dirname(from), s.spec));
      if (!to.startsWith(KERNEL)) bad.push(`${from} -> ${to}`);
    }
  }
  return bad.sort();
}

export const PLATFORM = 'src/core/platform/';

/** The layer of a file of src/: the kernel, the platform, a domain (one folder of src/core), or null outside the core. */
export function layerOf(path: string): 'kernel' | 'platform' | `domain:${string}` | null {
  if (path.startsWith(KERNEL)) return 'kernel';
  if (path.startsWith(PLATFORM)) return 'platform';
  const m = /^src\/core\/([^/]+)\//.exec(path);
  return m ? `domain:${m[1]}` : null;
}

/** Imports from the platform into a domain (type-only ones too). */
export function platformToDomain(edges: Edge[]): string[] {
  return edges
    .filter((e) => layerOf(e.from) === 'platform' && layerOf(e.to)?.startsWith('domain:'))
    .map(edgeKey)
    .sort();
}

/** Imports from one domain into another (type-only ones too): domains meet through events and `ctx.call`. */
export function domainToDomain(edges: Edge[]): string[] {
  return edges
    .filter((e) => {
      const a = layerOf(e.from);
      const b = layerOf(e.to);
      return a?.startsWith('domain:') && b?.startsWith('domain:') && a !== b;
    })
    .map(edgeKey)
    .sort();
}
