// Generates the tables of docs/architecture.md from the operation registry, the faces' raw route
// tables (src/http/raw.ts) and the source tree: route → operation → ports, the raw routes with their
// declared shedding class, quotas and freeze, and operation-name prefixes → folders. `npm run docs:arch` rewrites
// them; test/docs/architecture.test.ts fails when the committed file is stale.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { a2aCardRoutes, a2aRpcRoutes } from '../src/a2a/raw-routes.js';
import { OPS } from '../src/compose/registry.js';
import { methodsOf, type RawGroup, type RawRoute } from '../src/http/raw.js';
import { mcpCardRoutes, mcpStreamRoutes, mcpSvcRoutes } from '../src/mcp/raw-routes.js';
import { REST_RAW_ROUTES } from '../src/rest/raw-routes.js';

const RAW_GROUPS: readonly RawGroup<string, never>[] = [...REST_RAW_ROUTES, mcpStreamRoutes, mcpSvcRoutes, mcpCardRoutes, a2aRpcRoutes, a2aCardRoutes];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const coreDir = join(root, 'src/core');
export const DOC = join(root, 'docs/architecture.md');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The domain folder (src/core/<folder>) whose source defines an operation `name: '<op>'`. */
function folderOf(sources: Map<string, string>): (op: string) => string {
  return (op) => {
    for (const [file, text] of sources) if (text.includes(`name: '${op}'`)) return relative(coreDir, dirname(file));
    return '?';
  };
}

/** Store ports (repositories of src/compose/store.ts) a folder's code reaches: `store.<repo>`. */
function portsOf(sources: Map<string, string>, folder: string): string[] {
  const found = new Set<string>();
  for (const [file, text] of sources) {
    // The domain's own folder: its first level, or its second under platform/ (platform/trust).
    const top = (f: string) =>
      f
        .split('/')
        .slice(0, f.startsWith('platform/') ? 2 : 1)
        .join('/');
    if (top(relative(coreDir, dirname(file))) !== top(folder)) continue;
    for (const m of text.matchAll(/\bstore\.([a-z][A-Za-z0-9]*)\b/g)) if (m[1] !== 'close' && m[1] !== 'ping') found.add(m[1]!);
  }
  return [...found].sort();
}

export function tables(): string {
  const sources = new Map(files(coreDir).map((f) => [f, readFileSync(f, 'utf8')]));
  const folder = folderOf(sources);
  const rows = OPS.map((op) => ({ op, folder: folder(op.name) }));
  const routes = rows
    .filter((r) => r.op.rest)
    .map(
      ({ op, folder: f }) =>
        `| \`${op.rest!.method} ${op.rest!.path}\` | \`${op.name}\` | ${op.auth} | \`src/core/${f}\` | ${
          portsOf(sources, f)
            .map((p) => `\`${p}\``)
            .join(', ') || '—'
        } |`,
    )
    .sort();
  const other = rows
    .filter((r) => !r.op.rest)
    .map(
      ({ op, folder: f }) =>
        `| (no REST route) | \`${op.name}\` | ${op.auth} | \`src/core/${f}\` | ${
          portsOf(sources, f)
            .map((p) => `\`${p}\``)
            .join(', ') || '—'
        } |`,
    );
  const prefixes = new Map<string, Set<string>>();
  for (const { op, folder: f } of rows) {
    const p = op.name.split('.')[0]!;
    if (!prefixes.has(p)) prefixes.set(p, new Set());
    prefixes.get(p)!.add(`src/core/${f}`);
  }
  const prefixRows = [...prefixes]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([p, fs]) =>
        `| \`${p}.\` | ${[...fs]
          .sort()
          .map((x) => `\`${x}\``)
          .join(', ')} |`,
    );
  const raw = RAW_GROUPS.flatMap((g) =>
    Object.values<RawRoute>(g.routes).map(
      (r) =>
        `| \`${methodsOf(r).join(',')} ${r.path}\` | ${g.face} | ${r.shed} | ${r.quota?.map((b) => `\`${b}\``).join(', ') || '—'} | ${r.freeze ?? '—'} | ${r.purpose.replaceAll('|', '\\|')} | \`${g.file}\` |`,
    ),
  );
  return [
    `### Routes, operations and ports (${OPS.length} operations)`,
    '',
    "Ports are the repositories of `src/compose/store.ts` that the operation's domain folder reaches.",
    '',
    '| route | operation | auth | folder | ports |',
    '|---|---|---|---|---|',
    ...routes,
    ...other,
    '',
    `### Raw routes (${raw.length} declared)`,
    '',
    "Routes that are not generated from an operation, declared in their face's table (src/http/raw.ts) and",
    'registered by one registrar, which applies the shedding class (at onRequest), the freeze, the',
    "route's checks, then the per-network quotas, before the handler. fastify adds a HEAD beside each GET.",
    '',
    '| route | face | shed | quota | freeze | purpose | handlers |',
    '|---|---|---|---|---|---|---|',
    ...raw,
    '',
    '### Operation-name prefixes and their folders',
    '',
    '| prefix | folder |',
    '|---|---|',
    ...prefixRows,
  ].join('\n');
}

const BEGIN = '<!-- generated: npm run docs:arch -->';
const END = '<!-- end generated -->';

/** The document with its generated block replaced by today's tables. */
export function regenerated(doc: string): string {
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/architecture.md lacks the ${BEGIN} … ${END} markers`);
  return doc.slice(0, a + BEGIN.length) + '\n' + tables() + '\n' + doc.slice(b);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(DOC, regenerated(readFileSync(DOC, 'utf8')));
  console.log(`wrote ${relative(root, DOC)}`);
}
