// One export: the shards and the tombstones streamed into a draft, then the dataset card,
// croissant.json, manifest.json (+ .sig), SHA256SUMS (+ .sig) and SIGNATURES, and the listing
// (index.json); the draft is committed whole, and exports beyond export.keep are deleted.
//
// Signatures (spec 6): export1 over `<name> sha256=<hex>` for each file (SIGNATURES, and the
// X-Cx-Sig-Server header of the file), manifest1 over the bytes of SHA256SUMS and of manifest.json,
// and manifest.json's own `sig`, a manifest1 over its files in SHA256SUMS form.
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { b64u } from '../platform/trust/sign.js';
import { croissant, LICENSE, readme, type ExportFacts } from './describe.js';
import { deltaPages, tablePages, TABLES, tombPages, type Withheld } from './rows.js';
import { writeBytes, writeRows, type FileInfo } from './write.js';

const DAY = 86_400_000;

export interface Manifest {
  date: string;
  generated: string;
  files: FileInfo[];
  license: string;
  retention: { exports: number; tombstone_days: number };
  latest: string;
  kid: number;
  sig: string;
}

/** The listing of one export (stored as index.json): every file it serves. */
export interface ExportIndex {
  date: string;
  generated: string;
  /** ms of `generated`: the next export's delta starts here. */
  at: number;
  license: string;
  kid: number;
  files: FileInfo[];
  /** export1 signature of each file that SIGNATURES lists, by name. */
  sigs: Record<string, string>;
  /** Rows the scrubber flagged at export time and withheld. */
  withheld: number;
}

export const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** SHA256SUMS form, as `sha256sum -c` reads it. */
export const sumsOf = (files: FileInfo[]) => files.map((f) => `${f.sha256}  ${f.name}\n`).join('');
const sigLine = (kid: number, type: string, sig: Buffer) => `kid=${kid}; t=${type}; sig=${b64u(sig)}\n`;

// One export at a time per process; the job's lease keeps it to one process.
const running = new WeakMap<Core, Promise<ExportIndex>>();

/** The newest committed export's listing, or null. */
export async function latestIndex(core: Core, before?: string): Promise<ExportIndex | null> {
  const dates = (await core.store.exportFiles.dates()).filter((d) => before === undefined || d < before);
  for (let i = dates.length - 1; i >= 0; i--) {
    const buf = await core.store.exportFiles.read(dates[i]!, 'index.json');
    if (buf) return JSON.parse(buf.toString('utf8')) as ExportIndex;
  }
  return null;
}

// The newest listing is read from the store at most once a second per process (cheap, and a new
// export by another process, e.g. `npm run export`, shows within that second); this process's own
// export replaces it at once.
const memo = new WeakMap<Core, { at: number; index: ExportIndex | null }>();

export async function newest(core: Core): Promise<ExportIndex | null> {
  const m = memo.get(core);
  if (m && core.now() - m.at < 1000 && core.now() >= m.at) return m.index;
  const index = await latestIndex(core);
  memo.set(core, { at: core.now(), index });
  return index;
}

/**
 * Writes today's export (UTC date of core.now()), replacing one of the same date. Throws
 * `409 err dup export running` while this process is already writing one. `signal` stops it
 * between pages (shutdown); the draft is then dropped.
 */
export function runExport(core: Core, signal?: AbortSignal): Promise<ExportIndex> {
  if (running.has(core)) return Promise.reject(new CxError('dup', 'export running'));
  const p = write(core, signal).finally(() => running.delete(core));
  running.set(core, p);
  return p;
}

async function write(core: Core, signal?: AbortSignal): Promise<ExportIndex> {
  const at = core.now();
  const date = dateOf(at);
  const generated = new Date(at).toISOString();
  // The delta covers everything since the export of an earlier date (a same-day run replaces that
  // day's export, so its delta must still reach back to the day before).
  const prev = await latestIndex(core, date);
  const since = prev ? prev.at : 0;
  const tombDays = limit('export.tombstone_days');
  const keep = limit('export.keep');
  const files = core.store.exportFiles;
  const draft = await files.begin(date);
  let index: ExportIndex;
  // Every signature of one export is made by one key (SIGNATURES names no kid of its own): a
  // rotation in the middle fails this run, and the job tries again.
  let kid: number | null = null;
  const sign = (type: string, payload: string) => {
    const r = core.keys.sign(type, payload);
    if (kid !== null && r.kid !== kid) throw new Error('the statement key rotated during the export');
    kid = r.kid;
    return r;
  };
  const held: Withheld = { n: 0 };
  try {
    const data: FileInfo[] = [];
    for (const t of TABLES) data.push(await writeRows(draft, `${t.shard}-${date}.jsonl.gz`, tablePages(core, t, 0, held), signal));
    data.push(await writeRows(draft, `delta-${date}.jsonl.gz`, deltaPages(core, since, { n: 0 }), signal));
    data.push(await writeRows(draft, 'tombstones.jsonl', tombPages(core, at - tombDays * DAY), signal));
    const facts: ExportFacts = { base: core.config.baseUrl, date, generated, since: prev ? prev.generated : null, keep, tombDays, files: data };
    const card = await writeBytes(draft, 'README.md', readme(facts));
    const cro = await writeBytes(draft, 'croissant.json', JSON.stringify(croissant(facts, data), null, 1) + '\n');
    const described = [...data, card, cro];
    const ms = sign('manifest1', sumsOf(described));
    const manifest: Manifest = {
      date,
      generated,
      files: described,
      license: LICENSE,
      retention: { exports: keep, tombstone_days: tombDays },
      latest: `kb-${date}.jsonl.gz`,
      kid: ms.kid,
      sig: b64u(ms.sig),
    };
    const manBody = JSON.stringify(manifest, null, 1) + '\n';
    const man = await writeBytes(draft, 'manifest.json', manBody);
    const manSig = await writeBytes(draft, 'manifest.json.sig', sigLine(ms.kid, 'manifest1', sign('manifest1', manBody).sig));
    const summed = [...described, man, manSig];
    const sums = sumsOf(summed);
    const sumsFile = await writeBytes(draft, 'SHA256SUMS', sums);
    const sumsSig = await writeBytes(draft, 'SHA256SUMS.sig', sigLine(ms.kid, 'manifest1', sign('manifest1', sums).sig));
    const sigs: Record<string, string> = {};
    for (const f of summed) sigs[f.name] = b64u(sign('export1', `${f.name} sha256=${f.sha256}`).sig);
    const sigFile = await writeBytes(draft, 'SIGNATURES', summed.map((f) => `${f.name} sha256=${f.sha256} sig=${sigs[f.name]}\n`).join(''));
    index = { date, generated, at, license: LICENSE, kid: ms.kid, files: [...summed, sumsFile, sumsSig, sigFile], sigs, withheld: held.n };
    await writeBytes(draft, 'index.json', JSON.stringify(index) + '\n');
    await draft.commit();
  } catch (err) {
    await draft.abort().catch(() => undefined);
    throw err;
  }
  memo.delete(core);
  if (held.n) core.log.warn({ withheld: held.n, date }, 'export withheld rows the scrubber flagged');
  // Retention: the newest export.keep exports stay (a failure here is retried by the next export).
  try {
    const dates = await files.dates();
    for (const d of dates.slice(0, Math.max(0, dates.length - keep))) await files.remove(d);
  } catch (err) {
    core.log.error({ err }, 'old exports could not be removed');
  }
  return index;
}
