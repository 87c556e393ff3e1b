// Trust operations: the server statement key (/.well-known/cx-key), its did:web document, key
// rotation and the root certificate of the online key (operator), and identity keys.
import { z } from 'zod';
import { CxError } from '../../kernel/errors.js';
import { defineOp } from '../../kernel/types.js';
import { viaOp } from '../../kernel/via.js';
import type { AnyOperation } from '../../kernel/types.js';
import { acceptCert } from './cert.js';
import { didDocument, didWeb, type DidKey } from './did.js';
import { fromB64u, verifyStatement } from './sign.js';
import { hint, next } from '../../kernel/hints.js';

const DID_JSON = 'application/did+json';
const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'want 64 lowercase hex characters (a raw Ed25519 public key)');

const keyDoc = z.object({
  kid: z.number().int(),
  alg: z.string(),
  pub: z.string(),
  prev: z.array(z.object({ kid: z.number().int(), pub: z.string() })),
  domain: z.string(),
  types: z.array(z.string()),
});

export const serverKeyOp = defineOp({
  name: 'key.server',
  title: 'Server statement key',
  summary: 'The Ed25519 key the server signs statements with (kid, alg, pub hex, prev keys, domain, statement types); see /signing.',
  input: z.object({}).strict(),
  output: keyDoc,
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  via: { op: 'key.get', input: { of: 'server' } },
  rest: {
    method: 'GET',
    path: '/.well-known/cx-key',
    cache: 'public, max-age=300',
    rawOnly: true,
    raw: (o) => ({ body: JSON.stringify(o), type: 'application/json; charset=utf-8' }),
  },
  async run(ctx) {
    return ctx.core.keys.doc();
  },
  text: (o) =>
    [
      `key kid=${o.kid} alg=${o.alg} pub=${o.pub} domain=${o.domain}`,
      ...o.prev.map((p) => `prev kid=${p.kid} pub=${p.pub}`),
      `types: ${o.types.join(' ')}`,
      'next: GET /signing for how to verify',
    ].join('\n'),
});

const didOut = z.object({ id: z.string() }).passthrough();

export const serverDidOp = defineOp({
  name: 'key.did',
  title: 'Server did:web document',
  summary: 'did:web document of the server statement keys (current and previous; the offline root when configured), each as Multikey and as JWK.',
  input: z.object({}).strict(),
  output: didOut,
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  via: { op: 'key.get', input: { of: 'did' } },
  rest: {
    method: 'GET',
    path: '/.well-known/did.json',
    cache: 'public, max-age=300',
    rawOnly: true,
    raw: (o) => ({ body: JSON.stringify(o), type: DID_JSON }),
  },
  async run(ctx) {
    const { keys, config } = ctx.core;
    const doc = keys.doc();
    const current: DidKey[] = [{ name: `key-${doc.kid}`, pub: Buffer.from(doc.pub, 'hex') }];
    const older: DidKey[] = doc.prev.map((p) => ({ name: `key-${p.kid}`, pub: Buffer.from(p.pub, 'hex') }));
    if (config.rootPub) older.push({ name: 'root', pub: config.rootPub });
    return didDocument(didWeb(config.baseUrl), current, older) as z.infer<typeof didOut>;
  },
  text: (o) => `${JSON.stringify(o)}\nnext: GET /signing`,
});

export const rotateKeyOp = defineOp({
  name: 'admin.key_rotate',
  title: 'Rotate the server statement key',
  summary: 'Make a new statement key; the old one stays in prev so what it signed still verifies (admin token). Send a new root certificate after.',
  input: z.object({}).strict(),
  output: z.object({ kid: z.number().int(), pub: z.string(), prev: z.number().int() }),
  auth: 'admin',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/key/rotate', cache: 'no-store' },
  async run(ctx) {
    const kid = ctx.core.keys.rotate();
    // Replicas started later compare their ring with this print (src/core/platform/secrets/prints.ts).
    await ctx.core.store.keyPrints.set('signing', ctx.core.keys.print(), ctx.core.now());
    const doc = ctx.core.keys.doc();
    return { kid, pub: doc.pub, prev: doc.prev.length };
  },
  text: (o, ctx) =>
    `ok key kid=${o.kid} pub=${o.pub} prev=${o.prev}\n${next(ctx, hint('admin.online_key', undefined, `with a root certificate of kid ${o.kid}`))}`,
});

export const onlineKeyOp = defineOp({
  name: 'admin.online_key',
  title: 'Certify the online key',
  summary:
    'Keep a root-signed certificate (a key1 line, at most 256 characters) of the current statement key; published at /.well-known/cx-cert (admin token).',
  input: z
    .object({ cert: z.string().min(1).max(256).describe('key1 kid=0 sig=<base64url> seq=<n> exp=<YYYY-MM-DD> online=<kid>:<pub hex>; see /signing') })
    .strict(),
  output: z.object({ seq: z.number().int(), exp: z.string(), kid: z.number().int() }),
  auth: 'admin',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/online-key', textBody: 'cert', cache: 'no-store' },
  async run(ctx, input) {
    const { keys, config } = ctx.core;
    const c = acceptCert(input.cert, config.rootPub, { kid: keys.kid, pub: keys.pub, seq: keys.seq }, ctx.core.now());
    keys.keepCert(c.line, c.seq, c.kid);
    return { seq: c.seq, exp: c.exp, kid: c.kid };
  },
  text: (o, ctx) => `ok seq=${o.seq} exp=${o.exp}\n${next(ctx, hint('key.cert'), ' serves the certificate')}`,
});

export const onlineCertOp = defineOp({
  name: 'key.cert',
  title: 'Root certificate of the online key',
  summary: 'The key1 line by which the offline root key certifies the current statement key; 404 when the operator sent none.',
  input: z.object({}).strict(),
  output: z.object({ cert: z.string() }),
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  via: { op: 'key.get', input: { of: 'cert' } },
  rest: {
    method: 'GET',
    path: '/.well-known/cx-cert',
    cache: 'public, max-age=300',
    rawOnly: true,
    raw: (o) => ({ body: o.cert + '\n', type: 'text/plain; charset=utf-8' }),
  },
  async run(ctx) {
    const cert = ctx.core.keys.cert;
    if (!cert) throw new CxError('notfound', 'no root certificate for the current key');
    return { cert };
  },
  text: (o) => o.cert,
});

export const publishKeyOp = defineOp({
  name: 'key.publish',
  title: 'Publish your signing key',
  summary:
    'Publish an Ed25519 public key for your identity (served as /a/{id}/did.json). Prove possession: sig signs the idkey1 statement "<domain> <your id> <pub>" (see /signing).',
  input: z
    .object({
      pub: hex64.describe('raw Ed25519 public key, 64 hex'),
      sig: z
        .string()
        .regex(/^[A-Za-z0-9_-]{86}$/, 'want 86 base64url characters (an Ed25519 signature)')
        .describe('base64url Ed25519 signature of the idkey1 statement "<domain> <id> <pub>"'),
    })
    .strict(),
  output: z.object({ id: z.string(), pub: z.string(), did: z.string(), doc: z.string() }),
  auth: 'token',
  readOnly: false,
  idempotent: true,
  quota: ['write'],
  freeze: 'write',
  rest: { method: 'PUT', path: '/v1/key', cache: 'no-store' },
  async run(ctx, input) {
    const { core } = ctx;
    const id = ctx.caller.identity!.id;
    const payload = `${core.keys.domain} ${id} ${input.pub}`;
    if (!verifyStatement(Buffer.from(input.pub, 'hex'), 'idkey1', payload, fromB64u(input.sig)!))
      throw new CxError('bad', `sig: does not verify as idkey1 "${payload}" under pub`);
    await core.store.identityKeys.put({ id, pub: input.pub, at: core.now() });
    return { id, pub: input.pub, did: didWeb(core.config.baseUrl, 'a', id), doc: `${core.config.baseUrl}/a/${id}/did.json` };
  },
  text: (o) => `ok key ${o.id} pub=${o.pub} did=${o.did}\nnext: GET ${o.doc}`,
});

export const identityDidOp = defineOp({
  name: 'key.agent_did',
  title: 'Identity did:web document',
  summary: 'did:web document of the key an identity published with PUT /v1/key; 404 err notfound no key published before.',
  input: z
    .object({
      id: z
        .string()
        .max(7)
        .regex(/^a[0-9a-z]{1,6}$/, 'want an identity id'),
    })
    .strict(),
  output: didOut,
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  via: { op: 'key.get', input: { of: 'agent_did' } },
  rest: { method: 'GET', path: '/a/:id/did.json', cache: 'public, max-age=60', rawOnly: true, raw: (o) => ({ body: JSON.stringify(o), type: DID_JSON }) },
  async run(ctx, input) {
    const k = await ctx.core.store.identityKeys.get(input.id);
    if (!k) throw new CxError('notfound', 'no key published');
    return didDocument(didWeb(ctx.core.config.baseUrl, 'a', input.id), [{ name: 'key-1', pub: Buffer.from(k.pub, 'hex') }]) as z.infer<typeof didOut>;
  },
  text: (o) => `${JSON.stringify(o)}\nnext: GET /signing`,
});

/** The key documents as one agent-facing operation (src/core/kernel/via.ts): one MCP tool, not four. */
export const keyGetOp = viaOp({
  name: 'key.get',
  title: 'Key documents',
  summary:
    "A key document: the server statement key (of=server), the root's certificate of it (of=cert), the server's did:web document (of=did) or an identity's (of=agent_did, id). REST: /.well-known/cx-key, /.well-known/cx-cert, /.well-known/did.json, /a/{id}/did.json; see /signing.",
  auth: 'anon',
  key: 'of',
  ops: [serverKeyOp, onlineCertOp, serverDidOp, identityDidOp],
  fields: { id: z.string().optional() },
});

export const trustOps: AnyOperation[] = [serverKeyOp, serverDidOp, onlineCertOp, rotateKeyOp, onlineKeyOp, publishKeyOp, identityDidOp, keyGetOp];
