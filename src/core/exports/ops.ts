// Operations of the open-data exports: the listing of the newest export (GET /export/ and its
// twins /export/index.json|md|txt) and "export now" for operators (POST /admin/export, ops token;
// the same code as the daily job and `npm run export`). The files themselves are served by the
// REST face (src/rest/exports.ts): they are bytes on disk, streamed, not operation results.
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp, type AnyOperation } from '../kernel/types.js';
import { newest, runExport, type ExportIndex } from './run.js';

const fileRow = z.object({ name: z.string(), size: z.number().int(), sha256: z.string(), rows: z.number().int().nullable() });
const listing = z.object({
  date: z.string().nullable().describe('UTC day of the export (YYYY-MM-DD); null before the first export'),
  generated: z.string().nullable(),
  files: z.array(fileRow),
  bytes: z.number().int(),
  license: z.string(),
  kid: z.number().int().nullable().describe('server key (/.well-known/cx-key) that signed it'),
  kept: z.array(z.string()).describe('dates of the exports kept; their shards stay downloadable by name'),
});
type Listing = z.infer<typeof listing>;

async function listingOf(ctxCore: Parameters<typeof newest>[0]): Promise<Listing> {
  const index = await newest(ctxCore);
  // Before the first export (a fresh install) the listing is empty, not missing: pages link it.
  if (!index) return { date: null, generated: null, files: [], bytes: 0, license: 'CC0-1.0', kid: null, kept: [] };
  const kept = await ctxCore.store.exportFiles.dates();
  return viewOf(index, kept);
}

function viewOf(index: ExportIndex, kept: string[]): Listing {
  const files = index.files.map((f) => ({ name: f.name, size: f.size, sha256: f.sha256, rows: f.rows }));
  return { date: index.date, generated: index.generated, files, bytes: files.reduce((n, f) => n + f.size, 0), license: index.license, kid: index.kid, kept };
}

const head = (o: Listing) => `export ${o.date ?? 'none'} files=${o.files.length} bytes=${o.bytes} license=${o.license}`;

export function listingText(o: Listing): string {
  if (o.date === null)
    return [
      head(o),
      `next: the first export is written within ${Math.ceil(limit('export.first') / 60)} minutes of start, then daily; GET /export/ again later`,
    ].join('\n');
  return [
    head(o),
    ...o.files.map((f) => `${f.name} size=${f.size} sha256=${f.sha256} rows=${f.rows ?? '-'}`),
    'next: GET /export/latest.jsonl.gz for the newest KB shard; check files with /export/SHA256SUMS and /export/SIGNATURES against /.well-known/cx-key',
  ].join('\n');
}

export const exportIndexOp = defineOp({
  name: 'export.index',
  title: 'Open-data export listing',
  summary:
    'The newest daily export (CC0-1.0): each file with its size, sha256 and rows; download them at /export/<name>. Empty (date null, files=0) before the first export.',
  input: z.object({}).strict(),
  output: listing,
  auth: 'anon',
  readOnly: true,
  shed: 'bulk',
  idempotent: true,
  rest: { method: 'GET', path: '/export/index', twins: ['json', 'md', 'txt'], cache: 'public, max-age=300', signed: true },
  async run(ctx) {
    return listingOf(ctx.core);
  },
  text: listingText,
  md: (o) =>
    o.date === null
      ? `# Export\n\nNo export yet: the first is written within ${Math.ceil(limit('export.first') / 60)} minutes of start, then daily. License CC0-1.0.\n`
      : [
          `# Export ${o.date}`,
          '',
          `Generated ${o.generated}. License ${o.license}. ${o.files.length} files, ${o.bytes} bytes. Signed by key ${o.kid} (/.well-known/cx-key).`,
          '',
          '| file | bytes | rows | sha256 |',
          '|---|---|---|---|',
          ...o.files.map((f) => `| [${f.name}](/export/${f.name}) | ${f.size} | ${f.rows ?? '-'} | \`${f.sha256}\` |`),
          '',
          `Kept: ${o.kept.join(', ')}. See [README.md](/export/README.md).`,
          '',
        ].join('\n'),
});

export const exportRunOp = defineOp({
  name: 'admin.export',
  title: 'Write the export now',
  summary: `Writes today's export at once, replacing one of the same day (ops token); the daily job does the same. Keeps the newest ${limit('export.keep')} exports. 409 while one is being written.`,
  input: z.object({}).strict(),
  output: listing,
  auth: 'ops',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/export', cache: 'no-store' },
  async run(ctx) {
    const index = await runExport(ctx.core);
    return viewOf(index, await ctx.core.store.exportFiles.dates());
  },
  text: (o) => `ok ${head(o)}\nnext: GET /export/`,
});

export const exportOps: AnyOperation[] = [exportIndexOp, exportRunOp];
