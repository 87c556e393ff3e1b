// Architecture rules read from the import statements of every file under src/: faces never import
// each other, the shared HTTP host imports no face, and the core imports no store, host or face.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|js|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Specifiers of static imports, re-exports, `import type` and dynamic `import()`. */
export function specifiers(code: string): string[] {
  const out: string[] = [];
  const text = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

/** The top folder under src/ a file or a relative specifier lands in ('' for src/ itself). */
function area(abs: string): string {
  const rel = relative(src, abs);
  return rel.includes('/') ? rel.split('/')[0]! : '';
}

const FACES = new Set(['rest', 'mcp', 'a2a', 'catalog']);

function violations(): string[] {
  const bad: string[] = [];
  for (const f of files(src)) {
    const from = area(f);
    for (const spec of specifiers(readFileSync(f, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const to = area(resolve(dirname(f), spec));
      const where = `${relative(root, f)} imports ${spec}`;
      if (FACES.has(from) && FACES.has(to) && from !== to) bad.push(`face→face: ${where}`);
      if (from === 'http' && FACES.has(to)) bad.push(`host→face: ${where}`);
      if (from === 'core' && (to === 'store' || to === 'http' || FACES.has(to))) bad.push(`core→${to}: ${where}`);
    }
  }
  return bad;
}

describe('import boundaries', () => {
  it('the parser sees every import form', () => {
    const code = [
      "import { a } from '../rest/ops.js';",
      "import type { B } from '../mcp/x.js';",
      "export { c } from '../a2a/y.js';",
      "import '../catalog/side.js';",
      "const m = await import('../store/sqlite/db.js');",
      'import {\n  d,\n  e,\n} from "../http/multi.js";',
      "// import { no } from '../rest/comment.js';",
    ].join('\n');
    expect(specifiers(code)).toEqual(['../rest/ops.js', '../mcp/x.js', '../a2a/y.js', '../http/multi.js', '../catalog/side.js', '../store/sqlite/db.js']);
  });

  it('faces do not import each other; the core imports no store, host or face', () => {
    expect(files(src).length).toBeGreaterThan(50);
    expect(violations()).toEqual([]);
  });
});
