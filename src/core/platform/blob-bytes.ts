// Uploaded bytes as blobs (src/core/blobs) and operator modules (src/core/compute, PUT /admin/blob)
// both take them: strict base64, the kind, and the caps a module is held to at upload.
import { CxError } from '../kernel/errors.js';
import type { Core } from '../kernel/types.js';

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 (the REST adapter passes the raw body this way too). */
export function decodeB64(s: string): Buffer {
  if (s.length % 4 !== 0 || !B64.test(s)) throw new CxError('bad', 'data_b64: not base64');
  return Buffer.from(s, 'base64');
}

export const kindOf = (b: Buffer) => (b.length >= 4 && b.readUInt32BE(0) === 0x0061736d ? 'wasm' : 'data');

/** A module over the caps of memory and tables is refused at upload, before anyone can publish it. */
export function wasmCaps(core: Core, bytes: Buffer): void {
  if (kindOf(bytes) !== 'wasm') return;
  const why = core.wasm.upload(bytes);
  if (why !== null) throw new CxError('bad', `wasm: ${why}`);
}
