// Writes one export file as a stream: rows become JSON lines, optionally gzipped, and the bytes
// written are hashed and counted on their way to the file. Rows arrive a page at a time and the
// pipeline waits for the disk (backpressure), so memory stays bounded however big the shard is.
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ExportDraft } from './ports.js';

export interface FileInfo {
  name: string;
  size: number;
  sha256: string;
  /** JSON lines in it; null for files that are not row data (README.md, croissant.json ...). */
  rows: number | null;
}

/** Streams pages of rows into `name` as JSON lines (gzip when the name ends in .gz); `signal` stops it between pages. */
export async function writeRows(draft: ExportDraft, name: string, pages: AsyncIterable<object[]>, signal?: AbortSignal): Promise<FileInfo> {
  let rows = 0;
  async function* lines() {
    for await (const page of pages) {
      signal?.throwIfAborted();
      if (!page.length) continue;
      rows += page.length;
      let chunk = '';
      for (const r of page) chunk += JSON.stringify(r) + '\n';
      yield chunk;
    }
  }
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  const source = Readable.from(lines());
  // zlib's default level; bench/export.ts measures time and size at 1M entries.
  if (name.endsWith('.gz')) await pipeline(source, createGzip({ level: 6 }), tap, draft.create(name));
  else await pipeline(source, tap, draft.create(name));
  return { name, size, sha256: hash.digest('hex'), rows };
}

/** A small file written whole (README.md, croissant.json, manifest.json, the checksums). */
export async function writeBytes(draft: ExportDraft, name: string, body: string | Buffer, rows: number | null = null): Promise<FileInfo> {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  await pipeline(Readable.from([buf]), draft.create(name));
  return { name, size: buf.length, sha256: createHash('sha256').update(buf).digest('hex'), rows };
}
