// The client manifest (/cx-manifest.json): every client file with its sha256, signed as one
// manifest1 statement. The signed payload is the SHA256SUMS-like text `<name> sha256=<hex>\n` per
// file (sorted by name); the JSON repeats it so a verifier checks files[] against what was signed.
import { createHash } from 'node:crypto';
import type { ServerKeys } from './keys.js';
import { b64u } from './sign.js';

export interface ClientFile {
  name: string;
  bytes: Buffer;
  type: string;
}

export interface Manifest {
  type: 'manifest1';
  files: Array<{ name: string; size: number; sha256: string }>;
  payload: string;
  kid: number;
  sig: string;
}

export function clientManifest(files: ClientFile[], keys: ServerKeys): Manifest {
  const rows = files
    .map((f) => ({ name: f.name, size: f.bytes.length, sha256: createHash('sha256').update(f.bytes).digest('hex') }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const payload = rows.map((r) => `${r.name} sha256=${r.sha256}`).join('\n') + '\n';
  const s = keys.sign('manifest1', payload);
  return { type: 'manifest1', files: rows, payload, kid: s.kid, sig: b64u(s.sig) };
}
