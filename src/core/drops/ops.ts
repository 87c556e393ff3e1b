// Dead-drop operations, defined once for every face. Their REST bindings declare what the generic
// adapter does (raw text bodies, 201 vs 200, X-Drop-* headers, HEAD, allowed query fields).
import { z } from 'zod';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { AnyOperation } from '../kernel/types.js';
import { deleteDrop, peekDrop, putDrop, readDrop } from './drops.js';
import { hint, next } from '../kernel/hints.js';

const secret = z
  .string()
  .min(limit('drop.secret.min'))
  .max(limit('drop.secret.max'))
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
  .describe(`the secret path segment: ${limit('drop.secret.min')}-${limit('drop.secret.max')} chars of A-Za-z0-9_-; whoever holds it can read`);

const writeKey = z
  .string()
  .min(limit('drop.write_key.min'))
  .max(limit('drop.write_key.max'))
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII, no spaces')
  .describe('write key (REST: X-Drop-Write); required for an anonymous create, binds later PUT and DELETE');

const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

const bodyLimit = limit('drop.body');
const putIn = z
  .object({
    secret,
    body: z.string().min(1, 'empty').refine(wellFormed, 'not valid UTF-8').describe(`text, at most ${bodyLimit} characters`),
    ttl: z
      .number()
      .int()
      .min(limit('drop.ttl.min'))
      .max(limit('drop.ttl.max'))
      .optional()
      .describe(
        `hours to live; default ${limit('drop.ttl.token_default')} with a token (max ${limit('drop.ttl.max')}), ${limit('drop.ttl.anon_default')} anonymous (max ${limit('drop.ttl.anon_max')})`,
      ),
    reads: z
      .number()
      .int()
      .min(limit('drop.reads.min'))
      .max(limit('drop.reads.max'))
      .optional()
      .describe(`reads before it burns; default ${limit('drop.reads.token_default')} with a token, ${limit('drop.reads.anon_default')} anonymous`),
    once: z.boolean().optional().describe('burn on the first read'),
    append: z.boolean().optional().describe('append to the existing body (creator only)'),
    write_key: writeKey.optional(),
    pow: z.string().min(1).max(200).optional().describe('anonymous create: <challenge>:<nonce> from id.challenge for=w (REST: X-PoW)'),
  })
  .strict();

const putOut = z.object({
  path: z.string(),
  created: z.boolean(),
  exp: z.string(),
  once: z.boolean(),
  reads: z.number().int(),
  size: z.number().int(),
  masked: z.number().int(),
});

export const dropPutOp = defineOp({
  name: 'drop.put',
  title: 'Put a dead drop',
  summary:
    'Create a dead drop at a secret path (text, encrypted at rest, burnt after its reads or at expiry), or overwrite or append to it as its creator. Anonymous create needs a for=w PoW proof and a write key.',
  input: putIn,
  output: putOut,
  auth: 'anon',
  readOnly: false,
  idempotent: false,
  destructive: true,
  quota: ['write', 'write_net'],
  scrub: ['body'],
  bodyField: 'body',
  freeze: 'drops',
  hazard: ['body'],
  rest: {
    method: 'PUT',
    path: '/d/:secret',
    status: 201,
    textBody: 'body',
    // A character can take 4 bytes of UTF-8: the character limit is checked after decoding.
    bodyLimit: 4 * bodyLimit,
    sizeLimit: 'drop.body',
    headerInputs: { 'x-drop-write': 'write_key', 'x-pow': 'pow' },
    query: ['ttl', 'reads', 'once', 'append'],
    rawBody: 'utf8',
    statusOf: (r) => (r.created ? 201 : 200),
    cache: 'no-store',
  },
  run: (ctx, input) => putDrop(ctx, input),
  text: (r) => `ok ${r.path} exp=${r.exp} once=${r.once ? 1 : 0} reads=${r.reads} size=${r.size} masked=${r.masked}\nnext: GET, DELETE`,
});

const readOut = z.object({ body: z.string(), exp: z.string(), reads_left: z.number().int(), once: z.boolean(), burnt: z.boolean() });

export const dropGetOp = defineOp({
  name: 'drop.get',
  title: 'Read a dead drop',
  summary: 'Read a dead drop: uses one read; the last read (or the first, with once) burns it. Unknown, expired, burnt: err notfound.',
  input: z.object({ secret }).strict(),
  output: readOut,
  auth: 'anon',
  readOnly: false,
  idempotent: false,
  destructive: true,
  rest: {
    method: 'GET',
    path: '/d/:secret',
    cache: 'no-store',
    query: [],
    // Untrusted text from another agent, as sent: never let a browser sniff it into something else.
    raw: (r) => ({ body: r.body, type: 'text/plain; charset=utf-8' }),
    replyHeaders: { 'x-content-type-options': 'nosniff' },
  },
  run: (ctx, input) => readDrop(ctx, input.secret),
  headers: (r) => ({
    'X-Drop-Exp': r.exp,
    'X-Drop-Reads': String(r.reads_left),
    'X-Next': r.burnt ? 'burnt: that was the last read' : `reads left ${r.reads_left}; HEAD checks without a read; DELETE burns it (creator)`,
  }),
  // The body is untrusted text from another agent; faces return it verbatim.
  text: (r) => r.body,
});

const peekOut = z.object({ exp: z.string(), reads_left: z.number().int(), once: z.boolean(), size: z.number().int() });

export const dropPeekOp = defineOp({
  name: 'drop.peek',
  title: 'Check a dead drop',
  summary: 'Whether a dead drop exists, with its expiry and reads left; consumes no read (REST: HEAD).',
  input: z.object({ secret }).strict(),
  output: peekOut,
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  rest: { method: 'HEAD', path: '/d/:secret', cache: 'no-store', query: [] },
  run: (ctx, input) => peekDrop(ctx, input.secret),
  headers: (r) => ({ 'X-Drop-Exp': r.exp, 'X-Drop-Reads': String(r.reads_left) }),
  text: (r, ctx) => `drop exp=${r.exp} reads=${r.reads_left} once=${r.once ? 1 : 0} size=${r.size}\n${next(ctx, 'GET reads it (one read), DELETE burns it')}`,
});

export const dropDeleteOp = defineOp({
  name: 'drop.delete',
  title: 'Burn a dead drop',
  summary: "Delete a dead drop now. Creator only: the creating token's identity or the write key bound at creation.",
  input: z.object({ secret, write_key: writeKey.optional() }).strict(),
  output: z.object({ ok: z.literal(true) }),
  auth: 'anon',
  readOnly: false,
  idempotent: true,
  destructive: true,
  rest: { method: 'DELETE', path: '/d/:secret', headerInputs: { 'x-drop-write': 'write_key' }, cache: 'no-store', query: [] },
  async run(ctx, input) {
    await deleteDrop(ctx, input.secret, input.write_key);
    return { ok: true as const };
  },
  text: (_o, ctx) => `ok\n${next(ctx, 'the secret is gone; ', hint('drop.put', { secret: '<new secret>' }, 'to share again'))}`,
});

export const dropOps: AnyOperation[] = [dropPutOp, dropGetOp, dropPeekOp, dropDeleteOp];
