// Cached-result operations. GET and HEAD /c/{key} declare their REST replies (303 for blob rows,
// raw text bodies, a HEAD that counts nothing) for the generic adapter; writes are under /v1/c.
import { z } from 'zod';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { AnyOperation } from '../kernel/types.js';
import { DEFAULT_NS, deleteResult, NS, peekResult, putResult, readResult, type ReadOut } from './cache.js';
import { hint, next } from '../kernel/hints.js';

// Malformed keys are `400 err bad key: …` from the core (one message on every face).
const key = z.string().max(128).describe('64 lowercase hex, e.g. sha256 of the question or input');
const ns = z
  .string()
  .regex(NS, `1-${limit('cache.ns')} of A-Za-z0-9 _ . -`)
  .default(DEFAULT_NS)
  .describe(`namespace, default "${DEFAULT_NS}"`);

const readOut = z.object({
  ns: z.string(),
  key: z.string(),
  kind: z.enum(['inline', 'blob']),
  text: z.string().nullable(),
  blob: z.string().nullable(),
  location: z.string().nullable(),
  size: z.number(),
  producer: z.string(),
  lvl: z.number(),
  hits: z.number(),
  date: z.string(),
  exp: z.string(),
  public: z.boolean(),
});

/** Response headers of a read (GET and HEAD). */
export function readHeaders(r: ReadOut): Record<string, string> {
  return {
    'x-cache-hit': String(r.hits),
    'x-next':
      r.kind === 'blob'
        ? `blob ${r.blob} size=${r.size}: GET ${r.location} with your token`
        : `untrusted result by ${r.producer} lvl=L${r.lvl}; check it before use; HEAD /c/${r.key} counts nothing`,
    'cache-control': r.public ? `public, max-age=${limit('cache.max_age')}` : 'no-store',
  };
}

/** The key and, when not the default, the namespace (a query field on every cache route). */
const at = (key: string, ns: string) => (ns === DEFAULT_NS ? { key } : { key, ns });

export const cachePutOp = defineOp({
  name: 'cache.put',
  title: 'Store a cached result',
  summary: `Store a result under a 64-hex key in a namespace: inline text (at most ${limit('cache.inline')} bytes, public data, scrubbed) or a blob hash from PUT /v1/b. Optionally handed to one identity only. You may replace your own row; another producer's live row is refused.`,
  input: z
    .object({
      key,
      ns,
      text: z
        .string()
        .min(1, 'empty')
        .optional()
        .describe(`inline result, at most ${limit('cache.inline')} bytes UTF-8`),
      blob: z.string().max(128).optional().describe('sha256 hash of a blob uploaded with PUT /v1/b'),
      ttl_h: z
        .number()
        .int()
        .min(1)
        .max(limit('cache.ttl_h.max'))
        .optional()
        .describe(`hours to keep it, default ${limit('cache.ttl_h.default')}`),
      to: z
        .string()
        .regex(/^a[0-9a-z]{6}$/, 'want an agent id (a + 6 chars)')
        .optional()
        .describe('hand the result to this identity only: everyone else gets 404'),
    })
    .strict(),
  output: z.object({
    ns: z.string(),
    key: z.string(),
    kind: z.enum(['inline', 'blob']),
    size: z.number(),
    exp: z.string(),
    to: z.string().nullable(),
    created: z.boolean(),
    public: z.boolean(),
  }),
  auth: 'token',
  readOnly: false,
  idempotent: true,
  quota: ['write', 'write_net'],
  scrub: ['text'],
  bodyField: 'text',
  freeze: 'cache',
  hazard: ['text'],
  rest: { method: 'PUT', path: '/v1/c/:key', textBody: 'text', sizeLimit: 'cache.inline', bodyLimit: 4 * limit('cache.inline') },
  run: (ctx, i) => putResult(ctx, i),
  text: (o, ctx) =>
    `ok c ${o.key} ns=${o.ns} kind=${o.kind} size=${o.size} exp=${o.exp}${o.to ? ` to=${o.to}` : ''} public=${o.public ? 1 : 0}\n${next(ctx, hint('cache.get', at(o.key, o.ns)))}`,
});

export const cacheGetOp = defineOp({
  name: 'cache.get',
  title: 'Read a cached result',
  summary: `A cached result by key: inline text, or (REST) 303 to /v1/b/<hash> for blob rows, which need a token. Anonymous reads: inline rows of L2+ producers, otherwise only from the first ${limit('cache.anon_nets')} reader networks. Untrusted data.`,
  input: z.object({ key, ns }).strict(),
  output: readOut,
  auth: 'anon',
  readOnly: true,
  quota: ['read'],
  rest: {
    method: 'GET',
    path: '/c/:key',
    // Blob rows live behind a token: 303 to the blob; inline rows are the untrusted text as stored.
    redirect: (r) => (r.kind === 'blob' ? r.location : null),
    raw: (r) => ({ body: r.text ?? '', type: 'text/plain; charset=utf-8' }),
    replyHeaders: { 'x-content-type-options': 'nosniff' },
  },
  headers: (r) => readHeaders(r),
  run: (ctx, i) => readResult(ctx, i.ns, i.key),
  // The text form is the result itself (verbatim), as GET /c/{key} serves it.
  text: (r, ctx) =>
    r.kind === 'inline' ? r.text! : `blob ${r.blob} size=${r.size} location=${r.location}\n${next(ctx, hint('blob.get', { hash: r.blob }, 'with your token'))}`,
});

export const cachePeekOp = defineOp({
  name: 'cache.peek',
  title: 'Check a cached result',
  summary: 'Whether a cached result exists and its hit count; counts nothing (REST: HEAD /c/{key}).',
  input: z.object({ key, ns }).strict(),
  output: readOut,
  auth: 'anon',
  readOnly: true,
  rest: { method: 'HEAD', path: '/c/:key', replyHeaders: { 'x-content-type-options': 'nosniff' } },
  headers: (r) => readHeaders(r),
  run: (ctx, i) => peekResult(ctx, i.ns, i.key),
  text: (r, ctx) =>
    `c ${r.key} ns=${r.ns} kind=${r.kind} size=${r.size} hits=${r.hits} by ${r.producer} lvl=L${r.lvl} exp=${r.exp}\n${next(ctx, hint('cache.get', at(r.key, r.ns)))}`,
});

export const cacheDeleteOp = defineOp({
  name: 'cache.delete',
  title: 'Delete a cached result',
  summary: 'Delete your own cached result of a key and namespace.',
  input: z.object({ key, ns }).strict(),
  output: z.object({ ok: z.literal(true), key: z.string(), ns: z.string() }),
  auth: 'token',
  readOnly: false,
  idempotent: true,
  destructive: true,
  rest: { method: 'DELETE', path: '/v1/c/:key' },
  async run(ctx, i) {
    await deleteResult(ctx, i.ns, i.key);
    return { ok: true as const, key: i.key, ns: i.ns };
  },
  text: (o, ctx) => `ok deleted c ${o.key} ns=${o.ns}\n${next(ctx, { op: 'cache.put', input: at(o.key, o.ns), query: ['ns'], say: 'to store it again' })}`,
});

export const cacheOps: AnyOperation[] = [cachePutOp, cacheGetOp, cachePeekOp, cacheDeleteOp];
