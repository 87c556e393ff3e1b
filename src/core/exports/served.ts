// What /export/ serves: the newest export's listing, and any file of a kept export by name. Shards
// are named by date, so a kept older shard stays reachable; the other files are the newest export's.
import { CxError } from '../kernel/errors.js';
import type { Core } from '../kernel/types.js';
import type { StoredFile } from './ports.js';
import { newest, type ExportIndex } from './run.js';

export const SHARD_NAME = /^(kb|tasks|claims|digests|delta)-(\d{4}-\d{2}-\d{2})\.jsonl\.gz$/;
export const META_NAMES = [
  'README.md',
  'SHA256SUMS',
  'SHA256SUMS.sig',
  'SIGNATURES',
  'croissant.json',
  'manifest.json',
  'manifest.json.sig',
  'tombstones.jsonl',
] as const;

const TYPES: Record<string, string> = {
  'README.md': 'text/markdown; charset=utf-8',
  SHA256SUMS: 'text/plain; charset=utf-8',
  'SHA256SUMS.sig': 'text/plain; charset=utf-8',
  SIGNATURES: 'text/plain; charset=utf-8',
  'croissant.json': 'application/ld+json; charset=utf-8',
  'manifest.json': 'application/json; charset=utf-8',
  'manifest.json.sig': 'text/plain; charset=utf-8',
  'tombstones.jsonl': 'application/jsonl; charset=utf-8',
};

export interface ServedFile {
  name: string;
  type: string;
  file: StoredFile;
  /** X-Cx-Sig-Server of a file that SIGNATURES lists (export1 over `<name> sha256=<hex>`); null otherwise. */
  sig: string | null;
  sha256: string;
}

/** A file of a kept export, or `404 err notfound`. */
export async function exportFile(core: Core, name: string): Promise<ServedFile> {
  const shard = SHARD_NAME.exec(name);
  let index: ExportIndex | null;
  if (shard) {
    const buf = await core.store.exportFiles.read(shard[2]!, 'index.json').catch(() => null);
    index = buf ? (JSON.parse(buf.toString('utf8')) as ExportIndex) : null;
  } else if ((META_NAMES as readonly string[]).includes(name)) {
    index = await newest(core);
    if (!index) throw new CxError('notfound', 'no export yet');
  } else throw new CxError('notfound', `no export file ${name.slice(0, 80)}`);
  const info = index?.files.find((f) => f.name === name);
  const file = index && info ? await core.store.exportFiles.open(index.date, name) : null;
  if (!index || !info || !file) throw new CxError('notfound', `no export file ${name.slice(0, 80)}`);
  const s = index.sigs[name];
  return { name, type: shard ? 'application/gzip' : TYPES[name]!, file, sig: s ? `kid=${index.kid}; t=export1; sig=${s}` : null, sha256: info.sha256 };
}
