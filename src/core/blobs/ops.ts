// Blob operations. REST: PUT /v1/b (raw body) and GET /v1/b/{hash} (raw bytes), declared on the
// bindings for the generic adapter; MCP and A2A carry the bytes as base64.
import { z } from 'zod';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { AnyOperation } from '../kernel/types.js';
import { decodeB64 } from '../platform/blob-bytes.js';
import { getBlob, putBlob } from './blobs.js';
import { hint, next } from '../kernel/hints.js';

const putOut = z.object({ hash: z.string(), size: z.number(), kind: z.string(), owner: z.string(), created: z.boolean(), url: z.string() });

export const blobPutOp = defineOp({
  name: 'blob.put',
  title: 'Upload a blob',
  summary: `Store bytes (at most ${limit('blob.public')}) under their sha256; use the hash as a blob-backed cached result. Readable with a token by whoever knows the hash.`,
  input: z.object({ data_b64: z.string().describe('the bytes, base64 (REST: the raw request body of PUT /v1/b)') }).strict(),
  output: putOut,
  auth: 'token',
  readOnly: false,
  idempotent: true,
  quota: ['blob', 'write_net'],
  freeze: 'blobs',
  rest: {
    method: 'PUT',
    path: '/v1/b',
    status: 201,
    textBody: 'data_b64',
    bodyType: 'application/octet-stream',
    bodyLimit: limit('blob.public'),
    rawBody: 'base64',
    query: [],
    cache: 'no-store',
  },
  run: (ctx, i) => putBlob(ctx, decodeB64(i.data_b64)),
  text: (b, ctx) =>
    `ok blob ${b.hash} size=${b.size} kind=${b.kind} owner=${b.owner}\n${next(ctx, hint('cache.put', { key: '<key>' }, `with blob=${b.hash}`))}`,
});

export const blobGetOp = defineOp({
  name: 'blob.get',
  title: 'Download a blob',
  summary: 'The bytes of a blob by sha256 hash (REST: raw bytes; other faces: base64). Untrusted data.',
  input: z.object({ hash: z.string().max(128) }).strict(),
  output: z.object({ hash: z.string(), size: z.number(), kind: z.string(), owner: z.string(), data_b64: z.string() }),
  auth: 'token',
  readOnly: true,
  rest: {
    method: 'GET',
    path: '/v1/b/:hash',
    query: [],
    // Content-addressed: the bytes of a hash never change; private because reading needs a token.
    cache: 'private, max-age=31536000, immutable',
    replyHeaders: { 'x-content-type-options': 'nosniff' },
    raw: (b) => ({ body: Buffer.from(b.data_b64, 'base64'), type: b.kind === 'wasm' ? 'application/wasm' : 'application/octet-stream' }),
    rawOnly: true,
  },
  headers: (b) => ({ etag: `"${b.hash}"`, 'x-blob-kind': b.kind }),
  async run(ctx, i) {
    const { meta, bytes } = await getBlob(ctx, i.hash);
    return { hash: meta.hash, size: meta.size, kind: meta.kind, owner: meta.owner, data_b64: bytes.toString('base64') };
  },
  text: (b) => `blob ${b.hash} size=${b.size} kind=${b.kind} owner=${b.owner}\n${b.data_b64}`,
});

export const blobOps: AnyOperation[] = [blobPutOp, blobGetOp];
